package godot

import (
	"fmt"
	"math"
)

// DefaultDeadzone is the deadzone Godot 4 gives new input actions.
const DefaultDeadzone = 0.2

// Key codes of special keys (Godot's Key enum: 1<<22 | code). Printable keys
// use their Unicode code point, e.g. 'A' (65) or ' ' (32).
const (
	KeySpecial = 1 << 22
	KeyEscape  = KeySpecial | 1
	KeyTab     = KeySpecial | 2
	KeyEnter   = KeySpecial | 5
	KeyLeft    = KeySpecial | 15
	KeyUp      = KeySpecial | 16
	KeyRight   = KeySpecial | 17
	KeyDown    = KeySpecial | 18
	KeyF1      = KeySpecial | 28
)

// InputAction is one entry of the [input] section of project.godot.
type InputAction struct {
	Name     string
	Deadzone float64
	Events   []Object // InputEvent objects, e.g. Object{Class: "InputEventKey", ...}
}

// InputEvent is anything that can be stored as an input event object.
type InputEvent interface {
	// ToObject returns the event in the form the editor saves: every
	// storage property in property-list order, ending with "script": null.
	ToObject() Object
}

func eventBase(class string, device int64) Object {
	return Object{Class: class, Props: []ObjectProp{
		{"resource_local_to_scene", Bool(false)},
		{"resource_name", String("")},
		{"device", Int(device)},
	}}
}

func (o Object) with(props ...ObjectProp) Object {
	o.Props = append(o.Props, props...)
	o.Props = append(o.Props, ObjectProp{"script", Nil{}})
	return o
}

// InputEventKey is a keyboard binding. Bind by Keycode (layout-dependent),
// PhysicalKeycode (layout-independent) or KeyLabel; leave the others 0.
type InputEventKey struct {
	Device                      int64 // -1 means all devices
	WindowID                    int64
	Alt, Shift, Ctrl, Meta      bool
	Pressed, Echo               bool
	Keycode, PhysicalKeycode    int64
	KeyLabel, Unicode, Location int64
}

// ToObject implements InputEvent.
func (e InputEventKey) ToObject() Object {
	return eventBase("InputEventKey", e.Device).with(
		ObjectProp{"window_id", Int(e.WindowID)},
		ObjectProp{"alt_pressed", Bool(e.Alt)},
		ObjectProp{"shift_pressed", Bool(e.Shift)},
		ObjectProp{"ctrl_pressed", Bool(e.Ctrl)},
		ObjectProp{"meta_pressed", Bool(e.Meta)},
		ObjectProp{"pressed", Bool(e.Pressed)},
		ObjectProp{"keycode", Int(e.Keycode)},
		ObjectProp{"physical_keycode", Int(e.PhysicalKeycode)},
		ObjectProp{"key_label", Int(e.KeyLabel)},
		ObjectProp{"unicode", Int(e.Unicode)},
		ObjectProp{"location", Int(e.Location)},
		ObjectProp{"echo", Bool(e.Echo)},
	)
}

// InputEventJoypadButton is a gamepad button binding.
type InputEventJoypadButton struct {
	Device      int64
	ButtonIndex int64
	Pressure    float64
	Pressed     bool
}

// ToObject implements InputEvent.
func (e InputEventJoypadButton) ToObject() Object {
	return eventBase("InputEventJoypadButton", e.Device).with(
		ObjectProp{"button_index", Int(e.ButtonIndex)},
		ObjectProp{"pressure", Float(e.Pressure)},
		ObjectProp{"pressed", Bool(e.Pressed)},
	)
}

// InputEventJoypadMotion is a gamepad axis binding; AxisValue is -1 or 1.
type InputEventJoypadMotion struct {
	Device    int64
	Axis      int64
	AxisValue float64
}

// ToObject implements InputEvent.
func (e InputEventJoypadMotion) ToObject() Object {
	return eventBase("InputEventJoypadMotion", e.Device).with(
		ObjectProp{"axis", Int(e.Axis)},
		ObjectProp{"axis_value", Float(e.AxisValue)},
	)
}

