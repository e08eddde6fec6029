package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/internal/godotlog"
	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/testplugins"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// testGame copies the small game of internal/webgodot/testdata/game (a
// square that moves, a marker that does not, a label, a print, and a
// script with a parse error at broken.gd:5 that the game loads on its
// fifth frame) into a temporary project.
func testGame(t testing.TB) string {
	t.Helper()
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
	return dir
}

// requireWeb stops the test when the web runtime is not set up (skip
// locally, fail in CI), and makes sure no native Godot 4 is used.
func requireWeb(t testing.TB) {
	t.Helper()
	if _, err := webgodot.Locate(); err != nil {
		testenv.Missing(t, "the Godot web runtime (Chromium and the npm package "+webgodot.RuntimePackage+")", err.Error())
	}
	// No native Godot 4 may be found: leave out the PATH entries that hold
	// one (godot3-server stays; it does not suit a Godot 4 project).
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if !isFile(filepath.Join(d, "godot")) && !isFile(filepath.Join(d, "godot4")) {
			keep = append(keep, d)
		}
	}
	t.Setenv("PATH", strings.Join(keep, string(filepath.ListSeparator)))
	t.Setenv(godotrun.EnvBin, "")
	t.Cleanup(closeWebRunner)
}

func call(t *testing.T, h *sdktest.Host, tool string, args map[string]any) map[string]any {
	t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res := h.Call(ctx, tool, args)
	if res.Err != nil {
		t.Fatalf("%s: %v", tool, res.Err)
	}
	if res.IsError {
		t.Fatalf("%s: %s", tool, res.Text())
	}
	var out map[string]any
	if err := res.Structured(&out); err != nil {
		t.Fatalf("%s: %v (%s)", tool, err, res.Text())
	}
	return out
}

