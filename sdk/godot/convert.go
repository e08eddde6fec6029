package godot

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// This file is the one conversion between JSON and Godot values: what an
// agent passes (FromJSON) and what a tool returns (ToJSON), in the shapes
// of the godot-mcp addon's type_coerce.gd, so a tool behaves the same
// headless and in the editor. The class-aware entry point (a property of a
// class: enums by name, resources by path) is classdb's DB.Coerce, which
// looks the type up and comes here.

// ValueError is a JSON value that does not fit the type it was given for.
// It wraps ErrInvalid. Property is set by callers that know it (classdb's
// DB.Coerce); Accepted lists the shapes that would have been taken, for
// the hint of the caller's error.
type ValueError struct {
	Property string // "" when not known
	Type     string // the target type, "Vector2", "enum::Node.ProcessMode"
	Given    string // the value as JSON, shortened
	Reason   string // why it does not fit, "" for plain "is not a T"
	Accepted string // what to pass instead
}

func (e *ValueError) Error() string {
	var b strings.Builder
	if e.Property != "" {
		fmt.Fprintf(&b, "property %q: ", e.Property)
	}
	fmt.Fprintf(&b, "%s is not a %s", e.Given, e.Type)
	if e.Reason != "" {
		b.WriteString(" (" + e.Reason + ")")
	}
	if e.Accepted != "" {
		b.WriteString("; pass " + e.Accepted)
	}
	return b.String()
}

// Unwrap makes errors.Is(err, ErrInvalid) true.
func (e *ValueError) Unwrap() error { return ErrInvalid }

func refuse(v any, typ, reason string) *ValueError {
	return &ValueError{Type: typ, Given: DescribeJSON(v), Reason: reason, Accepted: Shapes(typ)}
}

