package sdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

type renameArgs struct {
	NodePath string `json:"node_path" jsonschema:"node to rename"`
	NewName  string `json:"new_name" jsonschema:"its new name"`
}

// modesToolset has one tool of each kind of editor path.
func modesToolset() *sdk.Toolset {
	headless := func(ctx context.Context, call *sdk.Call, in renameArgs) (sdk.Result, error) {
		ws := call.Workspace()
		fi, err := ws.Stat(ctx, "res://names.txt")
		if err != nil {
			return sdk.Result{}, err
		}
		res, err := ws.Begin("Rename "+in.NodePath).Write(fi.Path, []byte(in.NewName+"\n"), fi.Version).Commit(ctx)
		if err != nil {
			return sdk.Result{}, err
		}
		return sdk.JSON(map[string]any{"node_path": in.NodePath, "renamed": !res.DryRun}), nil
	}
	return &sdk.Toolset{
		Name: "modes", Version: "1.0.0", Description: "One tool per editor path.",
		Tools: []sdk.Tool{
			sdk.NewTool("rename", "Rename a node.", sdk.Mutating, headless,
				sdk.EditorCommand("cmd_rename_node", func(in renameArgs) (any, error) {
					return map[string]any{"node_path": in.NodePath, "new_name": in.NewName}, nil
				})),
			sdk.NewTool("rename_checked", "Rename a node after checking it exists.", sdk.Mutating, headless,
				sdk.EditorFunc(func(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in renameArgs) (sdk.Result, error) {
					var exists map[string]any
					if err := ed.Query(ctx, "cmd_node_exists", map[string]any{"node_path": in.NodePath}, &exists); err != nil {
						return sdk.Result{}, err
					}
					return ed.Forward(ctx, "cmd_rename_node", map[string]any{"node_path": in.NodePath, "new_name": in.NewName})
				})),
			sdk.NewTool("sneaky", "Queries with a command that changes the editor.", sdk.Mutating, headless,
				sdk.EditorFunc(func(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in renameArgs) (sdk.Result, error) {
					return sdk.Result{}, ed.Query(ctx, "cmd_delete_node", map[string]any{"node_path": in.NodePath}, nil)
				})),
			sdk.NewTool("batch", "Sets a property on many nodes; the addon previews it.", sdk.Mutating, headless,
				sdk.EditorCommand("cmd_batch_set_property", func(in renameArgs) (any, error) {
					return map[string]any{"property": "name", "node_paths": []string{in.NodePath}, "value": in.NewName}, nil
				})),
			sdk.NewTool("files", "Works on the files in both modes.", sdk.Mutating, headless, sdk.AnyMode()),
			sdk.NewTool("offline", "Headless only.", sdk.Mutating, headless, sdk.HeadlessOnly("it rewrites files the editor holds open")),
			sdk.NewEditorTool("select", "Selects in the editor.", sdk.ReadOnly,
				func(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in renameArgs) (sdk.Result, error) {
					return ed.Forward(ctx, "cmd_select_nodes", map[string]any{"node_paths": []string{in.NodePath}})
				}),
		},
	}
}

func TestManifestListsModes(t *testing.T) {
	m, err := modesToolset().Manifest()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		modes []manifest.Mode
		path  string
	}{
		"rename":         {[]manifest.Mode{"headless", "editor"}, "cmd_rename_node"},
		"rename_checked": {[]manifest.Mode{"headless", "editor"}, "function"},
		"files":          {[]manifest.Mode{"headless", "editor"}, "files"},
		"offline":        {[]manifest.Mode{"headless"}, ""},
		"select":         {[]manifest.Mode{"editor"}, "function"},
	}
	for _, tool := range m.Tools {
		w, ok := want[tool.Name]
		if !ok {
			continue
		}
		if !slices.Equal(tool.Modes, w.modes) || tool.EditorPath != w.path {
			t.Errorf("%s: modes %v editor path %q, want %v %q", tool.Name, tool.Modes, tool.EditorPath, w.modes, w.path)
		}
	}
	// The modes survive the wire.
	back := manifest.FromProto(m.ToProto())
	if tl, _ := back.Tool("offline"); !slices.Equal(tl.Modes, []manifest.Mode{"headless"}) || tl.Supports(manifest.ModeEditor) {
		t.Errorf("after the wire: %+v", tl)
	}
}

// recordingEditor answers every command and remembers them.
func recordingEditor() *sdktest.Editor {
	ok := func(p map[string]any) (any, *sdk.Error) { return map[string]any{"ok": true, "params": p}, nil }
	return sdktest.NewEditor().On("cmd_node_exists", ok).On("cmd_rename_node", ok).
		On("cmd_batch_set_property", ok).On("cmd_select_nodes", ok).On("cmd_delete_node", ok)
}

