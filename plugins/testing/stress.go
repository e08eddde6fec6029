package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/godotlog"
	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/sdk"
)

type stressArgs struct {
	Scene          sdk.ScenePath `json:"scene,omitempty" alias:"scene_path" jsonschema:"without an editor: the res:// scene to run (default: the main scene)"`
	SpawnScene     sdk.ScenePath `json:"spawn_scene,omitempty" jsonschema:"without an editor: a res:// scene to instance instances times into the running scene on the first frame (2D nodes are spread over the viewport)"`
	Instances      int           `json:"instances,omitempty" minimum:"0" maximum:"10000" jsonschema:"how many copies of spawn_scene to add (default 0)"`
	Frames         int           `json:"frames,omitempty" minimum:"1" maximum:"100000" jsonschema:"without an editor: frames to run and measure (default 300)"`
	Iterations     int           `json:"iterations,omitempty" minimum:"0" maximum:"10000" jsonschema:"random input events to send, spread over the run (default 0; the addon's stress test sends 50)"`
	Actions        []string      `json:"actions,omitempty" jsonschema:"the pool random events are drawn from: input map actions, key names, or click (default ui_left, ui_right, ui_up, ui_down, Space, Enter, click)"`
	Seed           int64         `json:"seed,omitempty" jsonschema:"seed of the random events, for a run that repeats exactly"`
	DelayMS        int           `json:"delay_ms,omitempty" minimum:"0" maximum:"10000" jsonschema:"with an editor: milliseconds between random events (default 50)"`
	TimeoutSeconds int           `json:"timeout_seconds,omitempty" default:"120" minimum:"1" maximum:"1800" jsonschema:"deadline in seconds (default 120)"`
}

var defaultFuzzActions = []string{"ui_left", "ui_right", "ui_up", "ui_down", "Space", "Enter", "click"}

type stressResult struct {
	Survived      bool               `json:"survived" jsonschema:"the game ran every frame and was still running at the end"`
	PlayingAfter  bool               `json:"playing_after"`
	Iterations    int                `json:"iterations"`
	Seed          int64              `json:"seed"`
	Frames        int                `json:"frames,omitempty"`
	Spawned       int                `json:"spawned,omitempty"`
	EventsSent    int                `json:"events_sent"`
	FrameTimeMS   *Stats             `json:"frame_time_ms,omitempty" jsonschema:"wall time between frames (vsync included)"`
	ProcessTimeMS *Stats             `json:"process_time_ms,omitempty" jsonschema:"the engine's Performance TIME_PROCESS per frame"`
	PhysicsTimeMS *Stats             `json:"physics_time_ms,omitempty" jsonschema:"the engine's Performance TIME_PHYSICS_PROCESS per frame"`
	FPS           float64            `json:"fps,omitempty" jsonschema:"1000 / frame_time_ms.avg"`
	Monitors      map[string]float64 `json:"monitors,omitempty" jsonschema:"the engine's Performance monitors at the end (memory_static in bytes, object_count, object_node_count, ...)"`
	Peak          map[string]float64 `json:"peak,omitempty" jsonschema:"the same monitors' largest values over the run"`
	Errors        []string           `json:"errors" jsonschema:"errors the engine printed during the run, as res://file:line: message where it named a script"`
	Notes         []string           `json:"notes,omitempty"`
	Engine        *engineInfo        `json:"engine,omitempty"`
	Output        string             `json:"output,omitempty"`
	Error         string             `json:"error,omitempty"`
	Text          string             `json:"text"`
}

