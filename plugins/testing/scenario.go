package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image/png"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/sdk"
)

type scenarioArgs struct {
	Scene          sdk.ScenePath `json:"scene,omitempty" alias:"scene_path" jsonschema:"the res:// scene to play (default: the main scene)"`
	Steps          []Step        `json:"steps,omitempty" jsonschema:"the steps, in order: wait (physics ticks or ms), key, action, mouse, motion, assert, screenshot"`
	Events         []Step        `json:"events,omitempty" jsonschema:"input events (key/action/mouse) played before the assertions, as the addon's server takes them; steps may hold them instead"`
	Assertions     []Assertion   `json:"assertions,omitempty" jsonschema:"property checks made after the steps, events and settle_ms"`
	SetupMS        int           `json:"setup_ms,omitempty" minimum:"0" maximum:"60000" jsonschema:"with an editor: how long to wait for the game's probe to connect (default 3000)"`
	SettleMS       int           `json:"settle_ms,omitempty" minimum:"0" maximum:"60000" jsonschema:"milliseconds to wait after the events before the assertions (default 0 without an editor, 500 with one)"`
	StopAfter      *bool         `json:"stop_after,omitempty" jsonschema:"with an editor: stop the game afterwards (default true); without one the run always ends"`
	TimeoutSeconds int           `json:"timeout_seconds,omitempty" default:"120" minimum:"1" maximum:"1800" jsonschema:"deadline in seconds (default 120)"`
}

// StepResult is one step's outcome.
type StepResult struct {
	Index   int              `json:"index"`
	Type    string           `json:"type"`
	OK      bool             `json:"ok" jsonschema:"the step ran, and for assert the expectation held, for a screenshot with baseline the images matched"`
	Error   string           `json:"error,omitempty"`
	Frame   int              `json:"frame,omitempty" jsonschema:"the physics tick the step ran at, counted from the game's start (without an editor)"`
	Assert  *AssertionResult `json:"assert,omitempty"`
	Width   int              `json:"width,omitempty"`
	Height  int              `json:"height,omitempty"`
	Compare *compareResult   `json:"compare,omitempty" jsonschema:"screenshot with baseline: the comparison"`
}

type scenarioResult struct {
	Passed     bool              `json:"passed"`
	Played     bool              `json:"played"`
	Connected  bool              `json:"connected"`
	Steps      []StepResult      `json:"steps"`
	Assertions []AssertionResult `json:"assertions" jsonschema:"every assert step's result"`
	Frames     int               `json:"frames,omitempty"`
	Errors     []string          `json:"errors"`
	Engine     *engineInfo       `json:"engine,omitempty"`
	Error      string            `json:"error"`
	Output     string            `json:"output,omitempty"`
	Text       string            `json:"text"`
}

// allSteps puts the addon server's events, settle time and assertions
// after the steps.
func allSteps(in scenarioArgs, settleDefault int) ([]Step, error) {
	steps := append([]Step{}, in.Steps...)
	for _, e := range in.Events {
		if e.Type != "key" && e.Type != "action" && e.Type != "mouse" && e.Type != "motion" {
			return nil, sdk.Errorf(sdk.CodeInvalidArgument, "give events of type key, action, mouse or motion, or put other steps in steps", "event type %q is not an input event", e.Type)
		}
		steps = append(steps, e)
	}
	settle := in.SettleMS
	if settle == 0 && len(in.Events) > 0 {
		settle = settleDefault
	}
	if settle > 0 && len(in.Assertions) > 0 {
		steps = append(steps, Step{Type: "wait", Ms: settle})
	}
	for _, a := range in.Assertions {
		steps = append(steps, Step{Type: "assert", NodePath: a.NodePath, Property: a.Property, Expected: a.Expected, Op: a.Op, Epsilon: a.Epsilon})
	}
	if len(steps) == 0 {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, `pass steps, e.g. [{"type":"action","action":"ui_right"},{"type":"wait","frames":30},{"type":"assert","node_path":"Player","property":"position:x","op":">","expected":100}]`,
			"the scenario has no steps, events or assertions")
	}
	for i, s := range steps {
		switch s.Type {
		case "wait", "key", "action", "mouse", "motion", "screenshot":
		case "assert":
			if s.NodePath == "" && s.Property == "" {
				return nil, sdk.Errorf(sdk.CodeInvalidArgument, "give an assert step node_path, property and expected", "step %d: assert without node_path and property", i)
			}
			if s.Op != "" && !ops[s.Op] {
				return nil, sdk.Errorf(sdk.CodeInvalidArgument, "use op ==, !=, <, <=, >, >=, contains or approx", "step %d: unknown op %q", i, s.Op)
			}
		default:
			return nil, sdk.Errorf(sdk.CodeInvalidArgument, "use step type wait, key, action, mouse, motion, assert or screenshot", "step %d: unknown type %q", i, s.Type)
		}
	}
	return steps, nil
}

