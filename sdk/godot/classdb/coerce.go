package classdb

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// Resources makes the values of object-typed properties in the file being
// edited. Coerce checks the JSON shape, the classes and the properties
// before calling it; an implementation only declares what it is given.
type Resources interface {
	// Ref declares the file at path ("res://" or "uid://") as an
	// ext_resource and returns the reference. typ is the class the
	// property takes ("Texture2D", "Script"); the implementation checks
	// the file exists and holds such a resource.
	Ref(typ, path string) (godot.Value, error)
	// Sub returns the class of the file's existing sub-resource id and the
	// reference to it. file is the file part of "res://x.tscn::id", ""
	// when the value named the id alone ({"sub_resource": id}).
	Sub(file, id string) (class string, ref godot.Value, err error)
	// Inline embeds a new resource of class with props (converted already,
	// in the order the editor writes them, defaults left out) as a
	// [sub_resource] and returns the reference.
	Inline(class string, props []godot.Property) (godot.Value, error)
}

// ResourceFunc makes the value of an object-typed property from a
// "res://" or "uid://" path: it checks that the file exists and declares
// it in the file being edited (an ext_resource), returning the reference.
// typ is the class the property takes ("Texture2D", "Script"). As
// [Resources] it takes paths only: inline and sub-resource values are
// refused, for converters that have no file to embed them in.
type ResourceFunc func(typ, path string) (godot.Value, error)

// Ref calls f.
func (f ResourceFunc) Ref(typ, path string) (godot.Value, error) {
	if f == nil {
		return nil, &godot.ValueError{Type: typ, Given: path, Reason: "resources cannot be referenced here", Accepted: "null"}
	}
	return f(typ, path)
}

// Sub refuses: a ResourceFunc has no file of sub-resources.
func (f ResourceFunc) Sub(_, id string) (string, godot.Value, error) {
	return "", nil, &godot.ValueError{Type: "sub-resource", Given: id, Reason: "this value is not stored in a scene or resource file, which could hold sub-resources",
		Accepted: `a "res://" path`}
}

// Inline refuses: a ResourceFunc has no file to embed resources in.
func (f ResourceFunc) Inline(class string, _ []godot.Property) (godot.Value, error) {
	return nil, &godot.ValueError{Type: class, Given: "an inline " + class, Reason: "this value is not stored in a scene or resource file, which could embed it",
		Accepted: `a "res://" path of a saved resource`}
}

// Inline resource values: {"type": "RectangleShape2D", "properties":
// {...}} makes a new sub-resource, {"sub_resource": "<id>"} names one the
// file has.
const (
	InlineTypeKey       = "type"
	InlinePropertiesKey = "properties"
	SubResourceKey      = "sub_resource"
)

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
//     path, declared through res, or null; as an inline resource
//     {"type": "RectangleShape2D", "properties": {"size": [16, 32]}}, whose
//     class must be an instantiable Resource the property takes and whose
//     properties are converted by these same rules, to any depth (so an
//     unknown one is an *UnknownPropertyError of the inline class), made a
//     sub-resource through res; as {"sub_resource": "<id>"} or
//     "res://this_file.tscn::<id>", an existing sub-resource of the file;
//     typed arrays of a class as a list of such values.
//
// class "" (an instanced scene's node, whose class the file does not name)
// converts by the JSON shape alone: scalars and Godot text ("Vector2(1,
// 2)"). Errors: *UnknownPropertyError, or *godot.ValueError naming prop
// (both wrap a godot sentinel).
func (db *DB) Coerce(class, prop string, v any, res Resources) (godot.Value, error) {
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
		if ve.Property != "" && ve.Property != prop {
			ve.Property = prop + "." + ve.Property // inside an inline resource
		} else {
			ve.Property = prop
		}
	}
	return val, err
}

// CoerceType is Coerce for a value whose type is known already (a script
// variable's, a setting's): typ as PropertyType spells it.
func (db *DB) CoerceType(typ string, v any, res Resources) (godot.Value, error) {
	return db.coerce(typ, v, res)
}

func (db *DB) coerce(typ string, v any, res Resources) (godot.Value, error) {
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
						Reason: fmt.Sprintf("element %d: %v", i, err), Accepted: "a list of res:// paths or inline resources of class " + elem}
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

