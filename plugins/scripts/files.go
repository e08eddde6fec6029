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
	"github.com/godot-mcp/godot-mcp/sdk/godot/uid"
)

type listArgs struct {
	Directory sdk.ResPath `json:"directory,omitempty" jsonschema:"res:// directory to list under (default res://)"`
	Language  string      `json:"language,omitempty" jsonschema:"gd (default) or cs"`
}

type pathArgs struct {
	ScriptPath sdk.ResPath `json:"script_path" jsonschema:"res:// path of a .gd or .cs script" godot:"ext=.gd|.cs"`
}

type writeArgs struct {
	ScriptPath sdk.ResPath `json:"script_path" jsonschema:"res:// path of the .gd or .cs script to create or overwrite" godot:"ext=.gd|.cs"`
	Content    string      `json:"content" jsonschema:"the script's whole new text"`
	// ExpectedVersion and Force decide what the write is based on; see
	// write.
	ExpectedVersion string `json:"expected_version,omitempty" jsonschema:"the version godot_scripts_read returned; the write is refused with CONFLICT (and a diff) if the file changed since"`
	Force           bool   `json:"force,omitempty" jsonschema:"overwrite even if the file changed on disk since you last read or wrote it"`
}

type patchArgs struct {
	ScriptPath      sdk.ResPath `json:"script_path" jsonschema:"res:// path of a .gd or .cs script" godot:"ext=.gd|.cs"`
	Find            string      `json:"find" jsonschema:"text to replace; every occurrence is replaced, and it must occur at least once"`
	Replace         string      `json:"replace" jsonschema:"replacement text (may be empty)"`
	ExpectedVersion string      `json:"expected_version,omitempty" jsonschema:"the version godot_scripts_read returned; the patch is refused with CONFLICT (and a diff) if the file changed since"`
}

func invalid(hint, format string, a ...any) *sdk.Error {
	return sdk.Errorf(sdk.CodeInvalidArgument, hint, format, a...)
}

// query runs a read-only addon command and answers its reply.
func query(ctx context.Context, ed *sdk.Editor, command string, params map[string]any) (map[string]any, error) {
	out := map[string]any{}
	if err := ed.Query(ctx, command, params, &out); err != nil {
		return nil, err
	}
	if out == nil {
		out = map[string]any{}
	}
	return out, nil
}

// listArgs.clean answers the directory and language to list.
func (in listArgs) clean() (string, string, error) {
	dir := string(in.Directory)
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
		return "", "", e
	}
	return dir, lang, nil
}

// listEditor lists the scripts of the editor's file system, which has the
// ones it has not saved yet.
func listEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in listArgs) (sdk.Result, error) {
	dir, lang, err := in.clean()
	if err != nil {
		return sdk.Result{}, err
	}
	out, err := query(ctx, ed, "cmd_list_scripts", map[string]any{"directory": dir, "language": lang})
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(out), nil
}

