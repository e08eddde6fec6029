package main

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// coerce converts a JSON value (as encoding/json decodes it into any) to
// the Variant type a property takes, following the addon's from_json
// (ADDON-PROTOCOL §4.2): vectors from {x,y,…} or [x,y,…] (missing
// components 0) or a "Vector2(…)" string, colors from {r,g,b,a}, [r,g,b,a]
// or an HTML hex string, rects from {position,size}, enums and bitfields as
// integers. Types the addon passes through unchanged (arrays, dictionaries,
// packed arrays, transforms) are converted where the JSON shape says what
// it is, or taken from a string in Godot's own syntax ("Transform2D(…)").
// Object-typed properties are handled by the caller (resources).
func coerce(typ string, v any) (godot.Value, error) {
	if i := strings.Index(typ, "::"); i >= 0 && (strings.HasPrefix(typ, "enum::") || strings.HasPrefix(typ, "bitfield::")) {
		typ = "int"
	}
	if strings.HasPrefix(typ, "typedarray::") {
		typ = "Array"
	}
	if s, ok := v.(string); ok {
		if val, ok := parseGodotString(typ, s); ok {
			return val, nil
		}
	}
	switch typ {
	case "bool":
		switch b := v.(type) {
		case bool:
			return godot.Bool(b), nil
		case float64:
			return godot.Bool(b != 0), nil
		}
	case "int":
		switch n := v.(type) {
		case float64:
			if n != math.Trunc(n) {
				return nil, fmt.Errorf("%v is not an integer (enums and bitfields take their integer value)", n)
			}
			return godot.Int(int64(n)), nil
		case bool:
			if n {
				return godot.Int(1), nil
			}
			return godot.Int(0), nil
		case string:
			if i, err := strconv.ParseInt(n, 10, 64); err == nil {
				return godot.Int(i), nil
			}
		}
	case "float":
		switch n := v.(type) {
		case float64:
			return godot.Float(n), nil
		case string:
			if f, err := strconv.ParseFloat(n, 64); err == nil {
				return godot.Float(f), nil
			}
		}
	case "String":
		if v == nil {
			return godot.String(""), nil
		}
		return godot.String(jsonString(v)), nil
	case "StringName":
		return godot.StringName(jsonString(v)), nil
	case "NodePath":
		return godot.NodePath(jsonString(v)), nil
	case "Vector2":
		c := components(v, "x", "y")
		if c != nil {
			return godot.Vector2{X: c[0], Y: c[1]}, nil
		}
	case "Vector2i":
		if c := components(v, "x", "y"); c != nil {
			return godot.Vector2i{X: int32(c[0]), Y: int32(c[1])}, nil
		}
	case "Vector3":
		if c := components(v, "x", "y", "z"); c != nil {
			return godot.Vector3{X: c[0], Y: c[1], Z: c[2]}, nil
		}
	case "Vector3i":
		if c := components(v, "x", "y", "z"); c != nil {
			return godot.Vector3i{X: int32(c[0]), Y: int32(c[1]), Z: int32(c[2])}, nil
		}
	case "Vector4":
		if c := components(v, "x", "y", "z", "w"); c != nil {
			return godot.Vector4{X: c[0], Y: c[1], Z: c[2], W: c[3]}, nil
		}
	case "Vector4i":
		if c := components(v, "x", "y", "z", "w"); c != nil {
			return godot.Vector4i{X: int32(c[0]), Y: int32(c[1]), Z: int32(c[2]), W: int32(c[3])}, nil
		}
	case "Color":
		if s, ok := v.(string); ok {
			if c, ok := htmlColor(s); ok {
				return c, nil
			}
			return nil, fmt.Errorf("%q is not a color: use \"#rrggbb\", \"#rrggbbaa\", {r,g,b,a} or [r,g,b,a] with components 0..1", s)
		}
		if c := components(v, "r", "g", "b", "a"); c != nil {
			if m, ok := v.(map[string]any); ok {
				if _, has := m["a"]; !has {
					c[3] = 1
				}
			} else if a, ok := v.([]any); ok && len(a) < 4 {
				c[3] = 1
			}
			return godot.Color{R: c[0], G: c[1], B: c[2], A: c[3]}, nil
		}
	case "Rect2", "Rect2i":
		m, ok := v.(map[string]any)
		if ok && m["position"] != nil && m["size"] != nil {
			p, s := components(m["position"], "x", "y"), components(m["size"], "x", "y")
			if p != nil && s != nil {
				if typ == "Rect2i" {
					return godot.Rect2i{Position: godot.Vector2i{X: int32(p[0]), Y: int32(p[1])},
						Size: godot.Vector2i{X: int32(s[0]), Y: int32(s[1])}}, nil
				}
				return godot.Rect2{Position: godot.Vector2{X: p[0], Y: p[1]}, Size: godot.Vector2{X: s[0], Y: s[1]}}, nil
			}
		}
		return nil, fmt.Errorf("a %s is {\"position\": {\"x\":…,\"y\":…}, \"size\": {\"x\":…,\"y\":…}}", typ)
	case "Array":
		if a, ok := v.([]any); ok {
			return infer(a), nil
		}
	case "Dictionary":
		if m, ok := v.(map[string]any); ok {
			return infer(m), nil
		}
	case "PackedStringArray":
		if a, ok := v.([]any); ok {
			out := make(godot.PackedStringArray, len(a))
			for i, it := range a {
				out[i] = jsonString(it)
			}
			return out, nil
		}
	case "PackedInt32Array", "PackedInt64Array", "PackedFloat32Array", "PackedFloat64Array", "PackedByteArray":
		if a, ok := v.([]any); ok {
			return packedNumbers(typ, a)
		}
	case "PackedVector2Array":
		if a, ok := v.([]any); ok {
			out := make(godot.PackedVector2Array, len(a))
			for i, it := range a {
				c := components(it, "x", "y")
				if c == nil {
					return nil, fmt.Errorf("element %d is not a vector", i)
				}
				out[i] = godot.Vector2{X: c[0], Y: c[1]}
			}
			return out, nil
		}
	}
	return nil, fmt.Errorf("cannot use %s as a %s", describeJSON(v), typ)
}