func runScenario(ctx context.Context, call *sdk.Call, in scenarioArgs) (sdk.Result, error) {
	steps, err := allSteps(in, 0)
	if err != nil {
		return sdk.Result{}, err
	}
	t, err := headlessTarget(ctx, call)
	if err != nil {
		return sdk.Result{}, err
	}
	// Baselines are read before the run, so a wrong path fails fast.
	for i, s := range steps {
		if s.Type == "screenshot" && s.Baseline != "" {
			if _, err := loadImage(call, fmt.Sprintf("steps[%d].baseline", i), s.Baseline); err != nil {
				return sdk.Result{}, err
			}
		}
	}
	d, err := drive(ctx, call, t, string(in.Scene), plan{Steps: steps}, timeoutOf(in.TimeoutSeconds), "scenario")
	if err != nil {
		return sdk.Result{}, err
	}
	res := scenarioResult{Played: true, Connected: true, Steps: []StepResult{}, Assertions: []AssertionResult{}, Errors: []string{}, Engine: &t.engine}
	for _, e := range d.run.Errors {
		res.Errors = append(res.Errors, entryText(e))
	}
	var images []sdk.Content
	for _, ds := range d.steps {
		if ds.Index < 0 || ds.Index >= len(steps) {
			continue
		}
		s := steps[ds.Index]
		sr := StepResult{Index: ds.Index, Type: s.Type, OK: ds.OK, Error: ds.Error, Frame: ds.Frame}
		switch s.Type {
		case "assert":
			ar := AssertionResult{NodePath: s.NodePath, Property: s.Property, Op: opOr(s.Op), Expected: s.Expected, Actual: ds.Actual, Error: ds.Error, Frame: ds.Frame}
			if ds.Error == "" {
				ar.Passed, ar.Error = evaluate(ds.Actual, s.Expected, s.Op, s.Epsilon)
			}
			sr.OK, sr.Error, sr.Assert = ar.Passed, ar.Error, &ar
			res.Assertions = append(res.Assertions, ar)
		case "screenshot":
			sr.Width, sr.Height = ds.Width, ds.Height
			if ds.OK {
				data, err := base64.StdEncoding.DecodeString(ds.Base64)
				if err == nil {
					images = append(images, sdk.ImageContent{Data: data, MIMEType: "image/png"})
				}
				if s.Baseline != "" && err == nil {
					if c, cerr := compareWithBaseline(call, s, data); cerr != nil {
						sr.OK, sr.Error = false, errMessage(cerr)
					} else {
						sr.Compare, sr.OK = c, c.Match
						if !c.Match {
							sr.Error = c.Text
						}
					}
				}
			}
		}
		res.Steps = append(res.Steps, sr)
	}
	if d.done != nil {
		res.Frames = d.done.Frames
	}
	res.Passed = d.done != nil && len(res.Steps) == len(steps)
	for _, s := range res.Steps {
		res.Passed = res.Passed && s.OK
	}
	switch {
	case d.done == nil && d.run.TimedOut:
		res.Error = "the scenario did not finish within the deadline"
	case d.done == nil:
		res.Error = "the game ended before the scenario finished"
		if d.run.ExitCode != nil {
			res.Error = fmt.Sprintf("the game quit (exit code %d) before the scenario finished", *d.run.ExitCode)
		}
	}
	if res.Error != "" {
		res.Output = quietOutput(d.run.Output)
	}
	res.Text = scenarioText(res, len(steps))
	out := sdk.JSON(res)
	if len(images) > 0 {
		out = withJSONText(res, res.Text, images)
	}
	return out, nil
}