func TestEditorPathsDispatchAndDryRunRecords(t *testing.T) {
	ctx := context.Background()
	ed := recordingEditor()
	h := sdktest.New(t, modesToolset(), sdktest.Options{Editor: ed.Serve})
	args := renameArgs{NodePath: "Player", NewName: "Hero"}

	// A real call sends the command built from the arguments.
	if res := h.Call(ctx, "rename", args); res.IsError || len(ed.Calls("cmd_rename_node")) != 1 {
		t.Fatalf("rename: %s; calls %v", res.Text(), ed.Calls())
	}

	// A dry run records it instead, in the one preview shape.
	for _, tool := range []string{"rename", "rename_checked"} {
		before := len(ed.Calls("cmd_rename_node"))
		res := h.Call(ctx, tool, args, sdktest.DryRun())
		if res.IsError {
			t.Fatalf("%s dry run: %s", tool, res.Text())
		}
		if n := len(ed.Calls("cmd_rename_node")); n != before {
			t.Fatalf("%s: the dry run reached the editor (%d rename commands, want %d)", tool, n, before)
		}
		var p struct {
			DryRun  bool `json:"dry_run"`
			Preview struct {
				Mode     string `json:"mode"`
				Commands []struct {
					Command string         `json:"command"`
					Params  map[string]any `json:"params"`
				} `json:"commands"`
				Files []sdk.FileChange `json:"files"`
			} `json:"preview"`
		}
		if err := res.Structured(&p); err != nil {
			t.Fatal(err)
		}
		if cmds := p.Preview.Commands; !p.DryRun || p.Preview.Mode != "editor" || len(cmds) != 1 || cmds[0].Command != "cmd_rename_node" ||
			cmds[0].Params["new_name"] != "Hero" || p.Preview.Files != nil {
			t.Fatalf("%s preview %+v", tool, p)
		}
	}
	// The query of query-then-apply ran during the dry run.
	if n := len(ed.Calls("cmd_node_exists")); n != 1 {
		t.Fatalf("cmd_node_exists ran %d times, want 1 (the dry run's query)", n)
	}

	// A command that previews itself is sent, with its flag set.
	res := h.Call(ctx, "batch", args, sdktest.DryRun())
	calls := ed.Calls("cmd_batch_set_property")
	if res.IsError || len(calls) != 1 || calls[0].Params["dry_run"] != true {
		t.Fatalf("preview command: %s; calls %+v", res.Text(), calls)
	}

	// Query refuses a command that changes the editor, dry run or not.
	for _, opt := range [][]sdktest.CallOption{nil, {sdktest.DryRun()}} {
		res := h.Call(ctx, "sneaky", args, opt...)
		if res.ErrorCode != sdk.CodeToolError || !strings.Contains(res.Error.Message, "Editor.Query refuses it") {
			t.Fatalf("sneaky: %+v", res.Error)
		}
	}
	if n := len(ed.Calls("cmd_delete_node")); n != 0 {
		t.Fatalf("cmd_delete_node reached the editor %d times", n)
	}
}

func TestModeRefusals(t *testing.T) {
	ctx := context.Background()
	withEditor := sdktest.New(t, modesToolset(), sdktest.Options{Editor: recordingEditor().Serve})
	res := withEditor.Call(ctx, "offline", renameArgs{NodePath: "A", NewName: "B"})
	if res.ErrorCode != sdk.CodePreconditionFailed || res.Error.Required != "headless" ||
		!strings.Contains(res.Error.Message, "it rewrites files the editor holds open") || !strings.Contains(res.Error.Hint, "close the Godot editor") {
		t.Fatalf("headless-only with an editor: %+v", res.Error)
	}
	headless := sdktest.New(t, modesToolset(), sdktest.Options{ProjectDir: t.TempDir()})
	res = headless.Call(ctx, "select", renameArgs{NodePath: "A"})
	if res.ErrorCode != sdk.CodePreconditionFailed || res.Error.Required != "editor" || !strings.Contains(res.Error.Hint, "godot-mcp addon") {
		t.Fatalf("editor-only headless: %+v", res.Error)
	}
}

