package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
)

// debugGame is a Godot 3 game whose _process runs line 7 every frame.
const debugGame = `extends Node

var count = 0

func _process(delta):
	var before = count
	count += 1
`

// The debugger toolset through the real host, headless: the plugin starts
// godot3-server under Godot's remote debugger, the game stops at the
// breakpoint, the stack says where, and disabling the toolset kills the
// game.
func TestDebuggerHeadlessGodot3(t *testing.T) {
	if _, err := exec.LookPath("godot3-server"); err != nil {
		t.Skip("godot3-server (Godot 3.2) is not installed; scripts/test.sh installs it")
	}
	dir := t.TempDir()
	for name, content := range map[string]string{
		"project.godot": "config_version=4\n\n[application]\n\nrun/main_scene=\"res://main.tscn\"\n",
		"main.tscn":     "[gd_scene load_steps=2 format=2]\n\n[ext_resource path=\"res://main.gd\" type=\"Script\" id=1]\n\n[node name=\"Main\" type=\"Node\"]\nscript = ExtResource( 1 )\n",
		"main.gd":       debugGame,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := stdioHost(t, legacy, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"debugger"}}, nil)

	var set map[string]any
	s.ok(t, "godot_debugger_set_breakpoint", map[string]any{"path": "res://main.gd", "line": 7}, &set)
	if set["applies"] != "next_run" {
		t.Fatalf("set_breakpoint: %v", set)
	}
	var run struct {
		Paused   bool     `json:"paused"`
		Location string   `json:"location"`
		Command  []string `json:"command"`
	}
	s.ok(t, "godot_debugger_run", map[string]any{"timeout_seconds": 120}, &run)
	if !run.Paused || run.Location != "res://main.gd:7" {
		t.Fatalf("run: %+v", run)
	}
	var frames struct {
		Frames []struct {
			File     string `json:"file"`
			Line     int    `json:"line"`
			Function string `json:"function"`
		} `json:"frames"`
	}
	s.ok(t, "godot_debugger_get_stack_frames", map[string]any{}, &frames)
	if len(frames.Frames) != 1 || frames.Frames[0].File != "res://main.gd" || frames.Frames[0].Line != 7 || frames.Frames[0].Function != "_process" {
		t.Fatalf("frames: %+v", frames)
	}
	var vars struct {
		Locals []struct {
			Name  string `json:"name"`
			Value any    `json:"value"`
		} `json:"locals"`
	}
	s.ok(t, "godot_debugger_get_frame_variables", map[string]any{}, &vars)
	found := false
	for _, v := range vars.Locals {
		found = found || (v.Name == "before" && v.Value == float64(0))
	}
	if !found {
		t.Fatalf("locals: %+v", vars)
	}

	// Disabling the toolset ends the plugin, and the game with it.
	pids := gamePids(t, dir)
	if len(pids) == 0 {
		t.Fatal("no Godot process runs the project")
	}
	s.ok(t, "godot_disable_toolset", map[string]any{"toolsets": []string{"debugger"}}, nil)
	waitUntil(t, "the game to be killed", func() bool { return len(gamePids(t, dir)) == 0 })
}

// gamePids are the processes whose command line runs the project in dir.
func gamePids(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		if reflect.DeepEqual(b, []byte{}) {
			continue
		}
		if containsArg(b, dir) && containsArg(b, "--remote-debug") {
			out = append(out, e.Name())
		}
	}
	return out
}

func containsArg(cmdline []byte, arg string) bool {
	start := 0
	for i, c := range cmdline {
		if c == 0 {
			if string(cmdline[start:i]) == arg {
				return true
			}
			start = i + 1
		}
	}
	return false
}

// With an editor attached the debugger tools forward to the addon's
// commands with the reference's params.
func TestDebuggerEditorMode(t *testing.T) {
	url := bridgeURL(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "project.godot"), []byte("config_version=5\n\n[application]\n\nconfig/features=PackedStringArray(\"4.6\")\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.gd"), []byte(debugGame), 0o644); err != nil {
		t.Fatal(err)
	}
	s := stdioHostEnv(t, legacy, []string{"GODOT_MCP_BRIDGE_URL=" + url}, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"debugger"}}, nil)
	ed := attachAddon(t, s, fakeaddon.Options{URL: url, GodotVersion: "4.6.1-stable", Handlers: map[string]fakeaddon.Handler{
		"cmd_set_breakpoint": func(p map[string]any) fakeaddon.Reply {
			return fakeaddon.OK(map[string]any{"breakpoint_set": true, "path": p["path"], "line": p["line"]})
		},
		"cmd_get_frame_variables": func(p map[string]any) fakeaddon.Reply {
			return fakeaddon.OK(map[string]any{"frame": p["frame"], "locals": []any{map[string]any{"name": "before", "value": 3}}})
		},
	}})
	var out map[string]any
	s.ok(t, "godot_debugger_set_breakpoint", map[string]any{"path": "main.gd", "line": 7}, &out)
	if out["breakpoint_set"] != true || out["path"] != "res://main.gd" {
		t.Fatalf("set_breakpoint: %v", out)
	}
	s.ok(t, "godot_debugger_get_frame_variables", map[string]any{"frame": 2}, &out)
	calls := ed.Calls("cmd_set_breakpoint", "cmd_get_frame_variables")
	if len(calls) != 2 ||
		!reflect.DeepEqual(calls[0].Params, map[string]any{"path": "res://main.gd", "line": float64(7)}) ||
		!reflect.DeepEqual(calls[1].Params, map[string]any{"frame": float64(2)}) {
		t.Fatalf("addon calls: %+v", calls)
	}
}