// FromJSON converts a decoded JSON value (what encoding/json gives for an
// any: nil, bool, float64 or json.Number, string, []any, map[string]any)
// into the Variant of type typ, the type name the class database uses
// ("int", "Vector2", "PackedStringArray", "enum::Node.ProcessMode",
// "typedarray::Vector2"). It takes every shape the addon takes, and more:
//
//   - vectors and quaternions as {"x":…,"y":…} or [x, y];
//   - Color as "#rrggbb", "#rrggbbaa", "#rgb", "#rgba" (the # optional), a
//     Godot colour name ("red", "cornflower_blue"), {"r","g","b"[,"a"]} or
//     [r, g, b(, a)];
//   - Rect2 as {"position":…,"size":…}, {"x","y","width","height"} or
//     [x, y, w, h]; AABB likewise in 3D;
//   - Plane as {"normal":…,"d":…}, {"x","y","z","d"} or [a, b, c, d];
//   - Transform2D as {"x":…,"y":…,"origin":…} or its 6 numbers, Basis as
//     {"x":…,"y":…,"z":…} (the axes) or 9 numbers, Transform3D as
//     {"basis":…,"origin":…} or 12 numbers (the numbers in the order the
//     text form writes them);
//   - packed and typed arrays as lists of their elements;
//   - any type as its Godot text ("Vector2(1, 2)", "Transform2D(…)"), and
//     the types ToJSON gives as str() text as that text ("[X: (1, 0), Y:
//     (0, 1), O: (5, 6)]"), so a value read can be passed back;
//   - enums and bitfields as integers (names need the class database:
//     classdb's DB.Coerce).
//
// A value that does not fit is a *ValueError, never a truncation: a list
// of three numbers is not a Vector2. An empty typ (a setting or property
// the database does not know) keeps the JSON type: whole numbers become
// int, others float, objects Dictionary, lists Array.
func FromJSON(v any, typ string) (Value, error) {
	if n, ok := v.(json.Number); ok {
		f, err := n.Float64()
		if err != nil {
			return nil, refuse(v, typ, "not a number")
		}
		v = f
	}
	if strings.HasPrefix(typ, "enum::") || strings.HasPrefix(typ, "bitfield::") {
		if f, ok := v.(float64); ok {
			if f != math.Trunc(f) || math.Abs(f) >= 1<<63 {
				return nil, refuse(v, typ, "not a whole number")
			}
			return Int(int64(f)), nil
		}
		return nil, refuse(v, typ, "")
	}
	if elem, ok := strings.CutPrefix(typ, "typedarray::"); ok {
		return typedArray(v, elem)
	}
	if kv, ok := strings.CutPrefix(typ, "typeddictionary::"); ok {
		return typedDictionary(v, typ, kv)
	}
	if s, ok := v.(string); ok && typ != "String" && typ != "StringName" && typ != "NodePath" && typ != "" {
		if val, ok, err := fromText(s, typ); ok {
			return val, err
		}
		if j, ok := JSONText(s); ok {
			return FromJSON(j, typ)
		}
	}
	switch typ {
	case "", "Variant":
		return inferJSON(v)
	case "bool":
		switch x := v.(type) {
		case bool:
			return Bool(x), nil
		case float64:
			return Bool(x != 0), nil // bool(v) in the addon
		}
	case "int":
		switch x := v.(type) {
		case float64:
			if x != math.Trunc(x) || math.Abs(x) >= 1<<63 {
				return nil, refuse(v, typ, "not a whole number")
			}
			return Int(int64(x)), nil
		case bool:
			if x {
				return Int(1), nil
			}
			return Int(0), nil
		}
	case "float":
		if x, ok := v.(float64); ok {
			return Float(x), nil
		}
	case "String", "StringName", "NodePath":
		s, ok := scalarText(v)
		if !ok {
			break
		}
		switch typ {
		case "StringName":
			return StringName(s), nil
		case "NodePath":
			return NodePath(s), nil
		}
		return String(s), nil
	case "Vector2", "Vector2i", "Vector3", "Vector3i", "Vector4", "Vector4i", "Quaternion":
		keys := []string{"x", "y", "z", "w"}
		if typ != "Quaternion" {
			keys = keys[:typ[6]-'0']
		}
		c, err := numbers(v, typ, keys, nil)
		if err != nil {
			return nil, err
		}
		return vectorOf(v, typ, c)
	case "Color":
		c, err := numbers(v, typ, []string{"r", "g", "b", "a"}, map[string]float64{"a": 1})
		if err != nil {
			return nil, err
		}
		return Color{c[0], c[1], c[2], c[3]}, nil
	case "Rect2", "Rect2i":
		c, err := boxNumbers(v, typ, 2)
		if err != nil {
			return nil, err
		}
		if typ == "Rect2" {
			return Rect2{Vector2{c[0], c[1]}, Vector2{c[2], c[3]}}, nil
		}
		if err := wholeInt32(v, typ, c); err != nil {
			return nil, err
		}
		return Rect2i{Vector2i{int32(c[0]), int32(c[1])}, Vector2i{int32(c[2]), int32(c[3])}}, nil
	case "AABB":
		c, err := boxNumbers(v, typ, 3)
		if err != nil {
			return nil, err
		}
		return AABB{Vector3{c[0], c[1], c[2]}, Vector3{c[3], c[4], c[5]}}, nil
	case "Plane":
		if m, ok := v.(map[string]any); ok && m["normal"] != nil {
			c, err := nested(v, typ, []string{"normal", "d"}, []string{"Vector3", "float"})
			if err != nil {
				return nil, err
			}
			return Plane{Normal: c[0].(Vector3), D: float64(c[1].(Float))}, nil
		}
		c, err := numbers(v, typ, []string{"x", "y", "z", "d"}, nil)
		if err != nil {
			return nil, err
		}
		return Plane{Normal: Vector3{c[0], c[1], c[2]}, D: c[3]}, nil
	case "Transform2D":
		if _, ok := v.(map[string]any); ok {
			c, err := nested(v, typ, []string{"x", "y", "origin"}, []string{"Vector2", "Vector2", "Vector2"})
			if err != nil {
				return nil, err
			}
			return Transform2D{c[0].(Vector2), c[1].(Vector2), c[2].(Vector2)}, nil
		}
		c, err := flat(v, typ, 6)
		if err != nil {
			return nil, err
		}
		return Transform2D{Vector2{c[0], c[1]}, Vector2{c[2], c[3]}, Vector2{c[4], c[5]}}, nil
	case "Basis":
		if _, ok := v.(map[string]any); ok {
			c, err := nested(v, typ, []string{"x", "y", "z"}, []string{"Vector3", "Vector3", "Vector3"})
			if err != nil {
				return nil, err
			}
			return basisOfAxes(c[0].(Vector3), c[1].(Vector3), c[2].(Vector3)), nil
		}
		c, err := flat(v, typ, 9)
		if err != nil {
			return nil, err
		}
		return Basis{[3]Vector3{{c[0], c[1], c[2]}, {c[3], c[4], c[5]}, {c[6], c[7], c[8]}}}, nil
	case "Transform3D":
		if m, ok := v.(map[string]any); ok {
			if _, hasBasis := m["basis"]; !hasBasis {
				c, err := nested(v, typ, []string{"x", "y", "z", "origin"}, []string{"Vector3", "Vector3", "Vector3", "Vector3"})
				if err != nil {
					return nil, err
				}
				return Transform3D{basisOfAxes(c[0].(Vector3), c[1].(Vector3), c[2].(Vector3)), c[3].(Vector3)}, nil
			}
			c, err := nested(v, typ, []string{"basis", "origin"}, []string{"Basis", "Vector3"})
			if err != nil {
				return nil, err
			}
			return Transform3D{c[0].(Basis), c[1].(Vector3)}, nil
		}
		c, err := flat(v, typ, 12)
		if err != nil {
			return nil, err
		}
		return Transform3D{Basis{[3]Vector3{{c[0], c[1], c[2]}, {c[3], c[4], c[5]}, {c[6], c[7], c[8]}}}, Vector3{c[9], c[10], c[11]}}, nil
	case "PackedStringArray":
		items, err := list(v, typ)
		if err != nil {
			return nil, err
		}
		out := make(PackedStringArray, len(items))
		for i, it := range items {
			s, ok := scalarText(it)
			if !ok {
				return nil, elemErr(v, typ, i, it, "String")
			}
			out[i] = s
		}
		return out, nil
	case "PackedByteArray", "PackedInt32Array", "PackedInt64Array", "PackedFloat32Array", "PackedFloat64Array":
		items, err := list(v, typ)
		if err != nil {
			return nil, err
		}
		nums := make([]float64, len(items))
		for i, it := range items {
			f, ok := it.(float64)
			if n, isNum := it.(json.Number); isNum {
				f, ok = numberOf(n)
			}
			if !ok {
				return nil, elemErr(v, typ, i, it, "number")
			}
			if lo, hi, isInt := packedRange(typ); isInt && (f != math.Trunc(f) || f < lo || f > hi) {
				return nil, refuse(v, typ, fmt.Sprintf("element %d, %s, is not a whole number from %.0f to %.0f", i, DescribeJSON(it), lo, hi))
			}
			nums[i] = f
		}
		return PackedNumbers(typ, nums), nil
	case "PackedVector2Array", "PackedVector3Array", "PackedVector4Array", "PackedColorArray":
		elem := strings.TrimSuffix(strings.TrimPrefix(typ, "Packed"), "Array")
		items, err := list(v, typ)
		if err != nil {
			return nil, err
		}
		vals := make([]Value, len(items))
		for i, it := range items {
			e, err := FromJSON(it, elem)
			if err != nil {
				return nil, elemErr(v, typ, i, it, elem)
			}
			vals[i] = e
		}
		return packedOf(typ, vals), nil
	case "Array":
		if _, ok := v.([]any); ok {
			return inferJSON(v)
		}
	case "Dictionary":
		if _, ok := v.(map[string]any); ok {
			return inferJSON(v)
		}
	default:
		// An object type (a resource, a node): only null is a value here;
		// paths need the caller (classdb's DB.Coerce takes them).
		if v == nil {
			return Nil{}, nil
		}
	}
	return nil, refuse(v, typ, "")
}

