package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

// Arguments. node_path, name/animation, length, track_path, track_type,
// track, time, value and easing are the reference's; scene, library,
// loop_mode, step, resource_path, update_mode, interp and transition are
// ours (the editor-mode refusals say which need headless mode).

// where names an animation's player, or a standalone Animation .tres.
type where struct {
	NodePath     string        `json:"node_path,omitempty" jsonschema:"path of the AnimationPlayer, relative to the scene root (\".\" is the root)"`
	Scene        sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene)"`
	ResourcePath sdk.ResPath   `json:"resource_path,omitempty" jsonschema:"an Animation saved as a .tres, instead of node_path: the file to edit" godot:"ext=.tres"`
}

type createArgs struct {
	NodePath     string        `json:"node_path,omitempty" jsonschema:"path of the AnimationPlayer, relative to the scene root (\".\" is the root)"`
	Name         string        `json:"name" jsonschema:"the animation's name, e.g. \"walk\" (no '/', ':', ',' or '[')"`
	Length       *float64      `json:"length,omitempty" jsonschema:"length in seconds (default 1.0)"`
	LoopMode     any           `json:"loop_mode,omitempty" jsonschema:"none (default), linear or pingpong (or 0, 1, 2)"`
	Step         *float64      `json:"step,omitempty" jsonschema:"the editor's snapping step in seconds (default 1/30)"`
	Library      string        `json:"library,omitempty" jsonschema:"the AnimationPlayer's library to add it to; default \"\", the default library (created when missing); a named one is created when missing too, and the animation is then called library/name"`
	Scene        sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene)"`
	ResourcePath sdk.ResPath   `json:"resource_path,omitempty" jsonschema:"save the animation as this new .tres instead; with node_path too, the player's library refers to it" godot:"ext=.tres"`
}

type addTrackArgs struct {
	where
	Animation  string `json:"animation,omitempty" jsonschema:"the animation's name as the player names it (\"walk\", \"library/walk\"); not needed with resource_path"`
	TrackPath  string `json:"track_path" jsonschema:"the animated node, relative to the player's root_node (the player's parent by default), and for value and bezier tracks its property: \"Sprite2D:position\", \"Sprite2D:modulate:a\", \".:visible\"; 3D transform, method, audio and animation tracks name the node alone"`
	TrackType  string `json:"track_type,omitempty" jsonschema:"value (default), position_3d, rotation_3d, scale_3d, method, bezier, audio or animation"`
	Interp     any    `json:"interp,omitempty" jsonschema:"interpolation: nearest, linear (default), cubic, linear_angle or cubic_angle (or 0-4)"`
	UpdateMode any    `json:"update_mode,omitempty" jsonschema:"value tracks: continuous (default), discrete or capture (or 0-2)"`
}

type insertKeyArgs struct {
	where
	Animation  string   `json:"animation,omitempty" jsonschema:"the animation's name as the player names it; not needed with resource_path"`
	Track      *int     `json:"track" jsonschema:"the track's index (add_track answers it; get lists them)"`
	Time       float64  `json:"time" jsonschema:"the key's time in seconds"`
	Value      any      `json:"value" jsonschema:"the key: for a value track a value of the property's type (Vector2 as [x, y] or {\"x\",\"y\"}, Color as \"#ff0000\", ...); position_3d and scale_3d a Vector3; rotation_3d a Quaternion [x, y, z, w]; method {\"method\": \"name\", \"args\": [...]}; bezier a number, or {\"value\", \"in_handle\": [x, y], \"out_handle\": [x, y]}; audio a res:// stream path or {\"stream\", \"start_offset\", \"end_offset\"}; animation the name of an animation of the animated AnimationPlayer" godot:"value"`
	Easing     *float64 `json:"easing,omitempty" jsonschema:"the key's transition (easing curve exponent): 1 linear (default), below 1 ease out, above 1 ease in, negative in-out"`
	Transition *float64 `json:"transition,omitempty" jsonschema:"another name for easing"`
}

type getArgs struct {
	where
	AnimationName string `json:"animation_name,omitempty" jsonschema:"the animation's name as the player names it; not needed with resource_path"`
}

type listArgs struct {
	NodePath string        `json:"node_path" jsonschema:"path of the AnimationPlayer, relative to the scene root"`
	Scene    sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to read; default: the active scene"`
}

// enumArg reads an enum argument given by name or number.
func enumArg(arg string, v any, names []string, def int) (int, error) {
	switch x := v.(type) {
	case nil:
		return def, nil
	case string:
		if i := slices.Index(names, strings.ToLower(x)); i >= 0 {
			return i, nil
		}
	case float64:
		if i := int(x); float64(i) == x && i >= 0 && i < len(names) {
			return i, nil
		}
	case json.Number:
		var i int
		if _, err := fmt.Sscanf(x.String(), "%d", &i); err == nil && i >= 0 && i < len(names) {
			return i, nil
		}
	}
	return 0, invalid(arg, "pass one of "+quoteList(names)+" (or its index)", "%s %v is not one of %s", arg, v, strings.Join(names, ", "))
}

