package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

type addEventArgs struct {
	Action string `json:"action" jsonschema:"action name"`
	Type   string `json:"type,omitempty" alias:"event_type" jsonschema:"key (logical key, follows the keyboard layout), physical_key (position on a QWERTY keyboard, what games usually want for WASD), mouse, joypad_button or joypad_motion"`
	Key    string `json:"key,omitempty" alias:"keycode" jsonschema:"key and physical_key: Godot's key name, e.g. \"Space\", \"W\", \"Escape\", \"Up\", \"F1\", \"Shift\""`
	Shift  bool   `json:"shift,omitempty" jsonschema:"key and mouse: require Shift held"`
	Ctrl   bool   `json:"ctrl,omitempty" jsonschema:"key and mouse: require Ctrl held"`
	Alt    bool   `json:"alt,omitempty" jsonschema:"key and mouse: require Alt held"`
	Meta   bool   `json:"meta,omitempty" jsonschema:"key and mouse: require Meta (Cmd/Windows) held"`
	Button string `json:"button,omitempty" jsonschema:"mouse: left, right, middle, wheel_up, wheel_down, wheel_left, wheel_right, xbutton1 or xbutton2"`
	// JoyButton is a pointer so that 0 (the A/cross button) is told apart
	// from "not given".
	JoyButton *int     `json:"joy_button,omitempty" alias:"joy_button_index" jsonschema:"joypad_button: SDL button index (0 A/cross, 1 B/circle, 2 X/square, 3 Y/triangle, 4 back, 6 start, 9 left shoulder, 10 right shoulder, 11-14 d-pad up/down/left/right)" minimum:"0" maximum:"127"`
	Axis      *int     `json:"axis,omitempty" jsonschema:"joypad_motion: 0 left stick x, 1 left stick y, 2 right stick x, 3 right stick y, 4 left trigger, 5 right trigger" minimum:"0" maximum:"9"`
	AxisValue *float64 `json:"axis_value,omitempty" jsonschema:"joypad_motion: direction, -1 or 1" default:"1"`
	Device    *int     `json:"device,omitempty" jsonschema:"device index; -1 (the default) means all devices, as the editor binds" default:"-1" minimum:"-1" maximum:"15"`
	// PhysicalKeycode is the addon's spelling of a physical key: its
	// cmd_add_input_event takes event_type "key" with physical_keycode.
	PhysicalKeycode string `json:"physical_keycode,omitempty" jsonschema:"the same as type physical_key with this key (the spelling other Godot MCP servers use)"`
}

// normalize folds the other servers' spellings into ours: event_type "key"
// with physical_keycode is type physical_key; a missing type is refused.
func (in *addEventArgs) normalize() error {
	if in.PhysicalKeycode != "" {
		if in.Key != "" || (in.Type != "" && in.Type != "key" && in.Type != "physical_key") {
			return sdk.Errorf(sdk.CodeInvalidArgument, "pass key (or keycode) with type key, or physical_keycode alone",
				"physical_keycode %q cannot go with key %q and type %q", in.PhysicalKeycode, in.Key, in.Type)
		}
		in.Type, in.Key = "physical_key", in.PhysicalKeycode
	}
	if in.Type == "" {
		return &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "type", Message: "missing required argument type (also accepted as event_type)",
			Hint: "pass type: key, physical_key, mouse, joypad_button or joypad_motion"}
	}
	return nil
}

// keyCode looks a key name up the way the editor spells it, case-blind.
func keyCode(d *classdb.DB, name string) (int64, error) {
	if c, ok := d.KeyCode(name); ok {
		return c, nil
	}
	for _, k := range d.KeyNames() {
		if strings.EqualFold(k, name) {
			c, _ := d.KeyCode(k)
			return c, nil
		}
	}
	hint := "use Godot's key names, e.g. \"Space\", \"Enter\", \"Escape\", \"A\", \"F1\", \"Up\""
	if s := d.SuggestKey(name); s != "" {
		hint = fmt.Sprintf("did you mean %q?", s)
	}
	return 0, sdk.Errorf(sdk.CodeInvalidArgument, hint, "unknown key %q", name)
}