func list(ctx context.Context, call *sdk.Call, in listArgs) (sdk.Result, error) {
	dir, lang, err := in.clean()
	if err != nil {
		return sdk.Result{}, err
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

// readCommand is read's editor path: the editor's text, saved or not.
func readCommand(in pathArgs) (any, error) {
	return map[string]any{"script_path": in.ScriptPath}, nil
}

func read(ctx context.Context, call *sdk.Call, in pathArgs) (sdk.Result, error) {
	// The agent sees this version: a later write of the whole file is
	// checked against it (Tx.Overwrite).
	f, err := call.Workspace().ReadForAgent(ctx, string(in.ScriptPath))
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(map[string]any{"script_path": f.Path, "content": string(f.Data), "version": f.Version}), nil
}

// conflictHint gives a workspace CONFLICT the fix in this toolset's terms.
func conflictHint(err error, force bool) error {
	var e *sdk.Error
	if errors.As(err, &e) && e.Code == sdk.CodeConflict && e.Required == "" {
		e.Hint = "read the script again with godot_scripts_read and re-apply your change to the new text (the diff shows what changed)"
		if force {
			e.Hint += ", or pass force=true to overwrite it anyway"
		}
	}
	return err
}

// syntaxReport is the checker's verdict on new text, compared with the
// old text, for write and patch results.
type syntaxReport struct {
	// Checker is "godot" (the engine's compiler), builtinChecker, or
	// noChecker for C#.
	Checker       string `json:"checker"`
	CheckerDetail string `json:"checker_detail,omitempty"`
	// Checked is false for a C# script: nothing here compiles C#.
	Checked bool `json:"checked"`
	// Note says why the text was not checked.
	Note string `json:"note,omitempty"`
	// Fallback says why the engine's compiler did not give the verdict
	// (none can run, it did not answer in time).
	Fallback string `json:"fallback,omitempty"`
	// Error is the first error in the script, or null.
	Error *gdscript.Error `json:"error"`
	// Errors are all the errors the checker found (the built-in one stops
	// at its first).
	Errors     []scriptError `json:"errors,omitempty"`
	Warnings   []scriptError `json:"warnings,omitempty"`
	Introduced bool          `json:"introduced" jsonschema:"the change brought in an error the old text did not have"`
	// IntroducedErrors are the errors the old text did not have.
	IntroducedErrors []scriptError `json:"introduced_errors,omitempty"`
	// Godot3 is Godot 3 syntax in the new text, with the Godot 4 spelling.
	Godot3 []gdscript.Warning `json:"godot3_syntax,omitempty"`
}

// syntax checks a write's or patch's new text (old is the text it
// replaces, nil for a new file): with the engine's compiler when it can
// run (the web runtime, within writeCheckWait), else with the built-in
// checker. It never fails the call: an engine that cannot run or answer
// is a fallback, said in the report.
func syntax(ctx context.Context, call *sdk.Call, p string, old *string, text string) *syntaxReport {
	return syntaxWith(ctx, call, p, old, text, nil)
}

// syntaxWith is syntax with a native Godot 4 binary (nat, nil without one)
// when the new text is on disk: the binary checks the file, and its verdict
// on the file before the write is what "introduced" compares with.
func syntaxWith(ctx context.Context, call *sdk.Call, p string, old *string, text string, nat *native) *syntaxReport {
	if strings.EqualFold(path.Ext(p), ".cs") {
		return &syntaxReport{Checker: noChecker, Note: "C# is not syntax-checked: that needs a .NET toolchain " +
			"(build the project with dotnet build, or open it in the .NET editor, to see compile errors)"}
	}
	if !strings.EqualFold(path.Ext(p), ".gd") {
		return nil
	}
	godot3 := gdscript.Godot3(text)
	if nat != nil {
		if now, ok := nativeCheck(ctx, nat.t, p, text); ok {
			r := &syntaxReport{Checker: engineChecker, CheckerDetail: "godot --check-only " + nat.t.Bin.Version,
				Checked: true, Errors: now, Error: firstIn(now, p), Godot3: godot3}
			r.IntroducedErrors = newErrors(now, nat.before)
			r.Introduced = len(r.IntroducedErrors) > 0
			return r
		}
	}
	targets := []engineTarget{{Path: p, Code: text}}
	if old != nil {
		targets = append(targets, engineTarget{Path: p, Code: *old})
	}
	v, why, err := webCheck(ctx, call, targets, writeCheckWait)
	if err == nil && why == "" && len(v) == len(targets) && v[0].Unverified != "" {
		why = "The engine cannot judge this script: " + v[0].Unverified + "."
	}
	if err == nil && why == "" && len(v) == len(targets) {
		r := &syntaxReport{Checker: engineChecker, CheckerDetail: webName() + ": the compiler, in the project's context (its class_names, preloads and autoloads)",
			Checked: true, Errors: v[0].Errors, Error: firstIn(v[0].Errors, p), Godot3: godot3}
		before := []scriptError{}
		if old != nil {
			before = v[1].Errors
		}
		r.IntroducedErrors = newErrors(v[0].Errors, before)
		r.Introduced = len(r.IntroducedErrors) > 0
		return r
	}
	if err != nil {
		why = "The engine's check failed: " + err.Error()
	}
	globals := projectGlobals(call)
	r := &syntaxReport{Checker: builtinChecker, CheckerDetail: builtinDetail, Checked: true, Fallback: why,
		Errors: builtin(p, text, globals), Godot3: godot3}
	r.Error = firstIn(r.Errors, p)
	before := []scriptError{}
	if old != nil {
		before = builtin(p, *old, globals)
	}
	r.IntroducedErrors = newErrors(r.Errors, before)
	r.Introduced = len(r.IntroducedErrors) > 0
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
		e := r.IntroducedErrors[0]
		where := fmt.Sprintf("line %d", e.Line)
		if e.Column > 0 {
			where += fmt.Sprintf(", column %d", e.Column)
		}
		msg := fmt.Sprintf("this change introduced an error at %s: %s; Godot will not load the script until it is fixed", where, e.Message)
		if r.Checker == builtinChecker {
			msg = fmt.Sprintf("this change introduced a syntax error at %s: %s; Godot will not load the script until it is fixed", where, e.Message)
		}
		if e.File != "" && e.File != out["script_path"] {
			msg = fmt.Sprintf("this change introduced an error in %s at %s: %s", e.File, where, e.Message)
		}
		if e.Hint != "" {
			msg += " (" + e.Hint + ")"
		}
		if n := len(r.IntroducedErrors); n > 1 {
			msg += fmt.Sprintf("; %d new errors in all, see syntax.introduced_errors", n)
		}
		out["warning"] = msg
	} else if len(r.Godot3) > 0 {
		w := r.Godot3[0]
		out["warning"] = fmt.Sprintf("line %d holds Godot 3 syntax: %s", w.Line, w.Message)
	}
}

// writeEditor writes through the editor, so an open script tab follows.
func writeEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in writeArgs) (sdk.Result, error) {
	p := string(in.ScriptPath)
	// The old text, for "introduced": the file the write replaces, as the
	// addon reads it (from disk: cmd_read_script never answers the script
	// editor's unsaved buffer, so "introduced" compares with the saved
	// text); a missing file is a new one.
	var old *string
	if prev, err := query(ctx, ed, "cmd_read_script", map[string]any{"script_path": p}); err == nil {
		if s, ok := prev["content"].(string); ok {
			old = &s
		}
	}
	out := map[string]any{}
	if err := ed.Apply(ctx, "cmd_write_script", map[string]any{"script_path": p, "content": in.Content}, &out); err != nil {
		return sdk.Result{}, err
	}
	if out == nil {
		out = map[string]any{}
	}
	if ed.DryRun() {
		out["script_path"], out["previous_existed"] = p, old != nil
		out["created"], out["overwrote"] = old == nil, old != nil
	}
	addSyntax(out, syntax(ctx, call, p, old, in.Content))
	return sdk.JSON(out), nil
}

