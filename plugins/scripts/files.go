package main

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/gdscript"
)

type listArgs struct {
	Directory string `json:"directory,omitempty" jsonschema:"res:// directory to list under (default res://)"`
	Language  string `json:"language,omitempty" jsonschema:"gd (default) or cs"`
}

type pathArgs struct {
	ScriptPath string `json:"script_path" jsonschema:"res:// path of a .gd or .cs script"`
}

type writeArgs struct {
	ScriptPath string `json:"script_path" jsonschema:"res:// path of the .gd or .cs script to create or overwrite"`
	Content    string `json:"content" jsonschema:"the script's whole new text"`
}

type patchArgs struct {
	ScriptPath string `json:"script_path" jsonschema:"res:// path of a .gd script"`
	Find       string `json:"find" jsonschema:"text to replace; every occurrence is replaced, and it must occur at least once"`
	Replace    string `json:"replace" jsonschema:"replacement text (may be empty)"`
}

func invalid(hint, format string, a ...any) *sdk.Error {
	return sdk.Errorf(sdk.CodeInvalidArgument, hint, format, a...)
}

// checkPath validates a res:// script path with one of exts.
func checkPath(p string, exts ...string) error {
	if !strings.HasPrefix(p, "res://") || strings.Contains(p, "..") || strings.Contains(p, "\\") {
		return invalid("pass a res:// path inside the project, e.g. res://player/player.gd", "script_path %q is not a res:// path inside the project", p)
	}
	ext := strings.ToLower(path.Ext(p))
	for _, e := range exts {
		if ext == e {
			return nil
		}
	}
	return invalid("pass a path ending in "+strings.Join(exts, " or "), "script_path %q is not a %s script", p, strings.Join(exts, " or "))
}

// forward sends an addon command with exactly the contract's params.
func forward(ctx context.Context, call *sdk.Call, command string, params map[string]any) (map[string]any, error) {
	var out map[string]any
	if err := call.Editor(ctx, command, params, &out); err != nil {
		var e *sdk.Error
		if errors.As(err, &e) {
			return nil, e
		}
		return nil, err
	}
	if out == nil {
		out = map[string]any{}
	}
	return out, nil
}

func list(ctx context.Context, call *sdk.Call, in listArgs) (sdk.Result, error) {
	dir := in.Directory
	if dir == "" {
		dir = "res://"
	}
	lang := in.Language
	if lang == "" {
		lang = "gd"
	}
	if lang != "gd" && lang != "cs" {
		e := invalid("pass language \"gd\" or \"cs\"", "language %q is not gd or cs", lang)
		e.Required = "language"
		return sdk.Result{}, e
	}
	if !strings.HasPrefix(dir, "res://") || strings.Contains(dir, "..") {
		return sdk.Result{}, invalid("pass a res:// directory such as res://scripts", "directory %q is not a res:// path inside the project", dir)
	}
	if call.EditorAttached {
		out, err := forward(ctx, call, "cmd_list_scripts", map[string]any{"directory": dir, "language": lang})
		if err != nil {
			return sdk.Result{}, err
		}
		return sdk.JSON(out), nil
	}
	scripts := []string{}
	ws := call.Workspace()
	var walk func(d string) error
	walk = func(d string) error {
		entries, err := ws.List(ctx, d)
		if err != nil {
			return err
		}
		for _, e := range entries {
			base := path.Base(e.Path)
			if strings.HasPrefix(base, ".") {
				continue // .godot, .import and hidden files, as the editor's file system
			}
			if e.IsDir {
				if err := walk(e.Path); err != nil {
					return err
				}
			} else if strings.HasSuffix(base, "."+lang) {
				scripts = append(scripts, e.Path)
			}
		}
		return nil
	}
	if err := walk(dir); err != nil {
		return sdk.Result{}, err
	}
	sort.Strings(scripts)
	return sdk.JSON(map[string]any{"directory": dir, "scripts": scripts}), nil
}

func read(ctx context.Context, call *sdk.Call, in pathArgs) (sdk.Result, error) {
	if err := checkPath(in.ScriptPath, ".gd", ".cs"); err != nil {
		return sdk.Result{}, err
	}
	if call.EditorAttached {
		out, err := forward(ctx, call, "cmd_read_script", map[string]any{"script_path": in.ScriptPath})
		if err != nil {
			return sdk.Result{}, err
		}
		return sdk.JSON(out), nil
	}
	f, err := call.Workspace().Read(ctx, in.ScriptPath)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(map[string]any{"script_path": f.Path, "content": string(f.Data)}), nil
}

// syntaxReport is the built-in checker's verdict on new text, compared with
// the old text, for write and patch results.
type syntaxReport struct {
	Checker    string          `json:"checker"`
	Error      *gdscript.Error `json:"error"`
	Introduced bool            `json:"introduced" jsonschema:"the change brought in a syntax error the old text did not have"`
	// Godot3 is Godot 3 syntax in the new text, with the Godot 4 spelling.
	Godot3 []gdscript.Warning `json:"godot3_syntax,omitempty"`
}

// builtinChecker names the built-in checker in results.
const builtinChecker = "builtin-gdscript-syntax"

func syntax(p string, old *string, text string) *syntaxReport {
	if !strings.EqualFold(path.Ext(p), ".gd") {
		return nil
	}
	r := &syntaxReport{Checker: builtinChecker, Error: gdscript.Check(text), Godot3: gdscript.Godot3(text)}
	if r.Error != nil {
		r.Introduced = old == nil || gdscript.Check(*old) == nil
	}
	return r
}

