package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

type layoutResult struct {
	Buses      []busJSON `json:"buses"`
	LayoutPath string    `json:"layout_path,omitempty" jsonschema:"the bus layout file (headless)"`
	Exists     bool      `json:"exists,omitempty" jsonschema:"the file exists (headless; without it the layout is the Master bus alone)"`
}

func getBusLayoutEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, _ struct{}) (sdk.Result, error) {
	var out map[string]any
	if err := ed.Query(ctx, "cmd_get_audio_bus_layout", map[string]any{}, &out); err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(out), nil
}

func getBusLayout(ctx context.Context, call *sdk.Call, _ struct{}) (sdk.Result, error) {
	l, err := readLayout(ctx, call)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(layoutResult{Buses: l.json(), LayoutPath: l.path, Exists: l.exists}), nil
}

type addBusArgs struct {
	Name     string  `json:"name" jsonschema:"the new bus's name, unique among the buses"`
	VolumeDB float64 `json:"volume_db,omitempty" jsonschema:"its volume in dB (default 0)"`
}

type addBusResult struct {
	Index      int              `json:"index"`
	Name       string           `json:"name"`
	LayoutPath string           `json:"layout_path"`
	Commit     sdk.CommitResult `json:"commit"`
}

func checkBusName(name string) error {
	if strings.TrimSpace(name) == "" {
		return &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "name", Message: "name is empty", Hint: "pass the new bus's name, e.g. \"Music\""}
	}
	return nil
}

func addBusCommand(in addBusArgs) (any, error) {
	if err := checkBusName(in.Name); err != nil {
		return nil, err
	}
	return map[string]any{"name": in.Name, "volume_db": in.VolumeDB}, nil
}

func addBus(ctx context.Context, call *sdk.Call, in addBusArgs) (sdk.Result, error) {
	if err := checkBusName(in.Name); err != nil {
		return sdk.Result{}, err
	}
	l, err := readLayout(ctx, call)
	if err != nil {
		return sdk.Result{}, err
	}
	for _, b := range l.buses {
		if b.name() == in.Name {
			return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "name",
				Message: fmt.Sprintf("an audio bus named %q already exists", in.Name), Hint: "pick another name; the buses are " + strings.Join(l.names(), ", ")}
		}
	}
	b := newBus(in.Name)
	b.vals["volume_db"] = godot.Float(float32(in.VolumeDB)) // the engine keeps a 32-bit float
	l.buses = append(l.buses, b)
	cr, err := l.commit(ctx, call, "Add audio bus "+in.Name)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(addBusResult{Index: len(l.buses) - 1, Name: in.Name, LayoutPath: l.path, Commit: cr}), nil
}

type addEffectArgs struct {
	Bus        string         `json:"bus" jsonschema:"the bus's name (or its index)"`
	EffectType string         `json:"effect_type" jsonschema:"an AudioEffect class, e.g. AudioEffectReverb, AudioEffectDelay, AudioEffectEQ10, AudioEffectCompressor"`
	Properties map[string]any `json:"properties,omitempty" jsonschema:"the effect's properties, checked against its class, e.g. {\"room_size\": 0.8, \"wet\": 0.3}"`
}

type addEffectResult struct {
	Bus         string           `json:"bus"`
	BusIndex    int              `json:"bus_index"`
	EffectType  string           `json:"effect_type"`
	EffectIndex int              `json:"effect_index"`
	LayoutPath  string           `json:"layout_path"`
	Commit      sdk.CommitResult `json:"commit"`
}

