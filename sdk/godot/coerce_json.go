package godot

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// FromJSON converts a decoded JSON value (what encoding/json gives for an
// any: nil, bool, float64 or json.Number, string, []any, map[string]any)
// into the Variant of type typ, the type name the class database uses
// ("int", "Vector2", "PackedStringArray", "Color"). It accepts the shapes
// the godot-mcp addon accepts, so a tool behaves the same headless and in
// the editor:
//
//   - vectors as {"x":…,"y":…} or [x, y]; Color as {"r","g","b","a"},
//     [r, g, b(, a)] or an HTML hex string ("#ff8800");
//   - Rect2 as {"position":{…},"size":{…}};
//   - any type as its text form ("Vector2(1, 2)", "Color(1, 0, 0, 1)");
//   - enums and flags as integers.
//
// An empty typ (a setting or property the database does not know) keeps
// the JSON type: whole numbers become int, others float, objects
// Dictionary, lists Array. Anything that does not fit is an error that
// says what was expected (wrapping ErrInvalid).
func FromJSON(v any, typ string) (Value, error) {
	if n, ok := v.(json.Number); ok {
		f, err := n.Float64()
		if err != nil {
			return nil, fmt.Errorf("%q is not a number: %w", n, ErrInvalid)
		}
		v = f
	}
	if s, ok := v.(string); ok && typ != "String" && typ != "StringName" && typ != "NodePath" && typ != "" {
		if typ == "Color" && !strings.Contains(s, "(") {
			return htmlColor(s)
		}
		if strings.HasPrefix(strings.TrimSpace(s), typ+"(") || (strings.HasPrefix(typ, "Packed") && strings.HasPrefix(strings.TrimSpace(s), typ)) {
			pv, err := ParseValue([]byte(s))
			if err != nil {
				return nil, fmt.Errorf("%q is not a valid %s: %v: %w", s, typ, err, ErrInvalid)
			}
			if pv.Kind().String() != typ {
				return nil, fmt.Errorf("%q is a %s, not a %s: %w", s, pv.Kind(), typ, ErrInvalid)
			}
			return pv, nil
		}
		switch typ {
		case "int", "float", "bool":
			// "42", "1.5", "true": accepted, as Godot's str_to_var would.
			pv, err := ParseValue([]byte(s))
			if err == nil {
				return FromJSON(jsonOf(pv), typ)
			}
		}
		return nil, fmt.Errorf("%q does not fit a %s; pass %s: %w", s, typ, shapeOf(typ), ErrInvalid)
	}
	bad := func() (Value, error) {
		return nil, fmt.Errorf("%s does not fit a %s; pass %s: %w", describeJSON(v), typ, shapeOf(typ), ErrInvalid)
	}
	switch typ {
	case "":
		return inferJSON(v)
	case "bool":
		if b, ok := v.(bool); ok {
			return Bool(b), nil
		}
	case "int":
		if f, ok := v.(float64); ok && f == math.Trunc(f) && math.Abs(f) < 1<<63 {
			return Int(int64(f)), nil
		}
	case "float":
		if f, ok := v.(float64); ok {
			return Float(f), nil
		}
	case "String":
		if s, ok := v.(string); ok {
			return String(s), nil
		}
	case "StringName":
		if s, ok := v.(string); ok {
			return StringName(s), nil
		}
	case "NodePath":
		if s, ok := v.(string); ok {
			return NodePath(s), nil
		}
	case "Vector2", "Vector2i", "Vector3", "Vector3i", "Vector4", "Vector4i":
		n := int(typ[6] - '0')
		c, ok := components(v, []string{"x", "y", "z", "w"}[:n], nil)
		if !ok {
			return bad()
		}
		return vectorOf(typ, c)
	case "Color":
		c, ok := components(v, []string{"r", "g", "b", "a"}, []float64{3: 1})
		if !ok {
			return bad()
		}
		return Color{c[0], c[1], c[2], c[3]}, nil
	case "Rect2", "Rect2i":
		m, ok := v.(map[string]any)
		if !ok {
			return bad()
		}
		vt := "Vector2" + strings.TrimPrefix(typ, "Rect2")
		pos, err1 := FromJSON(m["position"], vt)
		size, err2 := FromJSON(m["size"], vt)
		if err1 != nil || err2 != nil {
			return bad()
		}
		if typ == "Rect2" {
			return Rect2{pos.(Vector2), size.(Vector2)}, nil
		}
		return Rect2i{pos.(Vector2i), size.(Vector2i)}, nil
	case "PackedStringArray":
		items, ok := v.([]any)
		if !ok {
			return bad()
		}
		out := make(PackedStringArray, len(items))
		for i, it := range items {
			s, ok := it.(string)
			if !ok {
				return bad()
			}
			out[i] = s
		}
		return out, nil
	case "PackedInt32Array", "PackedInt64Array", "PackedFloat32Array", "PackedFloat64Array":
		items, ok := v.([]any)
		if !ok {
			return bad()
		}
		nums := make([]float64, len(items))
		for i, it := range items {
			f, ok := it.(float64)
			if !ok || (strings.Contains(typ, "Int") && f != math.Trunc(f)) {
				return bad()
			}
			nums[i] = f
		}
		return PackedNumbers(typ, nums), nil
	case "Array":
		if _, ok := v.([]any); ok {
			return inferJSON(v)
		}
	case "Dictionary":
		if _, ok := v.(map[string]any); ok {
			return inferJSON(v)
		}
	default:
		if v == nil {
			return Nil{}, nil
		}
	}
	return bad()
}

