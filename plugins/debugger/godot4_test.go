package main

import (
	"bufio"
	"context"
	"net"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// fakeGodot4 is a Godot 4.6 game's remote debugger, speaking the wire
// format of core/debugger/remote_debugger.cpp: one packet per message,
// [name, thread id, data]. It stops at a break at once, in _process at
// main.gd:8 called from nothing; "next" moves to line 9, "step" into
// twice() at line 13, "out" back to line 9, "continue" runs and "break"
// stops again.
type fakeGodot4 struct {
	t    *testing.T
	conn net.Conn
	mu   sync.Mutex
	cmds [][]any // every command received: [name, thread, data]
	// where the game is stopped: the stack, top first, as [file, line, func]
	stack  [][3]any
	paused bool
}

const fakeThread = 7 // the thread that broke, as debug_enter announces it

func (f *fakeGodot4) send(name string, data ...any) {
	if data == nil {
		data = []any{}
	}
	if err := writePacket(f.conn, Godot4, []any{name, int64(fakeThread), data}); err != nil {
		f.t.Log("fake game:", err)
	}
}

func (f *fakeGodot4) enter(stack ...[3]any) {
	f.stack, f.paused = stack, true
	f.send("debug_enter", true, "Breakpoint", true, int64(fakeThread))
}

func (f *fakeGodot4) run() {
	r := &msgReader{r: bufio.NewReader(f.conn), d: Godot4}
	for {
		v, err := r.value()
		if err != nil {
			return
		}
		cmd := v.([]any)
		f.mu.Lock()
		f.cmds = append(f.cmds, cmd)
		f.mu.Unlock()
		data := cmd[2].([]any)
		proc := [3]any{"res://main.gd", int64(9), StringName("_process")}
		switch cmd[0] {
		case "get_stack_dump":
			out := []any{int64(3 * len(f.stack))}
			for _, fr := range f.stack {
				out = append(out, fr[0], fr[1], fr[2])
			}
			f.send("stack_dump", out...)
		case "get_stack_frame_vars":
			f.send("stack_frame_vars", int64(4))
			f.send("stack_frame_var", "delta", int64(0), int64(3), 0.016)
			f.send("stack_frame_var", "self", int64(1), int64(24), Object{ID: 1234})
			f.send("stack_frame_var", "velocity", int64(1), int64(5), Math{Type: "Vector2", V: []float64{3, -4}})
			f.send("stack_frame_var", "Input", int64(2), int64(24), Object{ID: 99})
		case "evaluate":
			f.send("evaluation_return", data[0], int64(3), int64(2), int64(42))
		case "next":
			f.send("debug_exit")
			f.enter(proc)
		case "step":
			f.send("debug_exit")
			f.enter([3]any{"res://main.gd", int64(13), StringName("twice")}, [3]any{"res://main.gd", int64(8), StringName("_process")})
		case "out":
			f.send("debug_exit")
			f.enter(proc)
		case "continue":
			f.paused = false
			f.send("debug_exit")
			f.send("output", Packed{Type: "PackedStringArray", Items: []any{"resumed"}}, Packed{Type: "PackedInt32Array", Items: []any{int64(0)}})
		case "break":
			f.enter(proc)
		}
	}
}

func (f *fakeGodot4) commands() [][]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([][]any(nil), f.cmds...)
}

