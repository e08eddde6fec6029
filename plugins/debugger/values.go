package main

import (
	"fmt"
	"strconv"
	"strings"
)

// toJSON turns a decoded value into the JSON shapes the godot-mcp addon
// answers with (ADDON-PROTOCOL §4.1): vectors as {x, y, …}, a Color as
// {r, g, b, a}, a Rect2 as {position, size}, names and paths as strings,
// containers element by element. An object is {"object_id": N} (the
// debugger sends objects by id); other math types are their Godot text.
func toJSON(v any) any {
	switch x := v.(type) {
	case nil, bool, int64, string:
		return x
	case float64:
		return x
	case StringName:
		return string(x)
	case NodePath:
		return string(x)
	case Math:
		return mathJSON(x)
	case Object:
		if x.Class != "" {
			return x.Class
		}
		return map[string]any{"object_id": x.ID}
	case RID:
		return fmt.Sprintf("RID(%d)", uint64(x))
	case Signal:
		return map[string]any{"signal": x.Name, "object_id": x.ID}
	case Callable:
		return "Callable()"
	case []any:
		out := make([]any, len(x))
		for i, it := range x {
			out[i] = toJSON(it)
		}
		return out
	case TypedArray:
		return toJSON(x.Items)
	case Packed:
		return toJSON(x.Items)
	case *Dict:
		out := make(map[string]any, len(x.Keys))
		for i, k := range x.Keys {
			out[keyString(k)] = toJSON(x.Values[i])
		}
		return out
	}
	return fmt.Sprint(v)
}

func keyString(k any) string {
	switch x := k.(type) {
	case string:
		return x
	case StringName:
		return string(x)
	case int64:
		return strconv.FormatInt(x, 10)
	}
	b := toJSON(k)
	if s, ok := b.(string); ok {
		return s
	}
	return fmt.Sprint(b)
}

func num(f float64) any {
	if f == float64(int64(f)) && f < 1e15 && f > -1e15 {
		return int64(f)
	}
	return f
}

func mathJSON(m Math) any {
	xyz := func(v []float64) map[string]any {
		out := map[string]any{}
		for i, n := range []string{"x", "y", "z", "w"}[:len(v)] {
			out[n] = num(v[i])
		}
		return out
	}
	switch m.Type {
	case "Vector2", "Vector2i", "Vector3", "Vector3i", "Vector4", "Vector4i":
		return xyz(m.V)
	case "Color":
		return map[string]any{"r": m.V[0], "g": m.V[1], "b": m.V[2], "a": m.V[3]}
	case "Rect2", "Rect2i":
		return map[string]any{"position": xyz(m.V[:2]), "size": xyz(m.V[2:])}
	}
	parts := make([]string, len(m.V))
	for i, f := range m.V {
		parts[i] = strconv.FormatFloat(f, 'g', -1, 64)
	}
	return m.Type + "(" + strings.Join(parts, ", ") + ")"
}

// typeName is the Godot 4 name of a decoded value's type.
func typeName(v any) string {
	switch x := v.(type) {
	case nil:
		return "Nil"
	case bool:
		return "bool"
	case int64:
		return "int"
	case float64:
		return "float"
	case string:
		return "String"
	case StringName:
		return "StringName"
	case NodePath:
		return "NodePath"
	case Math:
		return x.Type
	case Object:
		if x.Class != "" {
			return x.Class
		}
		return "Object"
	case RID:
		return "RID"
	case Signal:
		return "Signal"
	case Callable:
		return "Callable"
	case []any, TypedArray:
		return "Array"
	case *Dict:
		return "Dictionary"
	case Packed:
		return x.Type
	}
	return fmt.Sprintf("%T", v)
}