func mouseButton(name string) (int64, error) {
	if b, ok := mouseNames[strings.ToLower(name)]; ok {
		return b, nil
	}
	names := make([]string, 0, len(mouseNames))
	for k := range mouseNames {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool { return mouseNames[names[i]] < mouseNames[names[j]] })
	return 0, sdk.Errorf(sdk.CodeInvalidArgument, "use one of "+strings.Join(names, ", "), "unknown mouse button %q", name)
}

// buildEvent turns the arguments into the event the editor would save.
func buildEvent(d *classdb.DB, in addEventArgs) (godot.InputEvent, error) {
	device := int64(-1)
	if in.Device != nil {
		device = int64(*in.Device)
	}
	need := func(ok bool, what string) error {
		if !ok {
			return sdk.Errorf(sdk.CodeInvalidArgument, fmt.Sprintf("pass %s for type %q", what, in.Type), "%s is missing", what)
		}
		return nil
	}
	refuse := func(arg string) error {
		return sdk.Errorf(sdk.CodeInvalidArgument, fmt.Sprintf("leave %s out for type %q", arg, in.Type), "%s does not apply to a %s event", arg, in.Type)
	}
	mods := in.Shift || in.Ctrl || in.Alt || in.Meta
	switch in.Type {
	case "key", "physical_key":
		if err := need(in.Key != "", "key"); err != nil {
			return nil, err
		}
		if in.Button != "" || in.JoyButton != nil || in.Axis != nil {
			return nil, refuse("button/joy_button/axis")
		}
		code, err := keyCode(d, in.Key)
		if err != nil {
			return nil, err
		}
		e := godot.InputEventKey{Device: device, Shift: in.Shift, Ctrl: in.Ctrl, Alt: in.Alt, Meta: in.Meta}
		if in.Type == "key" {
			e.Keycode = code
		} else {
			e.PhysicalKeycode = code
		}
		return e, nil
	case "mouse":
		if err := need(in.Button != "", "button"); err != nil {
			return nil, err
		}
		if in.Key != "" || in.JoyButton != nil || in.Axis != nil {
			return nil, refuse("key/joy_button/axis")
		}
		b, err := mouseButton(in.Button)
		if err != nil {
			return nil, err
		}
		return godot.InputEventMouseButton{Device: device, ButtonIndex: b, Shift: in.Shift, Ctrl: in.Ctrl, Alt: in.Alt, Meta: in.Meta}, nil
	case "joypad_button":
		if err := need(in.JoyButton != nil, "joy_button"); err != nil {
			return nil, err
		}
		if in.Key != "" || in.Button != "" || in.Axis != nil || mods {
			return nil, refuse("key/button/axis/modifiers")
		}
		return godot.InputEventJoypadButton{Device: device, ButtonIndex: int64(*in.JoyButton)}, nil
	case "joypad_motion":
		if err := need(in.Axis != nil, "axis"); err != nil {
			return nil, err
		}
		if in.Key != "" || in.Button != "" || in.JoyButton != nil || mods {
			return nil, refuse("key/button/joy_button/modifiers")
		}
		v := 1.0
		if in.AxisValue != nil {
			v = *in.AxisValue
		}
		if v != 1 && v != -1 {
			return nil, sdk.Errorf(sdk.CodeInvalidArgument, "pass axis_value -1 (left/up) or 1 (right/down)", "axis_value %g is not a direction", v)
		}
		return godot.InputEventJoypadMotion{Device: device, Axis: int64(*in.Axis), AxisValue: v}, nil
	}
	return nil, sdk.Errorf(sdk.CodeInvalidArgument, "use key, physical_key, mouse, joypad_button or joypad_motion", "unknown event type %q", in.Type)
}

