package main

import (
	"fmt"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

// A track path is "node" or "node:property[:subproperty]", with node
// relative to the player's root_node (its parent by default), the way
// AnimationMixer resolves it. Headless, the node must exist in the scene
// (nodes of instanced scenes included) and the property must be one of
// its class (per the class database) or its script; 3D transform tracks
// need a Node3D, audio tracks an audio player, animation tracks an
// AnimationPlayer.

// trackTarget is what a track path resolved to.
type trackTarget struct {
	nodePath string // in the scene
	class    string
	prop     string // "" for node-only tracks
	sub      []string
	propType string // the value's Godot type; "" when unknown
	scripted bool   // the node has a script
	// script is the node's GDScript, when it can be read; its variables
	// and functions count with the class's. nil with scripted: unknown.
	script *nodeedit.Script
}

// scriptKnown reports whether the node's members are all known: no
// script, or a GDScript extending an engine class directly.
func (t *trackTarget) scriptKnown() bool {
	if !t.scripted {
		return true
	}
	return t.script != nil && (t.script.Extends == "" || nodeedit.DB().Exists(t.script.Extends))
}

// rootPath is the scene path of the player's root_node.
func (p *player) rootPath() (string, error) {
	rel := ".."
	if v, ok := p.node.Get("root_node"); ok {
		if np, ok := v.(godot.NodePath); ok {
			rel = string(np)
		}
	}
	r, ok := joinScenePath(p.path, rel)
	if !ok {
		return "", &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "track_path",
			Message: fmt.Sprintf("the AnimationPlayer %s animates relative to root_node %q, which lies outside this scene", p.path, rel),
			Hint:    "set the player's root_node to a node of the scene (scene_edit's set_node_property), or edit the animation where the scene is instanced"}
	}
	return r, nil
}

