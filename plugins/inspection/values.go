package main

import (
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// toJSON encodes a Variant read from a scene file the way the godot-mcp
// addon encodes a live property value (ADDON-PROTOCOL §4.1, type_coerce.gd
// to_json), so a value reads the same in both modes:
//
//   - vectors are {x,y[,z[,w]]}, colours {r,g,b,a}, rects {position,size};
//   - NodePath and StringName are strings;
//   - arrays and the numeric and string packed arrays are JSON arrays,
//     dictionaries are objects with str()-ed keys;
//   - a resource is its path (res://x.tres, or res://scene.tscn::id for a
//     sub-resource of the scene), an inline object its class name;
//   - the types the addon does not convert (Transform2D, Basis, packed
//     vector and colour arrays, ...) are the text Godot's str() prints,
//     which is what JSON.stringify falls back to.
//
// file resolves ExtResource and SubResource references; it is the file that
// holds the value (an instanced scene's own file for its nodes).
func toJSON(v godot.Value, file *godot.File, filePath string) any {
	switch x := v.(type) {
	case nil, godot.Nil, godot.Bool, godot.Int, godot.Float, godot.String, godot.StringName, godot.NodePath,
		godot.Vector2, godot.Vector3, godot.Vector4, godot.Color, godot.Rect2:
		// The same as godot.ToJSON; the cases below differ from it
		// (int64 components, float32 digits, copies, str()-ed keys,
		// resolved references, str() text).
		return godot.ToJSON(v)
	case godot.Vector2i:
		return map[string]any{"x": int64(x.X), "y": int64(x.Y)}
	case godot.Vector3i:
		return map[string]any{"x": int64(x.X), "y": int64(x.Y), "z": int64(x.Z)}
	case godot.Vector4i:
		return map[string]any{"x": int64(x.X), "y": int64(x.Y), "z": int64(x.Z), "w": int64(x.W)}
	case godot.Rect2i:
		return map[string]any{"position": toJSON(x.Position, file, filePath), "size": toJSON(x.Size, file, filePath)}
	case godot.Array:
		out := make([]any, len(x.Items))
		for i, it := range x.Items {
			out[i] = toJSON(it, file, filePath)
		}
		return out
	case godot.PackedStringArray:
		return append([]string{}, x...)
	case godot.PackedInt32Array:
		return append([]int32{}, x...)
	case godot.PackedInt64Array:
		return append([]int64{}, x...)
	case godot.PackedFloat32Array:
		out := make([]float64, len(x))
		for i, f := range x {
			// The shortest float32 text, as Godot prints it, not the
			// float64 widening (0.1f is 0.1, not 0.10000000149).
			out[i], _ = strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
		}
		return out
	case godot.PackedFloat64Array:
		return append([]float64{}, x...)
	case godot.Dictionary:
		out := make(map[string]any, len(x.Entries))
		for _, e := range x.Entries {
			out[keyString(e.Key)] = toJSON(e.Value, file, filePath)
		}
		return out
	case godot.ExtResource:
		if file != nil {
			if d := file.ExtResource(x.ID); d != nil {
				return d.Path()
			}
		}
		return nil // a dangling reference loads as null
	case godot.SubResource:
		// A loaded sub-resource's resource_path is "<file>::<id>".
		return filePath + "::" + x.ID
	case godot.ResourceRef:
		return x.Path
	case godot.Object:
		return x.Class
	}
	return godotStr(v)
}

// keyString is str() of a dictionary key.
func keyString(k godot.Value) string {
	switch x := k.(type) {
	case godot.String:
		return string(x)
	case godot.StringName:
		return string(x)
	case godot.NodePath:
		return string(x)
	}
	return godotStr(k)
}

// godotStr approximates Godot 4's str() of the types the addon leaves to
// JSON.stringify. Types without a short str() form fall back to the file
// syntax, which names the type and its numbers.
func godotStr(v godot.Value) string {
	switch x := v.(type) {
	case godot.Int:
		return strconv.FormatInt(int64(x), 10)
	case godot.Float:
		return num(float64(x))
	case godot.Bool:
		return strconv.FormatBool(bool(x))
	case godot.Vector2:
		return vec(x.X, x.Y)
	case godot.Vector2i:
		return vec(float64(x.X), float64(x.Y))
	case godot.Vector3:
		return vec(x.X, x.Y, x.Z)
	case godot.Vector3i:
		return vec(float64(x.X), float64(x.Y), float64(x.Z))
	case godot.Color:
		return vec(x.R, x.G, x.B, x.A)
	case godot.Quaternion:
		return vec(x.X, x.Y, x.Z, x.W)
	case godot.Transform2D:
		return "[X: " + vec(x.X.X, x.X.Y) + ", Y: " + vec(x.Y.X, x.Y.Y) + ", O: " + vec(x.Origin.X, x.Origin.Y) + "]"
	case godot.Basis:
		return basisStr(x)
	case godot.Transform3D:
		s := basisStr(x.Basis)
		return s[:len(s)-1] + ", O: " + vec(x.Origin.X, x.Origin.Y, x.Origin.Z) + "]"
	case godot.Plane:
		return "[N: " + vec(x.Normal.X, x.Normal.Y, x.Normal.Z) + ", D: " + num(x.D) + "]"
	case godot.AABB:
		return "[P: " + vec(x.Position.X, x.Position.Y, x.Position.Z) + ", S: " + vec(x.Size.X, x.Size.Y, x.Size.Z) + "]"
	case godot.PackedVector2Array:
		return strList(x, func(e godot.Vector2) string { return vec(e.X, e.Y) })
	case godot.PackedVector3Array:
		return strList(x, func(e godot.Vector3) string { return vec(e.X, e.Y, e.Z) })
	case godot.PackedColorArray:
		return strList(x, func(e godot.Color) string { return vec(e.R, e.G, e.B, e.A) })
	case godot.PackedByteArray:
		return strList(x.Data, func(e byte) string { return strconv.Itoa(int(e)) })
	}
	return godot.FormatValue(v)
}

// strList is str() of an array: its elements' str() in brackets.
func strList[T any](xs []T, str func(T) string) string {
	parts := make([]string, len(xs))
	for i, e := range xs {
		parts[i] = str(e)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func basisStr(x godot.Basis) string {
	// str(Basis) prints the columns (the axes), the file stores rows.
	r := x.Rows
	return "[X: " + vec(r[0].X, r[1].X, r[2].X) + ", Y: " + vec(r[0].Y, r[1].Y, r[2].Y) + ", Z: " + vec(r[0].Z, r[1].Z, r[2].Z) + "]"
}

func vec(c ...float64) string {
	parts := make([]string, len(c))
	for i, f := range c {
		parts[i] = num(f)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