func write(ctx context.Context, call *sdk.Call, in writeArgs) (sdk.Result, error) {
	p := string(in.ScriptPath)
	ws := call.Workspace()
	st, err := ws.Stat(ctx, p)
	if err != nil {
		return sdk.Result{}, err
	}
	if st.IsDir {
		return sdk.Result{}, invalid("pass a file path", "%s is a directory", p)
	}
	var old *string
	var cur sdk.FileVersion
	if st.Exists {
		f, err := ws.Read(ctx, p)
		if err != nil {
			return sdk.Result{}, err
		}
		s := string(f.Data)
		old, cur = &s, f.Version
	}
	// What the write is based on: the version the caller names; else, unless
	// forced, the one the agent last read or wrote (the host knows it), so
	// an edit made since in the user's editor is refused, not overwritten.
	tx := ws.Begin("Write " + p)
	switch {
	case in.ExpectedVersion != "":
		tx.Write(p, []byte(in.Content), sdk.FileVersion(in.ExpectedVersion))
	case in.Force:
		tx.Write(p, []byte(in.Content), cur)
	default:
		tx.Overwrite(p, []byte(in.Content), cur)
	}
	sidecar, err := newUIDSidecar(ctx, call, p)
	if err != nil {
		return sdk.Result{}, err
	}
	if sidecar != "" {
		// One undo step for the script and its .uid, as the editor makes both.
		tx = tx.Write(p+".uid", []byte(sidecar+"\n"), "")
	}
	nat := nativeBefore(ctx, call, p, old)
	res, err := tx.Commit(ctx)
	if err != nil {
		return sdk.Result{}, conflictHint(err, in.ExpectedVersion == "")
	}
	out := map[string]any{"script_path": p, "created": old == nil, "overwrote": old != nil, "version": versionAfter(res, p, cur),
		"previous_existed": old != nil, "dry_run": res.DryRun, "changes": res.Files}
	if sidecar != "" {
		out["uid"] = sidecar
	}
	if res.DryRun {
		nat = nil // the new text is not on disk
	}
	addSyntax(out, syntaxWith(ctx, call, p, old, in.Content, nat))
	return sdk.JSON(out), nil
}

