package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/internal/godotrun/godottest"
	"github.com/godot-mcp/godot-mcp/internal/testplugins"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if hostBinPath != "" {
		_ = os.RemoveAll(filepath.Dir(hostBinPath)) // the binaries host_test.go built
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

func TestManifest(t *testing.T) {
	m, err := Toolset().Manifest()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Tools) != 14 {
		t.Fatalf("%d tools", len(m.Tools))
	}
}

func host(t *testing.T, dir string, editor func(string, json.RawMessage) (json.RawMessage, *sdk.Error)) *sdktest.Host {
	t.Helper()
	return sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "3", Editor: editor})
}

func runGame(t *testing.T, h *sdktest.Host, args map[string]any) (runResult, *sdktest.Result) {
	t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	res := h.Call(context.Background(), "run_and_capture", args)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	var out runResult
	if !res.IsError {
		if err := res.Structured(&out); err != nil {
			t.Fatal(err)
		}
	}
	return out, res
}

func scriptErrors(r runResult) []string {
	var out []string
	for _, e := range r.Errors {
		if e.File != "" {
			out = append(out, e.Kind+" "+e.File+":"+strconv.Itoa(e.Line)+" "+e.Function+": "+e.Message)
		}
	}
	return out
}

func TestRunClean(t *testing.T) {
	godottest.RequireGodot3(t)
	dir := godottest.Godot3Project(t, "extends Node\n\nfunc _ready():\n\tprint(\"all good\")\n\tget_tree().quit()\n", nil)
	out, res := runGame(t, host(t, dir, nil), nil)
	if res.IsError || !out.Ran || out.ExitCode == nil || *out.ExitCode != 0 || out.TimedOut {
		t.Fatalf("%s", res.Text())
	}
	if len(scriptErrors(out)) != 0 || !strings.Contains(out.Output, "all good") || !strings.HasPrefix(out.Godot, "3.") {
		t.Fatalf("%s", res.Text())
	}
	if out.Command[0] == "" || !strings.Contains(strings.Join(out.Command, " "), "--path "+dir) {
		t.Errorf("command %v", out.Command)
	}
}

func TestRunScriptErrorAtKnownLine(t *testing.T) {
	godottest.RequireGodot3(t)
	// A script error ends the function it happens in (hit), not the caller.
	dir := godottest.Godot3Project(t, "extends Node\n\nfunc hit(enemy):\n\tenemy.take_damage(3)\n\nfunc _ready():\n\thit(null)\n\tget_tree().quit(2)\n", nil)
	out, res := runGame(t, host(t, dir, nil), nil)
	if out.ExitCode == nil || *out.ExitCode != 2 || out.OK {
		t.Fatalf("%s", res.Text())
	}
	got := scriptErrors(out)
	if len(got) != 1 || !strings.HasPrefix(got[0], "SCRIPT ERROR res://main.gd:4 hit: ") || !strings.Contains(got[0], "take_damage") {
		t.Fatalf("errors %q", got)
	}
	if !strings.Contains(out.Summary, "res://main.gd:4") {
		t.Errorf("summary %q", out.Summary)
	}
}

// A parse error in the main script: Godot 3 prints it and then runs the
// scene without the script, forever; the deadline ends it.
func TestRunParseError(t *testing.T) {
	godottest.RequireGodot3(t)
	dir := godottest.Godot3Project(t, "extends Node\n\nfunc _ready():\n\tvar x = \n\tget_tree().quit()\n", nil)
	out, res := runGame(t, host(t, dir, nil), map[string]any{"timeout_seconds": 2})
	if !out.TimedOut || out.ExitCode != nil || out.OK {
		t.Fatalf("%s", res.Text())
	}
	got := scriptErrors(out)
	if len(got) == 0 || !strings.HasPrefix(got[0], "PARSE ERROR res://main.gd:5 ") {
		t.Fatalf("errors %q", got)
	}
}

const loopingGame = `extends Node

func _ready():
	var f = File.new()
	f.open("res://pid.txt", File.WRITE)
	f.store_string(str(OS.get_process_id()) + "\n")
	f.close()
	while true:
		pass
`