// openAnimation opens the animation w and name name; p is nil for a
// standalone .tres.
func openAnimation(e *edit, w where, name string) (*animation, *player, error) {
	if w.ResourcePath != "" {
		if w.NodePath != "" {
			return nil, nil, invalid("resource_path", "pass node_path (and the animation's name) for an animation of a player, or resource_path alone for an Animation .tres", "pass node_path or resource_path, not both")
		}
		fd, err := e.open(string(w.ResourcePath))
		if err != nil {
			return nil, nil, err
		}
		if t := fd.doc.ResourceType(); t != "Animation" {
			return nil, nil, invalid("resource_path", "pass an Animation .tres", "%s is a %s, not an Animation", fd.path, t)
		}
		if name == "" {
			name = strings.TrimSuffix(path.Base(fd.path), ".tres")
		}
		return &animation{name: name, fd: fd, sec: fd.doc.Resource()}, nil, nil
	}
	if _, err := e.openScene(w.Scene); err != nil {
		return nil, nil, err
	}
	p, err := e.openPlayer(w.NodePath)
	if err != nil {
		return nil, nil, err
	}
	if name == "" {
		all, _ := p.animationNames()
		return nil, nil, invalid("animation", "the player's animations: "+quoteList(all), "name the animation")
	}
	a, err := p.animation(name)
	return a, p, err
}

// --- create ---------------------------------------------------------------

func createAnimation(ctx context.Context, call *sdk.Call, in createArgs) (sdk.Result, error) {
	name, lib := in.Name, in.Library
	if lib == "" {
		if l, n, ok := strings.Cut(name, "/"); ok {
			lib, name = l, n
		}
	}
	if err := validAnimationName("name", name); err != nil {
		return sdk.Result{}, err
	}
	if lib != "" {
		if err := validAnimationName("library", lib); err != nil {
			return sdk.Result{}, err
		}
	}
	loop, err := enumArg("loop_mode", in.LoopMode, loopModes, 0)
	if err != nil {
		return sdk.Result{}, err
	}
	if in.Length != nil && *in.Length <= 0 {
		return sdk.Result{}, invalid("length", "pass a length in seconds above 0", "length %v is not above 0", *in.Length)
	}
	if in.Step != nil && *in.Step < 0 {
		return sdk.Result{}, invalid("step", "pass a step in seconds, 0 or more", "step %v is negative", *in.Step)
	}
	e := newEdit(ctx, call)
	out := map[string]any{}
	var p *player
	var l *library
	full := fullName(lib, name)
	if in.NodePath != "" || in.ResourcePath == "" {
		if _, err := e.openScene(in.Scene); err != nil {
			return sdk.Result{}, err
		}
		if p, err = e.openPlayer(in.NodePath); err != nil {
			return sdk.Result{}, err
		}
		libs, err := p.libraries()
		if err != nil {
			return sdk.Result{}, err
		}
		for _, x := range libs {
			if x.name == lib {
				l = x
			}
		}
		if l != nil {
			names, _ := l.animationRefs()
			if slices.Contains(names, name) {
				return sdk.Result{}, invalid("name", "pick another name, or edit it with add_track and insert_keyframe", "Animation '%s' already exists.", full)
			}
		}
		out["player_path"] = in.NodePath
		out["scene_path"] = e.scene.Path
	}
	// The library (created when missing), then the Animation resource: a
	// sub-resource of the library's file, or a .tres of its own that the
	// library's file refers to.
	if p != nil {
		created := false
		if l == nil {
			if l, err = p.addLibrary(lib); err != nil {
				return sdk.Result{}, err
			}
			created = true
		}
		out["library"] = lib
		out["library_created"] = created
	}
	var sec *godot.Section
	if in.ResourcePath != "" {
		fd, err := e.create(string(in.ResourcePath), "Animation")
		if err != nil {
			return sdk.Result{}, err
		}
		sec = fd.doc.Resource()
		out["resource_path"] = fd.path
		if l != nil {
			x, err := l.fd.doc.AddExtResource("Animation", fd.path, fd.doc.UID())
			if err != nil {
				return sdk.Result{}, err
			}
			l.add(name, x)
		}
	} else {
		sub, err := l.fd.doc.AddSubResource("Animation")
		if err != nil {
			return sdk.Result{}, err
		}
		sec = sub.Section
		sec.Set("resource_name", godot.String(name))
		l.add(name, sub.Ref())
	}
	db := nodeedit.DB()
	set := func(k string, v godot.Value) {
		if !db.IsDefault("Animation", k, v) {
			sec.SetOrdered(k, v, animRank)
		}
	}
	length := 1.0
	if in.Length != nil {
		length = *in.Length
	}
	set("length", db.Stored("Animation", "length", godot.Float(length)))
	set("loop_mode", godot.Int(loop))
	if in.Step != nil {
		set("step", db.Stored("Animation", "step", godot.Float(*in.Step)))
	}
	out["animation"] = full
	out["length"] = length
	out["loop_mode"] = loopModes[loop]
	out["persisted"] = true
	return e.commit("Create animation "+full, out)
}