// fakeSession attaches a session to a fake Godot 4.6 game.
func fakeSession(t *testing.T) *fakeGodot4 {
	t.Helper()
	ours, theirs := net.Pipe()
	f := &fakeGodot4{t: t, conn: theirs}
	s := newSession(Godot4, &godotrun.Binary{Major: 4, Minor: 6, Version: "4.6.stable"})
	s.conn = ours
	s.rd = &msgReader{r: bufio.NewReader(ours), d: Godot4}
	s.started, s.deadline = time.Now(), time.Now().Add(time.Minute)
	var once sync.Once
	s.kill = func() { once.Do(func() { theirs.Close(); close(s.done) }) }
	go s.serve()
	go f.run()
	state.mu.Lock()
	state.sess = s
	state.mu.Unlock()
	f.enter([3]any{"res://main.gd", int64(8), StringName("_process")})
	if _, err := s.waitBreak(context.Background(), 0, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestGodot4WireFormat(t *testing.T) {
	resetState(t)
	dir := plugintest.Project(t, map[string]string{"project.godot": "config_version=5\n", "main.gd": gameScript})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	f := fakeSession(t)

	out := call(t, h, "get_stack_frames", map[string]any{})
	fr := out["frames"].([]any)[0].(map[string]any)
	if fr["location"] != "res://main.gd:8" || fr["function"] != "_process" {
		t.Fatalf("frames %v", out)
	}
	out = call(t, h, "get_frame_variables", map[string]any{})
	if v := vars(out, "members")["velocity"]; !reflect.DeepEqual(v, map[string]any{"x": float64(3), "y": float64(-4)}) {
		t.Fatalf("velocity %v", v)
	}
	if v := vars(out, "members")["self"]; !reflect.DeepEqual(v, map[string]any{"object_id": float64(1234)}) {
		t.Fatalf("self %v", v)
	}
	if vars(out, "locals")["delta"] != 0.016 || vars(out, "globals")["Input"] == nil {
		t.Fatalf("vars %v", out)
	}
	out = call(t, h, "evaluate_expression", map[string]any{"expression": "count + 1"})
	if out["value"] != float64(42) || out["type"] != "int" {
		t.Fatalf("evaluate %v", out)
	}
	if out = call(t, h, "step_over", map[string]any{}); out["location"] != "res://main.gd:9" {
		t.Fatalf("step_over %v", out)
	}
	if out = call(t, h, "step_into", map[string]any{}); out["location"] != "res://main.gd:13" || out["function"] != "twice" {
		t.Fatalf("step_into %v", out)
	}
	if out = call(t, h, "step_out", map[string]any{}); out["location"] != "res://main.gd:9" {
		t.Fatalf("step_out %v", out)
	}
	call(t, h, "set_breakpoint", map[string]any{"path": "res://main.gd", "line": 13})
	if out = call(t, h, "continue_execution", map[string]any{}); out["running"] != true {
		t.Fatalf("continue %v", out)
	}
	plugintest.Refused(t, h, "step_over", map[string]any{}, sdk.CodePreconditionFailed, "not stopped at a break")
	if out = call(t, h, "force_break", map[string]any{}); out["location"] != "res://main.gd:9" {
		t.Fatalf("force_break %v", out)
	}
	call(t, h, "remove_breakpoint", map[string]any{"path": "res://main.gd", "line": 13})

	// The exact commands, as Godot 4.2+ reads them: [name, thread, data];
	// the thread that broke while stopped, the main thread (1) otherwise.
	want := [][]any{
		{"get_stack_dump", int64(fakeThread), []any{}},
		{"get_stack_dump", int64(fakeThread), []any{}}, // frame check
		{"get_stack_frame_vars", int64(fakeThread), []any{int64(0)}},
		{"get_stack_dump", int64(fakeThread), []any{}},
		{"evaluate", int64(fakeThread), []any{"count + 1", int64(0)}},
		{"next", int64(fakeThread), []any{}},
		{"get_stack_dump", int64(fakeThread), []any{}},
		{"step", int64(fakeThread), []any{}},
		{"get_stack_dump", int64(fakeThread), []any{}},
		{"out", int64(fakeThread), []any{}},
		{"get_stack_dump", int64(fakeThread), []any{}},
		{"breakpoint", int64(fakeThread), []any{"res://main.gd", int64(13), true}},
		{"continue", int64(fakeThread), []any{}},
		{"break", int64(mainThread), []any{}},
		{"get_stack_dump", int64(fakeThread), []any{}},
		{"breakpoint", int64(fakeThread), []any{"res://main.gd", int64(13), false}},
	}
	if got := f.commands(); !reflect.DeepEqual(got, want) {
		t.Fatalf("commands:\n got %v\nwant %v", got, want)
	}
	out = call(t, h, "stop", map[string]any{})
	if out["stopped"] != true || len(out["output"].([]any)) != 1 {
		t.Fatalf("stop %v", out)
	}
}

// Without a native binary the tools say the web runtime cannot be
// debugged and name what would work.
func TestNoNativeGodot(t *testing.T) {
	resetState(t)
	t.Setenv("GODOT_MCP_GODOT_BIN", "/nonexistent/godot")
	dir := plugintest.Project(t, map[string]string{"project.godot": "config_version=5\n[application]\nrun/main_scene=\"res://main.tscn\"\n", "main.tscn": "[gd_scene format=3]\n\n[node name=\"Main\" type=\"Node\"]\n"})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	res := plugintest.Refused(t, h, "run", map[string]any{}, sdk.CodePreconditionFailed, "web runtime cannot be debugged")
	for _, w := range []string{"GODOT_MCP_GODOT_BIN", "Godot editor"} {
		if !strings.Contains(res.Text(), w) {
			t.Fatalf("the refusal does not name %s: %s", w, res.Text())
		}
	}
	plugintest.Refused(t, h, "get_stack_frames", map[string]any{}, sdk.CodePreconditionFailed, "godot_debugger_run")
}