func waitPID(t *testing.T, dir string) int {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		data, err := os.ReadFile(filepath.Join(dir, "pid.txt"))
		if err == nil && strings.HasSuffix(string(data), "\n") {
			n, _ := strconv.Atoi(strings.TrimSpace(string(data)))
			return n
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the game wrote no pid")
	return 0
}

func TestRunInfiniteLoopKilledAtDeadline(t *testing.T) {
	godottest.RequireGodot3(t)
	dir := godottest.Godot3Project(t, loopingGame, nil)
	h := host(t, dir, nil)
	out, res := runGame(t, h, map[string]any{"timeout_seconds": 3})
	if !out.TimedOut || out.ExitCode != nil || out.OK || out.DurationSeconds < 3 {
		t.Fatalf("%s", res.Text())
	}
	if len(res.Progress) < 2 || res.Progress[0].Total != 3 || !strings.Contains(res.Progress[0].Message, "running") {
		t.Errorf("progress %+v", res.Progress)
	}
	if pid := waitPID(t, dir); !testplugins.WaitDead(pid, 5*time.Second) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("Godot %d survived its deadline", pid)
	}
	// The same game with expected_timeout is a clean run.
	out, res = runGame(t, h, map[string]any{"timeout_seconds": 1, "expected_timeout": true})
	if !out.TimedOut || !out.OK || !strings.Contains(out.Summary, "as expected") {
		t.Fatalf("%s", res.Text())
	}
}

func TestRunCancelledMidRun(t *testing.T) {
	godottest.RequireGodot3(t)
	dir := godottest.Godot3Project(t, loopingGame, nil)
	h := host(t, dir, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan *sdktest.Result, 1)
	go func() { done <- h.Call(ctx, "run_and_capture", map[string]any{"timeout_seconds": 120}) }()
	pid := waitPID(t, dir)
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the call did not end after cancellation")
	}
	if !testplugins.WaitDead(pid, 5*time.Second) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("Godot %d survived the cancellation", pid)
	}
}

func TestRunHugeOutputCapped(t *testing.T) {
	godottest.RequireGodot3(t)
	dir := godottest.Godot3Project(t, "extends Node\n\nfunc _ready():\n\tfor i in range(30000):\n\t\tprint(\"spam line \", i)\n\tvar a = [1]\n\tprint(a[5])\n\tget_tree().quit()\n", nil)
	out, res := runGame(t, host(t, dir, nil), map[string]any{"max_output_bytes": 4096})
	if out.OutputDropped == 0 || len(out.Output) > 5000 || out.OutputBytes < 300_000 {
		t.Fatalf("kept %d of %d, dropped %d", len(out.Output), out.OutputBytes, out.OutputDropped)
	}
	if !strings.Contains(out.Output, "spam line 0") || !strings.Contains(out.Output, "bytes of output dropped here") {
		t.Fatalf("output:\n%s", out.Output)
	}
	got := scriptErrors(out)
	if len(got) != 1 || !strings.Contains(got[0], "res://main.gd:7") {
		t.Fatalf("errors %q (%s)", got, res.Text())
	}
}

func TestRunMissingBinary(t *testing.T) {
	dir := godottest.Godot3Project(t, "extends Node\n", nil)
	t.Setenv(godotrun.EnvBin, filepath.Join(t.TempDir(), "no-godot-here"))
	_, res := runGame(t, host(t, dir, nil), nil)
	if res.ErrorCode != sdk.CodePreconditionFailed || res.Error.Required != "godot_bin" ||
		!strings.Contains(res.Error.Hint, godotrun.EnvBin) {
		t.Fatalf("%+v", res.Error)
	}
}

