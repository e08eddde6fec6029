package main

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/sdk"
)

type parseArgs struct {
	Script sdk.ResPath `json:"script,omitempty" jsonschema:"res:// path of one .gd script to check; default: every .gd file of the project"`
}

type parseResult struct {
	Checked        int                    `json:"checked" jsonschema:"number of scripts checked"`
	FilesWithError int                    `json:"files_with_errors"`
	Errors         []godotrun.ScriptError `json:"errors"`
	Warnings       []godotrun.ScriptError `json:"warnings"`
	Godot          string                 `json:"godot" jsonschema:"version of the Godot binary that checked"`
	RescanPending  bool                   `json:"rescan_pending,omitempty" jsonschema:"the attached editor was still scanning the project's files; retry if a script you just wrote is missing"`
	Summary        string                 `json:"summary"`
}

// scanWait bounds the wait for an attached editor's file scan, and
// scanPoll is how often it is asked.
var (
	scanWait = 2 * time.Second
	scanPoll = 50 * time.Millisecond
)

func getParseErrors(ctx context.Context, call *sdk.Call, in parseArgs) (sdk.Result, error) {
	return parseErrors(ctx, call, nil, in)
}

// getParseErrorsEditor is get_parse_errors with an editor attached. It
// stays the file-based check of headless, a justified exception to an
// editor path of addon commands: Godot's --check-only reads the files, and
// all the editor adds is the wait for its file scan (cmd_get_scan_state, a
// query), so that a script a tool just wrote is seen.
func getParseErrorsEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in parseArgs) (sdk.Result, error) {
	return parseErrors(ctx, call, ed, in)
}

// parseErrors checks the scripts; ed is nil headless.
func parseErrors(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in parseArgs) (sdk.Result, error) {
	t, err := godotrun.Prepare(ctx, call, finder)
	if err != nil {
		return sdk.Result{}, err
	}
	var scripts []string
	if in.Script != "" {
		abs, err := t.Project.Resolve(string(in.Script))
		if err != nil {
			return sdk.Result{}, err
		}
		if filepath.Ext(abs) != ".gd" {
			return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass a res:// path of a .gd file, or nothing to check every script",
				"%q is not a GDScript file", in.Script)
		}
		scripts = []string{t.Project.ResPath(abs)}
	} else if scripts, err = godotrun.ListScripts(t.Project); err != nil {
		return sdk.Result{}, err
	}
	pending := false
	if ed != nil {
		pending = godotrun.EditorScanning(ctx, godotrun.EditorQueries{Ed: ed}, scanWait, scanPoll)
	}
	checked, err := godotrun.CheckScripts(ctx, t, scripts, func(done, total int, script string) {
		if total > 1 {
			call.Progress(float64(done), float64(total), "checked "+script)
		}
	})
	if err != nil {
		return sdk.Result{}, err
	}
	found := &parseResult{Errors: checked.Errors, Warnings: checked.Warnings, Checked: len(scripts), Godot: t.Bin.Version,
		RescanPending: pending}
	files := map[string]bool{}
	for _, e := range found.Errors {
		files[e.File] = true
	}
	found.FilesWithError = len(files)
	found.Summary = fmt.Sprintf("checked %d script(s) with Godot %s: %d error(s) in %d file(s)",
		found.Checked, t.Bin.Version, len(found.Errors), len(files))
	return sdk.JSON(found), nil
}
