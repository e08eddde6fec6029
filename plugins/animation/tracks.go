package main

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// An Animation's tracks are properties of its section, as Animation._get
// names them: tracks/N/type, imported, enabled, path, interp, loop_wrap,
// keys (and use_blend for audio tracks), in that order, track after track.
// The form of keys depends on the type (as Godot 4.6's ResourceSaver
// writes it, checked against the engine in engine_test.go):
//
//   - value:  {"times": PackedFloat32Array, "transitions": PackedFloat32Array, "update": int, "values": [...]}
//   - method: {"times", "transitions", "values": [{"args": [...], "method": &"name"}]}
//   - position_3d, scale_3d: PackedFloat32Array(time, transition, x, y, z, ...)
//   - rotation_3d: PackedFloat32Array(time, transition, x, y, z, w, ...)
//   - bezier: {"handle_modes": PackedInt32Array, "points": PackedFloat32Array(value, in_x, in_y, out_x, out_y, ...), "times"}
//   - audio:  {"clips": [{"end_offset", "start_offset", "stream"}], "times"}
//   - animation: {"clips": PackedStringArray, "times"}

// trackTypes are the track types the tools take, by their Godot names.
var trackTypes = []string{"value", "position_3d", "rotation_3d", "scale_3d", "method", "bezier", "audio", "animation"}

// Interpolation and update modes by name.
var (
	interpModes = []string{"nearest", "linear", "cubic", "linear_angle", "cubic_angle"}
	updateModes = []string{"continuous", "discrete", "capture"}
	loopModes   = []string{"none", "linear", "pingpong"}
)

// key is one keyframe.
type key struct {
	time       float32
	transition float32
	value      godot.Value // value/method/3D/audio/animation tracks
	// bezier tracks
	bezier     float32
	in, out    [2]float32
	handleMode int32
}

// track is one track of an Animation section.
type track struct {
	index  int
	typ    string
	path   string
	update int // value tracks
	keys   []key
}

func trackKey(i int, field string) string { return "tracks/" + strconv.Itoa(i) + "/" + field }

// trackCount is one past the highest tracks/N/type of the section.
func trackCount(sec *godot.Section) int {
	n := 0
	for _, k := range sec.Keys() {
		rest, ok := strings.CutPrefix(k, "tracks/")
		if !ok {
			continue
		}
		num, field, _ := strings.Cut(rest, "/")
		if i, err := strconv.Atoi(num); err == nil && field == "type" && i+1 > n {
			n = i + 1
		}
	}
	return n
}

func getString(sec *godot.Section, k string) string {
	v, _ := sec.Get(k)
	switch s := v.(type) {
	case godot.String:
		return string(s)
	case godot.StringName:
		return string(s)
	case godot.NodePath:
		return string(s)
	}
	return ""
}

func getFloat(v godot.Value) (float64, bool) {
	switch x := v.(type) {
	case godot.Float:
		return float64(x), true
	case godot.Int:
		return float64(x), true
	}
	return 0, false
}

func floats(v godot.Value) []float32 {
	switch a := v.(type) {
	case godot.PackedFloat32Array:
		return a
	case godot.PackedFloat64Array:
		out := make([]float32, len(a))
		for i, f := range a {
			out[i] = float32(f)
		}
		return out
	case godot.Array:
		out := make([]float32, 0, len(a.Items))
		for _, it := range a.Items {
			f, _ := getFloat(it)
			out = append(out, float32(f))
		}
		return out
	}
	return nil
}

func dictGet(d godot.Dictionary, k string) godot.Value {
	v, _ := d.Lookup(k)
	return v
}

