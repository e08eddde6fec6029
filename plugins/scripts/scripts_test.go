package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/projfixture"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/uid"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestMain(m *testing.M) {
	// No Godot 4 binary in these tests: the built-in checker runs. A binary
	// on PATH would be found by the finder; point it at nothing.
	os.Setenv("GODOT_MCP_GODOT_BIN", filepath.Join(os.TempDir(), "no-such-godot"))
	// Nor the web runtime, unless a test asks for it (useEngine).
	theWeb = noEngine()
	enginecheck.Main(m, enginecheck.IgnoreLeaks)
}

// project copies a project of the shared Godot 4 corpus into a temporary
// directory.
func project(t testing.TB, name string) string { return projfixture.Copy(t, name) }

const playerGD = `extends Area2D

signal hit

@export var speed = 400 # How fast the player will move (pixels/sec).
var screen_size # Size of the game window.


func _ready():
	screen_size = get_viewport_rect().size
	hide()


func _process(delta):
	var velocity = Vector2.ZERO # The player's movement vector.
	if Input.is_action_pressed(&"move_right"):
		velocity.x += 1
	if Input.is_action_pressed(&"move_left"):
		velocity.x -= 1

	if velocity.length() > 0:
		velocity = velocity.normalized() * speed
		$AnimatedSprite2D.play()
	else:
		$AnimatedSprite2D.stop()

	position += velocity * delta
	position = position.clamp(Vector2.ZERO, screen_size)


func start(pos):
	position = pos
	show()
	$CollisionShape2D.disabled = false
`