func TestHeadlessDryRunPreviewsTheDiff(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "names.txt"), []byte("Player\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := sdktest.New(t, modesToolset(), sdktest.Options{ProjectDir: dir})
	// The same tools as in editor mode, headless: the preview has the same
	// fields, with the file changes where the editor had commands.
	for _, tool := range []string{"rename", "rename_checked", "files", "offline"} {
		res := h.Call(ctx, tool, renameArgs{NodePath: "Player", NewName: "Hero"}, sdktest.DryRun())
		if res.IsError {
			t.Fatalf("%s: %s", tool, res.Text())
		}
		var p struct {
			DryRun   bool   `json:"dry_run"`
			NodePath string `json:"node_path"`
			Preview  struct {
				Mode     string            `json:"mode"`
				Files    []sdk.FileChange  `json:"files"`
				Commands []json.RawMessage `json:"commands"`
			} `json:"preview"`
		}
		if err := res.Structured(&p); err != nil {
			t.Fatal(err)
		}
		if f := p.Preview.Files; !p.DryRun || p.Preview.Mode != "headless" || p.NodePath != "Player" || len(f) != 1 || p.Preview.Commands != nil ||
			f[0].Path != "res://names.txt" || !strings.Contains(f[0].Diff, "+Hero") {
			t.Fatalf("%s preview %+v", tool, p)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "names.txt")); string(b) != "Player\n" {
			t.Fatalf("%s: the dry run wrote %q", tool, b)
		}
	}
}

// DryRunAnswer: a dry run answers the tool's own fields in both modes. In
// the editor, where the edit is recorded and no reply comes, the declared
// fields are the answer; headless the handler's own answer wins where it
// has the field, and the declared flags are false in both.
func TestDryRunAnswerGivesBothModesOneShape(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "names.txt"), []byte("Player\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	headless := func(ctx context.Context, call *sdk.Call, in renameArgs) (sdk.Result, error) {
		ws := call.Workspace()
		fi, err := ws.Stat(ctx, "res://names.txt")
		if err != nil {
			return sdk.Result{}, err
		}
		if _, err := ws.Begin("Rename").Write(fi.Path, []byte(in.NewName+"\n"), fi.Version).Commit(ctx); err != nil {
			return sdk.Result{}, err
		}
		// The real run settles the name (a clash would add a number).
		return sdk.JSON(map[string]any{"node_path": in.NewName + "2", "renamed": true}), nil
	}
	ts := &sdk.Toolset{Name: "answers", Version: "1.0.0", Description: "A tool declaring its dry-run answer.",
		Tools: []sdk.Tool{sdk.NewTool("rename", "Rename a node.", sdk.Mutating, headless,
			sdk.EditorCommand("cmd_rename_node", func(in renameArgs) (any, error) {
				return map[string]any{"node_path": in.NodePath, "new_name": in.NewName}, nil
			}),
			sdk.DryRunAnswer(func(in renameArgs) map[string]any {
				return map[string]any{"node_path": in.NewName, "old_path": in.NodePath}
			}, "renamed"))}}
	args := renameArgs{NodePath: "Player", NewName: "Hero"}
	want := map[sdk.Mode]map[string]any{
		sdk.ModeHeadless: {"node_path": "Hero2", "old_path": "Player", "renamed": false, "dry_run": true},
		sdk.ModeEditor:   {"node_path": "Hero", "old_path": "Player", "renamed": false, "dry_run": true},
	}
	hosts := map[sdk.Mode]*sdktest.Host{
		sdk.ModeHeadless: sdktest.New(t, ts, sdktest.Options{ProjectDir: dir}),
		sdk.ModeEditor:   sdktest.New(t, ts, sdktest.Options{Editor: recordingEditor().Serve}),
	}
	for mode, h := range hosts {
		res := h.Call(ctx, "rename", args, sdktest.DryRun())
		var out map[string]any
		if err := res.Structured(&out); res.IsError || err != nil {
			t.Fatalf("%s: %s %v", mode, res.Text(), err)
		}
		preview, _ := out["preview"].(map[string]any)
		if preview["mode"] != string(mode) {
			t.Errorf("%s: preview %v", mode, preview)
		}
		delete(out, "preview")
		if fmt.Sprint(out) != fmt.Sprint(want[mode]) {
			t.Errorf("%s dry run answers %v, want %v", mode, out, want[mode])
		}
		// A real run answers the tool's own answer alone.
		if mode == sdk.ModeHeadless {
			var real map[string]any
			if err := h.Call(ctx, "rename", args).Structured(&real); err != nil || fmt.Sprint(real) != fmt.Sprint(map[string]any{"node_path": "Hero2", "renamed": true}) {
				t.Errorf("real run answers %v (%v)", real, err)
			}
		}
	}
	// A function of the wrong argument type is a definition error.
	bad := &sdk.Toolset{Name: "bad", Version: "1.0.0", Description: "A wrong DryRunAnswer.",
		Tools: []sdk.Tool{sdk.NewTool("rename", "Rename a node.", sdk.Mutating, headless,
			sdk.DryRunAnswer(func(in struct{}) map[string]any { return nil }))}}
	if _, err := bad.Manifest(); err == nil || !strings.Contains(err.Error(), "DryRunAnswer needs a non-nil func(sdk_test.renameArgs)") {
		t.Errorf("manifest of a wrong DryRunAnswer: %v", err)
	}
}

