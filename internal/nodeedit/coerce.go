// Package nodeedit edits the nodes of a scene file headless, for the batch
// and composite toolsets: it opens a scene through the call's workspace,
// applies node edits with sdk/godot's editing API (values checked and
// converted with the embedded class database), and commits every change of
// a tool call as one journaled workspace action.
package nodeedit

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

// DB returns the embedded Godot class database.
func DB() *classdb.DB { return classdb.MustEmbedded() }

var literal = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*\(`)

// components names the JSON object keys of vector-like types, in order.
var components = map[string][]string{
	"Vector2": {"x", "y"}, "Vector2i": {"x", "y"}, "Vector3": {"x", "y", "z"}, "Vector3i": {"x", "y", "z"},
	"Vector4": {"x", "y", "z", "w"}, "Vector4i": {"x", "y", "z", "w"}, "Quaternion": {"x", "y", "z", "w"},
	"Color": {"r", "g", "b", "a"}, "Rect2": {"x", "y", "width", "height"}, "Rect2i": {"x", "y", "width", "height"},
	"Plane": {"x", "y", "z", "d"},
}

func invalid(prop, hint, format string, args ...any) *sdk.Error {
	e := sdk.Errorf(sdk.CodeInvalidArgument, hint, "property %q: "+format, append([]any{prop}, args...)...)
	e.Required = "value"
	return e
}

// ExtAdder declares an external resource in the scene being edited and
// returns the value that refers to it.
type ExtAdder func(typ, path string) (godot.Value, error)

// Coerce converts a JSON value to the Godot value of property prop of
// class. class "" (an instanced scene's node, whose class the file does not
// say) converts by the JSON shape alone. Strings may be Godot literals
// ("Vector2(1, 2)"); vectors and colours may also be arrays ([1, 2]) or
// objects ({"x": 1, "y": 2}); enum properties take a constant name; object
// properties take a res:// path, declared through addExt.
func Coerce(db *classdb.DB, class, prop string, raw any, addExt ExtAdder) (godot.Value, error) {
	if prop == "script" {
		s, ok := raw.(string)
		if !ok || !strings.HasPrefix(s, "res://") {
			return nil, invalid(prop, "pass the script as a res:// path", "expected a res:// path, got %s", describe(raw))
		}
		return addExt("Script", s)
	}
	typ := ""
	if class != "" {
		t, ok := db.PropertyType(class, prop)
		if !ok {
			hint := fmt.Sprintf(`godot_describe_class({"class_name":%q,"members":"properties","inherited":true}) lists its properties`, class)
			if s := db.PropertyHint(class, prop); s != "" {
				hint = s
			}
			return nil, &sdk.Error{Code: sdk.CodeInvalidArgument, Message: fmt.Sprintf("%s has no property %q", class, prop), Hint: hint, Required: "property"}
		}
		typ = t
	}
	if raw == nil {
		return godot.Nil{}, nil
	}
	if s, ok := raw.(string); ok && literal.MatchString(s) && typ != "String" && typ != "StringName" && typ != "NodePath" {
		v, err := godot.ParseValue([]byte(s))
		if err != nil {
			return nil, invalid(prop, "write the value as Godot does, e.g. Vector2(1, 2)", "%v", err)
		}
		return check(prop, typ, v)
	}
	switch {
	case typ == "":
		return generic(prop, raw)
	case typ == "bool":
		if b, ok := raw.(bool); ok {
			return godot.Bool(b), nil
		}
	case typ == "int" || strings.HasPrefix(typ, "enum::") || strings.HasPrefix(typ, "bitfield::"):
		if f, ok := raw.(float64); ok {
			if f != math.Trunc(f) {
				return nil, invalid(prop, "pass a whole number", "%v is not an integer", f)
			}
			return godot.Int(int64(f)), nil
		}
		if s, ok := raw.(string); ok && typ != "int" {
			if e, ok := db.Enum(typ); ok {
				if n, ok := e.Value(s); ok {
					return godot.Int(n), nil
				}
				return nil, invalid(prop, "use one of "+strings.Join(enumNames(e), ", "), "%q is not a constant of %s", s, strings.TrimPrefix(typ, "enum::"))
			}
		}
	case typ == "float":
		if f, ok := raw.(float64); ok {
			return godot.Float(f), nil
		}
	case typ == "String":
		if s, ok := raw.(string); ok {
			return godot.String(s), nil
		}
	case typ == "StringName":
		if s, ok := raw.(string); ok {
			return godot.StringName(s), nil
		}
	case typ == "NodePath":
		if s, ok := raw.(string); ok {
			return godot.NodePath(s), nil
		}
	case components[typ] != nil:
		if v, ok := vector(typ, raw); ok {
			return check(prop, typ, v)
		}
		return nil, invalid(prop, fmt.Sprintf("pass %s as [%s], as an object with %s, or as %s(…)", typ,
			strings.Join(components[typ], ", "), strings.Join(components[typ], "/"), typ), "cannot make a %s of %s", typ, describe(raw))
	case isClassType(db, typ):
		if s, ok := raw.(string); ok && strings.HasPrefix(s, "res://") {
			return addExt(strings.Split(typ, ",")[0], s)
		}
		return nil, invalid(prop, "pass a res:// path of a "+typ+" resource, or null", "expected a resource path, got %s", describe(raw))
	default:
		if s, ok := raw.(string); ok {
			v, err := godot.ParseValue([]byte(s))
			if err != nil {
				return nil, invalid(prop, "write the value as a Godot literal of type "+typ, "%v", err)
			}
			return check(prop, typ, v)
		}
	}
	return nil, invalid(prop, "pass a value of type "+typ, "expected %s, got %s", typ, describe(raw))
}

func isClassType(db *classdb.DB, typ string) bool {
	for _, t := range strings.Split(typ, ",") {
		if db.Exists(t) {
			return true
		}
	}
	return false
}

func enumNames(e classdb.Enum) []string {
	var out []string
	for _, v := range e.Values {
		out = append(out, v.Name)
	}
	sort.Strings(out)
	return out
}

func check(prop, typ string, v godot.Value) (godot.Value, error) {
	if typ == "" || v.Kind().String() == typ {
		return v, nil
	}
	if typ == "float" {
		if i, ok := v.(godot.Int); ok {
			return godot.Float(i), nil
		}
	}
	return nil, invalid(prop, "pass a value of type "+typ, "expected %s, got %s", typ, v.Kind())
}

func vector(typ string, raw any) (godot.Value, bool) {
	keys := components[typ]
	var nums []float64
	switch x := raw.(type) {
	case []any:
		for _, it := range x {
			f, ok := it.(float64)
			if !ok {
				return nil, false
			}
			nums = append(nums, f)
		}
	case map[string]any:
		for i, k := range keys {
			f, ok := x[k].(float64)
			if !ok {
				if typ == "Color" && i == 3 {
					f = 1 // alpha defaults to opaque
				} else {
					return nil, false
				}
			}
			nums = append(nums, f)
		}
	default:
		return nil, false
	}
	if typ == "Color" && len(nums) == 3 {
		nums = append(nums, 1)
	}
	if len(nums) != len(keys) {
		return nil, false
	}
	parts := make([]string, len(nums))
	for i, f := range nums {
		parts[i] = fmt.Sprint(f)
	}
	v, err := godot.ParseValue([]byte(typ + "(" + strings.Join(parts, ", ") + ")"))
	return v, err == nil
}

// generic converts the JSON scalars by their shape alone (whole numbers
// to int), as godot.FromJSON does with no type; lists and objects need the
// node's class.
func generic(prop string, raw any) (godot.Value, error) {
	switch raw.(type) {
	case bool, float64, string:
		return godot.FromJSON(raw, "")
	}
	return nil, invalid(prop, "pass a Godot literal string such as \"Vector2(1, 2)\" for this node, whose class the scene does not name",
		"cannot convert %s without the node's class", describe(raw))
}

func describe(raw any) string {
	b, _ := json.Marshal(raw)
	s := string(b)
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return s
}
