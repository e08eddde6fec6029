package main

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
	"github.com/godot-mcp/godot-mcp/sdk/godot/uid"
)

// layoutSetting is the project setting naming the bus layout file, and
// defaultLayout the file Godot uses without it.
const (
	layoutSetting = "audio/buses/default_bus_layout"
	defaultLayout = "res://default_bus_layout.tres"
	master        = "Master"
)

// The per-bus keys of an AudioBusLayout, in the order the engine saves
// them (AudioBusLayout's property list), with their defaults.
var busKeys = []string{"name", "solo", "mute", "bypass_fx", "volume_db", "send"}

// bus is one bus of the layout, each value as the file holds it.
type bus struct {
	vals    map[string]godot.Value // by busKeys entry
	effects []effect
}

// effect is one slot of a bus's effect stack.
type effect struct {
	effect  godot.Value // SubResource (or ExtResource) of an AudioEffect
	enabled godot.Value
}

func newBus(name string) *bus {
	return &bus{vals: map[string]godot.Value{
		"name": godot.StringName(name), "solo": godot.Bool(false), "mute": godot.Bool(false),
		"bypass_fx": godot.Bool(false), "volume_db": godot.Float(0), "send": godot.StringName(""),
	}}
}

func (b *bus) name() string { return str(b.vals["name"]) }
func (b *bus) send() string { return str(b.vals["send"]) }
func (b *bus) flag(k string) bool {
	v, _ := b.vals[k].(godot.Bool)
	return bool(v)
}

func (b *bus) volume() float64 {
	switch v := b.vals["volume_db"].(type) {
	case godot.Float:
		return float64(v)
	case godot.Int:
		return float64(v)
	}
	return 0
}

func str(v godot.Value) string {
	switch s := v.(type) {
	case godot.StringName:
		return string(s)
	case godot.String:
		return string(s)
	}
	return ""
}

// layout is a bus layout file, read and parsed, with its buses.
type layout struct {
	path   string
	exists bool
	file   sdk.File
	doc    *godot.File
	buses  []*bus
}

// layoutPath is the project's bus layout file.
func layoutPath(ctx context.Context, call *sdk.Call) string {
	p, _, err := call.Workspace().ReadProject(ctx)
	if err != nil {
		return defaultLayout
	}
	if v, ok := p.Setting(layoutSetting); ok {
		if s := str(v); strings.HasPrefix(s, "res://") {
			return s
		}
	}
	return defaultLayout
}

// readLayout reads the project's bus layout; a missing file is the
// engine's default layout, the Master bus alone.
func readLayout(ctx context.Context, call *sdk.Call) (*layout, error) {
	ws := call.Workspace()
	l := &layout{path: layoutPath(ctx, call)}
	fi, err := ws.Stat(ctx, l.path)
	if err != nil {
		return nil, err
	}
	if !fi.Exists {
		src := fmt.Sprintf("[gd_resource type=\"AudioBusLayout\" format=3 uid=%q]\n\n[resource]\n", uid.New().String())
		doc, err := godot.ParseFile(l.path, []byte(src))
		if err != nil {
			return nil, err
		}
		doc.SetFloatStyle(ws.FloatStyle(ctx))
		l.doc = doc
		l.buses = []*bus{newBus(master)}
		return l, nil
	}
	l.exists = true
	if l.file, err = ws.Read(ctx, l.path); err != nil {
		return nil, err
	}
	if l.doc, err = ws.ParseFile(ctx, l.file); err != nil {
		return nil, sdk.Errorf(sdk.CodePreconditionFailed, "fix the file or restore it (godot_undo)", "%s does not parse: %v", l.path, err)
	}
	if t := l.doc.ResourceType(); t != "AudioBusLayout" || l.doc.Resource() == nil {
		return nil, sdk.Errorf(sdk.CodePreconditionFailed,
			"point the project setting "+layoutSetting+" at an AudioBusLayout .tres, or remove it to use "+defaultLayout,
			"%s is a %s, not an AudioBusLayout", l.path, t)
	}
	l.parse()
	return l, nil
}

// parse reads the bus/N/... properties. Bus 0 starts as the engine's
// default Master bus: the saver writes only what differs from it.
func (l *layout) parse() {
	get := func(i int) *bus {
		for len(l.buses) <= i {
			if len(l.buses) == 0 {
				l.buses = append(l.buses, newBus(master))
			} else {
				l.buses = append(l.buses, newBus(""))
			}
		}
		return l.buses[i]
	}
	get(0)
	for _, p := range l.doc.Resource().Properties() {
		rest, ok := strings.CutPrefix(p.Key, "bus/")
		if !ok {
			continue
		}
		num, key, ok := strings.Cut(rest, "/")
		i, err := strconv.Atoi(num)
		if !ok || err != nil || i < 0 || i > 4096 {
			continue
		}
		b := get(i)
		if eff, ok := strings.CutPrefix(key, "effect/"); ok {
			en, field, ok := strings.Cut(eff, "/")
			j, err := strconv.Atoi(en)
			if !ok || err != nil || j < 0 || j > 4096 {
				continue
			}
			for len(b.effects) <= j {
				b.effects = append(b.effects, effect{enabled: godot.Bool(true)})
			}
			switch field {
			case "effect":
				b.effects[j].effect = p.Value
			case "enabled":
				b.effects[j].enabled = p.Value
			}
			continue
		}
		b.vals[key] = p.Value
	}
}