// readTrack decodes track i of sec.
func readTrack(sec *godot.Section, i int) (*track, error) {
	t := &track{index: i, typ: getString(sec, trackKey(i, "type")), path: getString(sec, trackKey(i, "path"))}
	kv, _ := sec.Get(trackKey(i, "keys"))
	bad := func() error {
		return fmt.Errorf("track %d (%s) has keys Godot would not load: %s", i, t.typ, godot.FormatValue(kv))
	}
	switch t.typ {
	case "position_3d", "rotation_3d", "scale_3d", "blend_shape":
		stride := map[string]int{"position_3d": 5, "rotation_3d": 6, "scale_3d": 5, "blend_shape": 3}[t.typ]
		fs := floats(kv)
		if len(fs)%stride != 0 {
			return nil, bad()
		}
		for j := 0; j < len(fs); j += stride {
			k := key{time: fs[j], transition: fs[j+1]}
			f := fs[j+2 : j+stride]
			switch stride {
			case 5:
				k.value = godot.Vector3{X: float64(f[0]), Y: float64(f[1]), Z: float64(f[2])}
			case 6:
				k.value = godot.Quaternion{X: float64(f[0]), Y: float64(f[1]), Z: float64(f[2]), W: float64(f[3])}
			default:
				k.value = godot.Float(f[0])
			}
			t.keys = append(t.keys, k)
		}
		return t, nil
	}
	d, ok := kv.(godot.Dictionary)
	if !ok && kv != nil {
		return nil, bad()
	}
	times := floats(dictGet(d, "times"))
	switch t.typ {
	case "value", "method":
		trans := floats(dictGet(d, "transitions"))
		vals, _ := dictGet(d, "values").(godot.Array)
		if u, ok := dictGet(d, "update").(godot.Int); ok {
			t.update = int(u)
		}
		if len(trans) != len(times) || len(vals.Items) != len(times) {
			return nil, bad()
		}
		for j := range times {
			t.keys = append(t.keys, key{time: times[j], transition: trans[j], value: vals.Items[j]})
		}
	case "bezier":
		pts := floats(dictGet(d, "points"))
		var modes []int32
		if m, ok := dictGet(d, "handle_modes").(godot.PackedInt32Array); ok {
			modes = m
		}
		if len(pts) != 5*len(times) {
			return nil, bad()
		}
		for j := range times {
			k := key{time: times[j], transition: 1, bezier: pts[5*j], in: [2]float32{pts[5*j+1], pts[5*j+2]}, out: [2]float32{pts[5*j+3], pts[5*j+4]}}
			if j < len(modes) {
				k.handleMode = modes[j]
			}
			t.keys = append(t.keys, k)
		}
	case "audio":
		clips, _ := dictGet(d, "clips").(godot.Array)
		if len(clips.Items) != len(times) {
			return nil, bad()
		}
		for j := range times {
			t.keys = append(t.keys, key{time: times[j], transition: 1, value: clips.Items[j]})
		}
	case "animation":
		var clips []string
		switch c := dictGet(d, "clips").(type) {
		case godot.PackedStringArray:
			clips = c
		case godot.Array:
			for _, it := range c.Items {
				s, _ := keyString(it)
				clips = append(clips, s)
			}
		}
		if len(clips) != len(times) {
			return nil, bad()
		}
		for j := range times {
			t.keys = append(t.keys, key{time: times[j], transition: 1, value: godot.String(clips[j])})
		}
	default:
		return nil, fmt.Errorf("track %d has type %q, which this toolset does not edit", i, t.typ)
	}
	return t, nil
}