// joinScenePath resolves rel (a NodePath relative to the node at base)
// to a scene path ("." the root); false when it leaves the scene.
func joinScenePath(base, rel string) (string, bool) {
	var parts []string
	if base != "." && base != "" {
		parts = strings.Split(base, "/")
	}
	if strings.HasPrefix(rel, "/") {
		return "", false
	}
	for _, s := range strings.Split(rel, "/") {
		switch s {
		case "", ".":
		case "..":
			if len(parts) == 0 {
				return "", false
			}
			parts = parts[:len(parts)-1]
		default:
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		return ".", true
	}
	return strings.Join(parts, "/"), true
}

// resolveTrack resolves a track path against the scene.
func (p *player) resolveTrack(trackPath string) (*trackTarget, error) {
	nodePart, propPart, _ := strings.Cut(trackPath, ":")
	root, err := p.rootPath()
	if err != nil {
		return nil, err
	}
	if nodePart == "" {
		nodePart = "."
	}
	np, ok := joinScenePath(root, nodePart)
	if !ok {
		return nil, invalid("track_path", "name a node of this scene relative to the player's root_node (\".\" is the root_node itself)", "track path %q leads outside the scene", trackPath)
	}
	sec, tn, err := p.e.scene.Lookup(np)
	if err != nil {
		return nil, &sdk.Error{Code: sdk.CodeNotFound, Required: "track_path",
			Message: fmt.Sprintf("track path %q: no node %s in %s (track paths are relative to the player's root_node, %s)", trackPath, np, p.e.scene.Path, root),
			Hint:    "godot_inspection_get_scene_tree lists the nodes; write the node's path from the root_node, e.g. \"Sprite2D:position\""}
	}
	t := &trackTarget{nodePath: np}
	if sec != nil {
		t.class = sec.Type()
		_, t.scripted = sec.Get("script")
	}
	if tn != nil {
		t.class = tn.Class()
		if _, _, ok := tn.Get("script"); ok {
			t.scripted = true
		}
	}
	if t.scripted && sec != nil {
		t.script = p.e.scene.Script(sec)
	}
	if propPart != "" {
		parts := strings.Split(propPart, ":")
		t.prop, t.sub = parts[0], parts[1:]
	}
	return t, nil
}

// checkTrack resolves and checks a new track's path for its type.
func (p *player) checkTrack(typ, trackPath string) (*trackTarget, error) {
	t, err := p.resolveTrack(trackPath)
	if err != nil {
		return nil, err
	}
	db := nodeedit.DB()
	need := func(base, what string) error {
		if t.class == "" || db.Inherits(t.class, base) {
			return nil
		}
		return invalid("track_path", fmt.Sprintf("point a %s track at %s", typ, what), "%s is a %s; a %s track animates %s", t.nodePath, t.class, typ, what)
	}
	switch typ {
	case "value", "bezier":
		if t.prop == "" {
			return nil, invalid("track_path", "add the property after a colon: \""+trackPath+":position\"", "a %s track animates a property: %q names no property", typ, trackPath)
		}
		if err := t.checkProperty(); err != nil {
			return nil, err
		}
		if typ == "bezier" && t.propType != "" && t.propType != "float" && t.propType != "int" {
			return nil, invalid("track_path", fmt.Sprintf("animate one component: \"%s:%s:x\", or use a value track", strings.SplitN(trackPath, ":", 2)[0], t.prop),
				"a bezier track animates a number; %s is a %s", t.prop, t.propType)
		}
	case "position_3d", "rotation_3d", "scale_3d":
		if err := need("Node3D", "a Node3D (or a Skeleton3D bone: \"Skeleton3D:bone\")"); err != nil {
			return nil, err
		}
		if t.prop != "" && t.class != "" && !db.Inherits(t.class, "Skeleton3D") {
			return nil, invalid("track_path", "name the node alone, e.g. \"Mesh\"", "a %s track names a node (or a Skeleton3D bone), not a property: %q", typ, trackPath)
		}
		t.propType = map[string]string{"position_3d": "Vector3", "rotation_3d": "Quaternion", "scale_3d": "Vector3"}[typ]
	case "method", "audio", "animation":
		if t.prop != "" {
			return nil, invalid("track_path", "name the node alone, e.g. \".\" or \"AudioStreamPlayer\"", "a %s track names a node, not a property: %q", typ, trackPath)
		}
		switch typ {
		case "audio":
			if t.class != "" && !db.Inherits(t.class, "AudioStreamPlayer") && !db.Inherits(t.class, "AudioStreamPlayer2D") && !db.Inherits(t.class, "AudioStreamPlayer3D") {
				return nil, invalid("track_path", "point an audio track at an AudioStreamPlayer, AudioStreamPlayer2D or AudioStreamPlayer3D", "%s is a %s, not an audio player", t.nodePath, t.class)
			}
		case "animation":
			if err := need("AnimationPlayer", "an AnimationPlayer"); err != nil {
				return nil, err
			}
		}
	}
	return t, nil
}

// checkProperty checks the property against the class database (or
// accepts a script's) and works out the value's type.
func (t *trackTarget) checkProperty() error {
	db := nodeedit.DB()
	if t.class == "" {
		return nil // a node of a scene that cannot be read: unchecked
	}
	typ, ok := db.PropertyType(t.class, t.prop)
	if !ok && t.script != nil {
		if vt, isVar := t.script.Vars[t.prop]; isVar {
			if vt != "" && !strings.Contains(vt, "[") && (db.Exists(vt) || godotBuiltin(vt)) {
				typ = vt
			}
			if len(t.sub) == 0 {
				t.propType = typ
				return nil
			}
			ok = typ != ""
		}
	}
	if !ok {
		if !t.scriptKnown() {
			return nil // a member of a script we cannot read: not checked
		}
		hint := fmt.Sprintf(`godot_describe_class({"class_name":%q,"members":"properties","inherited":true}) lists its properties`, t.class)
		if s := db.SuggestProperty(t.class, t.prop); s != "" {
			hint = fmt.Sprintf("did you mean %q? ", s) + hint
		}
		if h := db.PropertyHint(t.class, t.prop); h != "" {
			hint = h
		}
		return &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "track_path",
			Message: fmt.Sprintf("%s (%s) has no property %q", t.nodePath, t.class, t.prop), Hint: hint}
	}
	if len(t.sub) == 0 {
		t.propType = typ
		return nil
	}
	comps := map[string]string{
		"Vector2": "xy", "Vector2i": "xy", "Vector3": "xyz", "Vector3i": "xyz", "Vector4": "xyzw", "Vector4i": "xyzw",
		"Quaternion": "xyzw", "Color": "rgba",
	}
	if c, ok := comps[typ]; ok && len(t.sub) == 1 && len(t.sub[0]) == 1 && strings.Contains(c, t.sub[0]) {
		t.propType = "float"
		if strings.HasSuffix(typ, "i") {
			t.propType = "int"
		}
		return nil
	}
	if c, ok := comps[typ]; ok {
		return invalid("track_path", fmt.Sprintf("animate one of %s's components: %s", t.prop, strings.Join(strings.Split(c, ""), ", ")),
			"%s is a %s, which has no member %q", t.prop, typ, strings.Join(t.sub, ":"))
	}
	return nil // a sub-resource's property: not checked
}

