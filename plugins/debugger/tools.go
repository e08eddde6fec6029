package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// requiredSession is the Required token when no game runs under the
// debugger; requiredBreak when the game is not stopped at a break (the
// addon's token for the same refusal).
const (
	requiredSession = "debug_session"
	requiredBreak   = "break_state"
)

// Limits in the schema the agent sees.
const (
	defaultRunTimeout = 300 // seconds
	maxRunTimeout     = 3600
	stepWait          = 10 * time.Second
	maxStepOutLines   = 200 // Godot 3 has no step out: step over at most this many lines
	maxVars           = 200 // per list of get_frame_variables
)

// finder is shared by every call, so a binary's version is probed once.
var finder = &godotrun.Finder{}

// state is the headless debugger: at most one game session, and the
// breakpoints, which outlive sessions (a run starts with all of them).
var state struct {
	mu   sync.Mutex
	sess *session
	bps  breakpoints
}

func current() *session {
	state.mu.Lock()
	defer state.mu.Unlock()
	return state.sess
}

func noSession() *sdk.Error {
	e := sdk.Errorf(sdk.CodePreconditionFailed,
		"start the game under the debugger with godot_debugger_run (with an editor attached, play the game in the editor instead)",
		"no game is running under the debugger")
	e.Required = requiredSession
	return e
}