// PackedNumbers builds the numeric packed array typ ("PackedInt32Array",
// "PackedInt64Array", "PackedFloat32Array", "PackedByteArray"; anything
// else gives a PackedFloat64Array) from nums, converting each number to
// the element type as Go's conversions do (no range check).
func PackedNumbers(typ string, nums []float64) Value {
	switch typ {
	case "PackedByteArray":
		b := make([]byte, len(nums))
		for i, f := range nums {
			b[i] = byte(f)
		}
		return PackedByteArray{Data: b}
	case "PackedInt32Array":
		out := make(PackedInt32Array, len(nums))
		for i, f := range nums {
			out[i] = int32(f)
		}
		return out
	case "PackedInt64Array":
		out := make(PackedInt64Array, len(nums))
		for i, f := range nums {
			out[i] = int64(f)
		}
		return out
	case "PackedFloat32Array":
		out := make(PackedFloat32Array, len(nums))
		for i, f := range nums {
			out[i] = float32(f)
		}
		return out
	}
	return PackedFloat64Array(nums)
}

func vectorOf(typ string, c []float64) (Value, error) {
	if strings.HasSuffix(typ, "i") {
		for _, x := range c {
			if x != math.Trunc(x) || math.Abs(x) > math.MaxInt32 {
				return nil, fmt.Errorf("%s takes whole numbers, got %v: %w", typ, x, ErrInvalid)
			}
		}
	}
	i := func(k int) int32 { return int32(c[k]) }
	switch typ {
	case "Vector2":
		return Vector2{c[0], c[1]}, nil
	case "Vector2i":
		return Vector2i{i(0), i(1)}, nil
	case "Vector3":
		return Vector3{c[0], c[1], c[2]}, nil
	case "Vector3i":
		return Vector3i{i(0), i(1), i(2)}, nil
	case "Vector4":
		return Vector4{c[0], c[1], c[2], c[3]}, nil
	}
	return Vector4i{i(0), i(1), i(2), i(3)}, nil
}

