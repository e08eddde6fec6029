package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"image/color"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func editorHost(t *testing.T, ed *sdktest.Editor) *sdktest.Host {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "project.godot"), []byte("config_version=5\n\n[application]\n\nconfig/features=PackedStringArray(\"4.6\")\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6", Editor: ed.Serve})
}

func commands(calls []sdktest.EditorCall) []string {
	var out []string
	for _, c := range calls {
		out = append(out, c.Command)
	}
	return out
}

// TestAssertNodeStateEditor reads the live value as the addon's server
// does: a one-sample monitor, then its samples, polled while not ready.
func TestAssertNodeStateEditor(t *testing.T) {
	polls := 0
	ed := sdktest.NewEditor().
		Result("cmd_monitor_property", map[string]any{"monitoring": true}).
		On("cmd_get_property_samples", func(map[string]any) (any, *sdk.Error) {
			polls++
			if polls < 3 {
				return map[string]any{"ready": false, "reason": "capture_pending"}, nil
			}
			return map[string]any{"ready": true, "samples": []any{map[string]any{"frame": 9, "value": map[string]any{"x": 100.0, "y": 120.0}}}}, nil
		})
	h := editorHost(t, ed)
	res := h.Call(context.Background(), "assert_node_state", map[string]any{"node_path": "Player", "property": "position", "expected": []any{100, 120}})
	var out assertResult
	if err := res.Structured(&out); err != nil {
		t.Fatalf("%v: %s", err, res.Text())
	}
	if !out.Passed || out.Op != "==" {
		t.Fatalf("%s", res.Text())
	}
	calls := ed.Calls()
	if got := commands(calls); !reflect.DeepEqual(got, []string{"cmd_monitor_property", "cmd_get_property_samples", "cmd_get_property_samples", "cmd_get_property_samples"}) {
		t.Fatalf("commands %v", got)
	}
	if want := map[string]any{"node_path": "Player", "property": "position", "samples": 1.0}; !reflect.DeepEqual(calls[0].Params, want) {
		t.Errorf("monitor params %v", calls[0].Params)
	}

	// The addon's error for a missing node is the assertion's error.
	ed.Result("cmd_get_property_samples", map[string]any{"ready": true, "error": "node not found", "samples": []any{}})
	res = h.Call(context.Background(), "assert_node_state", map[string]any{"node_path": "Nope", "property": "position", "expected": 1})
	if err := res.Structured(&out); err != nil || out.Passed || out.Error != "node not found" {
		t.Errorf("%v %s", err, res.Text())
	}
}

// TestScenarioEditor plays a scenario in the editor's game: the exact
// commands and params, consecutive input steps as one sequence, the
// screenshot as an image, the game stopped at the end.
func TestScenarioEditor(t *testing.T) {
	shot := pngOf(t, 4, 3, func(x, y int) color.NRGBA { return color.NRGBA{G: 255, A: 255} })
	connected := false
	ed := sdktest.NewEditor().
		Result("cmd_play_scene", map[string]any{"playing": true, "scene": "res://main.tscn"}).
		On("cmd_get_game_scene_tree", func(map[string]any) (any, *sdk.Error) {
			c := connected
			connected = true
			return map[string]any{"playing": true, "connected": c}, nil
		}).
		Result("cmd_play_input_sequence", map[string]any{"sent": true, "count": 2}).
		Result("cmd_monitor_property", map[string]any{"monitoring": true}).
		Result("cmd_get_property_samples", map[string]any{"ready": true, "samples": []any{map[string]any{"value": 7.0}}}).
		Result("cmd_capture_game_screenshot", map[string]any{"ready": true, "format": "png", "width": 4, "height": 3, "base64": base64.StdEncoding.EncodeToString(shot)}).
		Result("cmd_stop_scene", map[string]any{"playing": false})
	h := editorHost(t, ed)
	res := h.Call(context.Background(), "run_test_scenario", map[string]any{"scene": "res://main.tscn", "steps": []map[string]any{
		{"type": "action", "action": "jump", "strength": 0.5},
		{"type": "key", "key": "A", "shift": true, "pressed": false},
		{"type": "wait", "frames": 3},
		{"type": "assert", "node_path": "Player", "property": "hits", "op": ">", "expected": 5},
		{"type": "screenshot"},
	}})
	var out scenarioResult
	if err := res.Structured(&out); err != nil {
		t.Fatalf("%v: %s", err, res.Text())
	}
	if !out.Passed || !out.Connected || len(out.Steps) != 5 || out.Assertions[0].Actual != 7.0 {
		t.Fatalf("%s", res.Text())
	}
	calls := ed.Calls()
	want := []string{"cmd_play_scene", "cmd_get_game_scene_tree", "cmd_get_game_scene_tree", "cmd_play_input_sequence",
		"cmd_monitor_property", "cmd_get_property_samples", "cmd_capture_game_screenshot", "cmd_stop_scene"}
	if got := commands(calls); !reflect.DeepEqual(got, want) {
		t.Fatalf("commands %v", got)
	}
	if p := calls[0].Params; !reflect.DeepEqual(p, map[string]any{"scene_path": "res://main.tscn"}) {
		t.Errorf("play params %v", p)
	}
	wantSeq := map[string]any{"delay_ms": 16.0, "events": []any{
		map[string]any{"type": "action", "action": "jump", "pressed": true, "strength": 0.5},
		map[string]any{"type": "key", "key": "A", "pressed": false, "shift": true},
	}}
	if p := calls[3].Params; !reflect.DeepEqual(p, wantSeq) {
		t.Errorf("sequence params %v", p)
	}
	if id, _ := calls[6].Params["request_id"].(string); id == "" {
		t.Errorf("capture params %v", calls[6].Params)
	}
	var img []byte
	for _, c := range res.Content {
		if ic, ok := c.(sdk.ImageContent); ok {
			img = ic.Data
		}
	}
	if !bytes.Equal(img, shot) {
		t.Error("the screenshot is not in the result")
	}
}