// errorfTB records Errorf calls instead of failing the test.
type errorfTB struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (e *errorfTB) Errorf(format string, args ...any) {
	e.mu.Lock()
	e.errs = append(e.errs, fmt.Sprintf(format, args...))
	e.mu.Unlock()
}

// A toolset that reaches the editor behind the SDK's back during a dry run
// (through the host service directly, as a plugin on another SDK might)
// fails its sdktest, the way the host refuses it.
func TestSdktestFailsADryRunThatReachesTheEditor(t *testing.T) {
	ctx := context.Background()
	ed := recordingEditor()
	tb := &errorfTB{TB: t}
	ts := &sdk.Toolset{Name: "leaky", Version: "1.0.0", Description: "Leaks.",
		Tools: []sdk.Tool{sdk.NewTool("leak", "Sends a mutating command in a dry run.", sdk.Mutating,
			func(ctx context.Context, call *sdk.Call, in renameArgs) (sdk.Result, error) {
				return sdk.Result{}, sdk.UncheckedEditorCommandForTests(ctx, call, "cmd_delete_node", map[string]any{"node_path": in.NodePath})
			})}}
	h := sdktest.New(tb, ts, sdktest.Options{Editor: ed.Serve})
	res := h.Call(ctx, "leak", renameArgs{NodePath: "Player"}, sdktest.DryRun())
	if !res.IsError || res.ErrorCode != sdk.CodePluginError {
		t.Fatalf("leak result %+v", res.Error)
	}
	if len(ed.Calls("cmd_delete_node")) != 0 {
		t.Fatal("the command reached the editor")
	}
	if len(tb.errs) != 1 || !strings.Contains(tb.errs[0], "reached the editor during a dry run") {
		t.Fatalf("sdktest reported %q", tb.errs)
	}
}

type pathArgs struct {
	Scene  sdk.ScenePath `json:"scene,omitempty" jsonschema:"scene"`
	Script sdk.ResPath   `json:"script_path,omitempty" jsonschema:"script" godot:"ext=.gd|.cs,exists"`
	New    sdk.ResPath   `json:"new_path,omitempty" jsonschema:"new file" godot:"new"`
	Many   []sdk.ResPath `json:"paths,omitempty" jsonschema:"paths"`
}