// --- add_track --------------------------------------------------------------

func addTrack(ctx context.Context, call *sdk.Call, in addTrackArgs) (sdk.Result, error) {
	typ := in.TrackType
	if typ == "" {
		typ = "value"
	}
	if !slices.Contains(trackTypes, typ) {
		return sdk.Result{}, invalid("track_type", "pass one of "+quoteList(trackTypes), "Unknown track_type '%s'.", in.TrackType)
	}
	if strings.TrimSpace(in.TrackPath) == "" {
		return sdk.Result{}, invalid("track_path", "pass the animated node (and property), e.g. \"Sprite2D:position\"", "'track_path' must be a non-empty string.")
	}
	interp, err := enumArg("interp", in.Interp, interpModes, 1)
	if err != nil {
		return sdk.Result{}, err
	}
	update, err := enumArg("update_mode", in.UpdateMode, updateModes, 0)
	if err != nil {
		return sdk.Result{}, err
	}
	e := newEdit(ctx, call)
	a, p, err := openAnimation(e, in.where, in.Animation)
	if err != nil {
		return sdk.Result{}, err
	}
	out := map[string]any{"animation": a.name, "track_path": in.TrackPath, "track_type": typ}
	if p != nil {
		tt, err := p.checkTrack(typ, in.TrackPath)
		if err != nil {
			return sdk.Result{}, err
		}
		out["node_path"] = tt.nodePath
		if tt.class != "" {
			out["node_class"] = tt.class
		}
		if tt.propType != "" {
			out["property_type"] = tt.propType
		}
		out["scene_path"] = e.scene.Path
	}
	i := trackCount(a.sec)
	for _, pr := range newTrackProps(i, typ, in.TrackPath, interp, update) {
		a.sec.SetOrdered(pr.Key, pr.Value, animRank)
	}
	out["track"] = i
	out["persisted"] = true
	out["animation_file"] = a.fd.path
	return e.commit(fmt.Sprintf("Add %s track %s to %s", typ, in.TrackPath, a.name), out)
}

// --- insert_keyframe --------------------------------------------------------

func insertKeyframe(ctx context.Context, call *sdk.Call, in insertKeyArgs) (sdk.Result, error) {
	if in.Track == nil {
		return sdk.Result{}, invalid("track", "pass the track's index (godot_animation_get lists the tracks)", "track is required")
	}
	if in.Time < 0 {
		return sdk.Result{}, invalid("time", "pass a time in seconds, 0 or more", "time %v is negative", in.Time)
	}
	easing := 1.0
	if in.Easing != nil {
		easing = *in.Easing
	} else if in.Transition != nil {
		easing = *in.Transition
	}
	raw := in.Value
	if str, ok := raw.(string); ok && strings.HasPrefix(strings.TrimSpace(str), "{") {
		// A method, bezier or audio key sent as JSON text, by a client
		// that sends value arguments as strings (their schema type).
		if j, ok := godot.JSONText(str); ok {
			raw = j
		}
	}
	e := newEdit(ctx, call)
	a, p, err := openAnimation(e, in.where, in.Animation)
	if err != nil {
		return sdk.Result{}, err
	}
	n := trackCount(a.sec)
	if *in.Track < 0 || *in.Track >= n {
		return sdk.Result{}, invalid("track", fmt.Sprintf("the animation has %d track(s): pass 0 to %d, or add one with godot_animation_add_track", n, n-1), "Track %d is out of range.", *in.Track)
	}
	t, err := readTrack(a.sec, *in.Track)
	if err != nil {
		return sdk.Result{}, sdk.Errorf(sdk.CodePreconditionFailed, "repair the track in the Godot editor or restore the file with godot_undo", "%s: %v", a.fd.path, err)
	}
	k, err := e.makeKey(a, p, t, raw)
	if err != nil {
		return sdk.Result{}, err
	}
	k.time = float32(in.Time)
	if t.typ != "bezier" {
		k.transition = float32(easing)
	}
	replaced := false
	for _, o := range t.keys {
		replaced = replaced || approxEqual(float64(o.time), float64(k.time))
	}
	idx := t.insert(k)
	a.sec.Set(trackKey(t.index, "keys"), t.encodeKeys())
	out := map[string]any{"animation": a.name, "track": t.index, "time": in.Time, "key": idx, "replaced": replaced,
		"value": keyJSON(a.fd, t, t.keys[idx])["value"], "persisted": true, "animation_file": a.fd.path}
	if e.scene != nil {
		out["scene_path"] = e.scene.Path
	}
	if length, ok := getFloat(getValue(a.sec, "length", godot.Float(1))); ok && in.Time > length {
		out["note"] = fmt.Sprintf("the key at %gs lies past the animation's length (%gs): it never plays; lengthen the animation in the editor or recreate it with a longer length", in.Time, length)
	}
	return e.commit(fmt.Sprintf("Insert key at %gs on track %d of %s", in.Time, t.index, a.name), out)
}