// makeKey converts the JSON value of a key for track t.
func (e *edit) makeKey(a *animation, p *player, t *track, raw any) (key, error) {
	k := key{transition: 1}
	var target *trackTarget
	if p != nil {
		tt, err := p.resolveTrack(t.path)
		if err == nil {
			target = tt
		}
	}
	res := e.resources(a.fd)
	switch t.typ {
	case "value":
		v, err := e.valueFor(target, t, raw, res)
		if err != nil {
			return k, err
		}
		k.value = v
	case "position_3d", "scale_3d":
		v, err := godot.FromJSON(raw, "Vector3")
		if err != nil {
			return k, nodeedit.Err(err)
		}
		k.value = v
	case "rotation_3d":
		v, err := godot.FromJSON(raw, "Quaternion")
		if err != nil {
			return k, nodeedit.Err(err)
		}
		k.value = v
	case "method":
		m, ok := raw.(map[string]any)
		name, _ := m["method"].(string)
		if !ok || name == "" {
			return k, invalid("value", `pass {"method": "name", "args": [...]}`, "a method track's key is {\"method\", \"args\"}, not %v", raw)
		}
		if target != nil && target.class != "" && target.scriptKnown() {
			_, ok := nodeedit.DB().Method(target.class, name)
			if !ok && (target.script == nil || !target.script.Funcs[name]) {
				return k, invalid("value", fmt.Sprintf(`godot_describe_class({"class_name":%q,"members":"methods"}) lists its methods`, target.class),
					"%s (%s) has no method %q", target.nodePath, target.class, name)
			}
		}
		args := godot.Array{Items: []godot.Value{}}
		if list, ok := m["args"].([]any); ok {
			for _, x := range list {
				v, err := godot.FromJSON(x, "")
				if err != nil {
					return k, nodeedit.Err(err)
				}
				args.Items = append(args.Items, v)
			}
		} else if m["args"] != nil {
			return k, invalid("value", `pass args as a list: {"method": "name", "args": [1, "two"]}`, "args must be a list")
		}
		k.value = godot.Dictionary{Entries: []godot.DictEntry{
			{Key: godot.String("args"), Value: args},
			{Key: godot.String("method"), Value: godot.StringName(name)},
		}}
	case "bezier":
		var in, out [2]float32
		val := raw
		if m, ok := raw.(map[string]any); ok {
			val = m["value"]
			for name, dst := range map[string]*[2]float32{"in_handle": &in, "out_handle": &out} {
				if h, ok := m[name]; ok {
					v, err := godot.FromJSON(h, "Vector2")
					if err != nil {
						return k, nodeedit.Err(err)
					}
					vv := v.(godot.Vector2)
					*dst = [2]float32{float32(vv.X), float32(vv.Y)}
				}
			}
		}
		f, ok := val.(float64)
		if !ok {
			return k, invalid("value", `pass a number, or {"value": 1.5, "in_handle": [-0.25, 0], "out_handle": [0.25, 0]}`, "a bezier key is a number, not %v", val)
		}
		k.bezier, k.in, k.out = float32(f), in, out
	case "audio":
		stream, start, end := raw, 0.0, 0.0
		if m, ok := raw.(map[string]any); ok {
			stream = m["stream"]
			start, _ = m["start_offset"].(float64)
			end, _ = m["end_offset"].(float64)
		}
		var sv godot.Value = godot.Nil{}
		if stream != nil {
			s, ok := stream.(string)
			if !ok {
				return k, invalid("value", `pass a res:// path of an audio file, or {"stream": "res://...", "start_offset": 0, "end_offset": 0}`, "an audio key's stream is a res:// path")
			}
			v, err := res.Ref("AudioStream", s)
			if err != nil {
				return k, nodeedit.Err(err)
			}
			sv = v
		}
		k.value = godot.Dictionary{Entries: []godot.DictEntry{
			{Key: godot.String("end_offset"), Value: godot.Float(end)},
			{Key: godot.String("start_offset"), Value: godot.Float(start)},
			{Key: godot.String("stream"), Value: sv},
		}}
	case "animation":
		s, ok := raw.(string)
		if !ok || s == "" {
			return k, invalid("value", "pass the name of an animation of the animated AnimationPlayer, or \"[stop]\"", "an animation key is an animation's name")
		}
		if target != nil && s != "[stop]" && target.class == "AnimationPlayer" {
			if other, err := e.openPlayer(target.nodePath); err == nil {
				names, _ := other.animationNames()
				if len(names) > 0 && !contains(names, s) {
					return k, invalid("value", "the player's animations: "+quoteList(names), "the AnimationPlayer %s has no animation %q", target.nodePath, s)
				}
			}
		}
		k.value = godot.String(s)
	}
	return k, nil
}