// fromText reads a string in a type's text form. ok is false when the
// string is not one (the caller then tries the JSON shapes).
func fromText(s, typ string) (Value, bool, error) {
	t := strings.TrimSpace(s)
	switch typ {
	case "Color":
		if !strings.Contains(t, "(") && !strings.HasPrefix(t, "[") && !strings.HasPrefix(t, "{") {
			c, err := htmlColor(t)
			if err != nil {
				return nil, true, refuse(s, typ, err.Error())
			}
			return c, true, nil
		}
	case "int", "float", "bool":
		// "42", "1.5", "true": accepted, as Godot's str_to_var reads them.
		pv, err := ParseValue([]byte(t))
		if err != nil {
			return nil, true, refuse(s, typ, "")
		}
		switch x := pv.(type) {
		case Int:
			if typ == "bool" {
				return nil, true, refuse(s, typ, "")
			}
			if typ == "float" {
				return Float(x), true, nil
			}
			return x, true, nil
		case Float:
			if typ == "float" {
				return x, true, nil
			}
			if typ == "int" && float64(x) == math.Trunc(float64(x)) && math.Abs(float64(x)) < 1<<63 {
				return Int(int64(x)), true, nil
			}
		case Bool:
			if typ == "bool" {
				return x, true, nil
			}
		}
		return nil, true, refuse(s, typ, "")
	}
	if v, ok, err := fromStr(t, typ); ok {
		return v, true, err
	}
	head := typ
	if elem, ok := strings.CutPrefix(typ, "typedarray::"); ok {
		head = "Array[" + elem + "]"
	}
	if !strings.HasPrefix(t, head+"(") && !(typ == "Array" && strings.HasPrefix(t, "[")) && !(typ == "Dictionary" && strings.HasPrefix(t, "{")) {
		if looksLikeLiteral(t) {
			pv, err := ParseValue([]byte(t))
			if err == nil && !fits(pv, typ) {
				return nil, true, refuse(s, typ, "it is a "+pv.Kind().String())
			}
		}
		return nil, false, nil
	}
	pv, err := ParseValue([]byte(t))
	if err != nil {
		return nil, true, refuse(s, typ, "not valid Godot text: "+err.Error())
	}
	if !fits(pv, typ) {
		return nil, true, refuse(s, typ, "it is a "+pv.Kind().String())
	}
	return pv, true, nil
}