func TestHeadlessScripts(t *testing.T) {
	dir := project(t, "2d-dodge_the_creeps")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})

	// A dry run previews and writes nothing.
	dry := plugintest.Call(t, h, "write", map[string]any{"script_path": "res://player.gd", "content": playerGD}, sdktest.DryRun())
	if dry["dry_run"] != true || len(dry["changes"].([]any)) != 2 { // the script and its .uid
		t.Fatalf("dry run = %v", dry)
	}
	if _, err := os.Stat(filepath.Join(dir, "player.gd")); err == nil {
		t.Fatal("dry run wrote the file")
	}
	w := plugintest.Call(t, h, "write", map[string]any{"script_path": "res://player.gd", "content": playerGD})
	if w["created"] != true || w["overwrote"] != false || w["warning"] != nil {
		t.Fatalf("write = %v", w)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "player.gd")); string(got) != playerGD {
		t.Fatal("written text differs")
	}
	plugintest.Call(t, h, "write", map[string]any{"script_path": "res://lib/util.gd", "content": "static func twice(x: int) -> int:\n\treturn x * 2\n"})

	r := plugintest.Call(t, h, "read", map[string]any{"script_path": "res://player.gd"})
	if r["content"] != playerGD {
		t.Fatalf("read = %v", r)
	}
	l := plugintest.Call(t, h, "list", map[string]any{})
	if got := jsonOf(l["scripts"]); got != `["res://lib/util.gd","res://player.gd"]` {
		t.Fatalf("list = %s", got)
	}
	if got := plugintest.CallErr(t, h, "list", map[string]any{"language": "py"}); !strings.Contains(got, "language") {
		t.Fatalf("bad language: %s", got)
	}

	// get_for_node follows the scene's ext_resource to the script.
	n := plugintest.Call(t, h, "get_for_node", map[string]any{"node_path": ".", "scene_path": "res://player.tscn"})
	if n["script_path"] != "res://player.gd" || n["content"] != playerGD {
		t.Fatalf("get_for_node = %v", n)
	}
	n = plugintest.Call(t, h, "get_for_node", map[string]any{"node_path": "CollisionShape2D", "scene_path": "res://player.tscn"})
	if n["script_path"] != nil {
		t.Fatalf("node without script = %v", n)
	}
	if got := plugintest.CallErr(t, h, "get_for_node", map[string]any{"scene_path": "res://player.tscn"}); !strings.Contains(got, "node_or_selection") {
		t.Fatalf("no node_path: %s", got)
	}

	// patch replaces every occurrence and refuses absent text.
	p := plugintest.Call(t, h, "patch", map[string]any{"script_path": "res://player.gd", "find": "velocity", "replace": "vel"})
	if int(p["replacements"].(float64)) != strings.Count(playerGD, "velocity") || p["warning"] != nil {
		t.Fatalf("patch = %v", p)
	}
	if got := plugintest.CallErr(t, h, "patch", map[string]any{"script_path": "res://player.gd", "find": "no such text", "replace": "x"}); !strings.HasPrefix(got, "NOT_FOUND") {
		t.Fatalf("absent find: %s", got)
	}
	if got := plugintest.CallErr(t, h, "read", map[string]any{"script_path": "res://player.txt"}); !strings.HasPrefix(got, "INVALID_ARGUMENT") {
		t.Fatalf("bad extension: %s", got)
	}

	// A patch that breaks the syntax says so, with the line.
	bad := plugintest.Call(t, h, "patch", map[string]any{"script_path": "res://player.gd", "find": "func start(pos):", "replace": "func start(pos)"})
	syn := bad["syntax"].(map[string]any)
	if syn["introduced"] != true || !strings.Contains(bad["warning"].(string), "line 32") {
		t.Fatalf("broken patch = %v", bad)
	}
	pe := plugintest.Call(t, h, "get_parse_errors", map[string]any{})
	if pe["checker"] != builtinChecker || pe["checked"].(float64) != 2 || pe["files_with_errors"].(float64) != 1 {
		t.Fatalf("get_parse_errors = %v", pe)
	}
	e0 := pe["errors"].([]any)[0].(map[string]any)
	if e0["file"] != "res://player.gd" || e0["line"].(float64) != 32 || e0["column"].(float64) == 0 {
		t.Fatalf("parse error = %v", e0)
	}

	// Godot 3 syntax is named with its Godot 4 spelling: as the syntax
	// error's hint, and as a warning where it parses (yield).
	old := plugintest.Call(t, h, "write", map[string]any{"script_path": "res://old.gd", "content": "extends Node\nexport var speed = 10\n"})
	if w, _ := old["warning"].(string); !strings.Contains(w, "use @export var") {
		t.Fatalf("write of Godot 3 syntax = %v", old)
	}
	yield := plugintest.Call(t, h, "write", map[string]any{"script_path": "res://old_yield.gd", "content": "extends Node\nfunc _ready():\n\tyield(get_tree(), \"idle_frame\")\n"})
	if w, _ := yield["warning"].(string); !strings.Contains(w, "line 3 holds Godot 3 syntax") || !strings.Contains(w, "await") {
		t.Fatalf("write of yield = %v", yield)
	}
	pe = plugintest.Call(t, h, "get_parse_errors", map[string]any{"script_path": "res://old.gd"})
	e0 = pe["errors"].([]any)[0].(map[string]any)
	if h, _ := e0["hint"].(string); !strings.Contains(h, "use @export var") || len(pe["godot3_syntax"].([]any)) != 1 {
		t.Fatalf("get_parse_errors of Godot 3 syntax = %v", pe)
	}

	// Undo every call: the project is as it was, scripts gone.
	if _, err := h.Workspace().Undo(context.Background(), h.Workspace().History().Depth, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "player.gd")); err == nil {
		t.Fatal("undo left player.gd behind")
	}
}

// The scripts the tools write compile in Godot 4.6, and the one the
// built-in checker rejects is rejected by Godot at the same line.
func TestWrittenScriptsLoadInGodot(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "project.godot"), []byte("config_version=5\n"), 0o644)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	good := plugintest.Call(t, h, "write", map[string]any{"script_path": "res://player.gd", "content": playerGD})
	if good["syntax"].(map[string]any)["error"] != nil {
		t.Fatalf("good script flagged: %v", good)
	}
	broken := strings.Replace(playerGD, "if velocity.length() > 0:", "if velocity.length() > 0", 1)
	b := plugintest.Call(t, h, "write", map[string]any{"script_path": "res://broken.gd", "content": broken})
	line := int(b["syntax"].(map[string]any)["error"].(map[string]any)["line"].(float64))
	rep := enginecheck.Run(t, map[string][]byte{"project.godot": []byte("config_version=5\n"),
		"player.gd": []byte(playerGD), "broken.gd": []byte(broken)}, loadOpts)
	engineLine := 0
	for _, p := range rep.Problems {
		t.Logf("engine: %s [%s]", p, p.Kind)
		if p.File == "player.gd" && !p.IsWarning() {
			t.Errorf("engine: %s", p)
		}
		if p.File == "broken.gd" && !p.IsWarning() && p.Line > 0 && (engineLine == 0 || p.Line < engineLine) {
			engineLine = p.Line
		}
	}
	if engineLine != line {
		t.Fatalf("built-in checker says line %d, Godot says %d", line, engineLine)
	}
}