// object is an object-typed value: null, a resource path, an inline
// resource or a sub-resource of the file.
func (db *DB) object(typ string, v any, res Resources) (godot.Value, error) {
	if v == nil {
		return godot.Nil{}, nil
	}
	if res == nil {
		res = ResourceFunc(nil)
	}
	want := strings.Split(typ, ",")
	switch x := v.(type) {
	case string:
		if file, id, ok := strings.Cut(x, "::"); ok && strings.HasPrefix(file, "res://") && id != "" {
			return db.subResource(typ, want, file, id, res)
		}
		if strings.HasPrefix(x, "res://") || strings.HasPrefix(x, "uid://") {
			return res.Ref(want[0], x)
		}
	case map[string]any:
		if id, ok := x[SubResourceKey]; ok {
			s, isStr := id.(string)
			if !isStr || s == "" || len(x) != 1 {
				return nil, &godot.ValueError{Type: typ, Given: godot.DescribeJSON(v),
					Reason: `a sub-resource is named by its id alone`, Accepted: `{"sub_resource": "<id>"}, the id as list_sub_resources shows it`}
			}
			return db.subResource(typ, want, "", s, res)
		}
		if _, ok := x[InlineTypeKey]; ok {
			return db.inline(typ, want, x, res)
		}
	}
	return nil, &godot.ValueError{Type: typ, Given: godot.DescribeJSON(v), Accepted: ObjectShapes(typ)}
}

// ObjectShapes says what an object-typed property of class typ takes.
func ObjectShapes(typ string) string {
	return godot.Shapes(typ) + `, an inline resource {"type": "<class>", "properties": {…}}` +
		`, or {"sub_resource": "<id>"} for one the file already has`
}

// assignable reports whether class may be stored in a property of one of
// the classes want.
func (db *DB) assignable(class string, want []string) bool {
	for _, w := range want {
		if class == w || db.Inherits(class, w) {
			return true
		}
	}
	return false
}

func (db *DB) subResource(typ string, want []string, file, id string, res Resources) (godot.Value, error) {
	class, ref, err := res.Sub(file, id)
	if err != nil {
		return nil, err
	}
	if class != "" && db.Exists(class) && !db.assignable(class, want) {
		return nil, &godot.ValueError{Type: typ, Given: id, Reason: fmt.Sprintf("that sub-resource is a %s", class),
			Accepted: "a sub-resource of class " + strings.Join(want, " or ")}
	}
	return ref, nil
}

// inline converts {"type": class, "properties": {...}}: the class is
// checked against the property's, each property against the class (the
// same rules as a node's, nested values included), and the resource is
// made through res.
func (db *DB) inline(typ string, want []string, x map[string]any, res Resources) (godot.Value, error) {
	bad := func(reason, accepted string) error {
		return &godot.ValueError{Type: typ, Given: godot.DescribeJSON(x), Reason: reason, Accepted: accepted}
	}
	shape := `{"type": "<class>", "properties": {"<property>": <value>, …}}`
	for k := range x {
		if k != InlineTypeKey && k != InlinePropertiesKey {
			return nil, bad(fmt.Sprintf("an inline resource has no key %q", k), shape+"; the resource's own properties go in \"properties\"")
		}
	}
	class, _ := x[InlineTypeKey].(string)
	kinds := func() string { return db.resourceKinds(want) }
	switch {
	case class == "":
		return nil, bad(`"type" must name a class`, shape+" with "+kinds())
	case !db.Exists(class):
		reason := fmt.Sprintf("%q is not a Godot class", class)
		if s := db.Suggest(class); s != "" {
			reason += fmt.Sprintf(" (did you mean %q?)", s)
		}
		return nil, bad(reason, kinds())
	case !db.Inherits(class, "Resource"):
		return nil, bad(class+" is not a Resource", kinds())
	case !db.Instantiable(class):
		return nil, bad(class+" is abstract and cannot be created", kinds())
	case !db.assignable(class, want):
		return nil, bad(fmt.Sprintf("a %s is not a %s", class, strings.Join(want, " or ")), kinds())
	}
	raw, ok := x[InlinePropertiesKey].(map[string]any)
	if !ok && x[InlinePropertiesKey] != nil {
		return nil, bad(`"properties" must be an object`, shape)
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	rank := db.PropertyRank(class)
	slices.SortStableFunc(keys, func(a, b string) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		return strings.Compare(a, b)
	})
	props := make([]godot.Property, 0, len(keys))
	for _, k := range keys {
		if p, ok := db.Property(class, k); ok && !p.Saved() {
			return nil, &godot.ValueError{Property: k, Type: class, Given: godot.DescribeJSON(raw[k]),
				Reason: "Godot does not save this property (it is computed from others)", Accepted: "the saved properties it is derived from"}
		}
		v, err := db.Coerce(class, k, raw[k], res)
		if err != nil {
			return nil, err
		}
		if _, isNil := v.(godot.Nil); isNil || db.IsDefault(class, k, v) {
			continue // the editor does not write defaults
		}
		props = append(props, godot.Property{Key: k, Value: v})
	}
	return res.Inline(class, props)
}

// resourceKinds names the classes an inline resource for want may have,
// with a few instantiable examples.
func (db *DB) resourceKinds(want []string) string {
	out := "a class of " + strings.Join(want, " or ")
	var ex []string
	for _, c := range db.Classes() {
		if len(ex) < 6 && db.Instantiable(c) && db.assignable(c, want) {
			ex = append(ex, c)
		}
	}
	if len(ex) > 0 {
		out += " such as " + strings.Join(ex, ", ")
	}
	return out
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