// parseGodotString accepts a value written in Godot's own syntax when it is
// of the wanted type: "Vector2(1, 2)", "Transform2D(…)", "&\"name\"".
func parseGodotString(typ, s string) (godot.Value, bool) {
	switch typ {
	case "String", "StringName", "NodePath", "int", "float", "bool", "Color":
		return nil, false
	}
	if !strings.HasPrefix(s, typ+"(") && !strings.HasPrefix(s, "Packed") && !strings.HasPrefix(s, "Array") {
		return nil, false
	}
	val, err := godot.ParseValue([]byte(s))
	if err != nil || val.Kind().String() != typ && !(typ == "Array" && val.Kind() == godot.KindArray) {
		return nil, false
	}
	return val, true
}

// components reads numeric components from {k1,k2,…} or [a,b,…]; missing
// ones are 0, as the addon does. nil when v is neither shape.
func components(v any, keys ...string) []float64 {
	out := make([]float64, len(keys))
	switch c := v.(type) {
	case map[string]any:
		for i, k := range keys {
			if n, ok := c[k].(float64); ok {
				out[i] = n
			}
		}
		return out
	case []any:
		for i := range keys {
			if i < len(c) {
				if n, ok := c[i].(float64); ok {
					out[i] = n
				}
			}
		}
		return out
	}
	return nil
}

func packedNumbers(typ string, a []any) (godot.Value, error) {
	nums := make([]float64, len(a))
	for i, it := range a {
		n, ok := it.(float64)
		if !ok {
			return nil, fmt.Errorf("element %d of a %s is not a number", i, typ)
		}
		nums[i] = n
	}
	return godot.PackedNumbers(typ, nums), nil
}

