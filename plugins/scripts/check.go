package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/internal/warmengine"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
	"github.com/godot-mcp/godot-mcp/sdk/godot/gdscript"
)

// The checkers a result names.
const (
	// engineChecker is Godot's own compiler: a native Godot 4 binary
	// (godot --check-only) or the web runtime's engine.
	engineChecker = "godot"
	// builtinChecker is the built-in GDScript 2 checker (the name is
	// older than its name checks).
	builtinChecker = "builtin-gdscript-syntax"
	// noChecker names, in results, that a C# script was not checked.
	noChecker = "none"
)

// builtinDetail says what the built-in checker checks.
const builtinDetail = "built-in GDScript 2 checker: syntax errors with line and column, and the names it is certain of " +
	"(calls of functions the script's engine base class does not have, identifiers declared nowhere); " +
	"it does not check types or argument counts, so Godot may still reject a script it accepts"

// writeCheckWait bounds how long write and patch wait for the engine's
// verdict; past it they answer with the built-in checker's and the engine
// goes on starting for the next call.
var writeCheckWait = 15 * time.Second

// parseCheckWait bounds get_parse_errors' wait for the engine (its start
// included).
var parseCheckWait = 3 * time.Minute

// projectRoot returns the call's project directory and its Godot major
// version (0 unknown); an error when the call has no project.
func projectRoot(call *sdk.Call) (string, int, error) {
	p, err := call.Project()
	if err != nil {
		return "", 0, err
	}
	major := 0
	if s, err := godotrun.ReadProject(p.Root()); err == nil {
		major = s.Major
	}
	return p.Root(), major, nil
}

// webCheck compiles texts with the warm web runtime of the call's project,
// waiting at most wait (0: as long as ctx allows). why is set when the
// engine did not check them: what to say in the result instead.
func webCheck(ctx context.Context, call *sdk.Call, targets []engineTarget, wait time.Duration) (v []engineVerdict, why string, err error) {
	root, major, err := projectRoot(call)
	if err != nil {
		return nil, "No project directory to compile in.", nil
	}
	if major == 3 {
		return nil, "The project is a Godot 3 project, which the web runtime (Godot 4) cannot compile: set GODOT_MCP_GODOT_BIN to a Godot 3 binary for the engine's compiler.", nil
	}
	v, err = theWeb.compileBounded(ctx, root, targets, wait)
	var un warmengine.Unavailable
	var serr *sdk.Error
	switch {
	case err == nil:
		return v, "", nil
	case errors.As(err, &un):
		return nil, "No engine can run here (no Godot 4 binary: set GODOT_MCP_GODOT_BIN; web runtime: " + un.Error() + ").", nil
	case errors.Is(err, errEngineBusy):
		return nil, fmt.Sprintf("The engine did not answer within %s (it is starting; the next check uses it warm).", wait), nil
	case errors.As(err, &serr) && serr.Code == sdk.CodeCancelled:
		return nil, "", err
	default:
		return nil, "The web runtime could not compile the script: " + err.Error() + ".", nil
	}
}

// firstIn returns the first error of list in file, as a gdscript.Error.
func firstIn(list []scriptError, file string) *gdscript.Error {
	for _, e := range list {
		if e.File == file {
			return &gdscript.Error{Line: e.Line, Column: e.Column, Message: e.Message, Hint: e.Hint}
		}
	}
	if len(list) > 0 {
		e := list[0]
		return &gdscript.Error{Line: e.Line, Column: e.Column, Message: e.File + ": " + e.Message, Hint: e.Hint}
	}
	return nil
}

// newErrors returns the errors of now whose message was not among before's
// (lines move when text is inserted above; the message stays).
func newErrors(now, before []scriptError) []scriptError {
	count := map[string]int{}
	for _, e := range before {
		count[e.File+"\x00"+e.Message]++
	}
	var out []scriptError
	for _, e := range now {
		k := e.File + "\x00" + e.Message
		if count[k] > 0 {
			count[k]--
			continue
		}
		out = append(out, e)
	}
	return out
}

// builtin is the built-in checker's verdict on one script: its first
// syntax error, or else the names Godot would reject for certain.
func builtin(p, text string, globals []string) []scriptError {
	if e := gdscript.Check(text); e != nil {
		return []scriptError{{File: p, Line: e.Line, Column: e.Column, Message: e.Message, Kind: "PARSE ERROR", Hint: e.Hint}}
	}
	db, err := classdb.Embedded()
	if err != nil {
		return nil
	}
	var out []scriptError
	for _, e := range gdscript.CheckNames(text, gdscript.Names{DB: db, Globals: globals}) {
		out = append(out, scriptError{File: p, Line: e.Line, Column: e.Column, Message: e.Message, Kind: "NAME ERROR"})
	}
	return out
}

// projectGlobals are the names every script of the call's project may
// use: its class_names and autoloads (none without a project).
func projectGlobals(call *sdk.Call) []string {
	root, _, err := projectRoot(call)
	if err != nil {
		return nil
	}
	var out []string
	if proj, err := os.ReadFile(filepath.Join(root, "project.godot")); err == nil {
		for _, a := range autoloads(proj) {
			out = append(out, a.Name)
		}
	}
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".gd") {
			return nil
		}
		if b, err := os.ReadFile(p); err == nil {
			if c, ok := webgodot.ScriptClass("", b); ok {
				out = append(out, c.Name)
			}
		}
		return nil
	})
	return out
}

// native is a native Godot 4 binary ready to check a script being written,
// with the errors of the file as it was before the write.
type native struct {
	t      *godotrun.Target
	before []scriptError
}

// nativeCheck runs godot --check-only on the script as it is on disk,
// within writeCheckWait; false when it could not.
func nativeCheck(ctx context.Context, t *godotrun.Target, p, text string) ([]scriptError, bool) {
	ctx, cancel := context.WithTimeout(ctx, writeCheckWait)
	defer cancel()
	res, err := godotrun.CheckScripts(ctx, t, []string{p}, nil)
	if err != nil {
		return nil, false
	}
	out := []scriptError{}
	for _, e := range res.Errors {
		if e.Kind == "TIMEOUT" {
			return nil, false
		}
		col := 0
		if e.File == p {
			col = column(text, e.Line, e.Message)
		}
		out = append(out, scriptError{File: e.File, Line: e.Line, Column: col, Message: e.Message, Kind: e.Kind, Hint: e.Hint})
	}
	return out, true
}

// nativeBefore finds a native Godot 4 binary for a write or patch of p and
// checks the file as it is now (old, nil when it does not exist yet): the
// verdict the new text is compared with. nil without a binary, or when the
// check could not run.
func nativeBefore(ctx context.Context, call *sdk.Call, p string, old *string) *native {
	if !strings.EqualFold(filepath.Ext(p), ".gd") {
		return nil
	}
	t, err := godotrun.Prepare(ctx, call, finder)
	if err != nil || t.Bin.Major < 4 {
		return nil
	}
	n := &native{t: t, before: []scriptError{}}
	if old != nil {
		b, ok := nativeCheck(ctx, t, p, *old)
		if !ok {
			return nil
		}
		n.before = b
	}
	return n
}
