package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// Assertion is one expectation on a property of the running game.
type Assertion struct {
	NodePath string   `json:"node_path" jsonschema:"the node, relative to the running scene's root (or /root/...)"`
	Property string   `json:"property" jsonschema:"the property (a sub-property as position:x)"`
	Expected any      `json:"expected" jsonschema:"the expected value (vectors as {x,y} or [x,y], colours as {r,g,b,a})" godot:"value"`
	Op       string   `json:"op,omitempty" enum:"==,!=,<,<=,>,>=,contains,approx" jsonschema:"comparison (default ==)"`
	Epsilon  *float64 `json:"epsilon,omitempty" minimum:"0" jsonschema:"approx: tolerance per component (default 1e-6)"`
}

// AssertionResult is the addon's server's shape, plus the frame.
type AssertionResult struct {
	NodePath string `json:"node_path"`
	Property string `json:"property"`
	Op       string `json:"op"`
	Expected any    `json:"expected"`
	Actual   any    `json:"actual"`
	Passed   bool   `json:"passed"`
	Error    string `json:"error"`
	Frame    int    `json:"frame,omitempty" jsonschema:"the game's process frame the value was read at (without an editor)"`
}

var ops = map[string]bool{"==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true, "contains": true, "approx": true}

// evaluate compares actual with expected. Numbers compare as floats;
// == and != allow float32 rounding (Godot stores floats in 32 bits in
// vectors); vectors and colours compare per component; expected arrays
// are read as the components of actual's vector or colour.
// fromText reads an expected value sent as text (its schema type is a
// string, for the clients that need one plain type) as the JSON value it
// spells when the actual value is not a string: "[1, 2]", "3", "true".
func fromText(expected, actual any) any {
	s, ok := expected.(string)
	if _, actualText := actual.(string); !ok || actualText {
		return expected
	}
	if j, ok := godot.JSONText(s); ok {
		return j
	}
	switch t := strings.TrimSpace(s); t {
	case "true", "false":
		return t == "true"
	default:
		if f, err := strconv.ParseFloat(t, 64); err == nil {
			return f
		}
	}
	return expected
}

func evaluate(actual, expected any, op string, eps *float64) (bool, string) {
	if op == "" {
		op = "=="
	}
	if !ops[op] {
		return false, fmt.Sprintf("unknown op %q: use ==, !=, <, <=, >, >=, contains or approx", op)
	}
	expected = normalize(fromText(expected, actual), actual)
	actual = normalize(actual, nil)
	switch op {
	case "==", "!=":
		eq := equal(actual, expected, 0)
		return eq == (op == "=="), ""
	case "approx":
		e := 1e-6
		if eps != nil {
			e = *eps
		}
		return equal(actual, expected, e), ""
	case "contains":
		switch a := actual.(type) {
		case string:
			s, ok := expected.(string)
			return ok && strings.Contains(a, s), ""
		case []any:
			for _, x := range a {
				if equal(x, expected, 0) {
					return true, ""
				}
			}
			return false, ""
		case map[string]any:
			s, ok := expected.(string)
			_, has := a[s]
			return ok && has, ""
		}
		return false, fmt.Sprintf("contains needs a string, array or dictionary value; the value is %s", typeName(actual))
	}
	a, aok := actual.(float64)
	b, bok := expected.(float64)
	if !aok || !bok {
		return false, fmt.Sprintf("%s compares numbers; the value is %s and expected is %s", op, typeName(actual), typeName(expected))
	}
	switch op {
	case "<":
		return a < b, ""
	case "<=":
		return a <= b, ""
	case ">":
		return a > b, ""
	default:
		return a >= b, ""
	}
}

// normalize turns JSON numbers into float64 and an array expected for a
// vector or colour into its map.
func normalize(v, like any) any {
	switch x := v.(type) {
	case int:
		return float64(x)
	case json.Number:
		f, _ := x.Float64()
		return f
	case []any:
		if m, ok := like.(map[string]any); ok {
			keys := componentKeys(m)
			if keys != nil && len(keys) == len(x) {
				out := map[string]any{}
				for i, k := range keys {
					out[k] = normalize(x[i], nil)
				}
				return out
			}
		}
	}
	return v
}

func componentKeys(m map[string]any) []string {
	for _, keys := range [][]string{{"x", "y"}, {"x", "y", "z"}, {"r", "g", "b", "a"}} {
		if len(m) == len(keys) {
			ok := true
			for _, k := range keys {
				if _, has := m[k]; !has {
					ok = false
				}
			}
			if ok {
				return keys
			}
		}
	}
	return nil
}

func equal(a, b any, eps float64) bool {
	switch x := a.(type) {
	case float64:
		y, ok := normalize(b, nil).(float64)
		if !ok {
			return false
		}
		if eps == 0 {
			// float32 rounding of the engine's stored value.
			return x == y || math.Abs(x-y) <= 1e-6*math.Max(1, math.Abs(y))
		}
		return math.Abs(x-y) <= eps
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if !equal(v, normalize(y[k], v), eps) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i], eps) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case float64:
		return "a number"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "a dictionary or vector"
	}
	return fmt.Sprintf("%T", v)
}

