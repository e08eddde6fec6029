package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/internal/webgodot/loadcheck"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// check_project is `godot-mcp check --engine` as a tool: the real Godot
// 4.6 engine loads every scene, resource, script and project.godot of the
// project, and what it refuses or drops silently comes back as res://
// file:line, a page at a time. It reads the saved files, so with an
// editor attached it checks what is saved.

type checkArgs struct {
	Path            sdk.ResPath `json:"path,omitempty" jsonschema:"report only problems in this res:// file or folder (the whole project is loaded either way)" default:"res://"`
	IncludeWarnings bool        `json:"include_warnings,omitempty" jsonschema:"also list the engine's warnings (errors only by default)"`
	Offset          int         `json:"offset,omitempty" jsonschema:"skip this many problems (next_offset of the previous page)" minimum:"0"`
	Limit           int         `json:"limit,omitempty" jsonschema:"maximum number of problems in this page; without it at most 100, cut near 20 KB" minimum:"1" maximum:"5000"`
	TimeoutSeconds  int         `json:"timeout_seconds,omitempty" default:"180" minimum:"10" maximum:"600" jsonschema:"deadline for the engine run, its start included"`
}

type checkProblem struct {
	File    string `json:"file" jsonschema:"res:// path"`
	Line    int    `json:"line,omitempty"`
	Kind    string `json:"kind" jsonschema:"engine_error, engine_warning, load_failed, dropped_node, unknown_property, ignored_value, unknown_type, bad_connection or missing_dependency"`
	Message string `json:"message"`
}

type checkResult struct {
	Engine       string         `json:"engine" jsonschema:"the engine that loaded the files"`
	FilesChecked int            `json:"files_checked" jsonschema:"files under path that the engine loaded"`
	Errors       int            `json:"errors" jsonschema:"errors under path (all pages)"`
	Warnings     int            `json:"warnings" jsonschema:"engine warnings under path (all pages)"`
	Problems     []checkProblem `json:"problems"`
	sdk.Page
	Notes []string `json:"notes,omitempty" jsonschema:"what the check could not verify, such as imported assets replaced by placeholders"`
	// Skipped are editor-only files under path, not errors.
	Skipped []checkSkip `json:"skipped,omitempty" jsonschema:"editor-only files under path (editor plugins and what they need): not checked, since the runtime has no editor classes; not errors"`
}

type checkSkip struct {
	File   string `json:"file" jsonschema:"res:// path"`
	Reason string `json:"reason" jsonschema:"why it is editor-only, e.g. extends EditorPlugin"`
}

func (r *checkResult) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "engine check (Godot %s): %d files, %d errors, %d warnings\n", r.Engine, r.FilesChecked, r.Errors, r.Warnings)
	for _, p := range r.Problems {
		loc := p.File
		if p.Line > 0 {
			loc = fmt.Sprintf("%s:%d", p.File, p.Line)
		}
		fmt.Fprintf(&b, "%s: %s: %s\n", loc, p.Kind, p.Message)
	}
	if r.Hint != "" {
		b.WriteString(r.Hint + "\n")
	}
	for _, n := range r.Notes {
		b.WriteString("note: " + n + "\n")
	}
	for _, sk := range r.Skipped {
		fmt.Fprintf(&b, "skipped: %s: editor-only (%s)\n", sk.File, sk.Reason)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func checkProject(ctx context.Context, call *sdk.Call, in checkArgs) (sdk.Result, error) {
	t, err := chooseEngine(ctx, call, true)
	if err != nil {
		return sdk.Result{}, err
	}
	if t.web == nil {
		e := sdk.Errorf(sdk.CodePreconditionFailed, "set up the web runtime: "+webgodot.SetupHint+"; a Godot 3 project has no engine check (use godot_runtime_run_and_capture)",
			"the engine check runs in the embedded Godot 4.6 web runtime (Godot 4 projects), and it is not available for this project")
		e.Required = "godot_web_runtime"
		return sdk.Result{}, e
	}
	files, err := loadcheck.ReadProject(t.project.Root())
	if err != nil {
		return sdk.Result{}, err
	}
	r, err := web.Get(*t.web)
	if err != nil {
		return sdk.Result{}, err
	}
	call.Progress(0, 1, fmt.Sprintf("loading %d files in Godot %s", len(files), webgodot.RuntimeEngine))
	rep, err := loadcheck.Check(ctx, r, files, loadcheck.Options{Timeout: time.Duration(cmp(in.TimeoutSeconds, 180)) * time.Second})
	if err != nil {
		return sdk.Result{}, err
	}
	scope := strings.TrimSuffix(strings.TrimPrefix(string(in.Path), "res://"), "/")
	under := func(rel string) bool {
		return scope == "" || rel == scope || strings.HasPrefix(rel, scope+"/")
	}
	out := checkResult{Engine: rep.Engine, Notes: rep.Notes}
	for _, f := range rep.Files {
		if under(f.File) {
			out.FilesChecked++
		}
	}
	for _, sk := range rep.Skipped {
		if under(sk.File) {
			out.Skipped = append(out.Skipped, checkSkip{File: "res://" + sk.File, Reason: sk.Reason})
		}
	}
	var list []checkProblem
	for _, p := range rep.Problems {
		if !under(p.File) {
			continue
		}
		if p.IsWarning() {
			out.Warnings++
			if !in.IncludeWarnings {
				continue
			}
		} else {
			out.Errors++
		}
		list = append(list, checkProblem{File: "res://" + p.File, Line: p.Line, Kind: p.Kind, Message: p.Message})
	}
	out.Problems, out.Page = sdk.Paginate(list, in.Offset, in.Limit, 100)
	return sdk.Result{Content: []sdk.Content{sdk.TextContent{Text: out.String()}}, Structured: &out}, nil
}