func runStress(ctx context.Context, call *sdk.Call, in stressArgs) (sdk.Result, error) {
	p, err := call.Project()
	if err != nil {
		return sdk.Result{}, err
	}
	settings, err := godotrun.ReadProject(p.Root())
	if err != nil {
		return sdk.Result{}, err
	}
	var t *target
	if settings.Major == 3 {
		t, err = chooseEngine(ctx, call, engineNative)
	} else {
		t, err = headlessTarget(ctx, call)
	}
	if err != nil {
		return sdk.Result{}, err
	}
	frames := in.Frames
	if frames == 0 {
		frames = 300
	}
	actions := in.Actions
	if in.Iterations > 0 && len(actions) == 0 {
		actions = defaultFuzzActions
	}
	pl := plan{SpawnScene: string(in.SpawnScene), Instances: in.Instances, Seed: in.Seed, Frames: frames,
		RandomEvents: in.Iterations, Actions: actions, Steps: []Step{}}
	var d *driven
	if t.bin != nil {
		d, err = driveGodot3(ctx, call, t, string(in.Scene), pl, timeoutOf(in.TimeoutSeconds))
	} else {
		d, err = drive(ctx, call, t, string(in.Scene), pl, timeoutOf(in.TimeoutSeconds), "stress test")
	}
	if err != nil {
		return sdk.Result{}, err
	}
	res := stressResult{Iterations: in.Iterations, Seed: in.Seed, Engine: &t.engine, Errors: []string{}}
	for _, e := range d.run.Errors {
		res.Errors = append(res.Errors, entryText(e))
	}
	if d.done == nil {
		res.Output = quietOutput(d.run.Output)
		switch {
		case d.run.TimedOut:
			res.Error = fmt.Sprintf("the run did not finish %d frames within the deadline", frames)
		case d.run.ExitCode != nil:
			res.Error = fmt.Sprintf("the game quit (exit code %d) before %d frames", *d.run.ExitCode, frames)
		default:
			res.Error = "the game stopped before the run finished"
		}
		res.Text = "the game did not survive: " + res.Error
		return sdk.JSON(res), nil
	}
	done := d.done
	res.Survived, res.PlayingAfter = true, true
	res.Frames, res.Spawned, res.EventsSent = done.Frames-1, done.Spawned, done.EventsSent
	ft := statsOf(done.FrameUS, 0.001)
	pt := statsOf(done.ProcessMS, 1)
	ph := statsOf(done.PhysicsMS, 1)
	res.FrameTimeMS, res.ProcessTimeMS, res.PhysicsTimeMS = &ft, &pt, &ph
	if ft.Avg > 0 {
		res.FPS = float64(int(10000/ft.Avg)) / 10
	}
	res.Monitors, res.Peak = done.Final, done.Peak
	if res.Peak == nil {
		res.Peak = map[string]float64{}
	}
	for k, v := range res.Monitors {
		res.Peak[k] = max(res.Peak[k], v)
	}
	memory := "memory not tracked"
	if done.Final["memory_static"] > 0 {
		memory = fmt.Sprintf("memory %.1f MB (peak %.1f MB)", done.Final["memory_static"]/(1<<20), done.Peak["memory_static"]/(1<<20))
	} else {
		res.Notes = append(res.Notes, "the engine does not track memory in a release build (the web runtime is one): memory_static reads 0; "+
			"object, node and resource counts are exact")
	}
	res.Text = fmt.Sprintf("%d frames of %s", res.Frames, orMain(done.Scene))
	if res.Spawned > 0 {
		res.Text += fmt.Sprintf(" with %d instances of %s", res.Spawned, in.SpawnScene)
	}
	res.Text += fmt.Sprintf(": frame time avg %.2f ms, p95 %.2f ms, max %.2f ms; process time avg %.3f ms; %s; %d nodes, %d objects",
		ft.Avg, ft.P95, ft.Max, pt.Avg, memory, int(done.Final["object_node_count"]), int(done.Final["object_count"]))
	if in.Iterations > 0 {
		res.Text += fmt.Sprintf("; %d random input events sent (seed %d)", res.EventsSent, in.Seed)
	}
	if len(res.Errors) > 0 {
		res.Text += fmt.Sprintf("; %d error(s), first: %s", len(res.Errors), res.Errors[0])
	}
	return sdk.JSON(res), nil
}

func orMain(s string) string {
	if s == "" {
		return "the main scene"
	}
	return s
}

func timeoutOf(secs int) time.Duration {
	if secs <= 0 {
		secs = defaultTestTimeout
	}
	return time.Duration(secs) * time.Second
}