// live returns the session, locked for this call, or the refusal.
func live(ctx context.Context) (*session, error) {
	s := current()
	if s == nil {
		return nil, noSession()
	}
	if _, closed, _, _ := s.state(); closed {
		return nil, gone("the game exited or closed the connection")
	}
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// atBreak is live plus: the game is stopped at a break.
func atBreak(ctx context.Context) (*session, error) {
	s, err := live(ctx)
	if err != nil {
		return nil, err
	}
	if paused, _, _, _ := s.state(); !paused {
		s.unlock()
		e := sdk.Errorf(sdk.CodePreconditionFailed,
			"set a breakpoint with godot_debugger_set_breakpoint on a line the game runs, or call godot_debugger_force_break",
			"the game is running, not stopped at a break")
		e.Required = requiredBreak
		return nil, e
	}
	return s, nil
}

type noArgs struct{}

type bpArgs struct {
	Path sdk.ResPath `json:"path" godot:"ext=.gd,exists" jsonschema:"res:// path of the GDScript file, such as res://player.gd"`
	Line int         `json:"line" minimum:"1" jsonschema:"line number, 1-based, as the script editor shows it"`
}

type frameArgs struct {
	Frame int `json:"frame,omitempty" minimum:"0" maximum:"1000" jsonschema:"stack frame: 0 (the default) is the function that stopped, 1 its caller, …"`
}

type evalArgs struct {
	Expression string `json:"expression" jsonschema:"a GDScript expression, such as velocity.x * 2 or get_node(\"Sprite\").position"`
	Frame      int    `json:"frame,omitempty" minimum:"0" maximum:"1000" jsonschema:"stack frame whose variables the expression sees (default 0, the top)"`
}

type waitArgs struct {
	WaitMs int `json:"wait_ms,omitempty" minimum:"0" maximum:"120000" jsonschema:"headless: after resuming, wait up to this many milliseconds for the game to stop at a break again and report where (default 0: return at once)"`
}

type stackArgs struct {
	WaitMs int `json:"wait_ms,omitempty" minimum:"0" maximum:"120000" jsonschema:"headless: if the game is running, wait up to this many milliseconds for it to stop at a break (default 0)"`
}

type runArgs struct {
	Scene          sdk.ScenePath `json:"scene,omitempty" alias:"scene_path" godot:"exists" jsonschema:"res:// path of the scene to run; default: the project's main scene"`
	Breakpoints    []bp          `json:"breakpoints,omitempty" jsonschema:"breakpoints to add before the game starts, each {path: res://file.gd, line}; the ones set with godot_debugger_set_breakpoint are kept too"`
	TimeoutSeconds int           `json:"timeout_seconds,omitempty" default:"300" minimum:"5" maximum:"3600" jsonschema:"deadline of the game in seconds (default 300): it is killed when it passes"`
	WaitForBreakMs int           `json:"wait_for_break_ms,omitempty" default:"10000" minimum:"0" maximum:"120000" jsonschema:"wait up to this many milliseconds for the game to stop at a breakpoint before answering (default 10000; 0: answer once it is connected)"`
}

func tools() []sdk.Tool {
	return []sdk.Tool{
		sdk.NewTool("run",
			"Headless: start the game with a native Godot binary under the debugger (this toolset is the debug server the game connects to), "+
				"with every breakpoint set so far plus the ones given, and wait for the first break. Stops the game a previous run started. "+
				"Then use get_stack_frames, get_frame_variables, step_over/into/out, continue_execution, and stop. "+
				"With an editor attached, play the game in the editor instead; the other debugger tools then drive the editor's debugger.",
			sdk.Runtime, runGame,
			sdk.HeadlessOnly("with an editor attached the game runs in the editor: play it there (godot_runtime_play_scene) and the debugger tools drive the editor's debugger"),
			sdk.WithTitle("Run the game under the debugger")),
		sdk.NewTool("stop",
			"Headless: stop the game godot_debugger_run started (its whole process tree is killed) and return what it printed. Breakpoints are kept for the next run.",
			sdk.Runtime, stopGame,
			sdk.HeadlessOnly("the game runs in the editor: stop it there (godot_runtime_stop_scene)"),
			sdk.WithTitle("Stop the debugged game")),
		sdk.NewTool("set_breakpoint",
			"Set a breakpoint at line of a GDScript file. With an editor, in the editor's debug session (the game must be playing in the editor). "+
				"Headless, in the game godot_debugger_run started, and in every later run; set it before godot_debugger_run to stop in _ready.",
			sdk.Runtime, setBreakpoint,
			sdk.EditorCommand("cmd_set_breakpoint", func(in bpArgs) (any, error) {
				return map[string]any{"path": string(in.Path), "line": in.Line}, nil
			}),
			sdk.WithTitle("Set a breakpoint")),
		sdk.NewTool("remove_breakpoint",
			"Remove the breakpoint at line of a GDScript file (set with godot_debugger_set_breakpoint).",
			sdk.Runtime, removeBreakpoint,
			sdk.EditorCommand("cmd_remove_breakpoint", func(in bpArgs) (any, error) {
				return map[string]any{"path": string(in.Path), "line": in.Line}, nil
			}),
			sdk.WithTitle("Remove a breakpoint")),
		sdk.NewTool("clear_breakpoints",
			"Remove every breakpoint, in the running game and for later runs.",
			sdk.Runtime, clearBreakpoints,
			sdk.EditorCommand("cmd_clear_breakpoints", func(noArgs) (any, error) { return map[string]any{}, nil }),
			sdk.WithTitle("Clear breakpoints")),
		sdk.NewTool("force_break",
			"Stop the running game where it is, as the debugger's Break button does; then read get_stack_frames. "+
				"Headless the game stops at the next GDScript line it runs.",
			sdk.Runtime, forceBreak,
			sdk.EditorCommand("cmd_force_break", func(noArgs) (any, error) { return map[string]any{}, nil }),
			sdk.WithTitle("Break into the game")),
		sdk.NewTool("continue_execution",
			"Resume the game stopped at a break. Headless, wait_ms waits for the next break and reports where it stopped.",
			sdk.Runtime, continueGame,
			sdk.EditorCommand("cmd_continue_execution", func(waitArgs) (any, error) { return map[string]any{}, nil }),
			sdk.WithTitle("Continue")),
		stepTool("step_into", "step", "cmd_step_into",
			"Run the next line of the game stopped at a break, entering a function it calls; answers the new location (headless)."),
		stepTool("step_over", "next", "cmd_step_over",
			"Run the next line of the game stopped at a break, over any function it calls; answers the new location (headless)."),
		stepTool("step_out", "out", "cmd_step_out",
			"Run the game stopped at a break until the current function returns, stopping in its caller; answers the new location (headless). "+
				"Godot 3 has no step out: there it steps over lines until the function returns (at most 200)."),
		sdk.NewTool("get_stack_frames",
			"The call stack of the game stopped at a break: frames from the top (level 0, the function that stopped) down, each with res:// file, line, function and location (file:line). "+
				"Next: get_frame_variables for a frame, or step/continue.",
			sdk.ReadOnly, getStackFrames,
			sdk.EditorCommand("cmd_get_stack_frames", func(stackArgs) (any, error) { return map[string]any{}, nil }),
			sdk.WithTitle("Stack frames")),
		sdk.NewTool("get_frame_variables",
			"The variables of a stack frame of the game stopped at a break: locals, members (self first) and globals, each {name, type, value} "+
				"with values in JSON (vectors as {x, y}, objects as {object_id}).",
			sdk.ReadOnly, getFrameVariables,
			sdk.EditorCommand("cmd_get_frame_variables", func(in frameArgs) (any, error) { return map[string]any{"frame": in.Frame}, nil }),
			sdk.WithTitle("Frame variables")),
		sdk.NewTool("evaluate_expression",
			"Evaluate a GDScript expression in a stack frame of the game stopped at a break (its locals, self's members and the globals are visible). "+
				"Godot 3 has no evaluator: there the expression must name a variable of the frame, optionally with .field access.",
			sdk.Runtime, evaluateExpression,
			sdk.EditorCommand("cmd_evaluate_expression", func(in evalArgs) (any, error) {
				return map[string]any{"expression": in.Expression, "frame": in.Frame}, nil
			}),
			sdk.WithTitle("Evaluate an expression")),
	}
}

func stepTool(name, msg, cmd, desc string) sdk.Tool {
	return sdk.NewTool(name, desc, sdk.Runtime,
		func(ctx context.Context, call *sdk.Call, _ noArgs) (sdk.Result, error) { return step(ctx, msg) },
		sdk.EditorCommand(cmd, func(noArgs) (any, error) { return map[string]any{}, nil }),
		sdk.WithTitle(map[string]string{"step_into": "Step into", "step_over": "Step over", "step_out": "Step out"}[name]))
}

// noDebugger is the refusal when no native binary can run the project:
// the embedded web runtime is a release template, without a debugger.
func noDebugger(err error) error {
	e := sdk.Errorf(sdk.CodePreconditionFailed,
		"set GODOT_MCP_GODOT_BIN to a native Godot binary (editor or debug build) of the project's major version, "+
			"or open the project in the Godot editor with the godot-mcp addon and play the game there",
		"no native Godot binary to debug the game with (%v); the embedded web runtime cannot be debugged: it is a release template without a script debugger", err)
	e.Required = godotrun.RequiredBin
	return e
}

type runResult struct {
	Running     bool     `json:"running"`
	Paused      bool     `json:"paused" jsonschema:"the game is stopped at a break"`
	Location    string   `json:"location,omitempty" jsonschema:"res://file:line of the break"`
	Frames      []frame  `json:"frames,omitempty"`
	Reason      string   `json:"reason,omitempty" jsonschema:"the error that stopped the game, when it was one"`
	Breakpoints []bp     `json:"breakpoints"`
	Godot       string   `json:"godot"`
	Protocol    string   `json:"protocol"`
	Command     []string `json:"command"`
	Deadline    string   `json:"deadline"`
	Output      []string `json:"output,omitempty"`
	Hint        string   `json:"hint"`
}

func runGame(ctx context.Context, call *sdk.Call, in runArgs) (sdk.Result, error) {
	p, err := call.Project()
	if err != nil {
		return sdk.Result{}, err
	}
	proj, err := godotrun.ReadProject(p.Root())
	if err != nil {
		return sdk.Result{}, err
	}
	for i, b := range in.Breakpoints {
		clean, err := sdk.CleanResPath(fmt.Sprintf("breakpoints[%d].path", i), b.Path, ".gd")
		if err != nil {
			return sdk.Result{}, err
		}
		if b.Line < 1 {
			return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "give the 1-based line number", "breakpoints[%d].line must be at least 1, got %d", i, b.Line)
		}
		in.Breakpoints[i].Path = clean
	}
	var args []string
	if in.Scene != "" {
		args = append(args, string(in.Scene))
	} else if proj.MainScene == "" {
		e := sdk.Errorf(sdk.CodePreconditionFailed, "pass scene (a res:// .tscn path), or set application/run/main_scene in project.godot",
			"the project has no main scene and no scene was given")
		e.Required = "main_scene"
		return sdk.Result{}, e
	}
	bin, err := finder.Find(ctx, proj.Major)
	if err != nil {
		return sdk.Result{}, noDebugger(err)
	}
	for _, b := range in.Breakpoints {
		if strings.ContainsAny(b.Path, ", ") {
			return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "rename the file, or set the breakpoint with godot_debugger_set_breakpoint once the game runs",
				"breakpoint path %q has a comma or a space, which Godot's --breakpoints cannot carry", b.Path)
		}
		state.bps.add(b)
	}
	// One game at a time: a new run replaces the old one.
	state.mu.Lock()
	old := state.sess
	state.sess = nil
	state.mu.Unlock()
	if old != nil {
		old.close()
	}
	timeout := time.Duration(orDefault(in.TimeoutSeconds, defaultRunTimeout)) * time.Second
	var startBPs []bp
	for _, b := range state.bps.list() {
		if !strings.ContainsAny(b.Path, ", ") {
			startBPs = append(startBPs, b)
		}
	}
	s, err := start(ctx, bin, p.Root(), args, startBPs, timeout)
	if err != nil {
		return sdk.Result{}, err
	}
	state.mu.Lock()
	state.sess = s
	state.mu.Unlock()

	res := runResult{Running: true, Breakpoints: state.bps.list(), Godot: bin.Version, Command: s.command,
		Protocol: fmt.Sprintf("Godot %d remote debugger", s.d), Deadline: s.deadline.UTC().Format(time.RFC3339)}
	if wait := orDefault(in.WaitForBreakMs, 10000); wait > 0 && len(res.Breakpoints) > 0 {
		if _, err := s.waitBreak(ctx, 0, time.Duration(wait)*time.Millisecond); err != nil {
			out, errs := s.printed()
			return sdk.Result{}, fmt.Errorf("%w; last output: %s", err, strings.Join(append(out, errs...), "\n"))
		}
	}
	if err := s.lock(ctx); err != nil {
		return sdk.Result{}, err
	}
	defer s.unlock()
	if paused, _, _, _ := s.state(); paused {
		res.Paused = true
		frames, err := s.stack(ctx)
		if err != nil {
			return sdk.Result{}, err
		}
		res.Frames = frames
		if len(frames) > 0 {
			res.Location = frames[0].Location
		}
		s.mu.Lock()
		res.Reason = s.reason
		s.mu.Unlock()
		res.Hint = "the game is stopped at " + res.Location + ": read godot_debugger_get_frame_variables, step with godot_debugger_step_over, or resume with godot_debugger_continue_execution"
	} else {
		res.Hint = "the game runs under the debugger; set breakpoints with godot_debugger_set_breakpoint or stop it with godot_debugger_force_break"
	}
	res.Output, _ = s.printed()
	return sdk.JSON(res), nil
}

