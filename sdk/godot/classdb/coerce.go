package classdb

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// ResourceFunc makes the value of an object-typed property from a
// "res://" or "uid://" path: it checks that the file exists and declares
// it in the file being edited (an ext_resource), returning the reference.
// typ is the class the property takes ("Texture2D", "Script").
type ResourceFunc func(typ, path string) (godot.Value, error)

// UnknownPropertyError is a property the class does not have. Suggestion
// is the closest property name, or "".
type UnknownPropertyError struct {
	Class, Property, Suggestion string
}

func (e *UnknownPropertyError) Error() string {
	return fmt.Sprintf("%s has no property %q", e.Class, e.Property)
}

// Unwrap makes errors.Is(err, godot.ErrNotFound) true.
func (e *UnknownPropertyError) Unwrap() error { return godot.ErrNotFound }

// Coerce converts the JSON value v (as encoding/json decodes into an any)
// for property prop of class, the class-aware entry point of
// [godot.FromJSON]: it looks the property's type up and then takes, on top
// of FromJSON's shapes,
//
//   - enum properties by constant name ("PROCESS_MODE_ALWAYS", or
//     "ALWAYS" when that names one constant) or number; bitfields also as
//     "A|B" or a list of names and numbers, OR-ed;
//   - object properties ("script", a Texture2D) as a "res://" or "uid://"
//     path, declared through res, or null; typed arrays of a class as a
//     list of such paths.
//
// class "" (an instanced scene's node, whose class the file does not name)
// converts by the JSON shape alone: scalars and Godot text ("Vector2(1,
// 2)"). Errors: *UnknownPropertyError, or *godot.ValueError naming prop
// (both wrap a godot sentinel).
func (db *DB) Coerce(class, prop string, v any, res ResourceFunc) (godot.Value, error) {
	typ := ""
	switch {
	case prop == "script":
		typ = "Script"
	case class != "":
		t, ok := db.PropertyType(class, prop)
		if !ok {
			return nil, &UnknownPropertyError{Class: class, Property: prop, Suggestion: db.SuggestProperty(class, prop)}
		}
		typ = t
	}
	val, err := db.coerce(typ, v, res)
	if ve, ok := err.(*godot.ValueError); ok {
		ve.Property = prop
	}
	return val, err
}

// CoerceType is Coerce for a value whose type is known already (a script
// variable's, a setting's): typ as PropertyType spells it.
func (db *DB) CoerceType(typ string, v any, res ResourceFunc) (godot.Value, error) {
	return db.coerce(typ, v, res)
}

func (db *DB) coerce(typ string, v any, res ResourceFunc) (godot.Value, error) {
	switch {
	case typ == "":
		switch v.(type) {
		case nil, bool, float64, string:
			if s, ok := v.(string); ok && strings.HasSuffix(s, ")") {
				if pv, err := godot.ParseValue([]byte(s)); err == nil {
					return pv, nil
				}
			}
			return godot.FromJSON(v, "")
		}
		return nil, &godot.ValueError{Type: "value of this node", Given: godot.DescribeJSON(v),
			Reason:   "the scene does not name the node's class, so only scalars and Godot text can be read",
			Accepted: `a Godot literal string such as "Vector2(1, 2)"`}
	case isEnumType(typ):
		return db.enumValue(typ, v)
	case strings.HasPrefix(typ, TypedArrayPrefix):
		elem := strings.TrimPrefix(typ, TypedArrayPrefix)
		if items, ok := v.([]any); ok && db.isClassType(elem) {
			out := godot.Array{Type: &godot.TypeRef{Name: elem}, Items: make([]godot.Value, len(items))}
			for i, it := range items {
				e, err := db.object(elem, it, res)
				if err != nil {
					return nil, &godot.ValueError{Type: typ, Given: godot.DescribeJSON(v),
						Reason: fmt.Sprintf("element %d: %v", i, err), Accepted: "a list of res:// paths of " + elem + " resources"}
				}
				out.Items[i] = e
			}
			return out, nil
		}
	case db.isClassType(typ):
		return db.object(typ, v, res)
	}
	return godot.FromJSON(v, typ)
}

