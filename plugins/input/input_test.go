package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/gamesession"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// playground copies testdata/play (a player that moves one pixel per
// physics tick while move_left/move_right is held, a Go button that counts
// its presses, and a main script counting Ctrl+S and wheel turns) into a
// temporary project.
func playground(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir("testdata/play")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("testdata/play", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// engine is one Chromium for the package's tests.
type engine struct {
	r *webgodot.Runner
}

func newEngine(t testing.TB) *engine {
	t.Helper()
	setup, err := webgodot.Locate()
	if err != nil {
		testenv.Missing(t, "the Godot web runtime (Chromium and the npm package "+webgodot.RuntimePackage+")", err.Error())
	}
	r, err := webgodot.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	t.Setenv(gamesession.DirEnv, filepath.Join(t.TempDir(), "games"))
	return &engine{r: r}
}

// play starts the project's game with the probe and publishes it as the
// runtime toolset's play_scene does, so the input tools find it.
func (e *engine) play(t testing.TB, dir string, fixedFPS int) *webgodot.Session {
	t.Helper()
	s, _ := plugintest.PlayGame(t, e.r, dir, fixedFPS)
	return s
}

func host(t testing.TB, dir string) *sdktest.Host {
	return sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
}

// x reads the player's position.x through the runtime's read_property
// probe call.
func x(t testing.TB, s *webgodot.Session) float64 {
	t.Helper()
	var out struct {
		Value struct{ X float64 }
		Error string
	}
	if err := s.Call(context.Background(), "read_property", map[string]any{"node_path": "Player", "property": "position"}, &out); err != nil || out.Error != "" {
		t.Fatalf("read position: %v %s", err, out.Error)
	}
	return out.Value.X
}

func prop(t testing.TB, s *webgodot.Session, path, name string) any {
	t.Helper()
	var out struct {
		Value any
		Error string
	}
	if err := s.Call(context.Background(), "read_property", map[string]any{"node_path": path, "property": name}, &out); err != nil || out.Error != "" {
		t.Fatalf("read %s.%s: %v %s", path, name, err, out.Error)
	}
	return out.Value
}

// TestKeysAndSteps: with the game paused, a key held for N physics ticks
// moves the player exactly N pixels (D is bound by physical key, A by
// key), an action at strength 0.5 half as far, and paused time moves
// nothing.
func TestKeysAndSteps(t *testing.T) {
	e := newEngine(t)
	dir := playground(t)
	s := e.play(t, dir, 60)
	h := host(t, dir)

	st := plugintest.Call(t, h, "pause", map[string]any{})
	if st["paused"] != true || st["fixed_fps"] != float64(60) {
		t.Fatalf("pause: %v", st)
	}
	x0 := x(t, s)
	plugintest.Call(t, h, "simulate_key", map[string]any{"key": "D"})
	// Paused: the key is down, nothing moves.
	time.Sleep(200 * time.Millisecond)
	if got := x(t, s); got != x0 {
		t.Fatalf("the player moved while paused: %v -> %v", x0, got)
	}
	step := plugintest.Call(t, h, "step_frames", map[string]any{"frames": 30})
	if step["ticks_run"] != float64(30) || step["paused"] != true {
		t.Errorf("step_frames: %v", step)
	}
	if got := x(t, s); got != x0+30 {
		t.Errorf("after 30 ticks with D held: x = %v, want %v", got, x0+30)
	}
	plugintest.Call(t, h, "simulate_key", map[string]any{"key": "D", "pressed": false})
	plugintest.Call(t, h, "step_frames", map[string]any{"frames": 10})
	if got := x(t, s); got != x0+30 {
		t.Errorf("after release: x = %v, want %v", got, x0+30)
	}
	// A by keycode, the other way.
	plugintest.Call(t, h, "simulate_key", map[string]any{"key": "A"})
	plugintest.Call(t, h, "step_frames", map[string]any{"frames": 5})
	plugintest.Call(t, h, "simulate_key", map[string]any{"key": "A", "pressed": false})
	if got := x(t, s); got != x0+25 {
		t.Errorf("after A for 5 ticks: x = %v, want %v", got, x0+25)
	}
	// An analog action at half strength.
	plugintest.Call(t, h, "simulate_action", map[string]any{"action": "move_right", "strength": 0.5})
	plugintest.Call(t, h, "step_frames", map[string]any{"frames": 20})
	plugintest.Call(t, h, "simulate_action", map[string]any{"action": "move_right", "pressed": false})
	if got := x(t, s); got != x0+35 {
		t.Errorf("after move_right at 0.5 for 20 ticks: x = %v, want %v", got, x0+35)
	}
	// Process frames: with --fixed-fps 60 and 60 ticks/s, one tick each.
	plugintest.Call(t, h, "simulate_key", map[string]any{"key": "D"})
	pf := plugintest.Call(t, h, "step_frames", map[string]any{"frames": 12, "mode": "process"})
	plugintest.Call(t, h, "simulate_key", map[string]any{"key": "D", "pressed": false})
	if pf["frames_run"] != float64(12) || pf["ticks_run"] != float64(12) {
		t.Errorf("process step: %v", pf)
	}
	if got := x(t, s); got != x0+47 {
		t.Errorf("after 12 process frames: x = %v, want %v", got, x0+47)
	}
	// Ctrl+S reaches the game's _unhandled_input with its modifier (a
	// paused node gets no input events, so the game runs for it).
	plugintest.Call(t, h, "pause", map[string]any{"paused": false})
	plugintest.Call(t, h, "simulate_key", map[string]any{"key": "S", "ctrl": true})
	plugintest.Call(t, h, "simulate_key", map[string]any{"key": "S", "ctrl": true, "pressed": false})
	if got := prop(t, s, ".", "saves"); got != float64(1) {
		t.Errorf("saves = %v, want 1", got)
	}
	plugintest.Call(t, h, "pause", map[string]any{})
	stats := plugintest.Call(t, h, "get_stats", map[string]any{})
	if stats["injected"].(float64) < 10 || stats["paused"] != true {
		t.Errorf("get_stats: %v", stats)
	}

	plugintest.Refused(t, h, "simulate_key", map[string]any{"key": "NoSuchKey"}, sdk.CodeInvalidArgument, "unknown key name 'NoSuchKey'")
	plugintest.Refused(t, h, "simulate_action", map[string]any{"action": "fly"}, sdk.CodeInvalidArgument, "move_left")

	ts := plugintest.Call(t, h, "set_time_scale", map[string]any{"time_scale": 0.5})
	if ts["time_scale"] != 0.5 {
		t.Errorf("set_time_scale: %v", ts)
	}
	plugintest.Call(t, h, "simulate_key", map[string]any{"key": "D"})
	plugintest.Call(t, h, "step_frames", map[string]any{"frames": 10})
	plugintest.Call(t, h, "simulate_key", map[string]any{"key": "D", "pressed": false})
	if got := x(t, s); got != x0+52 {
		t.Errorf("after 10 ticks at time scale 0.5: x = %v, want %v", got, x0+52)
	}
}

// TestClicksOnUI: a click on the Go button by node_path, and one at the
// rect's center from find_ui, fire its pressed signal; the wheel turns.
func TestClicksOnUI(t *testing.T) {
	e := newEngine(t)
	dir := playground(t)
	s := e.play(t, dir, 0)
	h := host(t, dir)

	plugintest.Call(t, h, "simulate_mouse", map[string]any{"node_path": "Go"})
	if got := prop(t, s, ".", "clicks"); got != float64(1) {
		t.Fatalf("clicks after a click on Go = %v, want 1", got)
	}
	var ui struct {
		Elements []struct {
			Path string
			Rect struct{ X, Y, W, H float64 }
		}
	}
	if err := s.Call(context.Background(), "find_ui", map[string]any{"name_contains": "go"}, &ui); err != nil || len(ui.Elements) != 1 {
		t.Fatalf("find_ui: %+v %v", ui, err)
	}
	r := ui.Elements[0].Rect
	plugintest.Call(t, h, "simulate_mouse", map[string]any{"x": r.X + r.W/2, "y": r.Y + r.H/2, "button": "left", "click": true})
	plugintest.Call(t, h, "simulate_mouse", map[string]any{"node_path": ui.Elements[0].Path})
	if got := prop(t, s, ".", "clicks"); got != float64(3) {
		t.Errorf("clicks = %v, want 3", got)
	}
	// A click beside the button does nothing.
	plugintest.Call(t, h, "simulate_mouse", map[string]any{"x": 10, "y": 10, "click": true})
	if got := prop(t, s, ".", "clicks"); got != float64(3) {
		t.Errorf("clicks after a click beside it = %v, want 3", got)
	}
	plugintest.Call(t, h, "simulate_mouse", map[string]any{"x": 50, "y": 50, "button": "wheel_up"})
	if got := prop(t, s, ".", "wheel"); got != float64(1) {
		t.Errorf("wheel = %v, want 1", got)
	}
	plugintest.Refused(t, h, "simulate_mouse", map[string]any{"node_path": "Player"}, sdk.CodeInvalidArgument, "not a Control")
}

// replay plays one scripted run in a fresh game: paused, the sequence at
// frames, 90 ticks stepped; it returns the player's x.
func replay(t *testing.T, e *engine, dir string, events []map[string]any) float64 {
	t.Helper()
	s := e.play(t, dir, 60)
	h := host(t, dir)
	plugintest.Call(t, h, "pause", map[string]any{})
	plugintest.Call(t, h, "play_sequence", map[string]any{"events": events})
	for range 3 {
		plugintest.Call(t, h, "step_frames", map[string]any{"frames": 30})
	}
	got := x(t, s)
	s.Stop()
	return got
}

// TestDeterministicReplay: the same sequence in two fresh games gives the
// same position to the bit, and what a recording captured plays back to
// the same position again.
func TestDeterministicReplay(t *testing.T) {
	e := newEngine(t)
	dir := playground(t)
	seq := []map[string]any{
		{"type": "key", "key": "D", "pressed": true, "frame": 0},
		{"type": "key", "key": "D", "pressed": false, "frame": 17},
		{"type": "action", "action": "move_left", "strength": 0.25, "frame": 20},
		{"type": "action", "action": "move_left", "pressed": false, "frame": 61},
		{"type": "key", "key": "D", "pressed": true, "frame": 70},
		{"type": "key", "key": "D", "pressed": false, "frame": 73},
	}
	// 17 ticks right, 41 ticks left at 0.25, 3 ticks right.
	want := 100 + 17 - 41*0.25 + 3
	first := replay(t, e, dir, seq)
	second := replay(t, e, dir, seq)
	if first != want || second != want {
		t.Fatalf("replays ended at x = %v and %v, want %v both times", first, second, want)
	}

	// Record a played run, then play the recording in a fresh game.
	s := e.play(t, dir, 60)
	h := host(t, dir)
	plugintest.Call(t, h, "pause", map[string]any{})
	plugintest.Call(t, h, "record", map[string]any{})
	plugintest.Call(t, h, "simulate_key", map[string]any{"key": "D"})
	plugintest.Call(t, h, "step_frames", map[string]any{"frames": 9})
	plugintest.Call(t, h, "simulate_key", map[string]any{"key": "D", "pressed": false})
	plugintest.Call(t, h, "step_frames", map[string]any{"frames": 4})
	plugintest.Call(t, h, "simulate_action", map[string]any{"action": "move_left"})
	plugintest.Call(t, h, "step_frames", map[string]any{"frames": 6})
	plugintest.Call(t, h, "simulate_action", map[string]any{"action": "move_left", "pressed": false})
	plugintest.Call(t, h, "step_frames", map[string]any{"frames": 11})
	recorded := x(t, s)
	rec := plugintest.Call(t, h, "stop_recording", map[string]any{})
	s.Stop()
	evs, _ := rec["events"].([]any)
	if len(evs) != 4 || rec["frames"] != float64(30) {
		t.Fatalf("recording: %v", rec)
	}
	var events []map[string]any
	for _, ev := range evs {
		events = append(events, ev.(map[string]any))
	}
	if recorded != 103 {
		t.Errorf("recorded run ended at %v, want 103", recorded)
	}
	if got := replay(t, e, dir, events); got != recorded {
		t.Errorf("the recording played back to x = %v, want %v (events %v)", got, recorded, events)
	}
}

// TestNoGame: without a game every tool says how to start one.
func TestNoGame(t *testing.T) {
	t.Setenv(gamesession.DirEnv, filepath.Join(t.TempDir(), "games"))
	dir := playground(t)
	h := host(t, dir)
	for tool, args := range map[string]map[string]any{
		"simulate_key": {"key": "A"}, "simulate_mouse": {"x": 1, "y": 1}, "simulate_action": {"action": "jump"},
		"play_sequence": {"events": []any{map[string]any{"type": "key", "key": "A"}}}, "record": {}, "stop_recording": {},
		"get_stats": {}, "pause": {}, "step_frames": {}, "set_time_scale": {"time_scale": 1},
	} {
		res := plugintest.Refused(t, h, tool, args, sdk.CodePreconditionFailed, "no game is running")
		if !strings.Contains(res.Text(), "godot_runtime_play_scene") {
			t.Errorf("%s: the refusal does not say how to start a game: %s", tool, res.Text())
		}
	}
}