// JSONText decodes s when it is the JSON text of a list or an object
// ("[16, 32]", `{"x": 1, "y": 2}`): a client that must send a value
// argument as a string (its schema type) sends lists and objects so.
// Numbers stay float64, as in decoded arguments. Only lists and objects
// are decoded: "42", "true" and quoted text are Godot text already, and a
// String target keeps whatever text it is given.
func JSONText(s string) (any, bool) {
	t := strings.TrimSpace(s)
	if t == "" || (t[0] != '[' && t[0] != '{') || !json.Valid([]byte(t)) {
		return nil, false
	}
	var v any
	if json.Unmarshal([]byte(t), &v) != nil {
		return nil, false
	}
	return v, true
}

// looksLikeLiteral reports whether s starts like a Godot constructor,
// "Vector3(".
func looksLikeLiteral(s string) bool {
	i := strings.IndexByte(s, '(')
	if i <= 0 {
		return false
	}
	for j, r := range s[:i] {
		if !(r >= 'A' && r <= 'Z' || j > 0 && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9')) {
			return false
		}
	}
	return true
}

func fits(v Value, typ string) bool {
	k := v.Kind().String()
	return k == typ || typ == "Array" && k == "Array" || strings.HasPrefix(typ, "typedarray::") && k == "Array"
}

// scalarText is str(v) of a JSON scalar, as the addon makes String,
// StringName and NodePath values.
func scalarText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return strconv.FormatInt(int64(x), 10), true
		}
		return strconv.FormatFloat(x, 'g', -1, 64), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}

func numberOf(n json.Number) (float64, bool) {
	f, err := n.Float64()
	return f, err == nil
}