// checkEffect checks effect_type and the property names against the
// class database, in both modes.
func checkEffect(in addEffectArgs) error {
	db := nodeedit.DB()
	if in.EffectType == "" || !db.Exists(in.EffectType) || !db.Inherits(in.EffectType, "AudioEffect") || !db.Instantiable(in.EffectType) {
		hint := "pass one of " + strings.Join(audioEffects(), ", ")
		if s := db.Suggest(in.EffectType); s != "" && db.Inherits(s, "AudioEffect") {
			hint = "did you mean " + s + "? The effects are " + strings.Join(audioEffects(), ", ")
		}
		return &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "effect_type",
			Message: fmt.Sprintf("%q is not an AudioEffect class the engine can create", in.EffectType), Hint: hint}
	}
	for _, k := range sortedKeys(in.Properties) {
		if _, ok := db.Property(in.EffectType, k); !ok || k == "script" || strings.HasPrefix(k, "resource_") && k != "resource_name" {
			hint := "its properties are " + strings.Join(effectProps(in.EffectType), ", ")
			if s := db.SuggestProperty(in.EffectType, k); s != "" {
				hint = "did you mean " + s + "? " + hint
			}
			return &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "properties",
				Message: fmt.Sprintf("%s has no property %q", in.EffectType, k), Hint: hint}
		}
	}
	return nil
}

// effectProps are the stored properties of an effect class (its own and
// its AudioEffect bases', not Resource's).
func effectProps(class string) []string {
	var out []string
	for _, p := range nodeedit.DB().Properties(class) {
		if !strings.HasPrefix(p.Name, "resource_") && p.Name != "script" {
			out = append(out, p.Name)
		}
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func addBusEffectCommand(in addEffectArgs) (any, error) {
	if err := checkEffect(in); err != nil {
		return nil, err
	}
	props := in.Properties
	if props == nil {
		props = map[string]any{}
	}
	return map[string]any{"bus": in.Bus, "effect_type": in.EffectType, "properties": props}, nil
}

func addBusEffect(ctx context.Context, call *sdk.Call, in addEffectArgs) (sdk.Result, error) {
	if err := checkEffect(in); err != nil {
		return sdk.Result{}, err
	}
	l, err := readLayout(ctx, call)
	if err != nil {
		return sdk.Result{}, err
	}
	i, err := l.find(in.Bus)
	if err != nil {
		return sdk.Result{}, err
	}
	db := nodeedit.DB()
	res := &nodeedit.FileResources{Doc: l.doc, Path: l.path}
	sub, err := l.doc.AddSubResource(in.EffectType)
	if err != nil {
		return sdk.Result{}, err
	}
	rank := db.PropertyRank(in.EffectType)
	for _, k := range sortedKeys(in.Properties) {
		v, err := nodeedit.Coerce(in.EffectType, k, in.Properties[k], res)
		if err != nil {
			return sdk.Result{}, err
		}
		if db.IsDefault(in.EffectType, k, v) {
			continue // the saver leaves out a value equal to the default
		}
		sub.SetOrdered(k, v, rank)
	}
	b := l.buses[i]
	b.effects = append(b.effects, effect{effect: sub.Ref(), enabled: godot.Bool(true)})
	cr, err := l.commit(ctx, call, fmt.Sprintf("Add %s to bus %s", in.EffectType, b.name()))
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(addEffectResult{Bus: b.name(), BusIndex: i, EffectType: in.EffectType, EffectIndex: len(b.effects) - 1,
		LayoutPath: l.path, Commit: cr}), nil
}

type removeBusArgs struct {
	Bus string `json:"bus" jsonschema:"the bus's name (or its index); not Master"`
}

type removeBusResult struct {
	Name       string           `json:"name"`
	Index      int              `json:"index"`
	Removed    bool             `json:"removed"`
	SendsFixed []string         `json:"sends_fixed,omitempty" jsonschema:"buses that sent to the removed bus and now send where it sent"`
	LayoutPath string           `json:"layout_path"`
	Commit     sdk.CommitResult `json:"commit"`
}

func checkNotMaster(bus string) error {
	if bus == master || strings.TrimSpace(bus) == "0" {
		return &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "bus", Message: "the Master bus cannot be removed",
			Hint: "remove another bus (godot_audio_get_bus_layout lists them), or mute Master instead"}
	}
	return nil
}

func removeBusCommand(in removeBusArgs) (any, error) {
	if err := checkNotMaster(in.Bus); err != nil {
		return nil, err
	}
	return map[string]any{"bus": in.Bus, "confirm": true}, nil
}

func removeBus(ctx context.Context, call *sdk.Call, in removeBusArgs) (sdk.Result, error) {
	if err := checkNotMaster(in.Bus); err != nil {
		return sdk.Result{}, err
	}
	l, err := readLayout(ctx, call)
	if err != nil {
		return sdk.Result{}, err
	}
	i, err := l.find(in.Bus)
	if err != nil {
		return sdk.Result{}, err
	}
	if i == 0 {
		return sdk.Result{}, checkNotMaster(master)
	}
	gone := l.buses[i]
	l.buses = append(l.buses[:i], l.buses[i+1:]...)
	out := removeBusResult{Name: gone.name(), Index: i, LayoutPath: l.path}
	for _, b := range l.buses {
		if b.send() == gone.name() {
			b.vals["send"] = godot.StringName(gone.send())
			out.SendsFixed = append(out.SendsFixed, b.name())
		}
	}
	var subs []string
	for _, e := range gone.effects {
		if r, ok := e.effect.(godot.SubResource); ok {
			subs = append(subs, r.ID)
		}
	}
	l.write()
	if len(subs) > 0 {
		l.doc.RemoveSubResources(subs...)
	}
	cr, err := call.Workspace().Begin("Remove audio bus "+gone.name()).Write(l.path, l.doc.Bytes(), l.file.Version).Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	out.Removed, out.Commit = !cr.DryRun, cr
	return sdk.JSON(out), nil
}

type removeEffectArgs struct {
	Bus         string `json:"bus" jsonschema:"the bus's name (or its index)"`
	EffectIndex int    `json:"effect_index" jsonschema:"the effect's index in the bus's stack (godot_audio_get_bus_layout lists them)"`
}

type removeEffectResult struct {
	Bus         string           `json:"bus"`
	BusIndex    int              `json:"bus_index"`
	EffectIndex int              `json:"effect_index"`
	EffectType  string           `json:"effect_type,omitempty"`
	Removed     bool             `json:"removed"`
	LayoutPath  string           `json:"layout_path"`
	Commit      sdk.CommitResult `json:"commit"`
}

func removeBusEffectCommand(in removeEffectArgs) (any, error) {
	if in.EffectIndex < 0 {
		return nil, badEffectIndex(in.EffectIndex, in.Bus, -1)
	}
	return map[string]any{"bus": in.Bus, "effect_index": in.EffectIndex, "confirm": true}, nil
}

func badEffectIndex(i int, bus string, n int) error {
	hint := "pass the index godot_audio_get_bus_layout lists for the effect"
	if n == 0 {
		hint = "the bus has no effects"
	} else if n > 0 {
		hint = fmt.Sprintf("the bus has %d effects: pass 0 to %d", n, n-1)
	}
	return &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "effect_index",
		Message: fmt.Sprintf("no effect at index %d on bus %q", i, bus), Hint: hint}
}

