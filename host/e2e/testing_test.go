package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
	"github.com/godot-mcp/godot-mcp/internal/projfixture"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
)

func solidPNG(t *testing.T, w, h int, c color.NRGBA) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetNRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The testing toolset in editor mode through the real host and bridge: a
// scenario plays the editor's game with the addon's commands (play, wait
// for the probe, one input sequence, a one-sample monitor, a screenshot,
// stop), the screenshot is compared with a baseline in the project, and
// the comparison's difference image comes back as an MCP image.
func TestTestingScenarioEditorMode(t *testing.T) {
	dir := projfixture.Copy(t, "2d-platformer")
	shot := solidPNG(t, 8, 6, color.NRGBA{G: 200, A: 255})
	if err := os.WriteFile(filepath.Join(dir, "baseline.png"), solidPNG(t, 8, 6, color.NRGBA{G: 200, A: 255}), 0o644); err != nil {
		t.Fatal(err)
	}
	url := bridgeURL(t)
	s := stdioHostEnv(t, legacy, []string{"GODOT_MCP_BRIDGE_URL=" + url}, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	ok := func(v map[string]any) fakeaddon.Handler {
		return func(map[string]any) fakeaddon.Reply { return fakeaddon.OK(v) }
	}
	ed := attachAddon(t, s, fakeaddon.Options{URL: url, ProjectPath: dir + "/", GodotVersion: "4.6.1-stable",
		Handlers: map[string]fakeaddon.Handler{
			"cmd_play_scene":           ok(map[string]any{"playing": true, "scene": "res://level/level.tscn"}),
			"cmd_get_game_scene_tree":  ok(map[string]any{"playing": true, "connected": true, "tree": map[string]any{}}),
			"cmd_play_input_sequence":  ok(map[string]any{"sent": true, "count": 1}),
			"cmd_monitor_property":     ok(map[string]any{"monitoring": true}),
			"cmd_get_property_samples": ok(map[string]any{"ready": true, "samples": []any{map[string]any{"frame": 3, "value": map[string]any{"x": 130.0, "y": 90.0}}}}),
			"cmd_capture_game_screenshot": ok(map[string]any{"ready": true, "format": "png", "width": 8, "height": 6,
				"base64": base64.StdEncoding.EncodeToString(shot)}),
			"cmd_stop_scene": ok(map[string]any{"playing": false}),
		}})
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"testing"}}, nil)

	var out struct {
		Passed     bool `json:"passed"`
		Connected  bool `json:"connected"`
		Assertions []struct {
			Passed bool `json:"passed"`
			Actual any  `json:"actual"`
		} `json:"assertions"`
		Steps []struct {
			OK      bool `json:"ok"`
			Compare *struct {
				Match bool `json:"match"`
			} `json:"compare"`
		} `json:"steps"`
	}
	s.ok(t, "godot_testing_run_test_scenario", map[string]any{"scene": "res://level/level.tscn", "steps": []map[string]any{
		{"type": "key", "key": "Right"},
		{"type": "assert", "node_path": "Player", "property": "position", "op": "approx", "expected": []any{130, 90}, "epsilon": 0.5},
		{"type": "screenshot", "baseline": "res://baseline.png"},
	}}, &out)
	if !out.Passed || !out.Connected || len(out.Assertions) != 1 || !out.Assertions[0].Passed || len(out.Steps) != 3 ||
		out.Steps[2].Compare == nil || !out.Steps[2].Compare.Match {
		t.Fatalf("%+v", out)
	}
	var got []string
	for _, c := range ed.Calls("cmd_play_scene", "cmd_play_input_sequence", "cmd_monitor_property", "cmd_get_property_samples", "cmd_capture_game_screenshot", "cmd_stop_scene") {
		got = append(got, c.Command)
	}
	want := []string{"cmd_play_scene", "cmd_play_input_sequence", "cmd_monitor_property", "cmd_get_property_samples", "cmd_capture_game_screenshot", "cmd_stop_scene"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("commands %v", got)
	}
	seq := ed.Calls("cmd_play_input_sequence")[0].Params
	if !reflect.DeepEqual(seq, map[string]any{"delay_ms": 16.0, "events": []any{map[string]any{"type": "key", "key": "Right", "pressed": true}}}) {
		t.Errorf("sequence %v", seq)
	}
	if p := ed.Calls("cmd_play_scene")[0].Params; p["scene_path"] != "res://level/level.tscn" {
		t.Errorf("play %v", p)
	}

	// compare_screenshots runs in the server in both modes: the baseline
	// against a changed image, with its difference image.
	other := solidPNG(t, 8, 6, color.NRGBA{R: 200, A: 255})
	res := s.call(t, "godot_testing_compare_screenshots", map[string]any{"image_a": "res://baseline.png", "image_b": base64.StdEncoding.EncodeToString(other)})
	if res.IsError {
		t.Fatalf("%+v", res.Content)
	}
	images := 0
	for _, c := range res.Content {
		if img, ok := c.(*mcp.ImageContent); ok && img.MIMEType == "image/png" {
			images++
		}
	}
	sc, _ := res.StructuredContent.(map[string]any)
	if images != 1 || sc["diff_pixels"] != 48.0 || sc["match"] != false {
		t.Errorf("%d images, %v", images, sc)
	}
}