// numbers reads the components keys from {"k":…} or a list of exactly
// len(keys) numbers; opt gives the components that may be left out (a
// colour's alpha) and their default. Anything else is refused.
func numbers(v any, typ string, keys []string, opt map[string]float64) ([]float64, error) {
	out := make([]float64, len(keys))
	switch x := v.(type) {
	case map[string]any:
		for k := range x {
			if !slices.Contains(keys, k) {
				return nil, refuse(v, typ, fmt.Sprintf("it has %q; a %s has %s", k, typ, strings.Join(keys, ", ")))
			}
		}
		for i, k := range keys {
			raw, present := x[k]
			if !present {
				d, optional := opt[k]
				if !optional {
					return nil, refuse(v, typ, "it has no "+k)
				}
				out[i] = d
				continue
			}
			f, ok := raw.(float64)
			if n, isNum := raw.(json.Number); isNum {
				f, ok = numberOf(n)
			}
			if !ok {
				return nil, refuse(v, typ, fmt.Sprintf("%s is %s, not a number", k, DescribeJSON(raw)))
			}
			out[i] = f
		}
	case []any:
		need := len(keys) - len(opt)
		if len(x) < need || len(x) > len(keys) {
			want := strconv.Itoa(len(keys))
			if need != len(keys) {
				want = fmt.Sprintf("%d or %d", need, len(keys))
			}
			return nil, refuse(v, typ, fmt.Sprintf("%d numbers; a %s has %s", len(x), typ, want))
		}
		for i, k := range keys {
			if i >= len(x) {
				out[i] = opt[k]
				continue
			}
			f, ok := x[i].(float64)
			if n, isNum := x[i].(json.Number); isNum {
				f, ok = numberOf(n)
			}
			if !ok {
				return nil, refuse(v, typ, fmt.Sprintf("element %d is %s, not a number", i, DescribeJSON(x[i])))
			}
			out[i] = f
		}
	default:
		return nil, refuse(v, typ, "")
	}
	return out, nil
}

// flat reads exactly n numbers from a list.
func flat(v any, typ string, n int) ([]float64, error) {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = strconv.Itoa(i)
	}
	if _, ok := v.([]any); !ok {
		return nil, refuse(v, typ, "")
	}
	return numbers(v, typ, keys, nil)
}

// nested reads an object whose keys hold values of types.
func nested(v any, typ string, keys, types []string) ([]Value, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, refuse(v, typ, "")
	}
	for k := range m {
		if !slices.Contains(keys, k) {
			return nil, refuse(v, typ, fmt.Sprintf("it has %q; it takes %s", k, strings.Join(keys, ", ")))
		}
	}
	out := make([]Value, len(keys))
	for i, k := range keys {
		raw, present := m[k]
		if !present {
			return nil, refuse(v, typ, "it has no "+k)
		}
		e, err := FromJSON(raw, types[i])
		if err != nil {
			return nil, refuse(v, typ, fmt.Sprintf("%s: %s is not a %s", k, DescribeJSON(raw), types[i]))
		}
		out[i] = e
	}
	return out, nil
}

// boxNumbers reads a Rect2 (dim 2) or AABB (dim 3) as position then size.
func boxNumbers(v any, typ string, dim int) ([]float64, error) {
	if m, ok := v.(map[string]any); ok {
		_, hasPos := m["position"]
		if _, hasSize := m["size"]; hasPos || hasSize {
			vt := "Vector2"
			if dim == 3 {
				vt = "Vector3"
			}
			c, err := nested(v, typ, []string{"position", "size"}, []string{vt, vt})
			if err != nil {
				return nil, err
			}
			out := append(components(c[0]), components(c[1])...)
			return out, nil
		}
		keys := []string{"x", "y", "width", "height"}
		if dim == 3 {
			keys = []string{"x", "y", "z", "width", "height", "depth"}
		}
		return numbers(v, typ, keys, nil)
	}
	if _, ok := v.([]any); ok {
		return flat(v, typ, 2*dim)
	}
	return nil, refuse(v, typ, "")
}

func components(v Value) []float64 {
	switch x := v.(type) {
	case Vector2:
		return []float64{x.X, x.Y}
	case Vector3:
		return []float64{x.X, x.Y, x.Z}
	}
	return nil
}