// TestGameInTheWebRuntime drives every runtime tool against the real
// engine with no editor and no Godot installed, in one Chromium: a
// one-shot run, then a session that plays, is read, sampled, searched,
// photographed and stopped, then one that meets its deadline.
func TestGameInTheWebRuntime(t *testing.T) {
	requireWeb(t)
	pollInterval = 50 * time.Millisecond
	dir := testGame(t)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})

	// run_and_capture: the quit scene prints, loads the broken script and
	// quits with 3.
	var run runResult
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res := h.Call(ctx, "run_and_capture", map[string]any{"scene": "res://quit.tscn", "timeout_seconds": 120})
	if res.Err != nil || res.IsError {
		t.Fatalf("run_and_capture: %v %s", res.Err, res.Text())
	}
	if err := res.Structured(&run); err != nil {
		t.Fatal(err)
	}
	if run.Engine.Kind != engineWeb || run.Engine.Version != webgodot.RuntimeEngine || len(run.Engine.Cannot) == 0 {
		t.Errorf("engine %+v, want the web runtime with its limits", run.Engine)
	}
	if run.ExitCode == nil || *run.ExitCode != 3 || run.OK || !strings.Contains(run.Output, "quit scene ran") {
		t.Errorf("run: exit %v ok %v output %q", run.ExitCode, run.OK, run.Output)
	}
	if !slices.ContainsFunc(run.Errors, func(e godotlog.Entry) bool { return e.File == "res://broken.gd" && e.Line == 5 }) {
		t.Errorf("errors %+v lack res://broken.gd:5", run.Errors)
	}
	for _, e := range run.Errors {
		if strings.Contains(e.Message, "slot >= slot_max") {
			t.Errorf("the engine's harmless exit noise is reported as an error: %+v", e)
		}
	}

	// play_scene returns while the game runs.
	out := call(t, h, "play_scene", nil)
	if out["playing"] != true || out["scene"] != "res://main.tscn" {
		t.Fatalf("play_scene: %v", out)
	}
	if eng, _ := out["engine"].(map[string]any); eng["kind"] != engineWeb {
		t.Errorf("play_scene engine %v", out["engine"])
	}
	out = call(t, h, "is_playing", nil)
	if out["playing"] != true || out["scene"] != "res://main.tscn" || out["paused"] != false {
		t.Errorf("is_playing: %v", out)
	}

	tree := call(t, h, "get_game_scene_tree", nil)
	b, _ := json.Marshal(tree)
	if tree["connected"] != true || !strings.Contains(string(b), `"path":"/root/Main/Player"`) || strings.Contains(string(b), webgodot.ProbeAutoload) {
		t.Errorf("scene tree %s", b)
	}

	x := func() float64 {
		t.Helper()
		out := call(t, h, "read_property", map[string]any{"node_path": "Player", "property": "position"})
		v, _ := out["value"].(map[string]any)
		f, ok := v["x"].(float64)
		if !ok || out["error"] != "" {
			t.Fatalf("read_property: %v", out)
		}
		return f
	}
	x1 := x()
	time.Sleep(300 * time.Millisecond)
	if x2 := x(); x2 <= x1 || x1 < 150 {
		t.Errorf("the player does not move: x %v then %v (starts at 150)", x1, x2)
	}
	out = call(t, h, "read_property", map[string]any{"node_path": "Nope", "property": "position"})
	if out["error"] != "node not found at 'Nope'" {
		t.Errorf("read of a missing node: %v", out)
	}

	out = call(t, h, "monitor_property", map[string]any{"node_path": "Player", "property": "position", "samples": 5})
	if out["monitoring"] != true || out["samples"] != float64(5) {
		t.Errorf("monitor_property: %v", out)
	}
	out = call(t, h, "get_property_samples", map[string]any{"timeout_seconds": 30})
	samples, _ := out["samples"].([]any)
	if out["ready"] != true || len(samples) < 2 || out["error"] != "" {
		t.Errorf("samples: %v", out)
	}

	out = call(t, h, "find_ui_elements", map[string]any{"visible_only": true, "class_filter": "Label"})
	els, _ := out["elements"].([]any)
	if len(els) != 1 {
		t.Fatalf("find_ui_elements: %v", out)
	}
	el := els[0].(map[string]any)
	rect, _ := el["rect"].(map[string]any)
	if el["text"] != "Score: 0" || el["path"] != "/root/Main/Score" || rect["x"] != float64(8) || rect["y"] != float64(8) {
		t.Errorf("label %v", el)
	}

	// The screenshot: full size for the pixel test, then scaled.
	shot := h.Call(ctx, "capture_game_screenshot", nil)
	if shot.Err != nil || shot.IsError {
		t.Fatalf("screenshot: %v %s", shot.Err, shot.Text())
	}
	img := imageOf(t, shot)
	if b := img.Bounds(); b.Dx() != 320 || b.Dy() != 240 {
		t.Fatalf("screenshot is %v, want the project's 320x240", b)
	}
	// The marker is a green square at (280, 200); the background is dark blue.
	if r, g, b, _ := img.At(280, 200).RGBA(); r>>8 > 30 || g>>8 < 220 || b>>8 > 30 {
		t.Errorf("pixel at the marker (280,200) is %d,%d,%d, want green", r>>8, g>>8, b>>8)
	}
	if r, g, b, _ := img.At(200, 50).RGBA(); r>>8 > 30 || g>>8 > 30 || b>>8 < 100 {
		t.Errorf("background pixel (200,50) is %d,%d,%d, want dark blue", r>>8, g>>8, b>>8)
	}
	shot = h.Call(ctx, "capture_game_screenshot", map[string]any{"width": 160})
	if shot.Err != nil || shot.IsError {
		t.Fatalf("scaled screenshot: %v %s", shot.Err, shot.Text())
	}
	if b := imageOf(t, shot).Bounds(); b.Dx() != 160 || b.Dy() != 120 {
		t.Errorf("scaled screenshot is %v, want 160x120", b)
	}
	if !strings.Contains(shot.Text(), screenshotDir()) {
		t.Errorf("the screenshot's text names no file: %s", shot.Text())
	}

	// The output: the print, and the parse error as res://broken.gd:5.
	var found bool
	deadline := time.Now().Add(30 * time.Second)
	for !found && time.Now().Before(deadline) {
		out = call(t, h, "get_game_output", nil)
		b, _ = json.Marshal(out)
		found = strings.Contains(string(b), `"at":"res://broken.gd:5"`)
		if !found {
			time.Sleep(200 * time.Millisecond)
		}
	}
	if !found || !strings.Contains(string(b), `"text":"game started"`) {
		t.Errorf("get_game_output lacks the print or the error at res://broken.gd:5: %s", b)
	}
	next := out["next_seq"].(float64)
	out = call(t, h, "get_game_output", map[string]any{"since_seq": next})
	if es, _ := out["entries"].([]any); len(es) != 0 {
		t.Errorf("since next_seq: %v, want nothing new", es)
	}

	out = call(t, h, "stop_scene", nil)
	if out["playing"] != false {
		t.Errorf("stop_scene: %v", out)
	}
	if out = call(t, h, "is_playing", nil); out["playing"] != false {
		t.Errorf("is_playing after stop: %v", out)
	}
	res = h.Call(ctx, "get_game_scene_tree", nil)
	if res.ErrorCode != sdk.CodePreconditionFailed || res.Error.Required != "play_session" {
		t.Errorf("scene tree after stop: %+v", res.Error)
	}

	// A session meets its deadline.
	call(t, h, "play_scene", map[string]any{"timeout_seconds": 1})
	time.Sleep(1500 * time.Millisecond)
	out = call(t, h, "is_playing", nil)
	if out["playing"] != false || !strings.Contains(out["ended"].(string), "deadline") {
		t.Errorf("is_playing after the deadline: %v", out)
	}

	// render_scene: the scene as saved, its script not run, so the red
	// square is where the scene puts it (40, 120), not where its _ready
	// puts it (150, 120).
	shot = h.Call(ctx, "render_scene", map[string]any{"scene": "res://main.tscn"})
	if shot.Err != nil || shot.IsError {
		t.Fatalf("render_scene: %v %s", shot.Err, shot.Text())
	}
	img = imageOf(t, shot)
	if r, g, b, _ := img.At(40, 120).RGBA(); r>>8 < 220 || g>>8 > 30 || b>>8 > 30 {
		t.Errorf("rendered pixel at the player's saved place (40,120) is %d,%d,%d, want red", r>>8, g>>8, b>>8)
	}
	if r, g, b, _ := img.At(150, 120).RGBA(); r>>8 > 30 || b>>8 < 100 || g>>8 > 30 {
		t.Errorf("rendered pixel at (150,120), where the script would put the player, is %d,%d,%d, want the background: did its script run?", r>>8, g>>8, b>>8)
	}
	res = h.Call(ctx, "render_scene", map[string]any{"scene": "res://nope.tscn"})
	if res.ErrorCode != sdk.CodeNotFound {
		t.Errorf("render of a missing scene: %+v", res.Error)
	}

	// Close leaves no browser behind.
	r := web.Started()
	if r == nil || r.BrowserPID() == 0 {
		t.Fatal("no browser ran")
	}
	pid := r.BrowserPID()
	closeWebRunner()
	time.Sleep(200 * time.Millisecond)
	if err := processAlive(pid); err == nil {
		t.Errorf("browser %d still runs after the runner closed", pid)
	}
}