// The testing toolset headless through the real host: the plugin process
// runs a GUT 9.6 suite in the embedded web runtime and reports each test
// as res://file:line, then plays a scenario on the same project at exact
// physics ticks.
func TestTestingWebRuntimeThroughTheHost(t *testing.T) {
	if _, err := webgodot.Locate(); err != nil {
		testenv.Missing(t, "the Godot web runtime (Chromium and the npm package "+webgodot.RuntimePackage+")", err.Error())
	}
	gut := filepath.Join(testenv.RepoRoot(), "..", "shared", "fixtures", "addons", "gut")
	if _, err := os.Stat(gut); err != nil {
		testenv.Missing(t, "the GUT fixture "+gut, "check out the shared fixtures beside the repository")
	}
	dir := t.TempDir()
	files := map[string]string{
		"project.godot":       "config_version=5\n\n[application]\n\nconfig/name=\"game\"\nrun/main_scene=\"res://main.tscn\"\nconfig/features=PackedStringArray(\"4.6\")\n",
		"main.tscn":           "[gd_scene load_steps=2 format=3]\n\n[ext_resource type=\"Script\" path=\"res://player.gd\" id=\"1\"]\n\n[node name=\"Main\" type=\"Node2D\"]\n\n[node name=\"Player\" type=\"Node2D\" parent=\".\"]\nposition = Vector2(10, 20)\nscript = ExtResource(\"1\")\n",
		"player.gd":           "extends Node2D\n\nfunc _physics_process(_delta: float) -> void:\n\tif Input.is_action_pressed(\"ui_down\"):\n\t\tposition.y += 1.0\n",
		"test/test_player.gd": "extends GutTest\n\nfunc test_fine():\n\tassert_true(true)\n\nfunc test_broken():\n\tassert_eq(\"a\", \"b\")\n",
	}
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "addons"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cp", "-r", gut, filepath.Join(dir, "addons", "gut")).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	s := stdioHost(t, legacy, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"testing"}}, nil)
	long := func(name string, args map[string]any, out any) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", name, err, res)
		}
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatal(err)
		}
	}
	var tests struct {
		Passed bool `json:"passed"`
		Tests  []struct {
			Name     string `json:"name"`
			Status   string `json:"status"`
			Location string `json:"location"`
		} `json:"tests"`
		Engine struct {
			Kind string `json:"kind"`
		} `json:"engine"`
	}
	long("godot_testing_run_tests", map[string]any{"engine": "web"}, &tests)
	if tests.Passed || tests.Engine.Kind != "web" || len(tests.Tests) != 2 ||
		tests.Tests[1].Name != "test_broken" || tests.Tests[1].Status != "failed" || tests.Tests[1].Location != "res://test/test_player.gd:6" ||
		tests.Tests[0].Status != "passed" {
		t.Fatalf("%+v", tests)
	}
	var sc struct {
		Passed bool `json:"passed"`
		Steps  []struct {
			OK    bool `json:"ok"`
			Frame int  `json:"frame"`
		} `json:"steps"`
	}
	long("godot_testing_run_test_scenario", map[string]any{"steps": []map[string]any{
		{"type": "action", "action": "ui_down"},
		{"type": "wait", "frames": 12},
		{"type": "assert", "node_path": "Player", "property": "position:y", "expected": 32},
	}}, &sc)
	if !sc.Passed || len(sc.Steps) != 3 || sc.Steps[2].Frame != 13 {
		t.Fatalf("%+v", sc)
	}
}

// TestTestingAssertRunningGame: through the real host and three real
// plugin processes, assert_node_state reads the game the runtime toolset
// plays, where the input toolset moved it (30 stepped ticks with D held),
// says it read the running game, names expected and actual when an
// assertion fails, and once the game is stopped runs the scene afresh
// and says that instead.
func TestTestingAssertRunningGame(t *testing.T) {
	s := playing(t, "testing")

	var pos struct {
		Value struct{ X float64 } `json:"value"`
	}
	s.ok(t, "godot_input_pause", map[string]any{}, nil)
	s.ok(t, "godot_runtime_read_property", map[string]any{"node_path": "Player", "property": "position"}, &pos)
	x0 := pos.Value.X
	s.ok(t, "godot_input_simulate_key", map[string]any{"key": "D"}, nil)
	s.ok(t, "godot_input_step_frames", map[string]any{"frames": 30}, nil)
	s.ok(t, "godot_input_simulate_key", map[string]any{"key": "D", "pressed": false}, nil)

	type assertOut struct {
		Passed bool    `json:"passed"`
		Source string  `json:"source"`
		Scene  string  `json:"scene"`
		Actual float64 `json:"actual"`
		Text   string  `json:"text"`
	}
	var a assertOut
	s.ok(t, "godot_testing_assert_node_state", map[string]any{"node_path": "Player", "property": "position:x", "expected": x0 + 30}, &a)
	if !a.Passed || a.Source != "running game" || a.Scene != "res://main.tscn" || a.Actual != x0+30 {
		t.Fatalf("in the running game: %+v", a)
	}
	s.ok(t, "godot_testing_assert_node_state", map[string]any{"node_path": "Player", "property": "position:x", "expected": x0}, &a)
	if want := fmt.Sprintf("Player.position:x is %v, expected == %v (read in the running game)", x0+30, x0); a.Passed || !strings.Contains(a.Text, want) {
		t.Fatalf("failing assertion: %+v, want text with %q", a, want)
	}

	s.ok(t, "godot_runtime_stop_scene", map[string]any{}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "godot_testing_assert_node_state",
		Arguments: map[string]any{"node_path": "Player", "property": "position:x", "expected": x0}})
	if err != nil || res.IsError {
		t.Fatalf("after stop: %v %+v", err, res)
	}
	decode(t, res, &a)
	if !a.Passed || a.Source != "fresh run" || a.Actual != x0 {
		t.Fatalf("after stop: %+v", a)
	}
}
