package main

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// noEngine is a web checker that finds no engine: the built-in checker runs.
func noEngine() *webChecker {
	return newWebChecker(func() (webgodot.Setup, error) {
		return webgodot.Setup{}, errors.New("the web runtime is off in this test")
	})
}

// useEngine gives the test the real web runtime (skipped locally, failed
// in CI when it is missing), one warm engine for the whole test.
func useEngine(t testing.TB) *webChecker {
	t.Helper()
	if _, err := webgodot.Locate(); err != nil {
		testenv.Missing(t, "the Godot web engine", err.Error())
	}
	prev := theWeb
	theWeb = newWebChecker(webgodot.Locate)
	w := theWeb
	t.Cleanup(func() {
		w.Close()
		theWeb = prev
	})
	return w
}

const engineProject = "config_version=5\n\n[application]\n\nconfig/name=\"checks\"\nconfig/features=PackedStringArray(\"4.6\")\n\n[autoload]\n\nGame=\"*res://game.gd\"\n"

// A CharacterBody2D script with class_name, used by others by name.
const heroGD = `class_name Hero
extends CharacterBody2D

const Util = preload("res://util.gd")

@export var speed := 200.0

func _physics_process(_delta: float) -> void:
	velocity.x = Input.get_axis("ui_left", "ui_right") * speed
	move_and_slide()
	Game.score += Util.double(1)

static func spawn() -> Hero:
	return Hero.new()
`

const utilGD = "extends RefCounted\n\nstatic func double(x: int) -> int:\n\treturn x * 2\n"

const gameGD = "extends Node\n\nvar score := 0\n"

// level.gd names Hero, a class_name of another file.
const levelGD = `extends Node2D

func _ready() -> void:
	var h: Hero = Hero.spawn()
	add_child(h)
	h.speed = 3.0
	h.move_and_slide()
`

func engineHost(t *testing.T) (*sdktest.Host, string) {
	dir := plugintest.Project(t, map[string]string{
		"project.godot": engineProject, "hero.gd": heroGD, "util.gd": utilGD, "game.gd": gameGD, "level.gd": levelGD,
	})
	return sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"}), dir
}

func errorsOf(t *testing.T, v any) []scriptError {
	t.Helper()
	var out []scriptError
	l, _ := v.([]any)
	for _, e := range l {
		m := e.(map[string]any)
		se := scriptError{File: m["file"].(string), Message: m["message"].(string)}
		if l, ok := m["line"].(float64); ok {
			se.Line = int(l)
		}
		if c, ok := m["column"].(float64); ok {
			se.Column = int(c)
		}
		out = append(out, se)
	}
	return out
}