// addSyntax puts the report into a result and, when the change introduced
// an error, a warning that says where.
func addSyntax(out map[string]any, r *syntaxReport) {
	if r == nil {
		return
	}
	out["syntax"] = r
	if r.Introduced {
		msg := fmt.Sprintf("this change introduced a syntax error at line %d, column %d: %s; Godot will not load the script until it is fixed",
			r.Error.Line, r.Error.Column, r.Error.Message)
		if r.Error.Hint != "" {
			msg += " (" + r.Error.Hint + ")"
		}
		out["warning"] = msg
	} else if len(r.Godot3) > 0 {
		w := r.Godot3[0]
		out["warning"] = fmt.Sprintf("line %d holds Godot 3 syntax: %s", w.Line, w.Message)
	}
}

func write(ctx context.Context, call *sdk.Call, in writeArgs) (sdk.Result, error) {
	if err := checkPath(in.ScriptPath, ".gd", ".cs"); err != nil {
		return sdk.Result{}, err
	}
	if call.EditorAttached {
		// The old text, for "introduced": the editor reads it (it may hold
		// unsaved changes); a missing file is a new one.
		var old *string
		if prev, err := forward(ctx, call, "cmd_read_script", map[string]any{"script_path": in.ScriptPath}); err == nil {
			if s, ok := prev["content"].(string); ok {
				old = &s
			}
		}
		if call.DryRun {
			out := map[string]any{"dry_run": true, "editor_command": "cmd_write_script",
				"params": map[string]any{"script_path": in.ScriptPath, "content": in.Content}, "previous_existed": old != nil}
			addSyntax(out, syntax(in.ScriptPath, old, in.Content))
			return sdk.JSON(out), nil
		}
		out, err := forward(ctx, call, "cmd_write_script", map[string]any{"script_path": in.ScriptPath, "content": in.Content})
		if err != nil {
			return sdk.Result{}, err
		}
		addSyntax(out, syntax(in.ScriptPath, old, in.Content))
		return sdk.JSON(out), nil
	}
	ws := call.Workspace()
	st, err := ws.Stat(ctx, in.ScriptPath)
	if err != nil {
		return sdk.Result{}, err
	}
	if st.IsDir {
		return sdk.Result{}, invalid("pass a file path", "%s is a directory", in.ScriptPath)
	}
	var old *string
	var base sdk.FileVersion
	if st.Exists {
		f, err := ws.Read(ctx, in.ScriptPath)
		if err != nil {
			return sdk.Result{}, err
		}
		s := string(f.Data)
		old, base = &s, f.Version
	}
	res, err := ws.Begin("Write "+in.ScriptPath).Write(in.ScriptPath, []byte(in.Content), base).Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	out := map[string]any{"script_path": in.ScriptPath, "created": old == nil, "overwrote": old != nil,
		"previous_existed": old != nil, "dry_run": res.DryRun, "changes": res.Files}
	addSyntax(out, syntax(in.ScriptPath, old, in.Content))
	return sdk.JSON(out), nil
}

func patch(ctx context.Context, call *sdk.Call, in patchArgs) (sdk.Result, error) {
	if strings.EqualFold(path.Ext(in.ScriptPath), ".cs") {
		e := invalid("patch works on .gd scripts; rewrite a C# file with godot_scripts_write", "script_path %q is a C# script", in.ScriptPath)
		e.Required = "script_path"
		return sdk.Result{}, e
	}
	if err := checkPath(in.ScriptPath, ".gd"); err != nil {
		return sdk.Result{}, err
	}
	if in.Find == "" {
		return sdk.Result{}, invalid("pass the exact text to replace in find", "find must not be empty")
	}
	var text string
	var base sdk.FileVersion
	if call.EditorAttached {
		prev, err := forward(ctx, call, "cmd_read_script", map[string]any{"script_path": in.ScriptPath})
		if err != nil {
			return sdk.Result{}, err
		}
		text, _ = prev["content"].(string)
	} else {
		f, err := call.Workspace().Read(ctx, in.ScriptPath)
		if err != nil {
			return sdk.Result{}, err
		}
		text, base = string(f.Data), f.Version
	}
	n := strings.Count(text, in.Find)
	if n == 0 {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeNotFound, Message: fmt.Sprintf("find text does not occur in %s; nothing was changed", in.ScriptPath),
			Hint: "read the script with godot_scripts_read and copy the exact text, whitespace included"}
	}
	newText := strings.ReplaceAll(text, in.Find, in.Replace)
	rep := syntax(in.ScriptPath, &text, newText)
	if call.EditorAttached {
		params := map[string]any{"script_path": in.ScriptPath, "find": in.Find, "replace": in.Replace}
		if call.DryRun {
			out := map[string]any{"dry_run": true, "editor_command": "cmd_patch_script", "params": params, "replacements": n}
			addSyntax(out, rep)
			return sdk.JSON(out), nil
		}
		out, err := forward(ctx, call, "cmd_patch_script", params)
		if err != nil {
			return sdk.Result{}, err
		}
		addSyntax(out, rep)
		return sdk.JSON(out), nil
	}
	res, err := call.Workspace().Begin("Patch "+in.ScriptPath).Write(in.ScriptPath, []byte(newText), base).Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	out := map[string]any{"script_path": in.ScriptPath, "replacements": n, "dry_run": res.DryRun, "changes": res.Files}
	addSyntax(out, rep)
	return sdk.JSON(out), nil
}