func TestEditorModeForwardsExactParams(t *testing.T) {
	ed := sdktest.NewEditor().
		Result("cmd_list_scripts", map[string]any{"directory": "res://", "scripts": []string{"res://a.gd"}}).
		Result("cmd_read_script", map[string]any{"script_path": "res://a.gd", "content": "extends Node\nvar x = 1\n"}).
		Result("cmd_write_script", map[string]any{"script_path": "res://a.gd", "created": false, "overwrote": true, "previous_existed": true}).
		Result("cmd_patch_script", map[string]any{"script_path": "res://a.gd", "replacements": 1}).
		Result("cmd_get_script_for_node", map[string]any{"node_path": "Player", "script_path": "res://a.gd", "content": "extends Node\n"}).
		Result("cmd_get_scan_state", map[string]any{"scanning": false})
	dir := t.TempDir()
	// On disk a.gd is saved broken; the addon's cmd_read_script answers the
	// file too (never the script editor's buffer), so get_parse_errors
	// reads it from disk rather than asking the editor (below).
	plugintest.WriteFile(t, dir, "res://a.gd", "extends Node\nfunc f(\n")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6", Editor: ed.Serve})
	plugintest.Call(t, h, "list", map[string]any{"directory": "res://src", "language": "cs"})
	plugintest.Call(t, h, "read", map[string]any{"script_path": "res://a.gd"})
	w := plugintest.Call(t, h, "write", map[string]any{"script_path": "res://a.gd", "content": "extends Node\nfunc f(\n"})
	if w["overwrote"] != true || w["syntax"].(map[string]any)["introduced"] != true {
		t.Fatalf("write = %v", w)
	}
	p := plugintest.Call(t, h, "patch", map[string]any{"script_path": "res://a.gd", "find": "x = 1", "replace": "x = 2"})
	if p["replacements"].(float64) != 1 {
		t.Fatalf("patch = %v", p)
	}
	plugintest.Call(t, h, "get_for_node", map[string]any{})
	reads := len(ed.Calls("cmd_read_script"))
	pe := plugintest.Call(t, h, "get_parse_errors", map[string]any{"script_path": "res://a.gd"})
	if pe["checker"] != builtinChecker || pe["files_with_errors"].(float64) != 1 {
		t.Fatalf("get_parse_errors = %v", pe)
	}
	if n := len(ed.Calls("cmd_read_script")) - reads; n != 0 {
		t.Errorf("get_parse_errors read the script through the editor %d times", n)
	}
	want := map[string][]string{
		"cmd_list_scripts":        {`{"directory":"res://src","language":"cs"}`},
		"cmd_write_script":        {`{"content":"extends Node\nfunc f(\n","script_path":"res://a.gd"}`},
		"cmd_patch_script":        {`{"find":"x = 1","replace":"x = 2","script_path":"res://a.gd"}`},
		"cmd_get_script_for_node": {`{"node_path":""}`},
	}
	for cmd, w := range want {
		calls := ed.Calls(cmd)
		if len(calls) != len(w) {
			t.Fatalf("%s: %d calls, want %d", cmd, len(calls), len(w))
		}
		for i := range w {
			if got := jsonOf(calls[i].Params); got != w[i] {
				t.Errorf("%s sent %s, want %s", cmd, got, w[i])
			}
		}
	}
	for _, c := range ed.Calls("cmd_read_script") {
		if got := jsonOf(c.Params); got != `{"script_path":"res://a.gd"}` {
			t.Errorf("cmd_read_script sent %s", got)
		}
	}
	if len(ed.Calls("cmd_get_scan_state")) == 0 {
		t.Error("get_parse_errors did not wait for the editor's scan")
	}
	// A dry run forwards no write.
	plugintest.Call(t, h, "write", map[string]any{"script_path": "res://a.gd", "content": "extends Node\n"}, sdktest.DryRun())
	if n := len(ed.Calls("cmd_write_script")); n != 1 {
		t.Fatalf("dry run forwarded a write: %d", n)
	}
	ed.Fail("cmd_read_script", "RESOURCE_NOT_FOUND", "No script at res://b.gd", "")
	if got := plugintest.CallErr(t, h, "read", map[string]any{"script_path": "res://b.gd"}); !strings.HasPrefix(got, "NOT_FOUND: ") || !strings.Contains(got, "No script at res://b.gd") {
		t.Fatalf("addon refusal: %s", got)
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

var _ = sdk.JSON

// An editor dry run of write and patch reads the editor's text (a query)
// and records the write it would send; nothing that changes the editor is
// sent.
func TestEditorDryRunsSendNothing(t *testing.T) {
	ed := sdktest.NewEditor().
		Result("cmd_read_script", map[string]any{"script_path": "res://a.gd", "content": "extends Node\nvar x = 1\n"})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: t.TempDir(), GodotVersion: "4.6", Editor: ed.Serve})
	plugintest.EditorDryRuns(t, h, ed, map[string]any{
		"write": map[string]any{"script_path": "res://a.gd", "content": "extends Node\nfunc f(\n"},
		"patch": map[string]any{"script_path": "res://a.gd", "find": "x = 1", "replace": "x = 2"},
	})
	p := plugintest.Call(t, h, "patch", map[string]any{"script_path": "res://a.gd", "find": "x = 1", "replace": "x = 2"}, sdktest.DryRun())
	cmds, _ := p["preview"].(map[string]any)["commands"].([]any)
	if p["replacements"] != 1.0 || len(cmds) != 1 || cmds[0].(map[string]any)["command"] != "cmd_patch_script" {
		t.Fatalf("patch dry run = %v", p)
	}
	w := plugintest.Call(t, h, "write", map[string]any{"script_path": "res://a.gd", "content": "extends Node\nfunc f(\n"}, sdktest.DryRun())
	if w["previous_existed"] != true || w["syntax"].(map[string]any)["introduced"] != true {
		t.Fatalf("write dry run = %v", w)
	}
}

