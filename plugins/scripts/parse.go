package main

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/gdscript"
)

type parseArgs struct {
	ScriptPath sdk.ResPath `json:"script_path,omitempty" jsonschema:"res:// path of one .gd script; default every .gd file of the project" godot:"ext=.gd"`
}

// scriptError is one parse error, in the shape of the runtime toolset's.
type scriptError struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Message string `json:"message"`
	Kind    string `json:"kind,omitempty"`
	// Hint is the Godot 4 spelling when the error is Godot 3 syntax.
	Hint string `json:"hint,omitempty"`
}

// unverifiedScript is a script the engine could not judge, and why.
type unverifiedScript struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// godot3Warning is Godot 3 syntax the built-in checker found in a file.
type godot3Warning struct {
	File string `json:"file"`
	gdscript.Warning
}

type parseResult struct {
	// Checker is "godot" (the engine's compiler: syntax, names and types)
	// or builtinChecker (syntax, and the names it is certain of).
	Checker        string        `json:"checker"`
	CheckerDetail  string        `json:"checker_detail"`
	Checked        int           `json:"checked"`
	FilesWithError int           `json:"files_with_errors"`
	Errors         []scriptError `json:"errors"`
	// Warnings are the compiler's warnings (a native Godot 4 binary; the
	// web runtime is a release build, which compiles none).
	Warnings []scriptError `json:"warnings,omitempty"`
	// Fallback says why the engine's compiler did not check the scripts.
	Fallback string `json:"fallback,omitempty"`
	// Unverified are scripts the engine could not judge (they use editor
	// classes, which the web runtime lacks); the built-in checker's
	// verdict on them is in errors.
	Unverified []unverifiedScript `json:"unverified,omitempty"`
	// Godot3 lists Godot 3 syntax with its Godot 4 spelling, also where
	// it parses (yield(...)); built-in checker only.
	Godot3        []godot3Warning `json:"godot3_syntax,omitempty"`
	RescanPending bool            `json:"rescan_pending,omitempty"`
}

// scanWait bounds the wait for an attached editor's file scan.
var (
	scanWait = 2 * time.Second
	scanPoll = 50 * time.Millisecond
)

func getParseErrors(ctx context.Context, call *sdk.Call, in parseArgs) (sdk.Result, error) {
	return parseErrors(ctx, call, nil, in)
}

// getParseErrorsEditor waits for the editor's file scan (files a tool just
// wrote are invisible to it until then); the check itself is the headless
// one, on the files on disk. Those are what the editor would give too: the
// addon's cmd_read_script answers the file's text
// (FileAccess.get_file_as_string), never the script editor's unsaved
// buffer, so reading each script through it only cost a round trip.
func getParseErrorsEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in parseArgs) (sdk.Result, error) {
	return parseErrors(ctx, call, ed, in)
}