// imageOf decodes the PNG of a screenshot result and checks that the
// file it names holds the same bytes.
func imageOf(t *testing.T, res *sdktest.Result) image.Image {
	t.Helper()
	for _, c := range res.Content {
		if ic, ok := c.(sdk.ImageContent); ok {
			img, err := png.Decode(bytes.NewReader(ic.Data))
			if err != nil || ic.MIMEType != "image/png" {
				t.Fatalf("screenshot image: %v (%s)", err, ic.MIMEType)
			}
			i := strings.Index(res.Text(), screenshotDir())
			if i < 0 {
				t.Fatalf("no file named in %s", res.Text())
			}
			file := strings.SplitN(res.Text()[i:], ":", 2)[0]
			if b, err := os.ReadFile(file); err != nil || !bytes.Equal(b, ic.Data) {
				t.Errorf("file %s does not hold the image: %v", file, err)
			}
			return img
		}
	}
	t.Fatalf("no image in %s", res.Text())
	return nil
}

// processAlive returns nil when pid runs and is not a zombie.
func processAlive(pid int) error {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return err
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && strings.HasPrefix(strings.TrimSpace(s[i+1:]), "Z") {
		return fmt.Errorf("zombie")
	}
	return nil
}

// TestWebRuntimeRefusals: a project the web runtime cannot run gets a
// clear error before any engine starts.
func TestWebRuntimeRefusals(t *testing.T) {
	requireWeb(t)
	cases := []struct {
		name, features, extra, want string
	}{
		{"newer Godot", `PackedStringArray("4.7")`, "", "Godot 4.7"},
		{"C#", `PackedStringArray("4.6", "C#")`, "", "C#"},
		{"GDExtension", `PackedStringArray("4.6")`, "ext.gdextension", "GDExtension (res://ext.gdextension)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			proj := "config_version=5\n\n[application]\n\nrun/main_scene=\"res://m.tscn\"\nconfig/features=" + c.features + "\n"
			_ = os.WriteFile(filepath.Join(dir, "project.godot"), []byte(proj), 0o644)
			_ = os.WriteFile(filepath.Join(dir, "m.tscn"), []byte("[gd_scene format=3]\n\n[node name=\"M\" type=\"Node\"]\n"), 0o644)
			if c.extra != "" {
				_ = os.WriteFile(filepath.Join(dir, c.extra), []byte("[configuration]\n"), 0o644)
			}
			h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
			for _, tool := range []string{"play_scene", "run_and_capture"} {
				res := h.Call(context.Background(), tool, map[string]any{})
				if res.ErrorCode != sdk.CodePreconditionFailed || !strings.Contains(res.Error.Message, c.want) || res.Error.Hint == "" {
					t.Errorf("%s: %+v, want PRECONDITION_FAILED naming %q", tool, res.Error, c.want)
				}
			}
		})
	}
}