// get_for_node acts on scene_path in the editor: its tab is opened first.
func TestGetForNodeOpensTheScene(t *testing.T) {
	ed := sdktest.NewEditor().
		Result("cmd_open_scene", map[string]any{"opened": true}).
		Result("cmd_get_script_for_node", map[string]any{"node_path": "Player", "script_path": nil, "content": nil})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: t.TempDir(), GodotVersion: "4.6", Editor: ed.Serve})
	plugintest.Call(t, h, "get_for_node", map[string]any{"node_path": "Player", "scene_path": "res://main.tscn"})
	got := ed.Calls()
	if len(got) != 2 || got[0].Command != "cmd_open_scene" || got[0].Params["scene_path"] != "res://main.tscn" || got[1].Command != "cmd_get_script_for_node" {
		t.Fatalf("editor calls %+v", got)
	}
}

// A new script gets its .uid sidecar in a 4.4+ project, as the editor
// makes it (one undo step with the script); an older project gets none,
// and a script that has one keeps it.
func TestNewScriptsGetUIDSidecars(t *testing.T) {
	for _, c := range []struct {
		version string
		want    bool
	}{{"4.6", true}, {"4.4.1", true}, {"4.3", false}, {"", true}} {
		t.Run("godot "+c.version, func(t *testing.T) {
			dir := project(t, "2d-dodge_the_creeps")
			h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: c.version})
			w := plugintest.Call(t, h, "write", map[string]any{"script_path": "res://enemy.gd", "content": "extends Node\n"})
			side, err := os.ReadFile(filepath.Join(dir, "enemy.gd.uid"))
			if !c.want {
				if err == nil || w["uid"] != nil {
					t.Fatalf("a %s project got a sidecar: %v", c.version, w)
				}
				return
			}
			if err != nil {
				t.Fatalf("no sidecar: %v", err)
			}
			text := strings.TrimSuffix(string(side), "\n")
			if !uid.IsCanonical(text) || string(side) != text+"\n" || w["uid"] != text {
				t.Fatalf("sidecar %q, result uid %v", side, w["uid"])
			}
			// Overwriting keeps the uid; undo removes both files.
			plugintest.Call(t, h, "write", map[string]any{"script_path": "res://enemy.gd", "content": "extends Node2D\n"})
			if again, _ := os.ReadFile(filepath.Join(dir, "enemy.gd.uid")); string(again) != string(side) {
				t.Fatalf("uid changed: %q -> %q", side, again)
			}
			if _, err := h.Workspace().Undo(t.Context(), 2, false); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(dir, "enemy.gd.uid")); err == nil {
				t.Fatal("undo left the sidecar")
			}
		})
	}
}

