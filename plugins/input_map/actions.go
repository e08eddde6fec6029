package main

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

// classDB returns the embedded class database (decoded once, by classdb).
func classDB() (*classdb.DB, error) {
	d, err := classdb.Embedded()
	if err != nil {
		return nil, sdk.Errorf(sdk.CodeInternalError, "report this bug: the class database is built into the plugin", "loading the class database: %v", err)
	}
	return d, nil
}

// checkName accepts the action names the editor's Input Map accepts and
// project.godot can hold as a bare key.
func checkName(arg, name string) error {
	if name == "" {
		return sdk.Errorf(sdk.CodeInvalidArgument, "pass an action name such as \"jump\"", "%s is empty", arg)
	}
	for _, r := range name {
		if !(r == '_' || r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return sdk.Errorf(sdk.CodeInvalidArgument, "use letters, digits, '_', '-' and '.', e.g. \"move_left\"", "%s %q contains %q", arg, name, r)
		}
	}
	return nil
}

func commit(ctx context.Context, call *sdk.Call, name string, p *godot.Project, f sdk.File) (sdk.CommitResult, error) {
	return call.Workspace().Begin(name).Write(f.Path, p.Bytes(), f.Version).Commit(ctx)
}

// readAction reads project.godot (headless) and the input action name in it.
func readAction(ctx context.Context, call *sdk.Call, name string) (*godot.Project, sdk.File, godot.InputAction, error) {
	p, f, err := call.Workspace().ReadProject(ctx)
	if err != nil {
		return nil, sdk.File{}, godot.InputAction{}, err
	}
	a, ok := p.InputAction(name)
	if !ok {
		return nil, sdk.File{}, godot.InputAction{}, notFound(name, p)
	}
	return p, f, a, nil
}

func notFound(action string, p *godot.Project) error {
	hint := "list the actions with godot_input_map_get_action_events, or add it with godot_input_map_add_action"
	var names []string
	for _, a := range p.InputActions() {
		names = append(names, a.Name)
	}
	if len(names) > 0 && len(names) <= 30 {
		hint = "actions in project.godot: " + strings.Join(names, ", ") + "; add a new one with godot_input_map_add_action"
	}
	return sdk.Errorf(sdk.CodeNotFound, hint, "project.godot has no input action %q", action)
}

type addActionArgs struct {
	Name     string   `json:"name" jsonschema:"action name, e.g. \"jump\""`
	Deadzone *float64 `json:"deadzone,omitempty" jsonschema:"how far an analog input must move to count (0 to 1)" default:"0.2" minimum:"0" maximum:"1"`
}

type actionResult struct {
	Name     string           `json:"name"`
	Added    bool             `json:"added,omitempty"`
	Removed  bool             `json:"removed,omitempty"`
	Deadzone float64          `json:"deadzone,omitempty"`
	Events   int              `json:"events_removed,omitempty"`
	Commit   sdk.CommitResult `json:"commit"`
}

// deadzone is the action's deadzone, Godot's default when none is given.
func (in addActionArgs) deadzone() float64 {
	if in.Deadzone != nil {
		return *in.Deadzone
	}
	return godot.DefaultDeadzone
}

// addActionCommand is add_action's editor path: the addon adds the action
// to the editor's project settings, where Ctrl+Z undoes it.
func addActionCommand(in addActionArgs) (any, error) {
	if err := checkName("name", in.Name); err != nil {
		return nil, err
	}
	return map[string]any{"name": in.Name, "deadzone": in.deadzone()}, nil
}

func addAction(ctx context.Context, call *sdk.Call, in addActionArgs) (sdk.Result, error) {
	if err := checkName("name", in.Name); err != nil {
		return sdk.Result{}, err
	}
	dz := in.deadzone()
	p, f, err := call.Workspace().ReadProject(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	if _, ok := p.Setting("input/" + in.Name); ok {
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "add events to it with godot_input_map_add_event, or pick another name", "input action %q already exists", in.Name)
	}
	if err := p.SetInputAction(godot.InputAction{Name: in.Name, Deadzone: dz}); err != nil {
		return sdk.Result{}, err
	}
	cr, err := commit(ctx, call, "Add input action "+in.Name, p, f)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(actionResult{Name: in.Name, Added: true, Deadzone: dz, Commit: cr}), nil
}