// randomEvents draws n input events from pool with seed, in the shapes of
// the addon's cmd_play_input_sequence: "click" is a left click at a random
// point of a w x h viewport, a lower_snake name an action, else a key.
func randomEvents(n int, pool []string, seed int64, w, h int) []map[string]any {
	if len(pool) == 0 {
		pool = defaultFuzzActions
	}
	r := rand.New(rand.NewPCG(uint64(seed), 0x6d6370))
	out := make([]map[string]any, 0, n)
	for range n {
		c := pool[r.IntN(len(pool))]
		switch {
		case c == "click":
			out = append(out, map[string]any{"type": "mouse", "x": r.IntN(w + 1), "y": r.IntN(h + 1), "button": "left", "pressed": true})
		case strings.Contains(c, "_") && strings.ToLower(c) == c:
			out = append(out, map[string]any{"type": "action", "action": c, "pressed": r.IntN(2) == 0})
		default:
			out = append(out, map[string]any{"type": "key", "key": c, "pressed": r.IntN(2) == 0})
		}
	}
	return out
}

// entryText is an error as one line: where (res://file:line) and what.
func entryText(e godotlog.Entry) string {
	if e.File != "" {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Message)
	}
	return e.Message
}

func itoa(n int) string { return fmt.Sprint(n) }

//go:embed stress3.gd
var stress3Script []byte

// driveGodot3 runs the stress plan with a native Godot 3 binary: the
// driver is the main loop (-s, from a temporary folder outside the
// project) and changes to the scene itself.
func driveGodot3(ctx context.Context, call *sdk.Call, t *target, scene string, pl plan, timeout time.Duration) (*driven, error) {
	if scene != "" {
		abs, err := t.project.Resolve(scene)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(abs); err != nil {
			return nil, sdk.Errorf(sdk.CodeNotFound, "pass the res:// path of an existing scene", "no scene at %s", scene)
		}
		scene = t.project.ResPath(filepath.Clean(abs))
	} else if t.settings.MainScene == "" {
		e := sdk.Errorf(sdk.CodePreconditionFailed, "pass scene (a res:// .tscn path), or set application/run/main_scene in project.godot",
			"the project has no main scene and no scene was given")
		e.Required = "main_scene"
		return nil, e
	}
	if pl.SpawnScene != "" {
		abs, err := t.project.Resolve(pl.SpawnScene)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(abs); err != nil {
			return nil, sdk.Errorf(sdk.CodeNotFound, "pass the res:// path of an existing scene to spawn", "no scene at %s", pl.SpawnScene)
		}
		pl.SpawnScene = t.project.ResPath(filepath.Clean(abs))
	}
	tmp, err := os.MkdirTemp("", "godot-mcp-stress-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	b, err := json.Marshal(struct {
		plan
		Scene string `json:"scene"`
	}{pl, scene})
	if err != nil {
		return nil, err
	}
	script, planFile := filepath.Join(tmp, "stress.gd"), filepath.Join(tmp, "plan.json")
	if err := os.WriteFile(script, stress3Script, 0o600); err != nil {
		return nil, err
	}
	if err := os.WriteFile(planFile, b, 0o600); err != nil {
		return nil, err
	}
	root := t.project.Root()
	o, err := godotrun.Run(ctx, godotrun.Spec{Bin: t.bin, Args: []string{"--path", root, "-s", script, "--godot-mcp-plan=" + planFile},
		Dir: root, Timeout: timeout, MaxOutput: 4 << 20,
		Tick: func(elapsed time.Duration, lines int) {
			call.Progress(elapsed.Seconds(), timeout.Seconds(), fmt.Sprintf("stress test running: %ds", int(elapsed.Seconds())))
		}})
	if err != nil {
		return nil, err
	}
	if o.Cancelled {
		return nil, sdk.Errorf(sdk.CodeCancelled, "", "the run was cancelled; Godot was killed")
	}
	d := &driven{run: &webRun{Output: o.Output, ExitCode: o.ExitCode, TimedOut: o.TimedOut, Duration: o.Duration, Errors: o.Errors, Warnings: o.Warnings, Command: o.Command}}
	for line := range strings.Lines(o.Output) {
		if rest, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), donePrefix); ok {
			var done driverDone
			if json.Unmarshal([]byte(rest), &done) == nil {
				d.done = &done
			}
		}
	}
	return d, nil
}