// htmlColor parses "#rgb", "#rgba", "#rrggbb" or "#rrggbbaa" (the # is
// optional), as Color.html does.
func htmlColor(s string) (godot.Color, bool) {
	s = strings.TrimPrefix(s, "#")
	if len(s) == 3 || len(s) == 4 {
		var b strings.Builder
		for _, c := range s {
			b.WriteRune(c)
			b.WriteRune(c)
		}
		s = b.String()
	}
	if len(s) != 6 && len(s) != 8 {
		return godot.Color{}, false
	}
	if len(s) == 6 {
		s += "ff"
	}
	n, err := strconv.ParseUint(s, 16, 32)
	if err != nil {
		return godot.Color{}, false
	}
	ch := func(shift uint) float64 { return float64((n>>shift)&0xff) / 255 }
	return godot.Color{R: ch(24), G: ch(16), B: ch(8), A: ch(0)}, true
}

// infer converts JSON to the closest Variant, for untyped script variables
// and array elements: numbers without a fraction become int. It is
// godot.FromJSON with no type; a value encoding/json does not produce
// becomes its fmt text.
func infer(v any) godot.Value {
	if val, err := godot.FromJSON(v, ""); err == nil {
		return val
	}
	return godot.String(fmt.Sprint(v))
}

func jsonString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

func describeJSON(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// toJSON renders a Variant as the addon's to_json does (§4.1): vectors and
// colors as objects, numeric packed arrays as lists, dictionaries as
// objects, resources as their path, other values in Godot's text form. It
// is godot.ToJSON plus resolving f's resource references (also inside
// arrays), so set_node_property echoes a value in the shape
// get_node_property reads it.
func toJSON(f *godot.File, v godot.Value) any {
	switch x := v.(type) {
	case godot.ExtResource:
		if d := f.ExtResource(x.ID); d != nil {
			return d.Path()
		}
	case godot.SubResource:
		if d := f.SubResource(x.ID); d != nil {
			return f.Name() + "::" + x.ID
		}
	case godot.Array:
		out := make([]any, len(x.Items))
		for i, it := range x.Items {
			out[i] = toJSON(f, it)
		}
		return out
	}
	return godot.ToJSON(v)
}

// resourceType is the ext_resource type Godot records for a file, and its
// uid when the project has one for it (in the file itself, its .import or
// its .uid sidecar).
func resourceType(ctx context.Context, call *sdk.Call, p string) (typ, uid string) {
	ws := call.Workspace()
	ext := strings.ToLower(p[strings.LastIndex(p, ".")+1:])
	sidecar := func(suffix string) string {
		f, err := ws.Read(ctx, p+suffix)
		if err != nil {
			return ""
		}
		if suffix == ".uid" {
			return strings.TrimSpace(string(f.Data))
		}
		c, err := godot.ParseConfig(p+suffix, f.Data)
		if err != nil {
			return ""
		}
		if v, ok := c.Get("remap", "uid"); ok {
			if s, ok := v.(godot.String); ok {
				return string(s)
			}
		}
		return ""
	}
	switch ext {
	case "tscn", "scn":
		typ = "PackedScene"
	case "gd", "cs":
		return "Script", sidecar(".uid")
	case "gdshader":
		return "Shader", sidecar(".uid")
	case "png", "jpg", "jpeg", "webp", "svg", "bmp", "tga", "exr", "hdr", "dds", "ktx":
		return "Texture2D", sidecar(".import")
	case "wav":
		return "AudioStreamWAV", sidecar(".import")
	case "ogg":
		return "AudioStreamOggVorbis", sidecar(".import")
	case "mp3":
		return "AudioStreamMP3", sidecar(".import")
	case "ttf", "otf", "woff", "woff2":
		return "FontFile", sidecar(".import")
	case "tres":
	default:
		return "", sidecar(".import")
	}
	f, err := ws.Read(ctx, p)
	if err != nil {
		return typ, ""
	}
	if rf, err := godot.ParseFile(p, f.Data); err == nil {
		if typ == "" {
			typ = rf.ResourceType()
		}
		return typ, rf.UID()
	}
	return typ, ""
}