// The engine's compiler checks through get_parse_errors, write and patch:
// a project whose scripts name each other's class_names, preloads and an
// autoload compiles clean; a typo in a member or a method of
// CharacterBody2D is reported with its line, by write, patch and
// get_parse_errors, and called out as introduced.
func TestEngineChecksScriptsInTheirProject(t *testing.T) {
	w := useEngine(t)
	h, _ := engineHost(t)

	pe := plugintest.Call(t, h, "get_parse_errors", map[string]any{})
	if pe["checker"] != engineChecker || pe["checked"].(float64) != 4 || pe["files_with_errors"].(float64) != 0 ||
		!strings.Contains(pe["checker_detail"].(string), "web runtime") {
		t.Fatalf("a valid project: %v", pe)
	}

	broken := strings.Replace(heroGD, "velocity.x = Input", "velocty.x = Input", 1)
	broken = strings.Replace(broken, "\tmove_and_slide()\n\tGame", "\tmove_and_slid()\n\tGame", 1)
	wr := plugintest.Call(t, h, "write", map[string]any{"script_path": "res://hero.gd", "content": broken, "force": true})
	syn := wr["syntax"].(map[string]any)
	if syn["checker"] != engineChecker || syn["introduced"] != true {
		t.Fatalf("write of a broken script: %v", wr)
	}
	got := errorsOf(t, syn["introduced_errors"])
	if len(got) != 2 || got[0].Line != 9 || !strings.Contains(got[0].Message, `"velocty"`) || got[0].Column != 2 ||
		got[1].Line != 10 || !strings.Contains(got[1].Message, `"move_and_slid()"`) {
		t.Fatalf("introduced errors: %+v", got)
	}
	if !strings.Contains(wr["warning"].(string), "line 9") {
		t.Fatalf("warning: %v", wr["warning"])
	}

	pe = plugintest.Call(t, h, "get_parse_errors", map[string]any{"script_path": "res://hero.gd"})
	got = errorsOf(t, pe["errors"])
	if pe["checker"] != engineChecker || len(got) != 2 || got[0].File != "res://hero.gd" || got[0].Line != 9 || got[1].Line != 10 {
		t.Fatalf("get_parse_errors of the broken script: %v", pe)
	}

	// A patch that fixes one error introduces nothing.
	pa := plugintest.Call(t, h, "patch", map[string]any{"script_path": "res://hero.gd", "find": "velocty", "replace": "velocity"})
	syn = pa["syntax"].(map[string]any)
	if syn["checker"] != engineChecker || syn["introduced"] != false || len(errorsOf(t, syn["errors"])) != 1 {
		t.Fatalf("patch that fixes one error: %v", pa)
	}
	// A wrong argument count in another file.
	pa = plugintest.Call(t, h, "patch", map[string]any{"script_path": "res://level.gd", "find": "Hero.spawn()", "replace": "Hero.spawn(1)"})
	got = errorsOf(t, pa["syntax"].(map[string]any)["introduced_errors"])
	if len(got) != 1 || got[0].Line != 4 || !strings.Contains(got[0].Message, "Too many arguments") {
		t.Fatalf("wrong argument count: %v", pa)
	}

	// A new class_name in a new file is seen by the script that uses it
	// (the engine restarts with the new class cache).
	starts := w.starts
	plugintest.Call(t, h, "write", map[string]any{"script_path": "res://npc.gd", "content": "class_name Npc\nextends Node\n\nfunc greet() -> String:\n\treturn \"hi\"\n"})
	user := plugintest.Call(t, h, "write", map[string]any{"script_path": "res://talk.gd", "content": "extends Node\n\nfunc _ready() -> void:\n\tvar n: Npc = Npc.new()\n\tprint(n.greet())\n\tprint(n.greet(1))\n"})
	got = errorsOf(t, user["syntax"].(map[string]any)["errors"])
	if len(got) != 1 || got[0].Line != 6 || !strings.Contains(got[0].Message, "Too many arguments") {
		t.Fatalf("a script using a new class_name: %v", user)
	}
	if w.starts == starts {
		t.Error("the engine was not restarted for the new class_name")
	}

	// A dry run checks the text it would write.
	dry := plugintest.Call(t, h, "write", map[string]any{"script_path": "res://talk.gd", "content": "extends Node\nfunc f():\n\tundefined_thing()\n", "dry_run": true, "force": true})
	got = errorsOf(t, dry["syntax"].(map[string]any)["errors"])
	if len(got) != 1 || got[0].Line != 3 {
		t.Fatalf("dry run: %v", dry)
	}
}

// Without any engine the built-in checker answers, and says why.
func TestNoEngineFallsBackToTheBuiltInChecker(t *testing.T) {
	h, _ := engineHost(t)
	wr := plugintest.Call(t, h, "write", map[string]any{"script_path": "res://x.gd", "content": "extends Node\nfunc f()\n\tpass\n"})
	syn := wr["syntax"].(map[string]any)
	if syn["checker"] != builtinChecker || !strings.Contains(syn["fallback"].(string), "No engine can run here") || syn["introduced"] != true {
		t.Fatalf("write without an engine: %v", wr)
	}
	pe := plugintest.Call(t, h, "get_parse_errors", map[string]any{})
	if pe["checker"] != builtinChecker || !strings.Contains(pe["fallback"].(string), "No engine can run here") || pe["files_with_errors"].(float64) != 1 {
		t.Fatalf("get_parse_errors without an engine: %v", pe)
	}
}