// TestGameSessionProcessesOverTheRealHost plays the test game through the
// real host and plugin: stop_scene ends the game's renderer process, and
// SIGKILLing the host kills the browser and every process it started.
func TestGameSessionProcessesOverTheRealHost(t *testing.T) {
	requireWeb(t)
	setup, _ := webgodot.Locate()
	dir := testGame(t)
	s := startHost(t, dir, webgodot.EnvRuntime+"="+setup.RuntimeDir, webgodot.EnvChromium+"="+setup.Chromium)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	play := func() {
		t.Helper()
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "godot_runtime_play_scene", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Fatalf("play_scene: %v %s", err, textOf(res))
		}
	}
	play()
	host := s.cmd.Process.Pid
	renderers := func() []int {
		var out []int
		for _, p := range descendantsOf(host) {
			if b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(p), "cmdline")); err == nil && strings.Contains(string(b), "--type=renderer") {
				out = append(out, p)
			}
		}
		return out
	}
	before := renderers()
	if len(before) == 0 {
		t.Fatalf("no renderer process under the host %d", host)
	}
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "godot_runtime_stop_scene", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("stop_scene: %v %s", err, textOf(res))
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(renderers()) >= len(before) && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if n := len(renderers()); n >= len(before) {
		t.Errorf("%d renderer processes after stop_scene, %d before: the game's did not end", n, len(before))
	}

	play()
	procs := descendantsOf(host)
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	for _, p := range procs {
		if !testplugins.WaitDead(p, 30*time.Second) { // Chromium winds down slowly on a loaded machine
			t.Errorf("process %d outlived the killed host: %s", p, describeProcess(p))
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
	}
}

// describeProcess says what pid is (state, parent, command line) so that a
// survivor can be told apart: a frozen process, an orphan, which binary.
func describeProcess(pid int) string {
	stat, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	cmd, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		if f := strings.Fields(s[i+1:]); len(f) > 1 {
			s = "state " + f[0] + ", parent " + f[1]
		}
	}
	c := strings.ReplaceAll(string(cmd), "\x00", " ")
	if len(c) > 200 {
		c = c[:200] + "…"
	}
	return s + ", " + c
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// descendantsOf returns the pids of every process below pid, by parent
// pid in /proc.
func descendantsOf(pid int) []int {
	parent := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		if i := strings.LastIndexByte(s, ')'); i >= 0 {
			if f := strings.Fields(s[i+1:]); len(f) > 1 {
				parent[p], _ = strconv.Atoi(f[1])
			}
		}
	}
	var out []int
	level := []int{pid}
	for len(level) > 0 {
		var next []int
		for p, pp := range parent {
			if slices.Contains(level, pp) {
				next = append(next, p)
			}
		}
		out = append(out, next...)
		level = next
	}
	return out
}