type actionArgs struct {
	Name string `json:"name" jsonschema:"action name"`
}

func removeActionCommand(in actionArgs) (any, error) {
	if err := checkName("name", in.Name); err != nil {
		return nil, err
	}
	return map[string]any{"name": in.Name, "confirm": true}, nil
}

func removeAction(ctx context.Context, call *sdk.Call, in actionArgs) (sdk.Result, error) {
	if err := checkName("name", in.Name); err != nil {
		return sdk.Result{}, err
	}
	p, f, a, err := readAction(ctx, call, in.Name)
	if err != nil {
		return sdk.Result{}, err
	}
	p.RemoveInputAction(in.Name)
	cr, err := commit(ctx, call, "Remove input action "+in.Name, p, f)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(actionResult{Name: in.Name, Removed: true, Events: len(a.Events), Commit: cr}), nil
}

type clearArgs struct {
	Action string `json:"action" jsonschema:"action name"`
}

func clearActionEventsCommand(in clearArgs) (any, error) {
	if err := checkName("action", in.Action); err != nil {
		return nil, err
	}
	return map[string]any{"action": in.Action, "confirm": true}, nil
}

func clearActionEvents(ctx context.Context, call *sdk.Call, in clearArgs) (sdk.Result, error) {
	if err := checkName("action", in.Action); err != nil {
		return sdk.Result{}, err
	}
	p, f, a, err := readAction(ctx, call, in.Action)
	if err != nil {
		return sdk.Result{}, err
	}
	n := len(a.Events)
	a.Events = nil
	if err := p.SetInputAction(a); err != nil {
		return sdk.Result{}, err
	}
	cr, err := commit(ctx, call, "Clear events of input action "+in.Action, p, f)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(map[string]any{"action": in.Action, "cleared": true, "events_removed": n, "commit": cr}), nil
}

type getArgs struct {
	Action string `json:"action,omitempty" jsonschema:"action name; empty lists every action"`
	Offset int    `json:"offset,omitempty" jsonschema:"listing every action: skip this many (next_offset of the previous page)" minimum:"0"`
	Limit  int    `json:"limit,omitempty" jsonschema:"listing every action: at most this many in this page; without it at most 100, cut near 20 KB" minimum:"1" maximum:"1000"`
}

type eventInfo struct {
	Index       int      `json:"index"`
	Type        string   `json:"type" jsonschema:"key, physical_key, mouse, joypad_button, joypad_motion or the event class"`
	Key         string   `json:"key,omitempty"`
	Button      int64    `json:"button,omitempty"`
	Axis        *int64   `json:"axis,omitempty"`
	AxisValue   float64  `json:"axis_value,omitempty"`
	Device      int64    `json:"device"`
	Modifiers   []string `json:"modifiers,omitempty"`
	Description string   `json:"description"`
	Text        string   `json:"text" jsonschema:"the event as written in project.godot"`
}

type actionInfo struct {
	Action   string      `json:"action"`
	Deadzone float64     `json:"deadzone"`
	Events   []eventInfo `json:"events"`
}