func scenarioText(res scenarioResult, n int) string {
	failed := 0
	first := ""
	for _, s := range res.Steps {
		if !s.OK {
			failed++
			if first == "" {
				first = fmt.Sprintf("step %d (%s) at frame %d: %s", s.Index, s.Type, s.Frame, s.Error)
				if s.Assert != nil && s.Assert.Error == "" {
					first = fmt.Sprintf("step %d: %s.%s is %v, expected %s %v", s.Index, s.Assert.NodePath, s.Assert.Property, jsonText(s.Assert.Actual), s.Assert.Op, jsonText(s.Assert.Expected))
				}
			}
		}
	}
	verdict := "passed"
	if !res.Passed {
		verdict = "failed"
	}
	s := fmt.Sprintf("scenario %s: %d of %d steps ran, %d failed", verdict, len(res.Steps), n, failed)
	if first != "" {
		s += "; first failure: " + first
	}
	if res.Error != "" {
		s += "; " + res.Error
	}
	return s
}

func opOr(op string) string {
	if op == "" {
		return "=="
	}
	return op
}

func compareWithBaseline(call *sdk.Call, s Step, data []byte) (*compareResult, error) {
	base, err := loadImage(call, "baseline", s.Baseline)
	if err != nil {
		return nil, err
	}
	shot, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	c, _, err := Compare(base, shot, s.Tolerance, s.MaxDiffRatio)
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// Editor mode: the addon's commands, as its own server drives them.

func runScenarioEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in scenarioArgs) (sdk.Result, error) {
	return scenarioEditor(ctx, call, godotrun.EditorCommands{Ed: ed}, in)
}

func scenarioEditor(ctx context.Context, call *sdk.Call, ed editor, in scenarioArgs) (sdk.Result, error) {
	steps, err := allSteps(in, 500)
	if err != nil {
		return sdk.Result{}, err
	}
	if _, err := forward(ctx, ed, "cmd_play_scene", map[string]any{"scene_path": string(in.Scene)}); err != nil {
		return sdk.Result{}, err
	}
	stop := in.StopAfter == nil || *in.StopAfter
	res := scenarioResult{Played: true, Steps: []StepResult{}, Assertions: []AssertionResult{}, Errors: []string{}}
	setup := in.SetupMS
	if setup == 0 {
		setup = 3000
	}
	deadline := time.Now().Add(time.Duration(setup) * time.Millisecond)
	for {
		out, err := forward(ctx, ed, "cmd_get_game_scene_tree", map[string]any{})
		if err != nil {
			return sdk.Result{}, err
		}
		if c, _ := out["connected"].(bool); c {
			res.Connected = true
			break
		}
		if time.Now().After(deadline) {
			break
		}
		if err := sleepCtx(ctx, pollInterval); err != nil {
			return sdk.Result{}, err
		}
	}
	if !res.Connected {
		if stop {
			_, _ = forward(ctx, ed, "cmd_stop_scene", map[string]any{})
		}
		res.Error = "the game's runtime probe never connected: add the godot_mcp probe autoload (addons/godot_mcp/mcp_runtime_probe.gd)"
		res.Text = "scenario failed: " + res.Error
		return sdk.JSON(res), nil
	}
	var images []sdk.Content
	for i := 0; i < len(steps); i++ {
		s := steps[i]
		sr := StepResult{Index: i, Type: s.Type, OK: true}
		switch s.Type {
		case "key", "action", "mouse", "motion":
			// Consecutive input steps go as one sequence.
			events := []map[string]any{eventParams(s)}
			for i+1 < len(steps) && isInput(steps[i+1].Type) {
				i++
				events = append(events, eventParams(steps[i]))
				res.Steps = append(res.Steps, sr)
				sr = StepResult{Index: i, Type: steps[i].Type, OK: true}
			}
			if _, err := forward(ctx, ed, "cmd_play_input_sequence", map[string]any{"events": events, "delay_ms": 16}); err != nil {
				sr.OK, sr.Error = false, errMessage(err)
			} else if err := sleepCtx(ctx, time.Duration(len(events)*16)*time.Millisecond); err != nil {
				return sdk.Result{}, err
			}
		case "wait":
			d := time.Duration(s.Ms)*time.Millisecond + time.Duration(s.Frames)*time.Second/60
			if err := sleepCtx(ctx, d); err != nil {
				return sdk.Result{}, err
			}
		case "assert":
			ar := assertEditor(ctx, ed, Assertion{NodePath: s.NodePath, Property: s.Property, Expected: s.Expected, Op: s.Op, Epsilon: s.Epsilon}, 1500*time.Millisecond)
			sr.OK, sr.Error, sr.Assert = ar.Passed, ar.Error, &ar
			res.Assertions = append(res.Assertions, ar)
		case "screenshot":
			out, err := poll(ctx, ed, "cmd_capture_game_screenshot", map[string]any{"request_id": requestID()}, 10*time.Second)
			if err != nil {
				sr.OK, sr.Error = false, errMessage(err)
				break
			}
			b64, _ := out["base64"].(string)
			data, derr := base64.StdEncoding.DecodeString(b64)
			if e, _ := out["error"].(string); e != "" || derr != nil || len(data) == 0 {
				sr.OK, sr.Error = false, fmt.Sprintf("the editor's game gave no screenshot: %v", out["error"])
				break
			}
			images = append(images, sdk.ImageContent{Data: data, MIMEType: "image/png"})
			if s.Baseline != "" {
				if c, cerr := compareWithBaseline(call, s, data); cerr != nil {
					sr.OK, sr.Error = false, errMessage(cerr)
				} else {
					sr.Compare, sr.OK = c, c.Match
				}
			}
		}
		res.Steps = append(res.Steps, sr)
	}
	if stop {
		if _, err := forward(ctx, ed, "cmd_stop_scene", map[string]any{}); err != nil {
			return sdk.Result{}, err
		}
	}
	res.Passed = true
	for _, s := range res.Steps {
		res.Passed = res.Passed && s.OK
	}
	res.Text = scenarioText(res, len(steps))
	if len(images) > 0 {
		return withJSONText(res, res.Text, images), nil
	}
	return sdk.JSON(res), nil
}

