package main

import (
	"context"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// playScenario is the scenario of the tests: hold ui_right for 30 physics
// ticks (2 px a tick), release, check the position, take a screenshot,
// and one assert that fails on purpose.
var playScenario = []map[string]any{
	{"type": "action", "action": "ui_right"},
	{"type": "wait", "frames": 30},
	{"type": "action", "action": "ui_right", "pressed": false},
	{"type": "assert", "node_path": "Player", "property": "position", "expected": []any{100, 120}},
	{"type": "key", "key": "Space"},
	{"type": "wait", "frames": 5},
	{"type": "assert", "node_path": "Player", "property": "hits", "op": ">=", "expected": 4},
	{"type": "screenshot"},
	{"type": "assert", "node_path": "Player", "property": "position:x", "op": "<", "expected": 50},
}

// TestScenarioWeb plays the scenario twice in the real web runtime: each
// step runs at an exact physics tick, so both runs give the same
// positions; the failing assert is reported with its actual value.
func TestScenarioWeb(t *testing.T) {
	requireWeb(t)
	dir := godot4Project(t, gameFiles)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	var runs [2]scenarioResult
	for i := range runs {
		res := h.Call(context.Background(), "run_test_scenario", map[string]any{"steps": playScenario})
		if err := res.Structured(&runs[i]); err != nil {
			t.Fatalf("%v: %s", err, res.Text())
		}
		out := runs[i]
		if out.Passed || len(out.Steps) != len(playScenario) || len(out.Assertions) != 3 {
			t.Fatalf("%s", res.Text())
		}
		for j, s := range out.Steps {
			if s.OK != (j != 8) {
				t.Errorf("run %d step %d: %+v", i, j, s)
			}
		}
		if out.Steps[3].Frame != 31 || out.Steps[7].Width != 320 || out.Steps[7].Height != 240 {
			t.Errorf("steps %+v", out.Steps)
		}
		if a := out.Assertions[2]; a.Passed || a.Actual != 100.0 || a.Error != "" {
			t.Errorf("failing assert %+v", a)
		}
		images := 0
		for _, c := range res.Content {
			if _, ok := c.(sdk.ImageContent); ok {
				images++
			}
		}
		if images != 1 || !strings.Contains(out.Text, "first failure: step 8: Player.position:x is 100, expected < 50") {
			t.Errorf("%d images, text %q", images, out.Text)
		}
	}
	if jsonText(runs[0].Assertions) != jsonText(runs[1].Assertions) {
		t.Errorf("two runs differ:\n%s\n%s", jsonText(runs[0].Assertions), jsonText(runs[1].Assertions))
	}
}

// TestAssertNodeStateWeb reads the player after 10 ticks, with one
// passing and one failing assertion, and a missing node.
func TestAssertNodeStateWeb(t *testing.T) {
	requireWeb(t)
	dir := godot4Project(t, gameFiles)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	res := h.Call(context.Background(), "assert_node_state", map[string]any{"node_path": "Player", "property": "position",
		"expected": map[string]any{"x": 40, "y": 120}, "frames": 10,
		"also": []map[string]any{{"node_path": "Player/Box", "property": "color", "op": "approx", "expected": []any{1, 0, 0, 1}, "epsilon": 0.001},
			{"node_path": "Nope", "property": "position", "expected": 1}}})
	var out assertResult
	if err := res.Structured(&out); err != nil {
		t.Fatalf("%v: %s", err, res.Text())
	}
	if out.Passed || len(out.Assertions) != 3 || !out.Assertions[0].Passed || !out.Assertions[1].Passed || out.Frame != 11 ||
		out.Assertions[2].Error != "node not found at 'Nope'" {
		t.Fatalf("%s", res.Text())
	}
	if !strings.Contains(out.Text, "1 of 3 assertion(s) failed; first: Nope.position: node not found") {
		t.Errorf("text %q", out.Text)
	}
}