func TestRunArguments(t *testing.T) {
	godottest.RequireGodot3(t)
	dir := godottest.Godot3Project(t, "extends Node\n", map[string]string{
		"other.tscn": "[gd_scene load_steps=2 format=2]\n\n[ext_resource path=\"res://other.gd\" type=\"Script\" id=1]\n\n[node name=\"Other\" type=\"Node\"]\nscript = ExtResource( 1 )\n",
		"other.gd":   "extends Node\nfunc _ready():\n\tprint(\"the other scene\")\n\tget_tree().quit(4)\n",
	})
	h := host(t, dir, nil)
	out, res := runGame(t, h, map[string]any{"scene": "res://other.tscn"})
	if out.ExitCode == nil || *out.ExitCode != 4 || !strings.Contains(out.Output, "the other scene") {
		t.Fatalf("%s", res.Text())
	}
	// The reference's spelling, scene_path, names the same argument.
	if out, res := runGame(t, h, map[string]any{"scene_path": "res://other.tscn"}); out.ExitCode == nil || *out.ExitCode != 4 {
		t.Errorf("scene_path: %s", res.Text())
	}
	if _, res := runGame(t, h, map[string]any{"scene": "res://missing.tscn"}); res.ErrorCode != sdk.CodeNotFound || res.Error.Required != "scene" {
		t.Errorf("a missing scene: %s %s", res.ErrorCode, res.Text())
	}
	for _, bad := range []map[string]any{
		{"scene": "res://other.gd"},
		{"scene": "../outside.tscn"},
		{"timeout_seconds": 601},
		{"timeout_seconds": 0},
	} {
		if _, res := runGame(t, h, bad); res.ErrorCode != sdk.CodeInvalidArgument {
			t.Errorf("%v: %s %s", bad, res.ErrorCode, res.Text())
		}
	}
	// No main scene and no scene argument.
	if err := os.WriteFile(filepath.Join(dir, "project.godot"), []byte("config_version=4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, res := runGame(t, h, nil); res.ErrorCode != sdk.CodePreconditionFailed || res.Error.Required != "main_scene" {
		t.Errorf("%+v", res.Error)
	}
}

func TestGetParseErrors(t *testing.T) {
	godottest.RequireGodot3(t)
	dir := godottest.Godot3Project(t, "extends Node\n\nfunc _ready():\n\tpass\n", map[string]string{
		"scripts/broken.gd":   "extends Node\n\nfunc f():\n\tvar x = \n",
		"scripts/undecl.gd":   "extends Node\nfunc g():\n\treturn nowhere_to_be_found\n",
		"scripts/uses_cls.gd": "extends Node\nfunc h():\n\treturn Helper.new()\n",
		"scripts/helper.gd":   "extends Node\nclass_name Helper\n",
		".hidden/skip.gd":     "this is not gdscript at all\n",
	})
	h := host(t, dir, nil)
	res := h.Call(context.Background(), "get_parse_errors", nil)
	var out parseResult
	if err := res.Structured(&out); err != nil {
		t.Fatalf("%v: %s", err, res.Text())
	}
	if out.Checked != 5 || out.FilesWithError != 3 || len(out.Errors) != 3 {
		t.Fatalf("%s", res.Text())
	}
	byFile := map[string]godotrun.ScriptError{}
	for _, e := range out.Errors {
		byFile[e.File] = e
	}
	if e := byFile["res://scripts/broken.gd"]; e.Kind != "PARSE ERROR" || e.Line != 5 {
		t.Errorf("broken.gd: %+v", e)
	}
	if e := byFile["res://scripts/undecl.gd"]; e.Line != 3 || !strings.Contains(e.Message, "nowhere_to_be_found") || e.Hint != "" {
		t.Errorf("undecl.gd: %+v", e)
	}
	if e := byFile["res://scripts/uses_cls.gd"]; !strings.Contains(e.Hint, "res://scripts/helper.gd") {
		t.Errorf("uses_cls.gd: no class_name hint: %+v", e)
	}
	if len(res.Progress) != 5 {
		t.Errorf("progress %+v", res.Progress)
	}

	res = h.Call(context.Background(), "get_parse_errors", map[string]any{"script": "res://main.gd"})
	if err := res.Structured(&out); err != nil || out.Checked != 1 || len(out.Errors) != 0 {
		t.Fatalf("%v %s", err, res.Text())
	}
	if res := h.Call(context.Background(), "get_parse_errors", map[string]any{"script": "res://main.tscn"}); res.ErrorCode != sdk.CodeInvalidArgument {
		t.Errorf("a scene accepted: %s", res.Text())
	}
}

// --- editor-only tools, over sdktest's scripted editor ---

// TestGameToolsWithoutASession: without an editor and before any
// play_scene, the tools that read a running game refuse at once with the
// addon's play_session token; is_playing and stop_scene answer.
func TestGameToolsWithoutASession(t *testing.T) {
	h := host(t, t.TempDir(), nil)
	for _, tool := range []string{"get_game_scene_tree", "get_game_output", "capture_game_screenshot",
		"get_property_samples", "find_ui_elements"} {
		start := time.Now()
		res := h.Call(context.Background(), tool, nil)
		if res.ErrorCode != sdk.CodePreconditionFailed || res.Error.Required != "play_session" ||
			!strings.Contains(res.Error.Hint, "play_scene") {
			t.Errorf("%s: %+v", tool, res.Error)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s took %s to say nothing plays", tool, d)
		}
	}
	for _, c := range []struct{ tool, args string }{{"read_property", `{"node_path":"P","property":"position"}`},
		{"monitor_property", `{"node_path":"P","property":"position"}`}} {
		var args map[string]any
		_ = json.Unmarshal([]byte(c.args), &args)
		if res := h.Call(context.Background(), c.tool, args); res.ErrorCode != sdk.CodePreconditionFailed || res.Error.Required != "play_session" {
			t.Errorf("%s: %+v", c.tool, res.Error)
		}
	}
	for _, tool := range []string{"is_playing", "stop_scene"} {
		res := h.Call(context.Background(), tool, nil)
		if res.IsError || !strings.Contains(string(res.StructuredJSON), `"playing":false`) {
			t.Errorf("%s: %s", tool, res.Text())
		}
	}
}

// scriptedEditor answers commands from a table of functions and records
// the params it saw.
type scriptedEditor struct {
	mu     sync.Mutex
	calls  map[string][]map[string]any
	answer func(cmd string, n int, params map[string]any) (any, *sdk.Error)
}

func (s *scriptedEditor) handle(cmd string, raw json.RawMessage) (json.RawMessage, *sdk.Error) {
	var p map[string]any
	_ = json.Unmarshal(raw, &p)
	s.mu.Lock()
	if s.calls == nil {
		s.calls = map[string][]map[string]any{}
	}
	s.calls[cmd] = append(s.calls[cmd], p)
	n := len(s.calls[cmd])
	s.mu.Unlock()
	v, e := s.answer(cmd, n, p)
	if e != nil {
		return nil, e
	}
	b, _ := json.Marshal(v)
	return b, nil
}

func TestEditorPolling(t *testing.T) {
	pollInterval = 5 * time.Millisecond
	png := []byte("\x89PNG\r\n\x1a\nnot really")
	ed := &scriptedEditor{answer: func(cmd string, n int, p map[string]any) (any, *sdk.Error) {
		switch cmd {
		case "cmd_get_game_output":
			if n < 3 {
				return map[string]any{"ready": false, "reason": "output_pending", "entries": []any{}}, nil
			}
			return map[string]any{"entries": []any{map[string]any{"seq": 8, "text": "hi"}}, "next_seq": 8}, nil
		case "cmd_capture_game_screenshot":
			if n < 2 {
				return map[string]any{"ready": false, "reason": "capture_pending"}, nil
			}
			return map[string]any{"ready": true, "format": "png", "width": 64, "height": 32,
				"base64": base64.StdEncoding.EncodeToString(png)}, nil
		case "cmd_get_property_samples":
			return map[string]any{"ready": false, "connected": true, "reason": "capture_pending"}, nil
		case "cmd_find_ui_elements":
			return map[string]any{"ready": false, "connected": false}, nil
		case "cmd_play_scene":
			return map[string]any{"playing": true, "scene": p["scene_path"]}, nil
		}
		return nil, &sdk.Error{Code: "VALIDATION_ERROR", Hint: "Unknown command '" + cmd + "'."}
	}}
	h := host(t, t.TempDir(), ed.handle)

	res := h.Call(context.Background(), "get_game_output", map[string]any{"since_seq": 5})
	if res.IsError || !strings.Contains(res.Text(), `"next_seq":8`) || len(ed.calls["cmd_get_game_output"]) != 3 {
		t.Fatalf("%s (%d polls)", res.Text(), len(ed.calls["cmd_get_game_output"]))
	}
	if ed.calls["cmd_get_game_output"][0]["since_seq"] != 5.0 {
		t.Errorf("params %v", ed.calls["cmd_get_game_output"][0])
	}

	res = h.Call(context.Background(), "capture_game_screenshot", nil)
	if res.IsError || len(res.Content) != 2 {
		t.Fatalf("%+v", res)
	}
	if img, ok := res.Content[0].(sdk.ImageContent); !ok || string(img.Data) != string(png) || img.MIMEType != "image/png" {
		t.Fatalf("image %+v", res.Content[0])
	}
	shots := ed.calls["cmd_capture_game_screenshot"]
	if len(shots) != 2 || shots[0]["request_id"] == "" || shots[0]["request_id"] != shots[1]["request_id"] {
		t.Errorf("request ids not stable across polls: %v", shots)
	}

	start := time.Now()
	res = h.Call(context.Background(), "get_property_samples", map[string]any{"timeout_seconds": 1})
	if res.ErrorCode != sdk.CodeTimeout || !strings.Contains(res.Error.Message, "capture_pending") {
		t.Fatalf("%+v", res.Error)
	}
	if d := time.Since(start); d < time.Second-50*time.Millisecond || d > 5*time.Second {
		t.Errorf("gave up after %s, want about 1s", d)
	}

	res = h.Call(context.Background(), "find_ui_elements", nil)
	if res.ErrorCode != sdk.CodePreconditionFailed || res.Error.Required != "runtime_probe" {
		t.Fatalf("%+v", res.Error)
	}

	res = h.Call(context.Background(), "play_scene", map[string]any{"scene": "res://level.tscn"})
	if res.IsError || !strings.Contains(res.Text(), "res://level.tscn") {
		t.Fatalf("%s", res.Text())
	}
	// An addon refusal comes back as the host maps it: a command this
	// addon lacks is an addon-too-old precondition.
	res = h.Call(context.Background(), "stop_scene", nil)
	if res.ErrorCode != sdk.CodePreconditionFailed || res.Error.Required != "addon_command" {
		t.Fatalf("%+v", res.Error)
	}
}

// With an editor attached, the check waits for its file scan to settle.
func TestParseErrorsWaitForTheEditorScan(t *testing.T) {
	godottest.RequireGodot3(t)
	dir := godottest.Godot3Project(t, "extends Node\n", nil)
	scanWait, scanPoll = 300*time.Millisecond, 10*time.Millisecond
	for _, tc := range []struct {
		busyPolls int
		pending   bool
	}{{3, false}, {1 << 30, true}} {
		ed := &scriptedEditor{answer: func(cmd string, n int, _ map[string]any) (any, *sdk.Error) {
			return map[string]any{"scanning": n <= tc.busyPolls}, nil
		}}
		h := host(t, dir, ed.handle)
		res := h.Call(context.Background(), "get_parse_errors", map[string]any{"script": "res://main.gd"})
		var out parseResult
		if err := res.Structured(&out); err != nil {
			t.Fatalf("%v %s", err, res.Text())
		}
		polls := len(ed.calls["cmd_get_scan_state"])
		if out.RescanPending != tc.pending || (!tc.pending && polls != tc.busyPolls+1) || (tc.pending && polls < 5) {
			t.Errorf("busy for %d polls: pending %v after %d polls", tc.busyPolls, out.RescanPending, polls)
		}
	}
}