func removeBusEffect(ctx context.Context, call *sdk.Call, in removeEffectArgs) (sdk.Result, error) {
	l, err := readLayout(ctx, call)
	if err != nil {
		return sdk.Result{}, err
	}
	i, err := l.find(in.Bus)
	if err != nil {
		return sdk.Result{}, err
	}
	b := l.buses[i]
	if in.EffectIndex < 0 || in.EffectIndex >= len(b.effects) {
		return sdk.Result{}, badEffectIndex(in.EffectIndex, b.name(), len(b.effects))
	}
	e := b.effects[in.EffectIndex]
	out := removeEffectResult{Bus: b.name(), BusIndex: i, EffectIndex: in.EffectIndex, EffectType: l.effectClass(e), LayoutPath: l.path}
	b.effects = append(b.effects[:in.EffectIndex], b.effects[in.EffectIndex+1:]...)
	l.write()
	if r, ok := e.effect.(godot.SubResource); ok {
		l.doc.RemoveSubResources(r.ID)
	}
	cr, err := call.Workspace().Begin(fmt.Sprintf("Remove effect %d from bus %s", in.EffectIndex, b.name())).
		Write(l.path, l.doc.Bytes(), l.file.Version).Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	out.Removed, out.Commit = !cr.DryRun, cr
	return sdk.JSON(out), nil
}