type assertArgs struct {
	NodePath       string        `json:"node_path" jsonschema:"the node, relative to the running scene's root (or /root/...)"`
	Property       string        `json:"property" jsonschema:"the property (a sub-property as position:x)"`
	Expected       any           `json:"expected" jsonschema:"the expected value (vectors as {x,y} or [x,y], colours as {r,g,b,a})" godot:"value"`
	Op             string        `json:"op,omitempty" enum:"==,!=,<,<=,>,>=,contains,approx" jsonschema:"comparison (default ==)"`
	Epsilon        *float64      `json:"epsilon,omitempty" minimum:"0" jsonschema:"approx: tolerance per component (default 1e-6)"`
	Also           []Assertion   `json:"also,omitempty" jsonschema:"more assertions checked at the same moment"`
	TimeoutMS      int           `json:"timeout_ms,omitempty" minimum:"100" maximum:"60000" jsonschema:"with an editor or a running game: how long to wait for the live value (default 3000)"`
	Scene          sdk.ScenePath `json:"scene,omitempty" alias:"scene_path" jsonschema:"without an editor: the res:// scene to run in a fresh run (default: the main scene); a running game of another scene is not read"`
	Frames         int           `json:"frames,omitempty" minimum:"0" maximum:"100000" jsonschema:"fresh run: physics ticks to run before reading (default 1); a running game is read as it is"`
	TimeoutSeconds int           `json:"timeout_seconds,omitempty" default:"120" minimum:"1" maximum:"1800" jsonschema:"fresh run: deadline in seconds (default 120)"`
}

type assertResult struct {
	NodePath   string            `json:"node_path"`
	Property   string            `json:"property"`
	Op         string            `json:"op"`
	Expected   any               `json:"expected"`
	Actual     any               `json:"actual"`
	Passed     bool              `json:"passed" jsonschema:"this assertion and every one in also held"`
	Error      string            `json:"error"`
	Frame      int               `json:"frame,omitempty" jsonschema:"the physics tick the values were read at (without an editor)"`
	Assertions []AssertionResult `json:"assertions" jsonschema:"each assertion: the first is node_path/property, then also's"`
	Source     string            `json:"source" enum:"running game,fresh run,editor" jsonschema:"where the values were read: the game godot_runtime_play_scene runs (running game), a one-shot run of the scene (fresh run, when no game runs), or the editor's game"`
	Scene      string            `json:"scene,omitempty" jsonschema:"the scene that ran (running game)"`
	Engine     *engineInfo       `json:"engine,omitempty"`
	Notes      []string          `json:"notes,omitempty"`
	Text       string            `json:"text"`
}

func (in assertArgs) all() ([]Assertion, error) {
	list := append([]Assertion{{NodePath: in.NodePath, Property: in.Property, Expected: in.Expected, Op: in.Op, Epsilon: in.Epsilon}}, in.Also...)
	for i, a := range list {
		if a.Property == "" {
			return nil, sdk.Errorf(sdk.CodeInvalidArgument, "pass node_path, property and expected", "assertion %d has no property", i)
		}
		if a.Op != "" && !ops[a.Op] {
			return nil, sdk.Errorf(sdk.CodeInvalidArgument, "use op ==, !=, <, <=, >, >=, contains or approx", "assertion %d: unknown op %q", i, a.Op)
		}
	}
	return list, nil
}