func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

func stopGame(ctx context.Context, call *sdk.Call, _ noArgs) (sdk.Result, error) {
	state.mu.Lock()
	s := state.sess
	state.sess = nil
	state.mu.Unlock()
	if s == nil {
		return sdk.JSON(map[string]any{"stopped": false, "note": "no game was running under the debugger"}), nil
	}
	_, closed, _, _ := s.state()
	s.close()
	out, errs := s.printed()
	res := map[string]any{"stopped": true, "was_running": !closed, "output": out, "errors": errs,
		"ran_seconds": time.Since(s.started).Round(time.Millisecond).Seconds()}
	if s.outcome != nil {
		res["exit_code"] = s.outcome.ExitCode
		res["timed_out"] = s.outcome.TimedOut
	}
	return sdk.JSON(res), nil
}

func setBreakpoint(ctx context.Context, call *sdk.Call, in bpArgs) (sdk.Result, error) {
	b := bp{Path: string(in.Path), Line: in.Line}
	state.bps.add(b)
	res := map[string]any{"breakpoint_set": true, "path": b.Path, "line": b.Line}
	s := current()
	if s == nil {
		res["applies"] = "next_run"
		res["hint"] = "no game runs under the debugger yet: godot_debugger_run starts one with this breakpoint"
		return sdk.JSON(res), nil
	}
	if err := s.lock(ctx); err != nil {
		return sdk.Result{}, err
	}
	defer s.unlock()
	if err := sendBreakpoint(s, b, true); err != nil {
		return sdk.Result{}, err
	}
	res["applies"] = "running_game"
	return sdk.JSON(res), nil
}

