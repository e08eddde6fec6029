package e2e

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
)

// playground copies the input toolset's test game (a player that moves
// one pixel per physics tick while D is held) into a temporary project.
// playing starts the host on a playground with the runtime, input and
// other toolsets enabled and the game playing in the web runtime at a
// fixed 60 fps; it is stopped when the test ends.
func playing(t *testing.T, other string) *session {
	t.Helper()
	if _, err := webgodot.Locate(); err != nil {
		testenv.Missing(t, "the Godot web runtime", err.Error())
	}
	dir := playground(t)
	s := stdioHostEnv(t, sessionless, []string{"GODOT_MCP_GAME_DIR=" + filepath.Join(t.TempDir(), "games")},
		"--plugins-dir", projectPluginsDir, "--project", dir, "--log-level", "warn")
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"runtime", "input", other}}, nil)
	s.ok(t, "godot_runtime_play_scene", map[string]any{"fixed_fps": 60, "timeout_seconds": 300}, nil)
	t.Cleanup(func() { s.call(t, "godot_runtime_stop_scene", map[string]any{}) })
	return s
}

func playground(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "plugins", "input", "testdata", "play")
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
	return dir
}

// TestPlayHeadless: through the real host and three real plugin
// processes, the runtime toolset plays the game in the web runtime and the
// input and profiling toolsets reach that session: a key held for 30
// stepped ticks moves the player exactly 30 pixels, the monitors come
// back under the engine's names, and once the game stops the tools say
// how to start one.
func TestPlayHeadless(t *testing.T) {
	s := playing(t, "profiling")

	var pos struct {
		Value struct{ X float64 } `json:"value"`
	}
	s.ok(t, "godot_input_pause", map[string]any{}, nil)
	s.ok(t, "godot_runtime_read_property", map[string]any{"node_path": "Player", "property": "position"}, &pos)
	x0 := pos.Value.X
	s.ok(t, "godot_input_simulate_key", map[string]any{"key": "D"}, nil)
	var step struct {
		TicksRun int  `json:"ticks_run"`
		FixedFPS int  `json:"fixed_fps"`
		Paused   bool `json:"paused"`
	}
	s.ok(t, "godot_input_step_frames", map[string]any{"frames": 30}, &step)
	s.ok(t, "godot_input_simulate_key", map[string]any{"key": "D", "pressed": false}, nil)
	if step.TicksRun != 30 || step.FixedFPS != 60 || !step.Paused {
		t.Errorf("step_frames: %+v", step)
	}
	s.ok(t, "godot_runtime_read_property", map[string]any{"node_path": "Player", "property": "position"}, &pos)
	if pos.Value.X != x0+30 {
		t.Errorf("x = %v after 30 ticks with D held, want %v", pos.Value.X, x0+30)
	}

	var perf struct {
		Frames   int                `json:"frames"`
		Monitors map[string]float64 `json:"monitors"`
	}
	s.ok(t, "godot_profiling_get_performance_monitors", map[string]any{"frames": 5}, &perf)
	if _, ok := perf.Monitors["time/fps"]; !ok || perf.Frames != 5 || perf.Monitors["object/node_count"] < 3 {
		t.Errorf("monitors: %+v", perf)
	}

	s.ok(t, "godot_runtime_stop_scene", map[string]any{}, nil)
	res := s.call(t, "godot_input_get_stats", map[string]any{})
	if !res.IsError || !strings.Contains(text(res), "no game is running") || !strings.Contains(text(res), "godot_runtime_play_scene") {
		t.Errorf("get_stats after stop: %s", text(res))
	}
}

// TestPlayEditorMode: with the (fake) addon attached the same tools send
// the addon's commands with the reference's params.
func TestPlayEditorMode(t *testing.T) {
	url := bridgeURL(t)
	dir := playground(t)
	s := stdioHostEnv(t, sessionless, []string{"GODOT_MCP_BRIDGE_URL=" + url},
		"--plugins-dir", projectPluginsDir, "--project", dir, "--log-level", "warn")
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"input", "profiling"}}, nil)
	ed := attachAddon(t, s, fakeaddon.Options{URL: url, GodotVersion: "4.6.1-stable", Handlers: map[string]fakeaddon.Handler{
		"cmd_simulate_key": func(map[string]any) fakeaddon.Reply {
			return fakeaddon.OK(map[string]any{"sent": true, "kind": "key", "count": 1})
		},
		"cmd_get_performance_monitors": func(map[string]any) fakeaddon.Reply {
			return fakeaddon.OK(map[string]any{"playing": true, "connected": true, "ready": true, "monitors": map[string]any{"fps": 60}})
		},
	}})
	var sent struct {
		Sent bool   `json:"sent"`
		Kind string `json:"kind"`
	}
	s.ok(t, "godot_input_simulate_key", map[string]any{"key": "Enter", "ctrl": true}, &sent)
	var perf struct {
		Monitors map[string]float64 `json:"monitors"`
	}
	s.ok(t, "godot_profiling_get_performance_monitors", map[string]any{}, &perf)
	if !sent.Sent || sent.Kind != "key" || perf.Monitors["fps"] != 60 {
		t.Errorf("answers: %+v %+v", sent, perf)
	}
	keys := ed.Calls("cmd_simulate_key")
	if len(keys) != 1 || !reflect.DeepEqual(keys[0].Params, map[string]any{"key": "Enter", "pressed": true, "shift": false, "ctrl": true, "alt": false, "meta": false}) {
		t.Errorf("cmd_simulate_key: %+v", keys)
	}
	if mons := ed.Calls("cmd_get_performance_monitors"); len(mons) != 1 || len(mons[0].Params) != 0 {
		t.Errorf("cmd_get_performance_monitors: %+v", mons)
	}
	res := s.call(t, "godot_input_step_frames", map[string]any{"frames": 3})
	if !res.IsError || !strings.Contains(text(res), "godot_runtime_play_scene") {
		t.Errorf("step_frames with the editor: %s", text(res))
	}
}