func isInput(t string) bool { return t == "key" || t == "action" || t == "mouse" || t == "motion" }

// eventParams is an input step in the addon's event shape.
func eventParams(s Step) map[string]any {
	pressed := s.Pressed == nil || *s.Pressed
	switch s.Type {
	case "key":
		e := map[string]any{"type": "key", "key": s.Key, "pressed": pressed}
		for k, v := range map[string]bool{"shift": s.Shift, "ctrl": s.Ctrl, "alt": s.Alt, "meta": s.Meta} {
			if v {
				e[k] = true
			}
		}
		return e
	case "action":
		e := map[string]any{"type": "action", "action": s.Action, "pressed": pressed}
		if s.Strength != nil {
			e["strength"] = *s.Strength
		}
		return e
	case "mouse":
		b := s.Button
		if b == "" {
			b = "left"
		}
		return map[string]any{"type": "mouse", "x": s.X, "y": s.Y, "button": b, "pressed": pressed}
	}
	return map[string]any{"type": "motion", "x": s.X, "y": s.Y}
}

// assertEditor reads one live value as the addon's server does: a
// one-sample monitor, then its samples.
func assertEditor(ctx context.Context, ed editor, a Assertion, wait time.Duration) AssertionResult {
	ar := AssertionResult{NodePath: a.NodePath, Property: a.Property, Op: opOr(a.Op), Expected: a.Expected}
	if _, err := forward(ctx, ed, "cmd_monitor_property", map[string]any{"node_path": a.NodePath, "property": a.Property, "samples": 1}); err != nil {
		ar.Error = errMessage(err)
		return ar
	}
	out, err := poll(ctx, ed, "cmd_get_property_samples", map[string]any{}, wait)
	if err != nil {
		ar.Error = errMessage(err)
		return ar
	}
	if e, _ := out["error"].(string); e != "" {
		ar.Error = e
		return ar
	}
	samples, _ := out["samples"].([]any)
	if len(samples) == 0 {
		ar.Error = "no sample captured (is the game still running?)"
		return ar
	}
	first, _ := samples[0].(map[string]any)
	ar.Actual = first["value"]
	ar.Passed, ar.Error = evaluate(ar.Actual, a.Expected, a.Op, a.Epsilon)
	return ar
}