// TestScenarioEditorNoProbe: a game without the runtime probe is a failed
// scenario that says why, and the game is stopped.
func TestScenarioEditorNoProbe(t *testing.T) {
	ed := sdktest.NewEditor().
		Result("cmd_play_scene", map[string]any{"playing": true}).
		Result("cmd_get_game_scene_tree", map[string]any{"playing": true, "connected": false}).
		Result("cmd_stop_scene", map[string]any{"playing": false})
	h := editorHost(t, ed)
	res := h.Call(context.Background(), "run_test_scenario", map[string]any{"setup_ms": 300, "assertions": []map[string]any{{"node_path": "P", "property": "x", "expected": 1}}})
	var out scenarioResult
	if err := res.Structured(&out); err != nil {
		t.Fatalf("%v: %s", err, res.Text())
	}
	if out.Passed || out.Connected || !strings.Contains(out.Error, "probe never connected") {
		t.Fatalf("%s", res.Text())
	}
	if got := commands(ed.Calls("cmd_stop_scene", "cmd_play_scene")); !reflect.DeepEqual(got, []string{"cmd_play_scene", "cmd_stop_scene"}) {
		t.Errorf("commands %v", got)
	}
}

// TestStressEditor sends seeded random events to the editor's game: the
// same seed gives the same events.
func TestStressEditor(t *testing.T) {
	ed := sdktest.NewEditor().
		Result("cmd_is_playing", map[string]any{"playing": true, "scene": "res://main.tscn"}).
		Result("cmd_play_input_sequence", map[string]any{"sent": true})
	h := editorHost(t, ed)
	args := map[string]any{"iterations": 4, "delay_ms": 10, "seed": 3, "actions": []string{"ui_left", "Space", "click"}}
	for range 2 {
		res := h.Call(context.Background(), "run_stress_test", args)
		var out stressResult
		if err := res.Structured(&out); err != nil || !out.Survived || out.Iterations != 4 {
			t.Fatalf("%v %s", err, res.Text())
		}
	}
	seqs := ed.Calls("cmd_play_input_sequence")
	if len(seqs) != 2 || !reflect.DeepEqual(seqs[0].Params, seqs[1].Params) || seqs[0].Params["delay_ms"] != 10.0 {
		t.Fatalf("%v", seqs)
	}
	events, _ := seqs[0].Params["events"].([]any)
	if len(events) != 4 {
		t.Fatalf("%v", events)
	}
	for _, e := range events {
		m := e.(map[string]any)
		switch m["type"] {
		case "action":
			if m["action"] != "ui_left" {
				t.Errorf("%v", m)
			}
		case "key":
			if m["key"] != "Space" {
				t.Errorf("%v", m)
			}
		case "mouse":
			if m["button"] != "left" || m["pressed"] != true {
				t.Errorf("%v", m)
			}
		default:
			t.Errorf("%v", m)
		}
	}
	if got := commands(ed.Calls()); !reflect.DeepEqual(got[:3], []string{"cmd_is_playing", "cmd_play_input_sequence", "cmd_is_playing"}) {
		t.Errorf("commands %v", got)
	}

	// Nothing playing: the refusal names the fix.
	ed.Result("cmd_is_playing", map[string]any{"playing": false})
	res := h.Call(context.Background(), "run_stress_test", args)
	if res.ErrorCode != sdk.CodePreconditionFailed || res.Error.Required != "play_session" || !strings.Contains(res.Text(), "godot_runtime_play_scene") {
		t.Errorf("%s", res.Text())
	}
}