func assertResultOf(list []AssertionResult, source string, engine *engineInfo) assertResult {
	first := list[0]
	r := assertResult{NodePath: first.NodePath, Property: first.Property, Op: first.Op, Expected: first.Expected, Actual: first.Actual,
		Error: first.Error, Frame: first.Frame, Assertions: list, Source: source, Engine: engine, Passed: true}
	failed := 0
	for _, a := range list {
		if !a.Passed {
			r.Passed = false
			if failed == 0 {
				if a.Error != "" {
					r.Text = fmt.Sprintf("%s.%s: %s", a.NodePath, a.Property, a.Error)
				} else {
					r.Text = fmt.Sprintf("%s.%s is %s, expected %s %s", a.NodePath, a.Property, jsonText(a.Actual), a.Op, jsonText(a.Expected))
				}
			}
			failed++
		}
	}
	if r.Passed {
		r.Text = fmt.Sprintf("all %d assertion(s) held; %s.%s is %s", len(list), first.NodePath, first.Property, jsonText(first.Actual))
	} else {
		r.Text = fmt.Sprintf("%d of %d assertion(s) failed; first: %s", failed, len(list), r.Text)
	}
	r.Text += " (read in the " + sourceText(source) + ")"
	return r
}

func sourceText(source string) string {
	switch source {
	case sourceRunning:
		return "running game"
	case sourceFresh:
		return "fresh run of the scene"
	}
	return "editor's game"
}

// assertNodeState reads the game godot_runtime_play_scene runs when there
// is one (and it plays the scene asked for), else runs the scene once.
func assertNodeState(ctx context.Context, call *sdk.Call, in assertArgs) (sdk.Result, error) {
	list, err := in.all()
	if err != nil {
		return sdk.Result{}, err
	}
	var notes []string
	if c := attachGame(call); c != nil {
		scene := c.Info().Scene
		if in.Scene == "" || string(in.Scene) == scene {
			out, live, err := assertLive(ctx, c, list, in.wait())
			switch {
			case err == nil:
				r := assertResultOf(out, sourceRunning, nil)
				r.Scene = live.scene
				if in.Frames > 0 {
					r.Notes = append(r.Notes, "frames applies to a fresh run: the running game was read as it is (step it first with godot_input_step_frames)")
				}
				return sdk.JSON(r), nil
			case !isNoSession(err):
				return sdk.Result{}, err
			}
			notes = append(notes, "the running game ended before it was read, so the scene ran afresh")
		} else {
			notes = append(notes, fmt.Sprintf("the running game plays %s, not %s, so %s ran afresh", scene, in.Scene, in.Scene))
		}
	}
	t, err := headlessTarget(ctx, call)
	if err != nil {
		return sdk.Result{}, err
	}
	frames := in.Frames
	if frames == 0 {
		frames = 1
	}
	steps := []Step{{Type: "wait", Frames: frames}}
	for _, a := range list {
		steps = append(steps, Step{Type: "assert", NodePath: a.NodePath, Property: a.Property})
	}
	d, err := drive(ctx, call, t, string(in.Scene), plan{Steps: steps}, timeoutOf(in.TimeoutSeconds), "assert_node_state")
	if err != nil {
		return sdk.Result{}, err
	}
	out := make([]AssertionResult, len(list))
	for i, a := range list {
		out[i] = AssertionResult{NodePath: a.NodePath, Property: a.Property, Op: opOr(a.Op), Expected: a.Expected,
			Error: "the game ended before the value was read"}
	}
	for _, ds := range d.steps {
		i := ds.Index - 1
		if ds.Type != "assert" || i < 0 || i >= len(list) {
			continue
		}
		ar := &out[i]
		ar.Actual, ar.Error, ar.Frame = ds.Actual, ds.Error, ds.Frame
		if ds.Error == "" {
			ar.Passed, ar.Error = evaluate(ds.Actual, list[i].Expected, list[i].Op, list[i].Epsilon)
		}
	}
	r := assertResultOf(out, sourceFresh, &t.engine)
	r.Notes = notes
	return sdk.JSON(r), nil
}

// wait is how long a live read may take.
func (in assertArgs) wait() time.Duration {
	if in.TimeoutMS == 0 {
		return 3 * time.Second
	}
	return time.Duration(in.TimeoutMS) * time.Millisecond
}

func assertNodeStateEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in assertArgs) (sdk.Result, error) {
	return assertEditorAll(ctx, godotrun.EditorCommands{Ed: ed}, in)
}

func assertEditorAll(ctx context.Context, ed editor, in assertArgs) (sdk.Result, error) {
	list, err := in.all()
	if err != nil {
		return sdk.Result{}, err
	}
	wait := in.wait()
	out := make([]AssertionResult, len(list))
	for i, a := range list {
		out[i] = assertEditor(ctx, ed, a, wait)
	}
	return sdk.JSON(assertResultOf(out, sourceEditor, nil)), nil
}