// components reads n numbers from {"x":…} or [x, …]; def supplies
// defaults for trailing components that may be left out (a Color's a).
func components(v any, keys []string, def []float64) ([]float64, bool) {
	out := make([]float64, len(keys))
	switch x := v.(type) {
	case map[string]any:
		for k := range x {
			if !contains(keys, k) {
				return nil, false
			}
		}
		for i, k := range keys {
			f, ok := x[k].(float64)
			if !ok {
				if _, present := x[k]; present || i >= len(def) || def[i] == 0 {
					return nil, false
				}
				f = def[i]
			}
			out[i] = f
		}
	case []any:
		if len(x) > len(keys) || (len(x) < len(keys) && (len(def) < len(keys) || len(x) < len(keys)-1)) {
			return nil, false
		}
		for i := range keys {
			if i >= len(x) {
				out[i] = def[i]
				continue
			}
			f, ok := x[i].(float64)
			if !ok {
				return nil, false
			}
			out[i] = f
		}
	default:
		return nil, false
	}
	return out, true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func htmlColor(s string) (Value, error) {
	h := strings.TrimPrefix(s, "#")
	if len(h) != 6 && len(h) != 8 {
		return nil, fmt.Errorf("%q is not a colour; pass \"#rrggbb\", \"#rrggbbaa\" or {\"r\":…,\"g\":…,\"b\":…,\"a\":…}: %w", s, ErrInvalid)
	}
	var c [4]float64
	c[3] = 1
	for i := 0; i < len(h)/2; i++ {
		n, err := strconv.ParseUint(h[2*i:2*i+2], 16, 8)
		if err != nil {
			return nil, fmt.Errorf("%q is not a hex colour: %w", s, ErrInvalid)
		}
		// The engine keeps colours as float32 and writes the shortest
		// text of that; keep the same digits.
		c[i], _ = strconv.ParseFloat(strconv.FormatFloat(float64(n)/255, 'g', -1, 32), 64)
	}
	return Color{c[0], c[1], c[2], c[3]}, nil
}

// inferJSON keeps the JSON type.
func inferJSON(v any) (Value, error) {
	switch x := v.(type) {
	case nil:
		return Nil{}, nil
	case bool:
		return Bool(x), nil
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return Int(int64(x)), nil
		}
		return Float(x), nil
	case json.Number:
		return FromJSON(x, "")
	case string:
		return String(x), nil
	case []any:
		out := Array{Items: make([]Value, len(x))}
		for i, it := range x {
			iv, err := inferJSON(it)
			if err != nil {
				return nil, err
			}
			out.Items[i] = iv
		}
		return out, nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sortStrings(keys)
		out := Dictionary{}
		for _, k := range keys {
			iv, err := inferJSON(x[k])
			if err != nil {
				return nil, err
			}
			out.Entries = append(out.Entries, DictEntry{Key: String(k), Value: iv})
		}
		return out, nil
	}
	return nil, fmt.Errorf("unsupported JSON value %T: %w", v, ErrInvalid)
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// jsonOf is the JSON form of a scalar Value, for re-coercion.
func jsonOf(v Value) any {
	switch x := v.(type) {
	case Bool:
		return bool(x)
	case Int:
		return float64(x)
	case Float:
		return float64(x)
	}
	return nil
}

// ToJSON converts a Value to plain JSON data in the shapes FromJSON
// accepts and the addon returns: vectors as {"x","y"…}, colours as
// {"r","g","b","a"}, packed arrays as lists, and everything else the
// JSON types cannot hold (transforms, resources, objects) as its text form.
func ToJSON(v Value) any {
	switch x := v.(type) {
	case nil, Nil:
		return nil
	case Bool:
		return bool(x)
	case Int:
		return int64(x)
	case Float:
		return float64(x)
	case String:
		return string(x)
	case StringName:
		return string(x)
	case NodePath:
		return string(x)
	case Vector2:
		return map[string]any{"x": x.X, "y": x.Y}
	case Vector2i:
		return map[string]any{"x": x.X, "y": x.Y}
	case Vector3:
		return map[string]any{"x": x.X, "y": x.Y, "z": x.Z}
	case Vector3i:
		return map[string]any{"x": x.X, "y": x.Y, "z": x.Z}
	case Vector4:
		return map[string]any{"x": x.X, "y": x.Y, "z": x.Z, "w": x.W}
	case Vector4i:
		return map[string]any{"x": x.X, "y": x.Y, "z": x.Z, "w": x.W}
	case Color:
		return map[string]any{"r": x.R, "g": x.G, "b": x.B, "a": x.A}
	case Rect2:
		return map[string]any{"position": ToJSON(x.Position), "size": ToJSON(x.Size)}
	case Rect2i:
		return map[string]any{"position": ToJSON(x.Position), "size": ToJSON(x.Size)}
	case PackedStringArray:
		return []string(x)
	case PackedInt32Array:
		return []int32(x)
	case PackedInt64Array:
		return []int64(x)
	case PackedFloat32Array:
		return []float32(x)
	case PackedFloat64Array:
		return []float64(x)
	case Array:
		out := make([]any, len(x.Items))
		for i, it := range x.Items {
			out[i] = ToJSON(it)
		}
		return out
	case Dictionary:
		out := make(map[string]any, len(x.Entries))
		for _, e := range x.Entries {
			k, ok := e.Key.(String)
			if !ok {
				return FormatValue(v)
			}
			out[string(k)] = ToJSON(e.Value)
		}
		return out
	}
	return FormatValue(v)
}

func describeJSON(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return strconv.Quote(x)
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func shapeOf(typ string) string {
	switch typ {
	case "bool":
		return "true or false"
	case "int":
		return "a whole number"
	case "float":
		return "a number"
	case "Vector2", "Vector2i":
		return `{"x":…,"y":…} or [x, y]`
	case "Vector3", "Vector3i":
		return `{"x":…,"y":…,"z":…} or [x, y, z]`
	case "Vector4", "Vector4i":
		return `{"x":…,"y":…,"z":…,"w":…} or [x, y, z, w]`
	case "Color":
		return `"#rrggbb", {"r":…,"g":…,"b":…,"a":…} or [r, g, b, a]`
	case "Rect2", "Rect2i":
		return `{"position":{"x","y"},"size":{"x","y"}}`
	case "PackedStringArray":
		return "a list of strings"
	case "Array":
		return "a list"
	case "Dictionary":
		return "an object"
	}
	return "its text form, e.g. \"" + typ + "(…)\""
}