func TestPathArgumentsAreCheckedOnce(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "player.gd"), []byte("extends Node\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var got pathArgs
	ts := &sdk.Toolset{Name: "paths", Version: "1.0.0", Description: "Paths.",
		Tools: []sdk.Tool{sdk.NewTool("echo", "Echoes its paths.", sdk.ReadOnly,
			func(ctx context.Context, call *sdk.Call, in pathArgs) (sdk.Result, error) {
				got = in
				return sdk.Text("ok"), nil
			})}}
	h := sdktest.New(t, ts, sdktest.Options{ProjectDir: dir})
	res := h.Call(ctx, "echo", map[string]any{"scene": "levels//one.tscn", "script_path": "res://./player.gd",
		"new_path": "res://fresh.tres", "paths": []string{"a/./b.png", "res://c.png"}})
	if res.IsError {
		t.Fatalf("valid paths refused: %s", res.Text())
	}
	if got.Scene != "res://levels/one.tscn" || got.Script != "res://player.gd" || got.New != "res://fresh.tres" || len(got.Many) != 2 || got.Many[0] != "res://a/b.png" {
		t.Fatalf("cleaned %+v", got)
	}
	for _, c := range []struct {
		args       map[string]any
		code, want string
	}{
		{map[string]any{"scene": "res://main.gd"}, sdk.CodeInvalidArgument, "scene \"res://main.gd\" must end in .tscn or .scn"},
		{map[string]any{"scene": "res://../outside.tscn"}, sdk.CodeInvalidArgument, "leaves the project"},
		{map[string]any{"scene": "/etc/passwd.tscn"}, sdk.CodeInvalidArgument, "leaves the project"},
		{map[string]any{"scene": "user://save.tscn"}, sdk.CodeInvalidArgument, "is not a res:// path"},
		{map[string]any{"script_path": "res://enemy.gd"}, sdk.CodeNotFound, "script_path \"res://enemy.gd\" does not exist"},
		{map[string]any{"new_path": "res://player.gd"}, sdk.CodeInvalidArgument, "already exists"},
		{map[string]any{"paths": []string{"ok.png", "../x.png"}}, sdk.CodeInvalidArgument, "paths \"../x.png\" leaves the project"},
	} {
		res := h.Call(ctx, "echo", c.args)
		if res.ErrorCode != c.code || !strings.Contains(res.Error.Message, c.want) {
			t.Errorf("%v: got %s %q, want %s containing %q", c.args, res.ErrorCode, res.Text(), c.code, c.want)
		}
	}
	// A uid:// names the file that has it (here by its .uid sidecar); a
	// new file has no uid yet.
	if err := os.WriteFile(filepath.Join(dir, "player.gd.uid"), []byte("uid://bplayer1x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if res := h.Call(ctx, "echo", map[string]any{"script_path": "uid://bplayer1x"}); res.IsError || got.Script != "res://player.gd" {
		t.Errorf("uid://: %s, got %q", res.Text(), got.Script)
	}
	for arg, code := range map[string]string{"script_path": sdk.CodeNotFound, "new_path": sdk.CodeInvalidArgument} {
		if res := h.Call(ctx, "echo", map[string]any{arg: "uid://bnobody"}); res.ErrorCode != code || res.Error.Required != arg {
			t.Errorf("%s uid://bnobody: %s %s, want %s", arg, res.ErrorCode, res.Text(), code)
		}
	}
	// A missing file's hint names the file beside it that was probably
	// meant: another case, a typo, another extension; nothing when none is
	// near.
	for arg, want := range map[string]string{
		"res://Player.gd": "did you mean res://player.gd?",
		"res://playr.gd":  "did you mean res://player.gd?",
		"res://player.cs": "did you mean res://player.gd?",
		"res://boss.gd":   "",
	} {
		res := h.Call(ctx, "echo", map[string]any{"script_path": arg})
		if res.ErrorCode != sdk.CodeNotFound || !strings.HasPrefix(res.Error.Hint, want) || (want == "" && strings.Contains(res.Error.Hint, "did you mean")) {
			t.Errorf("%s: %s, hint %q, want one starting %q", arg, res.ErrorCode, res.Error.Hint, want)
		}
	}
}

// Warm runs once, in the background, after the host configures the plugin.
func TestWarmRunsAfterConfigure(t *testing.T) {
	ran := make(chan struct{}, 4)
	ts := &sdk.Toolset{Name: "warm", Version: "1.0.0", Description: "Warms up.",
		Warm: func() { ran <- struct{}{} },
		Tools: []sdk.Tool{sdk.NewTool("noop", "Does nothing.", sdk.ReadOnly,
			func(context.Context, *sdk.Call, struct{}) (sdk.Result, error) { return sdk.Text("ok"), nil })}}
	h := sdktest.New(t, ts, sdktest.Options{})
	<-ran // a Warm that never runs hangs here, and the test times out
	if res := h.Call(context.Background(), "noop", nil); res.IsError {
		t.Fatal(res.Text())
	}
	if len(ran) != 0 {
		t.Fatalf("Warm ran %d more times", len(ran))
	}
}

type embeddedPaths struct {
	pathArgs
	Texture sdk.ResPath `json:"texture_path,omitempty" jsonschema:"texture" godot:"ext=.png"`
}

// The fields of an embedded struct are top-level arguments, and their
// paths are checked like the others.
func TestEmbeddedPathArgumentsAreChecked(t *testing.T) {
	ctx := context.Background()
	var got embeddedPaths
	ts := &sdk.Toolset{Name: "paths", Version: "1.0.0", Description: "Paths.",
		Tools: []sdk.Tool{sdk.NewTool("echo", "Echoes its paths.", sdk.ReadOnly,
			func(ctx context.Context, call *sdk.Call, in embeddedPaths) (sdk.Result, error) {
				got = in
				return sdk.Text("ok"), nil
			})}}
	h := sdktest.New(t, ts, sdktest.Options{ProjectDir: t.TempDir()})
	if res := h.Call(ctx, "echo", map[string]any{"scene": "a//b.tscn", "texture_path": "t.png"}); res.IsError {
		t.Fatalf("valid paths refused: %s", res.Text())
	}
	if got.Scene != "res://a/b.tscn" || got.Texture != "res://t.png" {
		t.Fatalf("cleaned %+v", got)
	}
	if res := h.Call(ctx, "echo", map[string]any{"scene": "../x.tscn"}); res.ErrorCode != sdk.CodeInvalidArgument || !strings.Contains(res.Error.Message, "leaves the project") {
		t.Fatalf("embedded scene: %s", res.Text())
	}
}