func sendBreakpoint(s *session, b bp, set bool) error {
	if _, closed, _, _ := s.state(); closed {
		return nil // the next run starts with it
	}
	return s.send("breakpoint", b.Path, int64(b.Line), set)
}

func removeBreakpoint(ctx context.Context, call *sdk.Call, in bpArgs) (sdk.Result, error) {
	b := bp{Path: string(in.Path), Line: in.Line}
	had := state.bps.remove(b)
	if s := current(); s != nil {
		if err := s.lock(ctx); err != nil {
			return sdk.Result{}, err
		}
		defer s.unlock()
		if err := sendBreakpoint(s, b, false); err != nil {
			return sdk.Result{}, err
		}
	}
	res := map[string]any{"breakpoint_removed": true, "path": b.Path, "line": b.Line, "was_set": had}
	return sdk.JSON(res), nil
}

func clearBreakpoints(ctx context.Context, call *sdk.Call, _ noArgs) (sdk.Result, error) {
	removed := state.bps.clear()
	if s := current(); s != nil {
		if err := s.lock(ctx); err != nil {
			return sdk.Result{}, err
		}
		defer s.unlock()
		for _, b := range removed {
			if err := sendBreakpoint(s, b, false); err != nil {
				return sdk.Result{}, err
			}
		}
	}
	return sdk.JSON(map[string]any{"breakpoints_cleared": true, "removed": removed}), nil
}