// C# scripts are listed, read, written and patched like GDScript; nothing
// checks their syntax here, and the results say so.
func TestCSharpScripts(t *testing.T) {
	dir := project(t, "2d-dodge_the_creeps")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	const src = "using Godot;\n\npublic partial class Player : Area2D\n{\n\tpublic int Speed = 400;\n}\n"
	w := plugintest.Call(t, h, "write", map[string]any{"script_path": "res://Player.cs", "content": src})
	syn, _ := w["syntax"].(map[string]any)
	if w["created"] != true || syn["checker"] != "none" || syn["checked"] != false || !strings.Contains(fmt.Sprint(syn["note"]), ".NET") {
		t.Fatalf("write = %v", w)
	}
	if _, err := os.Stat(filepath.Join(dir, "Player.cs.uid")); err != nil {
		t.Fatalf("no .uid for the C# script: %v", err)
	}
	if got := jsonOf(plugintest.Call(t, h, "list", map[string]any{"language": "cs"})["scripts"]); got != `["res://Player.cs"]` {
		t.Fatalf("list cs = %s", got)
	}
	if r := plugintest.Call(t, h, "read", map[string]any{"script_path": "res://Player.cs"}); r["content"] != src {
		t.Fatalf("read = %v", r)
	}
	p := plugintest.Call(t, h, "patch", map[string]any{"script_path": "res://Player.cs", "find": "400", "replace": "300"})
	if p["replacements"] != float64(1) || p["syntax"].(map[string]any)["checked"] != false {
		t.Fatalf("patch = %v", p)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "Player.cs")); !strings.Contains(string(got), "Speed = 300") {
		t.Fatalf("patched text: %s", got)
	}
}

// A new script needs no confirm; replacing one does (the host's rule for
// ConfirmOverwrite, which sdktest applies), and a dry run needs none.
func TestWriteConfirmsOnlyOverwrites(t *testing.T) {
	dir := t.TempDir()
	plugintest.WriteFile(t, dir, "project.godot", "config_version=5\n")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	ctx := context.Background()
	script := map[string]any{"script_path": "res://a.gd", "content": "extends Node\n"}
	if res := h.Call(ctx, "write", script); res.IsError {
		t.Fatalf("new script without confirm: %s", res.Text())
	}
	replace := map[string]any{"script_path": "res://a.gd", "content": "extends Node2D\n"}
	if res := h.Call(ctx, "write", replace); res.ErrorCode != sdk.CodePreconditionFailed ||
		res.Error.Required != sdk.RequiredConfirm || !strings.Contains(res.Text(), "res://a.gd") {
		t.Errorf("overwrite without confirm: %s %s", res.ErrorCode, res.Text())
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a.gd")); string(got) != "extends Node\n" {
		t.Fatalf("a refused overwrite changed the file: %q", got)
	}
	if res := h.Call(ctx, "write", replace, sdktest.DryRun()); res.IsError {
		t.Errorf("dry run of an overwrite: %s", res.Text())
	}
	if res := h.Call(ctx, "write", replace, sdktest.Confirm()); res.IsError {
		t.Errorf("confirmed overwrite: %s", res.Text())
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a.gd")); string(got) != "extends Node2D\n" {
		t.Fatalf("confirmed overwrite: %q", got)
	}
}