// editorParams maps the arguments onto the addon's cmd_add_input_event,
// which takes every key, with -1 and "" for the unused ones. device is
// always sent: the addon's own default (0) would bind only the first
// gamepad, where the editor's dialog and headless mode bind all (-1).
func editorParams(in addEventArgs) map[string]any {
	p := map[string]any{"action": in.Action, "keycode": "", "physical_keycode": "", "shift": in.Shift, "ctrl": in.Ctrl,
		"alt": in.Alt, "meta": in.Meta, "button": "", "device": -1, "joy_button_index": -1, "axis": -1, "axis_value": 1.0}
	if in.Device != nil {
		p["device"] = *in.Device
	}
	switch in.Type {
	case "key":
		p["event_type"], p["keycode"] = "key", in.Key
	case "physical_key":
		p["event_type"], p["physical_keycode"] = "key", in.Key
	case "mouse":
		p["event_type"], p["button"] = "mouse", strings.ToLower(in.Button)
	case "joypad_button":
		p["event_type"], p["joy_button_index"] = "joypad_button", *in.JoyButton
	case "joypad_motion":
		p["event_type"], p["axis"] = "joypad_motion", *in.Axis
		if in.AxisValue != nil {
			p["axis_value"] = *in.AxisValue
		}
	}
	return p
}

type addEventResult struct {
	Action     string           `json:"action"`
	EventIndex int              `json:"event_index"`
	Added      bool             `json:"added"`
	Event      eventInfo        `json:"event"`
	Commit     sdk.CommitResult `json:"commit"`
}

// addEventCommand is add_event's editor path; the event is built first
// only to refuse a bad one before the editor sees it.
func addEventCommand(in addEventArgs) (any, error) {
	if err := in.normalize(); err != nil {
		return nil, err
	}
	if err := checkName("action", in.Action); err != nil {
		return nil, err
	}
	d, err := classDB()
	if err != nil {
		return nil, err
	}
	if _, err := buildEvent(d, in); err != nil {
		return nil, err
	}
	if b := strings.ToLower(in.Button); in.Type == "mouse" && !addonMouseButtons[b] {
		return nil, sdk.Errorf(sdk.CodePreconditionFailed,
			"bind "+in.Button+" in the editor's Project Settings > Input Map, or close the editor (or detach the godot-mcp addon) and call again: without an editor, every button is written to project.godot",
			"the editor addon binds only the left, right, middle, wheel_up and wheel_down mouse buttons, not %s", in.Button)
	}
	return editorParams(in), nil
}

// addonMouseButtons are the buttons the addon's cmd_add_input_event
// knows; it refuses the others ("Unknown mouse button"), which headless
// mode writes.
var addonMouseButtons = map[string]bool{"left": true, "right": true, "middle": true, "wheel_up": true, "wheel_down": true}

func addEvent(ctx context.Context, call *sdk.Call, in addEventArgs) (sdk.Result, error) {
	if err := in.normalize(); err != nil {
		return sdk.Result{}, err
	}
	if err := checkName("action", in.Action); err != nil {
		return sdk.Result{}, err
	}
	d, err := classDB()
	if err != nil {
		return sdk.Result{}, err
	}
	ev, err := buildEvent(d, in)
	if err != nil {
		return sdk.Result{}, err
	}
	p, f, a, err := readAction(ctx, call, in.Action)
	if err != nil {
		return sdk.Result{}, err
	}
	o := ev.ToObject()
	if hasEvent(a, o) {
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "the binding is already there; list it with godot_input_map_get_action_events", "input action %q already has this event", in.Action)
	}
	a.Events = append(a.Events, o)
	if err := p.SetInputAction(a); err != nil {
		return sdk.Result{}, err
	}
	cr, err := commit(ctx, call, "Add event to input action "+in.Action, p, f)
	if err != nil {
		return sdk.Result{}, err
	}
	i := len(a.Events) - 1
	return sdk.JSON(addEventResult{Action: in.Action, EventIndex: i, Added: true, Event: describeEvent(d, i, o), Commit: cr}), nil
}