// BenchmarkEngineCheck measures get_parse_errors of one script through
// the plugin: cold (the engine starts with the project) and warm, on a
// small project and on a demo project with its assets (3d-platformer).
//
//	go test ./plugins/scripts -run '^$' -bench BenchmarkEngineCheck -benchtime 20x
func BenchmarkEngineCheck(b *testing.B) {
	useEngine(b)
	small := plugintest.Project(b, map[string]string{
		"project.godot": engineProject, "hero.gd": heroGD, "util.gd": utilGD, "game.gd": gameGD, "level.gd": levelGD,
	})
	demo := filepath.Join(testenv.RepoRoot(), "..", "shared", "fixtures", "projects", "3d-platformer")
	for _, c := range []struct{ name, dir, script string }{
		{"small", small, "res://level.gd"},
		{"3d-platformer", demo, "res://player/player.gd"},
	} {
		b.Run(c.name, func(b *testing.B) {
			if _, err := os.Stat(c.dir); err != nil {
				b.Skip(err)
			}
			theWeb.Close()
			h := sdktest.New(b, Toolset(), sdktest.Options{ProjectDir: c.dir, GodotVersion: "4.6"})
			args := map[string]any{"script_path": c.script}
			start := time.Now()
			if pe := plugintest.Call(b, h, "get_parse_errors", args); pe["checker"] != engineChecker {
				b.Fatalf("cold: %v", pe)
			}
			cold := time.Since(start)
			var took []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s := time.Now()
				if pe := plugintest.Call(b, h, "get_parse_errors", args); pe["files_with_errors"].(float64) != 0 {
					b.Fatalf("warm: %v", pe)
				}
				took = append(took, time.Since(s))
			}
			sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
			b.ReportMetric(float64(cold.Milliseconds()), "cold-ms/check")
			b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "warm-ms/check")
			b.ReportMetric(float64(took[len(took)*9/10].Microseconds())/1000, "warm-p90-ms/check")
		})
	}
}

// An autoload that quits the game stops the engine it starts in; the check
// then runs in an engine without the autoloads, and still knows their
// names.
func TestAnAutoloadThatQuitsDoesNotStopTheCheck(t *testing.T) {
	w := useEngine(t)
	dir := plugintest.Project(t, map[string]string{
		"project.godot": "config_version=5\n\n[application]\n\nconfig/name=\"quits\"\nconfig/features=PackedStringArray(\"4.6\")\n\n[autoload]\n\nBoot=\"*res://boot.gd\"\n",
		"boot.gd":       "extends Node\n\nvar ready_done := false\n\nfunc _ready() -> void:\n\tget_tree().quit()\n",
		"main.gd":       "extends Node\n\nfunc _ready() -> void:\n\tprint(Boot.ready_done)\n\tvelocty = 1\n",
	})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	pe := plugintest.Call(t, h, "get_parse_errors", map[string]any{"script_path": "res://main.gd"})
	got := errorsOf(t, pe["errors"])
	if pe["checker"] != engineChecker || len(got) != 1 || got[0].Line != 5 {
		t.Fatalf("a project whose autoload quits: %v", pe)
	}
	if w.variants[dir] == withAutoloads || !w.autoloads["Boot"] {
		t.Errorf("the engine did not fall back to starting without the autoloads (%s, %v)", variants[w.variants[dir]], w.autoloads)
	}
}