// No write loses an edit the agent did not see: the user edits a script
// between the agent's read and its write; the write is refused with a diff
// of the user's edit, unless forced or based on the version it names.
func TestWriteRefusesAnEditTheAgentDidNotSee(t *testing.T) {
	dir := t.TempDir()
	plugintest.WriteFile(t, dir, "project.godot", "config_version=5\n")
	plugintest.WriteFile(t, dir, "a.gd", "extends Node\n\nvar speed = 1\n")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	ctx := context.Background()

	r := plugintest.Call(t, h, "read", map[string]any{"script_path": "res://a.gd"})
	v1, _ := r["version"].(string)
	if !strings.HasPrefix(v1, "sha256:") {
		t.Fatalf("read has no version: %v", r)
	}
	plugintest.WriteFile(t, dir, "a.gd", "extends Node\n\nvar speed = 2 # the user's edit\n")

	mine := map[string]any{"script_path": "res://a.gd", "content": "extends Node\n\nvar speed = 1\nvar health = 3\n"}
	for _, args := range []map[string]any{mine, with(mine, "expected_version", v1)} {
		res := h.Call(ctx, "write", args, sdktest.Confirm())
		if res.ErrorCode != sdk.CodeConflict || !strings.Contains(res.Text(), "-var speed = 1\n+var speed = 2 # the user's edit") {
			t.Fatalf("write over the user's edit (%v): %s", args["expected_version"] != nil, res.Text())
		}
		if testing.Verbose() {
			t.Log(res.Text())
		}
	}
	if res := h.Call(ctx, "write", mine, sdktest.Confirm(), sdktest.DryRun()); res.ErrorCode != sdk.CodeConflict {
		t.Fatalf("dry run over the user's edit: %s", res.Text())
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a.gd")); !strings.Contains(string(got), "the user's edit") {
		t.Fatalf("a refused write changed the file: %q", got)
	}
	// The patch names the version it expects too; find/replace on the new
	// text without one applies to what is there.
	if res := h.Call(ctx, "patch", map[string]any{"script_path": "res://a.gd", "find": "extends", "replace": "extends", "expected_version": v1}); res.ErrorCode != sdk.CodeConflict {
		t.Fatalf("patch on a stale version: %s", res.Text())
	}

	// Forced: written, and the result gives the new version.
	w := plugintest.Call(t, h, "write", with(mine, "force", true), sdktest.Confirm())
	v2, _ := w["version"].(string)
	if w["overwrote"] != true || v2 == "" || v2 == v1 {
		t.Fatalf("forced write = %v", w)
	}
	// The agent wrote it, so it has seen it: the next write goes through,
	// and so does one naming the version the last write returned.
	plugintest.Call(t, h, "write", with(mine, "content", "extends Node\n"), sdktest.Confirm())
	r = plugintest.Call(t, h, "read", map[string]any{"script_path": "res://a.gd"})
	plugintest.Call(t, h, "write", with(with(mine, "content", "extends Node2D\n"), "expected_version", r["version"]), sdktest.Confirm())

	// After undo the agent has seen what undo restored.
	if _, err := h.Workspace().Undo(ctx, 1, false); err != nil {
		t.Fatal(err)
	}
	plugintest.Call(t, h, "write", with(mine, "content", "extends Node3D\n"), sdktest.Confirm())

	// A file the agent never read is overwritten as before (confirm is the
	// gate), and creating one needs neither.
	plugintest.WriteFile(t, dir, "b.gd", "extends Node\n")
	plugintest.Call(t, h, "write", map[string]any{"script_path": "res://b.gd", "content": "extends Node2D\n"}, sdktest.Confirm())
	plugintest.Call(t, h, "write", map[string]any{"script_path": "res://c.gd", "content": "extends Node2D\n"})
}

func with(m map[string]any, k string, v any) map[string]any {
	out := maps.Clone(m)
	if out == nil {
		out = map[string]any{}
	}
	out[k] = v
	return out
}