func getActionEvents(ctx context.Context, call *sdk.Call, in getArgs) (sdk.Result, error) {
	if in.Action != "" {
		if err := checkName("action", in.Action); err != nil {
			return sdk.Result{}, err
		}
	}
	p, _, err := call.Workspace().ReadProject(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	d, err := classDB()
	if err != nil {
		return sdk.Result{}, err
	}
	if in.Action == "" {
		var all []actionInfo
		for _, a := range p.InputActions() {
			all = append(all, describeAction(d, a))
		}
		var out struct {
			Actions []actionInfo `json:"actions"`
			sdk.Page
		}
		out.Actions, out.Page = sdk.Paginate(all, in.Offset, in.Limit, 100)
		return sdk.JSON(out), nil
	}
	a, ok := p.InputAction(in.Action)
	if !ok {
		return sdk.Result{}, notFound(in.Action, p)
	}
	return sdk.JSON(describeAction(d, a)), nil
}

func describeAction(d *classdb.DB, a godot.InputAction) actionInfo {
	dz := a.Deadzone
	if math.IsNaN(dz) {
		dz = godot.DefaultDeadzone
	}
	out := actionInfo{Action: a.Name, Deadzone: dz, Events: []eventInfo{}}
	for i, o := range a.Events {
		out.Events = append(out.Events, describeEvent(d, i, o))
	}
	return out
}

func prop(o godot.Object, name string) godot.Value {
	for _, p := range o.Props {
		if p.Name == name {
			return p.Value
		}
	}
	return nil
}

func intProp(o godot.Object, name string) int64 {
	switch v := prop(o, name).(type) {
	case godot.Int:
		return int64(v)
	case godot.Float:
		return int64(v)
	}
	return 0
}

func boolProp(o godot.Object, name string) bool {
	b, _ := prop(o, name).(godot.Bool)
	return bool(b)
}

var mouseNames = map[string]int64{"left": 1, "right": 2, "middle": 3, "wheel_up": 4, "wheel_down": 5,
	"wheel_left": 6, "wheel_right": 7, "xbutton1": 8, "xbutton2": 9}

func mouseName(i int64) string {
	for k, v := range mouseNames {
		if v == i {
			return k
		}
	}
	return fmt.Sprint(i)
}

func describeEvent(d *classdb.DB, i int, o godot.Object) eventInfo {
	e := eventInfo{Index: i, Type: o.Class, Device: intProp(o, "device"), Text: godot.FormatValue(o)}
	for _, m := range []string{"shift", "ctrl", "alt", "meta"} {
		if boolProp(o, m+"_pressed") {
			e.Modifiers = append(e.Modifiers, m)
		}
	}
	mods := ""
	for _, m := range e.Modifiers {
		mods += strings.ToUpper(m[:1]) + m[1:] + "+"
	}
	switch o.Class {
	case "InputEventKey":
		code, kind := intProp(o, "keycode"), "key"
		if code == 0 {
			code, kind = intProp(o, "physical_keycode"), "physical_key"
		}
		if code == 0 {
			code, kind = intProp(o, "key_label"), "key_label"
		}
		e.Type = kind
		e.Key, _ = d.KeyName(code)
		if e.Key == "" {
			e.Key = fmt.Sprint(code)
		}
		e.Description = mods + e.Key
		if kind == "physical_key" {
			e.Description += " (physical)"
		}
	case "InputEventMouseButton":
		e.Type, e.Button = "mouse", intProp(o, "button_index")
		e.Description = mods + "mouse " + mouseName(e.Button)
	case "InputEventJoypadButton":
		e.Type, e.Button = "joypad_button", intProp(o, "button_index")
		e.Description = fmt.Sprintf("joypad button %d", e.Button)
	case "InputEventJoypadMotion":
		ax := intProp(o, "axis")
		e.Type, e.Axis = "joypad_motion", &ax
		if f, ok := prop(o, "axis_value").(godot.Float); ok {
			e.AxisValue = float64(f)
		}
		e.Description = fmt.Sprintf("joypad axis %d %+g", ax, e.AxisValue)
	default:
		e.Description = o.Class
	}
	return e
}

// hasEvent reports whether the action already holds an equal event.
func hasEvent(a godot.InputAction, o godot.Object) bool {
	return slices.ContainsFunc(a.Events, func(x godot.Object) bool { return godot.Equal(x, o) })
}

// addActionDryRun is what a dry run of add_action answers without adding.
func addActionDryRun(in addActionArgs) map[string]any {
	deadzone := 0.2
	if in.Deadzone != nil {
		deadzone = *in.Deadzone
	}
	return map[string]any{"name": in.Name, "deadzone": deadzone}
}