// versionAfter is the script's version once the commit is done (in a dry
// run, the version it would have): the one to pass as expected_version
// next. A write of identical bytes changes nothing and keeps cur.
func versionAfter(res sdk.CommitResult, p string, cur sdk.FileVersion) sdk.FileVersion {
	for _, fc := range res.Files {
		if fc.Path == p {
			return fc.VersionAfter
		}
	}
	return cur
}

// newUIDSidecar is the uid a new script gets in its .uid file, as the
// editor of Godot 4.4 and later writes one beside every script it sees, or
// "" when the project's version predates sidecars or the file has one.
func newUIDSidecar(ctx context.Context, call *sdk.Call, p string) (string, error) {
	if !sidecarVersion(call.Workspace().GodotVersion(ctx)) {
		return "", nil
	}
	st, err := call.Workspace().Stat(ctx, p+".uid")
	if err != nil {
		return "", err
	}
	if st.Exists {
		return "", nil
	}
	return uid.New().String(), nil
}

// sidecarVersion reports whether a Godot version ("4.4", "4.6.1") writes
// .uid sidecars: 4.4 and later. An unknown version gets them, as the
// current editors do.
func sidecarVersion(v string) bool {
	var major, minor int
	if _, err := fmt.Sscanf(v, "%d.%d", &major, &minor); err != nil {
		if _, err := fmt.Sscanf(v, "%d", &major); err != nil {
			return true
		}
	}
	return major > 4 || major == 4 && minor >= 4
}

func checkPatch(in patchArgs) error {
	if in.Find == "" {
		return invalid("pass the exact text to replace in find", "find must not be empty")
	}
	return nil
}

// replaced counts find in text and answers the text with it replaced.
func replaced(p, text string, in patchArgs) (string, int, error) {
	n := strings.Count(text, in.Find)
	if n == 0 {
		return "", 0, &sdk.Error{Code: sdk.CodeNotFound, Message: fmt.Sprintf("find text does not occur in %s; nothing was changed", p),
			Hint: "read the script with godot_scripts_read and copy the exact text, whitespace included"}
	}
	return strings.ReplaceAll(text, in.Find, in.Replace), n, nil
}

// patchEditor patches the script through the editor. The text it counts
// replacements in and checks is the file's, as cmd_read_script answers it
// (from disk, not the script editor's unsaved buffer), the text the
// addon's cmd_patch_script patches.
func patchEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in patchArgs) (sdk.Result, error) {
	if err := checkPatch(in); err != nil {
		return sdk.Result{}, err
	}
	p := string(in.ScriptPath)
	prev, err := query(ctx, ed, "cmd_read_script", map[string]any{"script_path": p})
	if err != nil {
		return sdk.Result{}, err
	}
	text, _ := prev["content"].(string)
	newText, n, err := replaced(p, text, in)
	if err != nil {
		return sdk.Result{}, err
	}
	out := map[string]any{}
	if err := ed.Apply(ctx, "cmd_patch_script", map[string]any{"script_path": p, "find": in.Find, "replace": in.Replace}, &out); err != nil {
		return sdk.Result{}, err
	}
	if out == nil {
		out = map[string]any{}
	}
	if ed.DryRun() {
		out["script_path"], out["replacements"] = p, n
	}
	addSyntax(out, syntax(ctx, call, p, &text, newText))
	return sdk.JSON(out), nil
}

func patch(ctx context.Context, call *sdk.Call, in patchArgs) (sdk.Result, error) {
	if err := checkPatch(in); err != nil {
		return sdk.Result{}, err
	}
	p := string(in.ScriptPath)
	f, err := call.Workspace().Read(ctx, p)
	if err != nil {
		return sdk.Result{}, err
	}
	text := string(f.Data)
	newText, n, err := replaced(p, text, in)
	if err != nil {
		return sdk.Result{}, err
	}
	base := f.Version
	if in.ExpectedVersion != "" {
		base = sdk.FileVersion(in.ExpectedVersion)
	}
	nat := nativeBefore(ctx, call, p, &text)
	res, err := call.Workspace().Begin("Patch "+p).Write(p, []byte(newText), base).Commit(ctx)
	if err != nil {
		return sdk.Result{}, conflictHint(err, false)
	}
	out := map[string]any{"script_path": p, "replacements": n, "dry_run": res.DryRun, "changes": res.Files,
		"version": versionAfter(res, p, f.Version)}
	if res.DryRun {
		nat = nil // the new text is not on disk
	}
	addSyntax(out, syntaxWith(ctx, call, p, &text, newText, nat))
	return sdk.JSON(out), nil
}
