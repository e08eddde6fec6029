package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/gamesession"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// game starts the small game of internal/webgodot/testdata/game in the
// web runtime and publishes it as the runtime toolset's play_scene does.
func game(t *testing.T) string {
	t.Helper()
	setup, err := webgodot.Locate()
	if err != nil {
		testenv.Missing(t, "the Godot web runtime (Chromium and the npm package "+webgodot.RuntimePackage+")", err.Error())
	}
	t.Setenv(gamesession.DirEnv, filepath.Join(t.TempDir(), "games"))
	src := filepath.Join("..", "..", "internal", "webgodot", "testdata", "game")
	dir := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := webgodot.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	plugintest.PlayGame(t, r, dir, 0)
	return dir
}

type stat struct{ Min, Max, Avg, Last float64 }

type window struct {
	Ready    bool
	Frames   int
	WindowMS float64 `json:"window_ms"`
	Monitors map[string]float64
	Stats    map[string]stat
}

// TestMonitorsOfARunningGame samples the real engine's monitors over a
// window: the engine's names, plausible values, a filter, a bad name.
func TestMonitorsOfARunningGame(t *testing.T) {
	dir := game(t)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	out := plugintest.CallAs[window](t, h, "get_performance_monitors", map[string]any{"frames": 30})
	if !out.Ready || out.Frames != 30 || out.WindowMS <= 0 {
		t.Errorf("window: ready %v, %d frames in %v ms", out.Ready, out.Frames, out.WindowMS)
	}
	for _, name := range []string{"time/fps", "time/process", "time/physics_process", "memory/static", "object/count",
		"object/node_count", "object/resource_count", "render/total_draw_calls_in_frame", "physics_2d/active_objects"} {
		if _, ok := out.Monitors[name]; !ok {
			t.Errorf("no monitor %s in %v", name, keys(out.Monitors))
		}
	}
	// The test game: a root, a square, a marker, a label, the probe.
	if n := out.Stats["object/node_count"]; n.Min < 4 || n.Max > 50 {
		t.Errorf("object/node_count %+v", n)
	}
	// memory/static stays 0 here: the web runtime is a release build,
	// which does not count its allocations.
	if o := out.Stats["object/count"]; o.Min < 100 {
		t.Errorf("object/count %+v", o)
	}
	if f := out.Stats["time/fps"]; f.Max <= 0 || f.Max > 1000 {
		t.Errorf("time/fps %+v", f)
	}
	if p := out.Stats["time/process"]; p.Avg <= 0 || p.Max > 1 {
		t.Errorf("time/process %+v (seconds)", p)
	}
	if d := out.Stats["render/total_draw_calls_in_frame"]; d.Max < 1 {
		t.Errorf("render/total_draw_calls_in_frame %+v: the game draws", d)
	}

	one := plugintest.Call(t, h, "get_performance_monitors", map[string]any{"frames": 2, "monitors": []string{"object/node_count"}})
	if m := one["monitors"].(map[string]any); len(m) != 1 {
		t.Errorf("filtered monitors: %v", m)
	}
	plugintest.Refused(t, h, "get_performance_monitors", map[string]any{"monitors": []string{"fps"}}, sdk.CodeInvalidArgument, "time/fps")
	// Headless, the editor's monitors need the editor.
	plugintest.Refused(t, h, "get_editor_performance", map[string]any{}, sdk.CodePreconditionFailed, "needs a Godot editor")
}

func keys(m map[string]float64) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestNoGame(t *testing.T) {
	t.Setenv(gamesession.DirEnv, filepath.Join(t.TempDir(), "games"))
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: t.TempDir(), GodotVersion: "4.6"})
	plugintest.Refused(t, h, "get_performance_monitors", map[string]any{}, sdk.CodePreconditionFailed, "godot_runtime_play_scene")
}

// TestEditorMode: the exact addon commands and params, and their answers
// passed through.
func TestEditorMode(t *testing.T) {
	polls := 0
	ed := sdktest.NewEditor().
		On("cmd_get_performance_monitors", func(map[string]any) (any, *sdk.Error) {
			polls++
			if polls == 1 {
				return map[string]any{"playing": true, "connected": true, "ready": false}, nil
			}
			return map[string]any{"playing": true, "connected": true, "ready": true, "monitors": map[string]any{"fps": 60}}, nil
		}).
		Result("cmd_get_editor_performance", map[string]any{"monitors": map[string]any{"fps": 144, "node_count": 812}})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: t.TempDir(), GodotVersion: "4.6", Editor: ed.Serve})
	got := plugintest.Call(t, h, "get_performance_monitors", map[string]any{})
	if !reflect.DeepEqual(got["monitors"], map[string]any{"fps": float64(60)}) {
		t.Errorf("monitors: %v", got)
	}
	perf := plugintest.Call(t, h, "get_editor_performance", map[string]any{})
	if !reflect.DeepEqual(perf["monitors"], map[string]any{"fps": float64(144), "node_count": float64(812)}) {
		t.Errorf("editor performance: %v", perf)
	}
	calls := ed.Calls()
	want := []string{"cmd_get_performance_monitors", "cmd_get_performance_monitors", "cmd_get_editor_performance"}
	if len(calls) != len(want) {
		t.Fatalf("calls %v", calls)
	}
	for i, c := range calls {
		if c.Command != want[i] || len(c.Params) != 0 {
			t.Errorf("call %d: %s %v, want %s {}", i, c.Command, c.Params, want[i])
		}
	}
}