// fakeGodot4 answers --version as Godot 4.6 and, run with --check-only on
// a script, reports what Godot reports for a misspelt identifier: a
// stand-in for a native Godot 4, which this machine does not have.
const fakeGodot4 = `#!/bin/sh
if [ "$1" = "--version" ]; then echo "4.6.stable.official.89cea1439"; exit 0; fi
while [ $# -gt 0 ]; do
  case "$1" in
    --path) dir="$2"; shift;;
    --script) script="$2"; shift;;
  esac
  shift
done
f="$dir/${script#res://}"
n=$(grep -n velocty "$f" | head -1 | cut -d: -f1)
if [ -n "$n" ]; then
  echo "SCRIPT ERROR: Parse Error: Identifier \"velocty\" not declared in the current scope." >&2
  echo "   at: GDScript::reload ($script:$n)" >&2
  exit 1
fi
exit 0
`

// With a native Godot 4 binary, write and patch report its verdict on the
// written file, compared with its verdict on the file before; a dry run,
// whose text is not on disk, goes to the next checker.
func TestWriteUsesANativeGodot4(t *testing.T) {
	dir := plugintest.Project(t, map[string]string{"project.godot": engineProject, "game.gd": gameGD})
	bin := filepath.Join(t.TempDir(), "godot")
	if err := os.WriteFile(bin, []byte(fakeGodot4), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GODOT_MCP_GODOT_BIN", bin)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	src := "extends CharacterBody2D\n\nfunc _physics_process(_d: float) -> void:\n\tvelocity.x = 0\n"
	w := plugintest.Call(t, h, "write", map[string]any{"script_path": "res://p.gd", "content": src})
	syn := w["syntax"].(map[string]any)
	if syn["checker"] != engineChecker || syn["checker_detail"] != "godot --check-only 4.6.stable.official.89cea1439" || syn["introduced"] != false {
		t.Fatalf("a clean write: %v", w)
	}
	pa := plugintest.Call(t, h, "patch", map[string]any{"script_path": "res://p.gd", "find": "velocity", "replace": "velocty"})
	got := errorsOf(t, pa["syntax"].(map[string]any)["introduced_errors"])
	if len(got) != 1 || got[0].Line != 4 || got[0].Column != 2 || !strings.Contains(got[0].Message, `"velocty"`) {
		t.Fatalf("a patch that misspells: %v", pa)
	}
	// The error is there before and after: nothing introduced.
	pa = plugintest.Call(t, h, "patch", map[string]any{"script_path": "res://p.gd", "find": "_d: float", "replace": "_delta: float"})
	syn = pa["syntax"].(map[string]any)
	if syn["checker"] != engineChecker || syn["introduced"] != false || len(errorsOf(t, syn["errors"])) != 1 {
		t.Fatalf("a patch that keeps the error: %v", pa)
	}
	dry := plugintest.Call(t, h, "write", map[string]any{"script_path": "res://q.gd", "content": "extends Node\nfunc f(\n", "dry_run": true})
	if syn := dry["syntax"].(map[string]any); syn["checker"] != builtinChecker || syn["introduced"] != true {
		t.Fatalf("a dry run: %v", dry)
	}
}

// A script that uses an editor class cannot be judged by the web runtime
// (the web build has no editor classes): it is listed as unverified, with
// the built-in checker's verdict, and never reported as broken for that.
func TestEditorScriptsAreUnverifiedNotBroken(t *testing.T) {
	useEngine(t)
	dir := plugintest.Project(t, map[string]string{
		"project.godot": engineProject, "game.gd": gameGD,
		"addons/tool/plugin.gd": "@tool\nextends EditorPlugin\n\nfunc _enter_tree() -> void:\n\tadd_custom_type(\"X\", \"Node\", null, null)\n",
	})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	pe := plugintest.Call(t, h, "get_parse_errors", map[string]any{})
	un, _ := pe["unverified"].([]any)
	if pe["checker"] != engineChecker || pe["files_with_errors"].(float64) != 0 || len(un) != 1 ||
		un[0].(map[string]any)["file"] != "res://addons/tool/plugin.gd" || !strings.Contains(un[0].(map[string]any)["reason"].(string), "EditorPlugin") {
		t.Fatalf("an editor plugin script: %v", pe)
	}
}
