package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/gamesession"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// playGame starts the project's main scene in the web runtime with the
// probe and publishes it as godot_runtime_play_scene does.
func playGame(t *testing.T, dir string) (*webgodot.Session, *gamesession.Publication) {
	t.Helper()
	setup, err := webgodot.Locate()
	if err != nil {
		t.Fatal(err)
	}
	r, err := web.Get(setup)
	if err != nil {
		t.Fatal(err)
	}
	return plugintest.PlayGame(t, r, dir, 60)
}

func probeCall(t *testing.T, s *webgodot.Session, cmd string, params map[string]any) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out map[string]any
	if err := s.Call(ctx, cmd, params, &out); err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	if r, ok := out["rejected"]; ok {
		t.Fatalf("%s rejected: %v", cmd, r)
	}
	return out
}

func assertCall(t *testing.T, h *sdktest.Host, args map[string]any) assertResult {
	t.Helper()
	res := h.Call(context.Background(), "assert_node_state", args)
	var out assertResult
	if err := res.Structured(&out); err != nil {
		t.Fatalf("%v: %s", err, res.Text())
	}
	return out
}

// TestAssertNodeStateRunningGame: with a game running (published as the
// runtime toolset publishes it) assert_node_state reads that game, not a
// new run: the player moved by 10 stepped ticks of ui_right is where the
// game left it; a failing assertion names the expected and the actual
// value; several assertions are read at one tick of a moving player and
// the game runs on afterwards; another scene, and no game at all, run the
// scene afresh and say so.
func TestAssertNodeStateRunningGame(t *testing.T) {
	requireWeb(t)
	t.Setenv(gamesession.DirEnv, filepath.Join(t.TempDir(), "games"))
	dir := godot4Project(t, gameFiles)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	s, pub := playGame(t, dir)

	// Move the player: ui_right held for 10 stepped ticks (2 px a tick).
	probeCall(t, s, "time", map[string]any{"paused": true})
	probeCall(t, s, "input", map[string]any{"type": "action", "action": "ui_right"})
	step := probeCall(t, s, "step", map[string]any{"frames": 10})
	probeCall(t, s, "input", map[string]any{"type": "action", "action": "ui_right", "pressed": false})
	tick := int(step["tick"].(float64))

	out := assertCall(t, h, map[string]any{"node_path": "Player", "property": "position", "expected": []any{60, 120},
		"also": []map[string]any{{"node_path": "Player", "property": "position:x", "op": ">", "expected": 59.5},
			{"node_path": "Player/Box", "property": "color", "op": "approx", "expected": []any{1, 0, 0, 1}, "epsilon": 0.001}}})
	if !out.Passed || out.Source != sourceRunning || out.Scene != "res://main.tscn" || out.Frame != tick || len(out.Assertions) != 3 ||
		out.Assertions[1].Actual != 60.0 || out.Engine != nil {
		t.Fatalf("%+v", out)
	}
	if !strings.HasSuffix(out.Text, "(read in the running game)") {
		t.Errorf("text %q", out.Text)
	}

	// A failing assertion names expected and actual.
	out = assertCall(t, h, map[string]any{"node_path": "Player", "property": "position:x", "expected": 40})
	if out.Passed || out.Actual != 60.0 || out.Error != "" ||
		!strings.Contains(out.Text, "1 of 1 assertion(s) failed; first: Player.position:x is 60, expected == 40") {
		t.Fatalf("%+v", out)
	}
	out = assertCall(t, h, map[string]any{"node_path": "Nope", "property": "position", "expected": 1})
	if out.Passed || out.Error != "node not found at 'Nope'" || out.Source != sourceRunning {
		t.Fatalf("%+v", out)
	}
	// The game was paused before; it still is.
	if st := probeCall(t, s, "time", map[string]any{}); st["paused"] != true || int(st["tick"].(float64)) != tick {
		t.Fatalf("time after the reads: %v (tick %d)", st, tick)
	}

	// A moving player: two reads of one tick agree, and the game runs on.
	probeCall(t, s, "input", map[string]any{"type": "action", "action": "ui_right"})
	probeCall(t, s, "time", map[string]any{"paused": false})
	time.Sleep(300 * time.Millisecond)
	out = assertCall(t, h, map[string]any{"node_path": "Player", "property": "position:x", "op": ">", "expected": 60,
		"also": []map[string]any{{"node_path": "Player", "property": "position", "op": "!=", "expected": []any{0, 0}}}})
	pos, _ := out.Assertions[1].Actual.(map[string]any)
	if !out.Passed || pos == nil || pos["x"] != out.Actual || out.Frame <= tick {
		t.Fatalf("%+v", out)
	}
	st := probeCall(t, s, "time", map[string]any{})
	if st["paused"] != false {
		t.Fatalf("the game stayed paused after the reads: %v", st)
	}

	// Another scene than the running one: a fresh run of it.
	out = assertCall(t, h, map[string]any{"scene": "res://coin.tscn", "node_path": "Dot", "property": "offset_right", "expected": 4})
	if !out.Passed || out.Source != sourceFresh || out.Engine == nil || out.Engine.Kind != engineWeb ||
		len(out.Notes) != 1 || !strings.Contains(out.Notes[0], "the running game plays res://main.tscn, not res://coin.tscn") {
		t.Fatalf("%+v", out)
	}

	// No game running: a fresh run of the main scene, where the player
	// has not moved.
	pub.Close()
	out = assertCall(t, h, map[string]any{"node_path": "Player", "property": "position:x", "expected": 60, "frames": 5})
	if out.Passed || out.Source != sourceFresh || out.Actual != 40.0 || out.Frame != 6 ||
		!strings.Contains(out.Text, "Player.position:x is 40, expected == 60") || !strings.HasSuffix(out.Text, "(read in the fresh run of the scene)") {
		t.Fatalf("%+v", out)
	}
}