// write puts the buses back into the resource section as the engine's
// saver writes them: bus 0 only where it differs from the default Master
// bus, every other bus in full, each followed by its effects. Keys that
// stay are rewritten in place, new ones go where the saver puts them, and
// keys of buses and effects that went are removed last, so an effect that
// only moved keeps its sub-resource while one that went takes its own
// along.
func (l *layout) write() {
	res := l.doc.Resource()
	type kv struct {
		key string
		val godot.Value
	}
	var want []kv
	def := newBus(master)
	for i, b := range l.buses {
		for _, k := range busKeys {
			v := b.vals[k]
			if v == nil {
				v = def.vals[k]
				if k == "name" {
					v = godot.StringName("")
				}
			}
			if i == 0 && godot.Equal(v, def.vals[k]) {
				continue
			}
			want = append(want, kv{fmt.Sprintf("bus/%d/%s", i, k), v})
		}
		for j, e := range b.effects {
			if e.effect != nil {
				want = append(want, kv{fmt.Sprintf("bus/%d/effect/%d/effect", i, j), e.effect})
			}
			want = append(want, kv{fmt.Sprintf("bus/%d/effect/%d/enabled", i, j), e.enabled})
		}
	}
	rank := map[string]int{}
	for i, w := range want {
		rank[w.key] = i
	}
	rankOf := func(k string) int {
		if r, ok := rank[k]; ok {
			return r
		}
		if strings.HasPrefix(k, "bus/") {
			return len(want)
		}
		return -1
	}
	for _, w := range want {
		res.SetOrdered(w.key, w.val, rankOf)
	}
	for _, k := range res.Keys() {
		if _, ok := rank[k]; !ok && strings.HasPrefix(k, "bus/") {
			res.Clear(k)
		}
	}
}

// find resolves a bus argument: a name, else a bus index.
func (l *layout) find(ref string) (int, error) {
	for i, b := range l.buses {
		if b.name() == ref {
			return i, nil
		}
	}
	if i, err := strconv.Atoi(strings.TrimSpace(ref)); err == nil && i >= 0 && i < len(l.buses) {
		return i, nil
	}
	return -1, &sdk.Error{Code: sdk.CodeNotFound, Required: "bus",
		Message: fmt.Sprintf("no audio bus %q in %s", ref, l.path), Hint: "its buses are " + strings.Join(l.names(), ", ") +
			"; add one with godot_audio_add_bus"}
}

func (l *layout) names() []string {
	var out []string
	for _, b := range l.buses {
		out = append(out, b.name())
	}
	return out
}

// effectClass is the class of an effect slot's resource, "" when unknown.
func (l *layout) effectClass(e effect) string {
	switch r := e.effect.(type) {
	case godot.SubResource:
		if s := l.doc.SubResource(r.ID); s != nil {
			return s.Type()
		}
	case godot.ExtResource:
		if x := l.doc.ExtResource(r.ID); x != nil {
			return x.Type()
		}
	}
	return ""
}

// effectProps are an effect's stored properties as JSON.
func (l *layout) effectProps(e effect) map[string]any {
	out := map[string]any{}
	if r, ok := e.effect.(godot.SubResource); ok {
		if s := l.doc.SubResource(r.ID); s != nil {
			for _, p := range s.Properties() {
				out[p.Key] = godot.ToJSONIn(p.Value, l.doc, l.path)
			}
		}
	}
	return out
}

// commit writes the layout (a new file when there was none) as one
// journaled action.
func (l *layout) commit(ctx context.Context, call *sdk.Call, name string) (sdk.CommitResult, error) {
	l.write()
	return call.Workspace().Begin(name).Write(l.path, l.doc.Bytes(), l.file.Version).Commit(ctx)
}

// busJSON is a bus as get_bus_layout shows it (the addon's fields, plus
// send and each effect's properties).
type busJSON struct {
	Index    int          `json:"index"`
	Name     string       `json:"name"`
	VolumeDB float64      `json:"volume_db"`
	Muted    bool         `json:"muted"`
	Solo     bool         `json:"solo"`
	Bypass   bool         `json:"bypass"`
	Send     string       `json:"send" jsonschema:"the bus it sends to (\"\" and Master both mean Master)"`
	Effects  []effectJSON `json:"effects"`
}

type effectJSON struct {
	Index      int            `json:"index"`
	Type       string         `json:"type"`
	Enabled    bool           `json:"enabled"`
	Properties map[string]any `json:"properties,omitempty" jsonschema:"the properties the file stores (others are at the class default)"`
}

func (l *layout) json() []busJSON {
	out := []busJSON{}
	for i, b := range l.buses {
		bj := busJSON{Index: i, Name: b.name(), VolumeDB: b.volume(), Muted: b.flag("mute"), Solo: b.flag("solo"),
			Bypass: b.flag("bypass_fx"), Send: b.send(), Effects: []effectJSON{}}
		for j, e := range b.effects {
			en, _ := e.enabled.(godot.Bool)
			bj.Effects = append(bj.Effects, effectJSON{Index: j, Type: l.effectClass(e), Enabled: bool(en), Properties: l.effectProps(e)})
		}
		out = append(out, bj)
	}
	return out
}

// audioEffects lists the engine's instantiable AudioEffect classes.
func audioEffects() []string {
	db := nodeedit.DB()
	var out []string
	for _, c := range db.Classes() {
		if c != "AudioEffect" && db.Inherits(c, "AudioEffect") && db.Instantiable(c) {
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}