// parseErrors checks the scripts; ed is nil headless.
func parseErrors(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in parseArgs) (sdk.Result, error) {
	res := parseResult{Errors: []scriptError{}}
	if ed != nil {
		res.RescanPending = godotrun.EditorScanning(ctx, godotrun.EditorQueries{Ed: ed}, scanWait, scanPoll)
	}
	// A Godot 4 binary compiles for real; without one (or with only a Godot
	// 3 binary) the built-in checker reports syntax errors.
	if t, err := godotrun.Prepare(ctx, call, finder); err == nil && t.Bin.Major >= 4 {
		scripts := []string{string(in.ScriptPath)}
		if in.ScriptPath == "" {
			if scripts, err = godotrun.ListScripts(t.Project); err != nil {
				return sdk.Result{}, err
			}
		}
		checked, err := godotrun.CheckScripts(ctx, t, scripts, func(done, total int, script string) {
			call.Progress(float64(done), float64(total), script)
		})
		if err != nil {
			return sdk.Result{}, err
		}
		res.Checker, res.CheckerDetail, res.Checked = engineChecker, "godot --check-only "+t.Bin.Version, len(scripts)
		files := map[string]bool{}
		for _, e := range checked.Errors {
			files[e.File] = true
			res.Errors = append(res.Errors, scriptError{File: e.File, Line: e.Line, Message: e.Message, Kind: e.Kind, Hint: e.Hint})
		}
		for _, e := range checked.Warnings {
			res.Warnings = append(res.Warnings, scriptError{File: e.File, Line: e.Line, Message: e.Message, Kind: e.Kind})
		}
		res.FilesWithError = len(files)
		return sdk.JSON(res), nil
	} else if err != nil {
		var e *sdk.Error
		if errors.As(err, &e) && e.Required == "project_dir" {
			return sdk.Result{}, err
		}
	}
	scripts := []string{string(in.ScriptPath)}
	if in.ScriptPath == "" {
		all := listArgs{Directory: "res://", Language: "gd"}
		var out sdk.Result
		var err error
		if ed != nil {
			out, err = listEditor(ctx, call, ed, all)
		} else {
			out, err = list(ctx, call, all)
		}
		if err != nil {
			return sdk.Result{}, err
		}
		scripts = scripts[:0]
		switch l := out.Structured.(map[string]any)["scripts"].(type) {
		case []string:
			scripts = l
		case []any: // the editor's answer
			for _, v := range l {
				if s, ok := v.(string); ok && strings.EqualFold(path.Ext(s), ".gd") {
					scripts = append(scripts, s)
				}
			}
		}
	}
	texts := make([]string, len(scripts))
	targets := make([]engineTarget, len(scripts))
	for i, s := range scripts {
		text, err := readText(ctx, call, s)
		if err != nil {
			return sdk.Result{}, err
		}
		texts[i], targets[i] = text, engineTarget{Path: s, Code: text}
	}
	// Else the web runtime's engine, kept warm.
	v, why, err := webCheck(ctx, call, targets, parseCheckWait)
	if err != nil {
		return sdk.Result{}, err
	}
	if why == "" && len(v) == len(targets) {
		res.Checker, res.Checked = engineChecker, len(scripts)
		res.CheckerDetail = webName() + ": the compiler, each script in the project's context (its class_names, preloads and autoloads)"
		files, seen := map[string]bool{}, map[string]bool{}
		for i, r := range v {
			for _, w := range gdscript.Godot3(texts[i]) {
				res.Godot3 = append(res.Godot3, godot3Warning{File: scripts[i], Warning: w})
			}
			if r.Unverified != "" {
				res.Unverified = append(res.Unverified, unverifiedScript{File: scripts[i], Reason: r.Unverified})
				if e := gdscript.Check(texts[i]); e != nil {
					files[scripts[i]] = true
					res.Errors = append(res.Errors, scriptError{File: scripts[i], Line: e.Line, Column: e.Column, Message: e.Message, Kind: "PARSE ERROR", Hint: e.Hint})
				}
				continue
			}
			for _, e := range r.Errors {
				// A broken dependency's errors are logged when the first
				// script that loads it compiles.
				if k := fmt.Sprintf("%s:%d:%s", e.File, e.Line, e.Message); !seen[k] {
					seen[k] = true
					files[e.File] = true
					res.Errors = append(res.Errors, e)
				}
			}
		}
		res.FilesWithError = len(files)
		return sdk.JSON(res), nil
	}
	res.Checker, res.Fallback = builtinChecker, why
	res.CheckerDetail = builtinDetail
	globals := projectGlobals(call)
	for i, s := range scripts {
		text := texts[i]
		if errs := builtin(s, text, globals); len(errs) > 0 {
			res.FilesWithError++
			res.Errors = append(res.Errors, errs...)
		}
		for _, w := range gdscript.Godot3(text) {
			res.Godot3 = append(res.Godot3, godot3Warning{File: s, Warning: w})
		}
		call.Progress(float64(i+1), float64(len(scripts)), s)
	}
	res.Checked = len(scripts)
	return sdk.JSON(res), nil
}

// readText reads a script's file, in both modes (see
// getParseErrorsEditor).
func readText(ctx context.Context, call *sdk.Call, p string) (string, error) {
	f, err := call.Workspace().Read(ctx, p)
	if err != nil {
		return "", err
	}
	if !strings.EqualFold(path.Ext(p), ".gd") {
		return "", fmt.Errorf("%s is not a .gd script", p)
	}
	return string(f.Data), nil
}
