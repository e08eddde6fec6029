package godot

import (
	"strconv"
	"strings"
)

// ToJSON converts a Value to plain JSON data the way the addon's to_json
// returns a live property value (ADDON-PROTOCOL §4.1), so a value reads the
// same in both modes:
//
//   - vectors are {x,y[,z[,w]]} (integer vectors with integer components),
//     colours {r,g,b,a}, rects {position,size};
//   - NodePath and StringName are strings;
//   - arrays and the numeric and string packed arrays are lists (a
//     float32 element with its shortest float32 digits, as Godot prints
//     it), dictionaries objects with str()-ed keys;
//   - an inline object is its class name;
//   - the types the addon does not convert (Transform2D, Basis, Plane,
//     packed vector and colour arrays, ...) are the text Godot's str()
//     prints, which is what the addon's JSON.stringify falls back to.
//
// Resource references cannot be resolved without their file: use
// [ToJSONIn] for values read from a scene or resource.
func ToJSON(v Value) any { return toJSON(v, nil, "") }

// ToJSONIn is [ToJSON] for a value read from file f, whose res:// path is
// path ("" for f.Name()): an ext_resource reference is its path (null when
// the file does not declare it, as a dangling reference loads), a
// sub-resource "<path>::<id>", as a loaded resource's resource_path reads.
func ToJSONIn(v Value, f *File, path string) any {
	if path == "" && f != nil {
		path = f.Name()
	}
	return toJSON(v, f, path)
}

func toJSON(v Value, f *File, path string) any {
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
		return map[string]any{"x": int64(x.X), "y": int64(x.Y)}
	case Vector3:
		return map[string]any{"x": x.X, "y": x.Y, "z": x.Z}
	case Vector3i:
		return map[string]any{"x": int64(x.X), "y": int64(x.Y), "z": int64(x.Z)}
	case Vector4:
		return map[string]any{"x": x.X, "y": x.Y, "z": x.Z, "w": x.W}
	case Vector4i:
		return map[string]any{"x": int64(x.X), "y": int64(x.Y), "z": int64(x.Z), "w": int64(x.W)}
	case Color:
		return map[string]any{"r": x.R, "g": x.G, "b": x.B, "a": x.A}
	case Rect2:
		return map[string]any{"position": toJSON(x.Position, f, path), "size": toJSON(x.Size, f, path)}
	case Rect2i:
		return map[string]any{"position": toJSON(x.Position, f, path), "size": toJSON(x.Size, f, path)}
	case PackedStringArray:
		return append([]string{}, x...)
	case PackedInt32Array:
		return append([]int32{}, x...)
	case PackedInt64Array:
		return append([]int64{}, x...)
	case PackedFloat32Array:
		out := make([]float64, len(x))
		for i, e := range x {
			out[i] = float32Digits(e)
		}
		return out
	case PackedFloat64Array:
		return append([]float64{}, x...)
	case Array:
		out := make([]any, len(x.Items))
		for i, it := range x.Items {
			out[i] = toJSON(it, f, path)
		}
		return out
	case Dictionary:
		out := make(map[string]any, len(x.Entries))
		for _, e := range x.Entries {
			out[keyStr(e.Key)] = toJSON(e.Value, f, path)
		}
		return out
	case ExtResource:
		if f == nil {
			return FormatValue(v)
		}
		if d := f.ExtResource(x.ID); d != nil {
			return d.Path()
		}
		return nil
	case SubResource:
		if f == nil {
			return FormatValue(v)
		}
		return path + "::" + x.ID
	case ResourceRef:
		return x.Path
	case Object:
		return x.Class
	}
	return Str(v)
}

// float32Digits is a float32 as the float64 of its shortest text (0.1f is
// 0.1, not 0.10000000149).
func float32Digits(f float32) float64 {
	g, _ := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
	return g
}

// keyStr is str() of a dictionary key.
func keyStr(k Value) string {
	switch x := k.(type) {
	case String:
		return string(x)
	case StringName:
		return string(x)
	case NodePath:
		return string(x)
	}
	return Str(k)
}

// Str approximates Godot 4's str() of a value: "(1, 2)" for a Vector2,
// "[X: (1, 0), Y: (0, 1), O: (0, 0)]" for a Transform2D. Types without a
// short str() form fall back to the file syntax, which names the type and
// its numbers.
func Str(v Value) string {
	switch x := v.(type) {
	case Nil:
		return "<null>"
	case Int:
		return strconv.FormatInt(int64(x), 10)
	case Float:
		return strNum(float64(x))
	case Bool:
		return strconv.FormatBool(bool(x))
	case String:
		return string(x)
	case StringName:
		return string(x)
	case NodePath:
		return string(x)
	case Vector2:
		return strVec(x.X, x.Y)
	case Vector2i:
		return strVec(float64(x.X), float64(x.Y))
	case Vector3:
		return strVec(x.X, x.Y, x.Z)
	case Vector3i:
		return strVec(float64(x.X), float64(x.Y), float64(x.Z))
	case Vector4:
		return strVec(x.X, x.Y, x.Z, x.W)
	case Vector4i:
		return strVec(float64(x.X), float64(x.Y), float64(x.Z), float64(x.W))
	case Color:
		return strVec(x.R, x.G, x.B, x.A)
	case Quaternion:
		return strVec(x.X, x.Y, x.Z, x.W)
	case Rect2:
		return "[P: " + Str(x.Position) + ", S: " + Str(x.Size) + "]"
	case Rect2i:
		return "[P: " + Str(x.Position) + ", S: " + Str(x.Size) + "]"
	case Transform2D:
		return "[X: " + Str(x.X) + ", Y: " + Str(x.Y) + ", O: " + Str(x.Origin) + "]"
	case Basis:
		return strBasis(x)
	case Transform3D:
		s := strBasis(x.Basis)
		return s[:len(s)-1] + ", O: " + Str(x.Origin) + "]"
	case Plane:
		return "[N: " + Str(x.Normal) + ", D: " + strNum(x.D) + "]"
	case AABB:
		return "[P: " + Str(x.Position) + ", S: " + Str(x.Size) + "]"
	case PackedVector2Array:
		return strList(x, func(e Vector2) string { return Str(e) })
	case PackedVector3Array:
		return strList(x, func(e Vector3) string { return Str(e) })
	case PackedVector4Array:
		return strList(x, func(e Vector4) string { return Str(e) })
	case PackedColorArray:
		return strList(x, func(e Color) string { return Str(e) })
	case PackedByteArray:
		return strList(x.Data, func(e byte) string { return strconv.Itoa(int(e)) })
	}
	return FormatValue(v)
}

func strList[T any](xs []T, str func(T) string) string {
	parts := make([]string, len(xs))
	for i, e := range xs {
		parts[i] = str(e)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func strBasis(x Basis) string {
	// str(Basis) prints the columns (the axes); the file stores rows.
	r := x.Rows
	return "[X: " + strVec(r[0].X, r[1].X, r[2].X) + ", Y: " + strVec(r[0].Y, r[1].Y, r[2].Y) + ", Z: " + strVec(r[0].Z, r[1].Z, r[2].Z) + "]"
}

func strVec(c ...float64) string {
	parts := make([]string, len(c))
	for i, f := range c {
		parts[i] = strNum(f)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func strNum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