// basisOfAxes builds a Basis from its axes (columns), as basis.x, basis.y
// and basis.z read in GDScript.
func basisOfAxes(x, y, z Vector3) Basis {
	return Basis{[3]Vector3{{x.X, y.X, z.X}, {x.Y, y.Y, z.Y}, {x.Z, y.Z, z.Z}}}
}

func list(v any, typ string) ([]any, error) {
	items, ok := v.([]any)
	if !ok {
		return nil, refuse(v, typ, "")
	}
	return items, nil
}

func elemErr(v any, typ string, i int, it any, elem string) error {
	return refuse(v, typ, fmt.Sprintf("element %d, %s, is not a %s", i, DescribeJSON(it), elem))
}

func packedRange(typ string) (lo, hi float64, isInt bool) {
	switch typ {
	case "PackedByteArray":
		return 0, 255, true
	case "PackedInt32Array":
		return math.MinInt32, math.MaxInt32, true
	case "PackedInt64Array":
		return -(1 << 63), 1<<63 - 1, true
	}
	return 0, 0, false
}

func packedOf(typ string, vals []Value) Value {
	switch typ {
	case "PackedVector2Array":
		out := make(PackedVector2Array, len(vals))
		for i, v := range vals {
			out[i] = v.(Vector2)
		}
		return out
	case "PackedVector3Array":
		out := make(PackedVector3Array, len(vals))
		for i, v := range vals {
			out[i] = v.(Vector3)
		}
		return out
	case "PackedVector4Array":
		out := make(PackedVector4Array, len(vals))
		for i, v := range vals {
			out[i] = v.(Vector4)
		}
		return out
	}
	out := make(PackedColorArray, len(vals))
	for i, v := range vals {
		out[i] = v.(Color)
	}
	return out
}

// typedArray reads a list whose elements are of elem, an Array[elem]. A
// class element type (Array[Node], Array[Texture2D]) cannot be built from
// JSON here: objects are not values of a file.
func typedArray(v any, elem string) (Value, error) {
	typ := "typedarray::" + elem
	if s, ok := v.(string); ok {
		if t := strings.TrimSpace(s); strings.HasPrefix(t, "[") || strings.HasPrefix(t, "Array[") {
			return typedArrayText(s, elem)
		}
		if val, ok, err := fromText(s, typ); ok {
			return val, err
		}
	}
	items, err := list(v, typ)
	if err != nil {
		return nil, err
	}
	if !typeName(elem) {
		return nil, refuse(v, typ, "")
	}
	if !IsBuiltinType(elem) {
		if len(items) == 0 {
			return Array{Type: &TypeRef{Name: elem}, Items: []Value{}}, nil
		}
		return nil, refuse(v, typ, "arrays of "+elem+" objects cannot be built from JSON")
	}
	out := Array{Type: &TypeRef{Name: elem}, Items: make([]Value, len(items))}
	for i, it := range items {
		e, err := FromJSON(it, elem)
		if err != nil {
			return nil, elemErr(v, typ, i, it, elem)
		}
		out.Items[i] = e
	}
	return out, nil
}

// typedArrayText reads the Godot text of an Array[elem]: the editor's
// Array[elem]([...]) or a plain [...] list, whose elements must each be an
// elem (an int is taken for a float, as the engine converts it); a typed
// array of another element type is refused rather than retyped.
func typedArrayText(s, elem string) (Value, error) {
	typ := "typedarray::" + elem
	pv, err := ParseValue([]byte(strings.TrimSpace(s)))
	if err != nil {
		return nil, refuse(s, typ, "not valid Godot text: "+err.Error())
	}
	a, ok := pv.(Array)
	if !ok {
		return nil, refuse(s, typ, "it is a "+pv.Kind().String())
	}
	if a.Type != nil && a.Type.Name != elem {
		return nil, refuse(s, typ, "it is an Array["+a.Type.Name+"]")
	}
	out := Array{Type: &TypeRef{Name: elem}, Items: make([]Value, len(a.Items))}
	for i, it := range a.Items {
		if x, isInt := it.(Int); isInt && elem == "float" {
			it = Float(x)
		}
		if IsBuiltinType(elem) && it.Kind().String() != elem {
			return nil, refuse(s, typ, fmt.Sprintf("element %d is a %s", i, it.Kind()))
		}
		out.Items[i] = it
	}
	return out, nil
}