// encodeKeys is the keys property of the track, as Godot writes it.
func (t *track) encodeKeys() godot.Value {
	times := make(godot.PackedFloat32Array, len(t.keys))
	for i, k := range t.keys {
		times[i] = k.time
	}
	entry := func(k string, v godot.Value) godot.DictEntry { return godot.DictEntry{Key: godot.String(k), Value: v} }
	switch t.typ {
	case "position_3d", "rotation_3d", "scale_3d":
		out := godot.PackedFloat32Array{}
		for _, k := range t.keys {
			out = append(out, k.time, k.transition)
			switch v := k.value.(type) {
			case godot.Vector3:
				out = append(out, float32(v.X), float32(v.Y), float32(v.Z))
			case godot.Quaternion:
				out = append(out, float32(v.X), float32(v.Y), float32(v.Z), float32(v.W))
			}
		}
		return out
	case "value", "method":
		trans := make(godot.PackedFloat32Array, len(t.keys))
		vals := godot.Array{Items: make([]godot.Value, len(t.keys))}
		for i, k := range t.keys {
			trans[i] = k.transition
			vals.Items[i] = k.value
		}
		d := godot.Dictionary{Entries: []godot.DictEntry{entry("times", times), entry("transitions", trans)}}
		if t.typ == "value" {
			d.Entries = append(d.Entries, entry("update", godot.Int(t.update)))
		}
		d.Entries = append(d.Entries, entry("values", vals))
		return d
	case "bezier":
		pts := godot.PackedFloat32Array{}
		modes := godot.PackedInt32Array{}
		for _, k := range t.keys {
			pts = append(pts, k.bezier, k.in[0], k.in[1], k.out[0], k.out[1])
			modes = append(modes, k.handleMode)
		}
		return godot.Dictionary{Entries: []godot.DictEntry{entry("handle_modes", modes), entry("points", pts), entry("times", times)}}
	case "audio":
		clips := godot.Array{Items: make([]godot.Value, len(t.keys))}
		for i, k := range t.keys {
			clips.Items[i] = k.value
		}
		return godot.Dictionary{Entries: []godot.DictEntry{entry("clips", clips), entry("times", times)}}
	case "animation":
		clips := godot.PackedStringArray{}
		for _, k := range t.keys {
			s, _ := keyString(k.value)
			clips = append(clips, s)
		}
		return godot.Dictionary{Entries: []godot.DictEntry{entry("clips", clips), entry("times", times)}}
	}
	return godot.Nil{}
}

// insert adds k in time order, replacing a key at the same time, as
// Animation.track_insert_key does; it returns the key's index.
func (t *track) insert(k key) int {
	for i, o := range t.keys {
		if approxEqual(float64(o.time), float64(k.time)) {
			t.keys[i] = k
			return i
		}
		if o.time > k.time {
			t.keys = slices.Insert(t.keys, i, k)
			return i
		}
	}
	t.keys = append(t.keys, k)
	return len(t.keys) - 1
}

// approxEqual is Godot's Math::is_equal_approx.
func approxEqual(a, b float64) bool {
	if a == b {
		return true
	}
	tol := 0.00001 * math.Abs(a)
	if tol < 0.00001 {
		tol = 0.00001
	}
	return math.Abs(a-b) < tol
}

// emptyTrack is a new track's properties, in the order Godot writes them.
func newTrackProps(i int, typ, path string, interp int, update int) []godot.Property {
	t := &track{typ: typ, update: update}
	props := []godot.Property{
		{Key: trackKey(i, "type"), Value: godot.String(typ)},
		{Key: trackKey(i, "imported"), Value: godot.Bool(false)},
		{Key: trackKey(i, "enabled"), Value: godot.Bool(true)},
		{Key: trackKey(i, "path"), Value: godot.NodePath(path)},
		{Key: trackKey(i, "interp"), Value: godot.Int(interp)},
		{Key: trackKey(i, "loop_wrap"), Value: godot.Bool(true)},
		{Key: trackKey(i, "keys"), Value: t.encodeKeys()},
	}
	if typ == "audio" {
		props = append(props, godot.Property{Key: trackKey(i, "use_blend"), Value: godot.Bool(true)})
	}
	return props
}

// animRank orders an Animation's properties as Godot saves them.
func animRank(k string) int {
	switch {
	case k == "resource_name":
		return 0
	case k == "length":
		return 1
	case k == "loop_mode":
		return 2
	case k == "step":
		return 3
	case k == "capture_included":
		return 4
	case strings.HasPrefix(k, "markers"):
		return 5
	case strings.HasPrefix(k, "tracks/"):
		return 10
	case k == "script":
		return 20
	case strings.HasPrefix(k, "metadata/"):
		return 30
	}
	return 6
}