func (db *DB) isClassType(typ string) bool {
	if godot.IsBuiltinType(typ) || strings.Contains(typ, "::") {
		return false
	}
	for _, t := range strings.Split(typ, ",") {
		if db.Exists(t) {
			return true
		}
	}
	return false
}

// object is an object-typed value: null, or a resource path.
func (db *DB) object(typ string, v any, res ResourceFunc) (godot.Value, error) {
	if v == nil {
		return godot.Nil{}, nil
	}
	s, ok := v.(string)
	if ok && (strings.HasPrefix(s, "res://") || strings.HasPrefix(s, "uid://")) && res != nil {
		return res(strings.Split(typ, ",")[0], s)
	}
	return nil, &godot.ValueError{Type: typ, Given: godot.DescribeJSON(v), Accepted: godot.Shapes(typ)}
}

// enumValue reads an enum or bitfield value by number or name.
func (db *DB) enumValue(typ string, v any) (godot.Value, error) {
	e, known := db.Enum(typ)
	bad := func(reason string) error {
		acc := "the constant's integer value"
		if known {
			acc = "one of " + strings.Join(enumNames(e), ", ") + ", or its integer value"
			if e.IsBitfield {
				acc = "a list or \"A|B\" of " + strings.Join(enumNames(e), ", ") + ", or the integer value"
			}
		}
		return &godot.ValueError{Type: strings.TrimPrefix(strings.TrimPrefix(typ, EnumPrefix), BitfieldPrefix),
			Given: godot.DescribeJSON(v), Reason: reason, Accepted: acc}
	}
	one := func(x any) (int64, error) {
		switch x := x.(type) {
		case float64:
			if x != math.Trunc(x) || math.Abs(x) >= 1<<63 {
				return 0, bad("not a whole number")
			}
			return int64(x), nil
		case string:
			x = strings.TrimSpace(x)
			if n, err := strconv.ParseInt(x, 10, 64); err == nil {
				return n, nil
			}
			if !known {
				return 0, bad("its constants are not known")
			}
			if n, ok := constant(e, x); ok {
				return n, nil
			}
			return 0, bad(fmt.Sprintf("%q is not one of its constants", x))
		}
		return 0, bad("")
	}
	bitfield := strings.HasPrefix(typ, BitfieldPrefix) || known && e.IsBitfield
	var parts []any
	switch x := v.(type) {
	case []any:
		if !bitfield {
			return nil, bad("a list is only for flags")
		}
		parts = x
	case string:
		if bitfield && strings.Contains(x, "|") {
			for _, p := range strings.Split(x, "|") {
				parts = append(parts, p)
			}
		} else {
			parts = []any{x}
		}
	default:
		parts = []any{v}
	}
	var n int64
	for _, p := range parts {
		k, err := one(p)
		if err != nil {
			return nil, err
		}
		n |= k
	}
	return godot.Int(n), nil
}

// constant finds an enum constant by its name, case-insensitively, or by
// the end of its name when that is unambiguous ("ALWAYS" for
// PROCESS_MODE_ALWAYS).
func constant(e Enum, name string) (int64, bool) {
	up := strings.ToUpper(name)
	var hit []EnumValue
	for _, c := range e.Values {
		if c.Name == up {
			return c.Value, true
		}
		if strings.HasSuffix(c.Name, "_"+up) {
			hit = append(hit, c)
		}
	}
	if len(hit) == 1 {
		return hit[0].Value, true
	}
	return 0, false
}

func enumNames(e Enum) []string {
	out := make([]string, 0, len(e.Values))
	for _, v := range e.Values {
		out = append(out, v.Name)
	}
	slices.Sort(out)
	return out
}