// typedDictionary reads an object as a Dictionary[K, V] (kv is "K;V"):
// each key read as a K from its text, each value as a V.
func typedDictionary(v any, typ, kv string) (Value, error) {
	k, val, _ := strings.Cut(kv, ";")
	m, ok := v.(map[string]any)
	if !ok || !typeName(k) || !typeName(val) {
		return nil, refuse(v, typ, "")
	}
	keys := make([]string, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	out := Dictionary{KeyType: &TypeRef{Name: k}, ValueType: &TypeRef{Name: val}}
	for _, key := range keys {
		kt, vt := k, val
		if !IsBuiltinType(kt) {
			kt = ""
		}
		if !IsBuiltinType(vt) {
			vt = ""
		}
		kv, err := FromJSON(key, kt)
		if err != nil {
			return nil, refuse(v, typ, fmt.Sprintf("key %q is not a %s", key, k))
		}
		vv, err := FromJSON(m[key], vt)
		if err != nil {
			return nil, refuse(v, typ, fmt.Sprintf("the value of %q is not a %s", key, val))
		}
		out.Entries = append(out.Entries, DictEntry{Key: kv, Value: vv})
	}
	return out, nil
}

// typeName reports whether s can name a type in Array[T] text.
func typeName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// IsBuiltinType reports whether name is a Variant type (not a class).
func IsBuiltinType(name string) bool {
	switch name {
	case "bool", "int", "float", "String", "StringName", "NodePath", "Vector2", "Vector2i", "Vector3", "Vector3i",
		"Vector4", "Vector4i", "Rect2", "Rect2i", "Transform2D", "Transform3D", "Plane", "Quaternion", "AABB",
		"Basis", "Projection", "Color", "RID", "Callable", "Signal", "Array", "Dictionary", "Variant",
		"PackedByteArray", "PackedInt32Array", "PackedInt64Array", "PackedFloat32Array", "PackedFloat64Array",
		"PackedStringArray", "PackedVector2Array", "PackedVector3Array", "PackedVector4Array", "PackedColorArray":
		return true
	}
	return false
}

// PackedNumbers builds the numeric packed array typ ("PackedInt32Array",
// "PackedInt64Array", "PackedFloat32Array", "PackedByteArray"; anything
// else gives a PackedFloat64Array) from nums, converting each number to
// the element type as Go's conversions do (FromJSON checks the range
// first).
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

func wholeInt32(v any, typ string, c []float64) error {
	for _, x := range c {
		if x != math.Trunc(x) || math.Abs(x) > math.MaxInt32 {
			return refuse(v, typ, fmt.Sprintf("%s takes whole numbers, got %v", typ, x))
		}
	}
	return nil
}

func vectorOf(v any, typ string, c []float64) (Value, error) {
	if strings.HasSuffix(typ, "i") {
		if err := wholeInt32(v, typ, c); err != nil {
			return nil, err
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
	case "Quaternion":
		return Quaternion{c[0], c[1], c[2], c[3]}, nil
	}
	return Vector4i{i(0), i(1), i(2), i(3)}, nil
}

// htmlColor reads "#rgb", "#rgba", "#rrggbb", "#rrggbbaa" (the # optional)
// or a colour name, as Color.from_string does.
func htmlColor(s string) (Color, error) {
	if c, ok := NamedColor(s); ok {
		return c, nil
	}
	return hexColor(strings.TrimPrefix(s, "#"))
}

func hexColor(h string) (Color, error) {
	if len(h) == 3 || len(h) == 4 {
		var b strings.Builder
		for i := 0; i < len(h); i++ {
			b.WriteByte(h[i])
			b.WriteByte(h[i])
		}
		h = b.String()
	}
	if len(h) != 6 && len(h) != 8 {
		return Color{}, fmt.Errorf("not a colour name or hex code")
	}
	var c [4]float64
	c[3] = 1
	for i := 0; i < len(h)/2; i++ {
		n, err := strconv.ParseUint(h[2*i:2*i+2], 16, 8)
		if err != nil {
			return Color{}, fmt.Errorf("not a colour name or hex code")
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
		if i, err := x.Int64(); err == nil {
			return Int(i), nil
		}
		if f, err := x.Float64(); err == nil {
			return inferJSON(f)
		}
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
		slices.Sort(keys)
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
	return nil, &ValueError{Type: "JSON value", Given: fmt.Sprintf("%T", v), Reason: "not a JSON type"}
}

// DescribeJSON is a JSON value as an error message shows it: its JSON
// text, shortened.
func DescribeJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%T", v)
	}
	s := string(b)
	if r := []rune(s); len(r) > 60 {
		s = string(r[:60]) + "…"
	}
	return s
}

// Shapes says which JSON shapes FromJSON takes for typ, for hints.
func Shapes(typ string) string {
	switch typ {
	case "bool":
		return "true or false"
	case "int":
		return "a whole number"
	case "float":
		return "a number"
	case "String", "StringName", "NodePath":
		return "a string"
	case "Vector2", "Vector2i":
		return `{"x":…,"y":…}, [x, y] or "` + typ + `(x, y)"`
	case "Vector3", "Vector3i":
		return `{"x":…,"y":…,"z":…}, [x, y, z] or "` + typ + `(x, y, z)"`
	case "Vector4", "Vector4i", "Quaternion":
		return `{"x":…,"y":…,"z":…,"w":…}, [x, y, z, w] or "` + typ + `(x, y, z, w)"`
	case "Color":
		return `"#rrggbb", "#rrggbbaa", "#rgb", a colour name ("red", "cornflower_blue"), {"r":…,"g":…,"b":…,"a":…} or [r, g, b(, a)] with components 0..1`
	case "Rect2", "Rect2i":
		return `{"position":{"x","y"},"size":{"x","y"}}, {"x","y","width","height"}, [x, y, width, height] or "` + typ + `(x, y, w, h)"`
	case "AABB":
		return `{"position":{"x","y","z"},"size":{"x","y","z"}}, {"x","y","z","width","height","depth"}, [x, y, z, w, h, d] or "AABB(…)"`
	case "Plane":
		return `{"normal":{"x","y","z"},"d":…}, {"x","y","z","d"}, [a, b, c, d] or "Plane(a, b, c, d)"`
	case "Transform2D":
		return `{"x":{…},"y":{…},"origin":{…}}, its 6 numbers [xx, xy, yx, yy, ox, oy] or "Transform2D(…)"`
	case "Basis":
		return `{"x":{…},"y":{…},"z":{…}} (the axes), its 9 numbers or "Basis(…)"`
	case "Transform3D":
		return `{"basis":{"x","y","z"},"origin":{…}}, {"x","y","z","origin"}, its 12 numbers or "Transform3D(…)"`
	case "PackedStringArray":
		return "a list of strings"
	case "PackedByteArray":
		return "a list of whole numbers 0..255"
	case "PackedInt32Array", "PackedInt64Array":
		return "a list of whole numbers"
	case "PackedFloat32Array", "PackedFloat64Array":
		return "a list of numbers"
	case "PackedVector2Array", "PackedVector3Array", "PackedVector4Array", "PackedColorArray":
		e := strings.TrimSuffix(strings.TrimPrefix(typ, "Packed"), "Array")
		return "a list of " + e + " values, each " + Shapes(e)
	case "Array":
		return "a list"
	case "Dictionary":
		return "an object"
	}
	if e, ok := strings.CutPrefix(typ, "typedarray::"); ok {
		return "a list of " + e + " values"
	}
	if strings.HasPrefix(typ, "enum::") || strings.HasPrefix(typ, "bitfield::") {
		return "the constant's integer value or its name"
	}
	if IsBuiltinType(typ) {
		return "its text form, e.g. \"" + typ + "(…)\""
	}
	return `a "res://" or "uid://" path of a ` + typ + ", or null"
}