func forceBreak(ctx context.Context, call *sdk.Call, _ noArgs) (sdk.Result, error) {
	s, err := live(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	defer s.unlock()
	paused, _, breaks, _ := s.state()
	if paused {
		return locationResult(ctx, s, map[string]any{"force_break_sent": false, "note": "the game was already stopped at a break"})
	}
	if err := s.send("break"); err != nil {
		return sdk.Result{}, err
	}
	ok, err := s.waitBreak(ctx, breaks, stepWait)
	if err != nil {
		return sdk.Result{}, err
	}
	if !ok {
		return sdk.Result{}, sdk.Errorf(sdk.CodeTimeout, "set a breakpoint on a line the game runs instead (godot_debugger_set_breakpoint)",
			"the game did not stop within %s: it breaks at the next GDScript line it runs, and ran none", stepWait)
	}
	return locationResult(ctx, s, map[string]any{"force_break_sent": true})
}

// locationResult adds the break's location and stack to res.
func locationResult(ctx context.Context, s *session, res map[string]any) (sdk.Result, error) {
	frames, err := s.stack(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	res["paused"] = true
	if frames == nil {
		frames = []frame{}
	}
	res["frames"] = frames
	if len(frames) > 0 {
		res["location"] = frames[0].Location
		res["function"] = frames[0].Function
	} else {
		res["note"] = "the game stopped between frames, outside any GDScript function: godot_debugger_step_into stops at the next line it runs"
	}
	return sdk.JSON(res), nil
}

func continueGame(ctx context.Context, call *sdk.Call, in waitArgs) (sdk.Result, error) {
	s, err := atBreak(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	defer s.unlock()
	_, _, breaks, _ := s.state()
	if err := s.send("continue"); err != nil {
		return sdk.Result{}, err
	}
	if in.WaitMs == 0 {
		return sdk.JSON(map[string]any{"running": true}), nil
	}
	ok, err := s.waitBreak(ctx, breaks, time.Duration(in.WaitMs)*time.Millisecond)
	if err != nil {
		return sdk.Result{}, err
	}
	if !ok {
		return sdk.JSON(map[string]any{"running": true, "paused": false, "note": fmt.Sprintf("no break within %d ms", in.WaitMs)}), nil
	}
	return locationResult(ctx, s, map[string]any{"running": false})
}

func step(ctx context.Context, msg string) (sdk.Result, error) {
	s, err := atBreak(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	defer s.unlock()
	if msg == "out" && s.d == Godot3 {
		return stepOut3(ctx, s)
	}
	_, _, breaks, _ := s.state()
	if err := s.send(msg); err != nil {
		return sdk.Result{}, err
	}
	ok, err := s.waitBreak(ctx, breaks, stepWait)
	if err != nil {
		return sdk.Result{}, err
	}
	if !ok {
		return sdk.JSON(map[string]any{"stepped": true, "paused": false,
			"note": fmt.Sprintf("the game ran on and did not stop again within %s", stepWait)}), nil
	}
	return locationResult(ctx, s, map[string]any{"stepped": true})
}

// stepOut3 steps over lines until the function of the top frame returns:
// Godot 3.2's debugger has no "out".
func stepOut3(ctx context.Context, s *session) (sdk.Result, error) {
	frames, err := s.stack(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	if len(frames) == 0 {
		return sdk.Result{}, malformed("an empty stack")
	}
	depth, fn := len(frames), frames[0].Function
	for i := 1; i <= maxStepOutLines; i++ {
		_, _, breaks, _ := s.state()
		if err := s.send("next"); err != nil {
			return sdk.Result{}, err
		}
		ok, err := s.waitBreak(ctx, breaks, stepWait)
		if err != nil {
			return sdk.Result{}, err
		}
		if !ok {
			return sdk.JSON(map[string]any{"stepped": true, "paused": false, "note": "the game ran on after the function returned"}), nil
		}
		frames, err = s.stack(ctx)
		if err != nil {
			return sdk.Result{}, err
		}
		if len(frames) < depth || (len(frames) == depth && frames[0].Function != fn) {
			res := map[string]any{"stepped": true, "paused": true, "frames": frames, "lines_stepped": i}
			if len(frames) > 0 {
				res["location"], res["function"] = frames[0].Location, frames[0].Function
			}
			return sdk.JSON(res), nil
		}
	}
	return locationResult(ctx, s, map[string]any{"stepped": true,
		"note": fmt.Sprintf("the function had not returned after %d lines; stopped there", maxStepOutLines)})
}

func getStackFrames(ctx context.Context, call *sdk.Call, in stackArgs) (sdk.Result, error) {
	if in.WaitMs > 0 {
		if s := current(); s != nil {
			if paused, _, breaks, _ := s.state(); !paused {
				if _, err := s.waitBreak(ctx, breaks, time.Duration(in.WaitMs)*time.Millisecond); err != nil {
					return sdk.Result{}, err
				}
			}
		}
	}
	s, err := atBreak(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	defer s.unlock()
	frames, err := s.stack(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	s.mu.Lock()
	reason := s.reason
	s.mu.Unlock()
	if frames == nil {
		frames = []frame{}
	}
	res := map[string]any{"frames": frames, "count": len(frames)}
	if reason != "" {
		res["reason"] = reason
	}
	return sdk.JSON(res), nil
}

func getFrameVariables(ctx context.Context, call *sdk.Call, in frameArgs) (sdk.Result, error) {
	s, err := atBreak(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	defer s.unlock()
	if err := checkFrame(ctx, s, in.Frame); err != nil {
		return sdk.Result{}, err
	}
	locals, members, globals, err := s.vars(ctx, in.Frame)
	if err != nil {
		return sdk.Result{}, err
	}
	res := map[string]any{"frame": in.Frame}
	for name, l := range map[string][]variable{"locals": locals, "members": members, "globals": globals} {
		if l == nil {
			l = []variable{}
		}
		if len(l) > maxVars {
			res[name+"_truncated"] = len(l) - maxVars
			l = l[:maxVars]
		}
		res[name] = l
	}
	return sdk.JSON(res), nil
}

// checkFrame refuses a frame beyond the stack: Godot would ignore the
// request and never answer.
func checkFrame(ctx context.Context, s *session, level int) error {
	frames, err := s.stack(ctx)
	if err != nil {
		return err
	}
	if level >= len(frames) {
		return sdk.Errorf(sdk.CodeInvalidArgument, "pass a frame between 0 and the last level godot_debugger_get_stack_frames lists",
			"frame %d is beyond the stack, which has %d frames", level, len(frames))
	}
	return nil
}

func evaluateExpression(ctx context.Context, call *sdk.Call, in evalArgs) (sdk.Result, error) {
	if strings.TrimSpace(in.Expression) == "" {
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass a GDScript expression such as position.x", "expression is empty")
	}
	s, err := atBreak(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	defer s.unlock()
	if err := checkFrame(ctx, s, in.Frame); err != nil {
		return sdk.Result{}, err
	}
	if s.d == Godot3 {
		return evaluate3(ctx, s, in)
	}
	v, err := s.evaluate(ctx, in.Expression, in.Frame)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(map[string]any{"expression": in.Expression, "value": v.Value, "type": v.Type}), nil
}

// evaluate3 answers an expression that names a variable of the frame
// (with .field access into dictionaries and vectors): Godot 3.2's
// debugger has no evaluator.
func evaluate3(ctx context.Context, s *session, in evalArgs) (sdk.Result, error) {
	locals, members, globals, err := s.vars(ctx, in.Frame)
	if err != nil {
		return sdk.Result{}, err
	}
	parts := strings.Split(strings.TrimSpace(in.Expression), ".")
	if parts[0] == "self" && len(parts) > 1 {
		parts = parts[1:]
	}
	var found *variable
	for _, l := range [][]variable{locals, members, globals} {
		for i := range l {
			if l[i].Name == parts[0] && found == nil {
				found = &l[i]
			}
		}
	}
	unsupported := func() error {
		return sdk.Errorf(sdk.CodePreconditionFailed,
			"name a variable of the frame (see godot_debugger_get_frame_variables), optionally with .field, or debug with Godot 4, whose debugger evaluates expressions",
			"Godot 3's debugger cannot evaluate %q: it has no expression evaluator, and %q is not a variable of frame %d", in.Expression, parts[0], in.Frame)
	}
	if found == nil {
		return sdk.Result{}, unsupported()
	}
	value, typ := found.Value, found.Type
	for _, p := range parts[1:] {
		m, ok := value.(map[string]any)
		if !ok {
			return sdk.Result{}, unsupported()
		}
		if value, ok = m[p]; !ok {
			return sdk.Result{}, unsupported()
		}
		typ = ""
	}
	res := map[string]any{"expression": in.Expression, "value": value, "evaluated_by": "variable lookup (Godot 3 has no evaluator)"}
	if typ != "" {
		res["type"] = typ
	}
	return sdk.JSON(res), nil
}