// InputEventMouseButton is a mouse button binding (1 left, 2 right, 3 middle).
type InputEventMouseButton struct {
	Device                 int64
	WindowID               int64
	Alt, Shift, Ctrl, Meta bool
	ButtonMask             int64
	Position               Vector2
	GlobalPosition         Vector2
	Factor                 float64 // 0 is written as the engine default 1.0
	ButtonIndex            int64
	Canceled, Pressed      bool
	DoubleClick            bool
}

// ToObject implements InputEvent.
func (e InputEventMouseButton) ToObject() Object {
	factor := e.Factor
	if factor == 0 {
		factor = 1
	}
	return eventBase("InputEventMouseButton", e.Device).with(
		ObjectProp{"window_id", Int(e.WindowID)},
		ObjectProp{"alt_pressed", Bool(e.Alt)},
		ObjectProp{"shift_pressed", Bool(e.Shift)},
		ObjectProp{"ctrl_pressed", Bool(e.Ctrl)},
		ObjectProp{"meta_pressed", Bool(e.Meta)},
		ObjectProp{"button_mask", Int(e.ButtonMask)},
		ObjectProp{"position", e.Position},
		ObjectProp{"global_position", e.GlobalPosition},
		ObjectProp{"factor", Float(factor)},
		ObjectProp{"button_index", Int(e.ButtonIndex)},
		ObjectProp{"canceled", Bool(e.Canceled)},
		ObjectProp{"pressed", Bool(e.Pressed)},
		ObjectProp{"double_click", Bool(e.DoubleClick)},
	)
}

func actionOf(name string, v Value) (InputAction, bool) {
	d, ok := v.(Dictionary)
	if !ok {
		return InputAction{}, false
	}
	a := InputAction{Name: name, Deadzone: math.NaN()}
	switch dz, _ := d.Lookup("deadzone"); x := dz.(type) {
	case Float:
		a.Deadzone = float64(x)
	case Int:
		a.Deadzone = float64(x)
	}
	if ev, ok := d.Lookup("events"); ok {
		if arr, ok := ev.(Array); ok {
			for _, it := range arr.Items {
				if o, ok := it.(Object); ok {
					a.Events = append(a.Events, o)
				}
			}
		}
	}
	return a, true
}

// InputActions returns the actions of the [input] section in file order.
// Entries whose value is not a dictionary are skipped. Deadzone is NaN when
// an action does not record one.
func (p *Project) InputActions() []InputAction {
	var out []InputAction
	for _, k := range p.Keys("input") {
		v, _ := p.Get("input", k)
		if a, ok := actionOf(k, v); ok {
			out = append(out, a)
		}
	}
	return out
}

// InputAction returns one input action.
func (p *Project) InputAction(name string) (InputAction, bool) {
	v, ok := p.Get("input", name)
	if !ok {
		return InputAction{}, false
	}
	return actionOf(name, v)
}

// SetInputAction adds an action or replaces an existing one, written in the
// editor's layout (sorted keys, one event object per line).
func (p *Project) SetInputAction(a InputAction) error {
	if a.Name == "" {
		return fmt.Errorf("set input action: empty name: %w", ErrInvalid)
	}
	dz := a.Deadzone
	if dz != dz {
		dz = DefaultDeadzone
	}
	items := make([]Value, len(a.Events))
	for i, e := range a.Events {
		items[i] = e
	}
	p.Set("input", a.Name, Dictionary{Entries: []DictEntry{
		{Key: String("deadzone"), Value: Float(dz)},
		{Key: String("events"), Value: Array{Items: items}},
	}})
	return nil
}

// RemoveInputAction removes an action and reports whether it existed.
func (p *Project) RemoveInputAction(name string) bool {
	return p.Clear("input", name)
}

// AddInputEvent appends an event to an action, creating the action with
// DefaultDeadzone if needed.
func (p *Project) AddInputEvent(action string, ev InputEvent) error {
	a, ok := p.InputAction(action)
	if !ok {
		a = InputAction{Name: action, Deadzone: DefaultDeadzone}
	}
	a.Events = append(a.Events, ev.ToObject())
	return p.SetInputAction(a)
}