// godotBuiltin reports whether t is a Variant type name.
func godotBuiltin(t string) bool {
	for k := godot.KindNil + 1; k <= godot.KindPackedVector4Array; k++ {
		if k.String() == t {
			return true
		}
	}
	return false
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// valueFor converts a value track's key: to the property's type from the
// class database, else to the type of the track's existing keys, else as
// JSON (or Godot text) gives it.
func (e *edit) valueFor(target *trackTarget, t *track, raw any, res classdb.Resources) (godot.Value, error) {
	db := nodeedit.DB()
	if raw == nil {
		return nil, invalid("value", "pass the key's value", "value is required")
	}
	if target != nil && target.class != "" && target.prop != "" && len(target.sub) == 0 {
		if _, ok := db.PropertyType(target.class, target.prop); ok {
			return nodeedit.Coerce(target.class, target.prop, raw, res)
		}
	}
	typ := ""
	if target != nil {
		typ = target.propType
	}
	if typ == "" && len(t.keys) > 0 && t.keys[0].value != nil {
		if k := t.keys[0].value.Kind(); k != godot.KindObject && k != godot.KindNil {
			typ = k.String()
		}
	}
	if typ == "" {
		if s, ok := raw.(string); ok && strings.Contains(s, "(") {
			if v, err := godot.ParseValue([]byte(s)); err == nil {
				return v, nil
			}
		}
	}
	v, err := db.CoerceType(typ, raw, res)
	if err != nil {
		return nil, nodeedit.Err(err)
	}
	if f, ok := v.(godot.Float); ok && typ == "float" {
		v = godot.Float(float32(f)) // component tracks hold real_t
	}
	return v, nil
}

// resources is the converter's view of fd's resources.
func (e *edit) resources(fd *fileDoc) classdb.Resources {
	if e.scene != nil && fd.doc == e.scene.Doc {
		return e.scene.Resources()
	}
	return &nodeedit.FileResources{Doc: fd.doc, Path: fd.path, RefFunc: e.refFunc(fd)}
}