func getValue(sec *godot.Section, k string, def godot.Value) godot.Value {
	if v, ok := sec.Get(k); ok {
		return v
	}
	return def
}

// --- get / list_animations ----------------------------------------------------

func getAnimation(ctx context.Context, call *sdk.Call, in getArgs) (sdk.Result, error) {
	e := newEdit(ctx, call)
	a, _, err := openAnimation(e, in.where, in.AnimationName)
	if err != nil {
		return sdk.Result{}, err
	}
	out, err := describe(a)
	if err != nil {
		return sdk.Result{}, err
	}
	if e.scene != nil {
		out["scene_path"] = e.scene.Path
	}
	return sdk.JSON(out), nil
}

// describe is get's answer: the reference's {name, length, tracks:[{type,
// path, keys:[{time, value}]}]}, with loop_mode, step, each track's index,
// interpolation and update mode and each key's transition.
func describe(a *animation) (map[string]any, error) {
	length, _ := getFloat(getValue(a.sec, "length", godot.Float(1)))
	loop, _ := getFloat(getValue(a.sec, "loop_mode", godot.Int(0)))
	step, _ := getFloat(getValue(a.sec, "step", godot.Float(1.0/30)))
	tracks := []any{}
	for i := range trackCount(a.sec) {
		t, err := readTrack(a.sec, i)
		if err != nil {
			return nil, sdk.Errorf(sdk.CodePreconditionFailed, "repair the track in the Godot editor or restore the file with godot_undo", "%s: %v", a.fd.path, err)
		}
		keys := []any{}
		for _, k := range t.keys {
			keys = append(keys, keyJSON(a.fd, t, k))
		}
		tj := map[string]any{"index": i, "type": t.typ, "path": t.path, "keys": keys}
		if v, ok := getFloat(getValue(a.sec, trackKey(i, "interp"), godot.Int(1))); ok && int(v) >= 0 && int(v) < len(interpModes) {
			tj["interp"] = interpModes[int(v)]
		}
		if t.typ == "value" && t.update >= 0 && t.update < len(updateModes) {
			tj["update_mode"] = updateModes[t.update]
		}
		if b, ok := getValue(a.sec, trackKey(i, "enabled"), godot.Bool(true)).(godot.Bool); ok {
			tj["enabled"] = bool(b)
		}
		tracks = append(tracks, tj)
	}
	out := map[string]any{"name": a.name, "length": length, "step": step, "tracks": tracks, "animation_file": a.fd.path}
	if int(loop) >= 0 && int(loop) < len(loopModes) {
		out["loop_mode"] = loopModes[int(loop)]
	}
	if a.lib != nil {
		out["library"] = a.lib.name
	}
	return out, nil
}

// keyJSON is one key as get answers it.
func keyJSON(fd *fileDoc, t *track, k key) map[string]any {
	m := map[string]any{"time": float64(k.time)}
	switch t.typ {
	case "bezier":
		m["value"] = float64(k.bezier)
		m["in_handle"] = []float64{float64(k.in[0]), float64(k.in[1])}
		m["out_handle"] = []float64{float64(k.out[0]), float64(k.out[1])}
		return m
	case "audio", "animation":
	default:
		m["transition"] = float64(k.transition)
	}
	m["value"] = godot.ToJSONIn(k.value, fd.doc, fd.path)
	return m
}

func listAnimations(ctx context.Context, call *sdk.Call, in listArgs) (sdk.Result, error) {
	e := newEdit(ctx, call)
	if _, err := e.openScene(in.Scene); err != nil {
		return sdk.Result{}, err
	}
	p, err := e.openPlayer(in.NodePath)
	if err != nil {
		return sdk.Result{}, err
	}
	names, err := p.animationNames()
	if err != nil {
		return sdk.Result{}, err
	}
	libs, err := p.libraries()
	if err != nil {
		return sdk.Result{}, err
	}
	libNames := []string{}
	for _, l := range libs {
		libNames = append(libNames, l.name)
	}
	if names == nil {
		names = []string{}
	}
	return sdk.JSON(map[string]any{"player_path": in.NodePath, "animations": names, "libraries": libNames, "scene_path": e.scene.Path}), nil
}
