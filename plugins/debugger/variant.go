package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"unicode/utf8"
)

// The Variant codec of Godot's remote debugger: core/io/marshalls.cpp
// (encode_variant, decode_variant), in the two generations the debugger
// speaks. Each value is a 32-bit little-endian header (the type id in the
// low byte, flags from bit 16) and its data, padded to 4 bytes.
//
// Everything decoded comes from a game process, so the decoder trusts
// nothing: every length is checked against what is left of the packet
// before anything is allocated, containers nest at most maxDepth deep and
// a packet is at most maxPacket bytes (wire.go).

// Dialect is the engine generation whose wire format a session speaks.
type Dialect int

// The dialects.
const (
	Godot3 Dialect = 3
	Godot4 Dialect = 4
)

// The Go shapes of decoded values: nil, bool, int64, float64, string,
// StringName, NodePath, Math, Object, RID, Signal, Callable, []any (an
// Array), *Dict and Packed.
type (
	// StringName is a Godot 4 StringName.
	StringName string
	// NodePath is a NodePath in its text form ("/root/Main:position").
	NodePath string
	// Math is a fixed-size numeric value (Vector2, Rect2i, Color,
	// Transform3D, …): its Godot 4 type name and its components in the
	// order they are encoded.
	Math struct {
		Type string
		V    []float64
	}
	// Object is an object sent as its instance id (the debugger never
	// sends whole objects), or a whole object (Class and Props) from a
	// peer that does.
	Object struct {
		ID    uint64
		Class string
		Props []Prop
	}
	// Prop is one property of a whole Object.
	Prop struct {
		Name  string
		Value any
	}
	// RID is a Godot 4 RID (Godot 3 sends none of its value).
	RID uint64
	// Signal is a Godot 4 Signal.
	Signal struct {
		Name string
		ID   uint64
	}
	// Callable is a Godot 4 Callable, whose value is never sent.
	Callable struct{}
	// Dict is a Dictionary, in its order.
	Dict struct {
		Keys, Values []any
		// Typed keeps a Godot 4 typed dictionary's key and value types.
		KeyType, ValueType *ContainerType
	}
	// Packed is a packed array (Pool*Array in Godot 3): Items are int64,
	// float64, string or Math values; a byte array's are int64.
	Packed struct {
		Type  string
		Items []any
	}
	// TypedArray is a Godot 4 typed Array.
	TypedArray struct {
		Of    ContainerType
		Items []any
	}
	// ContainerType is the element type of a typed container: a builtin
	// type id, a class name or a script path.
	ContainerType struct {
		Kind    int // 1 builtin, 2 class name, 3 script
		Builtin int32
		Name    string
	}
)

// kind is what a type id means, whatever its number in a dialect.
type kind struct {
	name  string
	comps int  // fixed-size numeric types: number of components
	ints  bool // components are int32 (Vector2i, Rect2i, …)
	color bool // components are always float32 (Color)
}

var (
	kNil, kBool, kInt, kFloat, kString    = kind{name: "Nil"}, kind{name: "bool"}, kind{name: "int"}, kind{name: "float"}, kind{name: "String"}
	kStringName, kNodePath, kRID, kObject = kind{name: "StringName"}, kind{name: "NodePath"}, kind{name: "RID"}, kind{name: "Object"}
	kCallable, kSignal, kDict, kArray     = kind{name: "Callable"}, kind{name: "Signal"}, kind{name: "Dictionary"}, kind{name: "Array"}
)

func mathKind(name string, comps int) kind { return kind{name: name, comps: comps} }
func intsKind(name string, comps int) kind { return kind{name: name, comps: comps, ints: true} }
func packedKind(name string) kind          { return kind{name: name} }

// types3 and types4 are the Variant type ids of each generation
// (core/variant.h in 3.x, core/variant/variant.h in 4.x). Godot 3 names
// are given their Godot 4 spelling so results read the same.
var types3 = []kind{
	kNil, kBool, kInt, kFloat, kString,
	mathKind("Vector2", 2), mathKind("Rect2", 4), mathKind("Vector3", 3), mathKind("Transform2D", 6),
	mathKind("Plane", 4), mathKind("Quaternion", 4), mathKind("AABB", 6), mathKind("Basis", 9),
	mathKind("Transform3D", 12), {name: "Color", comps: 4, color: true}, kNodePath, kRID, kObject, kDict, kArray,
	packedKind("PackedByteArray"), packedKind("PackedInt32Array"), packedKind("PackedFloat32Array"),
	packedKind("PackedStringArray"), packedKind("PackedVector2Array"), packedKind("PackedVector3Array"),
	packedKind("PackedColorArray"),
}

var types4 = []kind{
	kNil, kBool, kInt, kFloat, kString,
	mathKind("Vector2", 2), intsKind("Vector2i", 2), mathKind("Rect2", 4), intsKind("Rect2i", 4),
	mathKind("Vector3", 3), intsKind("Vector3i", 3), mathKind("Transform2D", 6), mathKind("Vector4", 4),
	intsKind("Vector4i", 4), mathKind("Plane", 4), mathKind("Quaternion", 4), mathKind("AABB", 6),
	mathKind("Basis", 9), mathKind("Transform3D", 12), mathKind("Projection", 16),
	{name: "Color", comps: 4, color: true}, kStringName, kNodePath, kRID, kObject, kCallable, kSignal, kDict, kArray,
	packedKind("PackedByteArray"), packedKind("PackedInt32Array"), packedKind("PackedInt64Array"),
	packedKind("PackedFloat32Array"), packedKind("PackedFloat64Array"), packedKind("PackedStringArray"),
	packedKind("PackedVector2Array"), packedKind("PackedVector3Array"), packedKind("PackedColorArray"),
	packedKind("PackedVector4Array"),
}

func (d Dialect) types() []kind {
	if d == Godot3 {
		return types3
	}
	return types4
}

// typeID is the id of the type named name in d; ok is false when d has no
// such type.
func (d Dialect) typeID(name string) (uint32, bool) {
	for i, k := range d.types() {
		if k.name == name {
			return uint32(i), true
		}
	}
	return 0, false
}

// Header bits (marshalls.cpp).
const (
	typeMask      = 0xFF
	flag64        = 1 << 16 // 64-bit int, double float, double-precision math
	flagObjectID  = 1 << 16 // an Object sent as its instance id
	typedShift    = 16      // a typed Array's element type, a typed Dictionary's key type
	typedValShift = 18      // a typed Dictionary's value type
)

// maxDepth bounds how deep containers nest in one value.
const maxDepth = 64

// ErrMalformed is wrapped by every decoding failure.
var ErrMalformed = errors.New("malformed Variant")

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

// Decode decodes one value from b, which must hold exactly that value.
func (d Dialect) Decode(b []byte) (any, error) {
	r := &reader{b: b, d: d}
	v, err := r.value(0)
	if err != nil {
		return nil, err
	}
	if len(r.b) != 0 {
		return nil, malformed("%d bytes left after the value", len(r.b))
	}
	return v, nil
}

type reader struct {
	b []byte
	d Dialect
}

func (r *reader) need(n int, what string) ([]byte, error) {
	if n < 0 || n > len(r.b) {
		return nil, malformed("%s needs %d bytes, %d left", what, n, len(r.b))
	}
	p := r.b[:n]
	r.b = r.b[n:]
	return p, nil
}

func (r *reader) u32(what string) (uint32, error) {
	p, err := r.need(4, what)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(p), nil
}

func (r *reader) u64(what string) (uint64, error) {
	p, err := r.need(8, what)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(p), nil
}

// count reads an element count and checks that at least min bytes per
// element are left, so a forged count allocates nothing.
func (r *reader) count(what string, min int) (int, error) {
	n, err := r.u32(what)
	if err != nil {
		return 0, err
	}
	n &= 0x7FFFFFFF // the old "shared" bit of Array and Dictionary
	if min > 0 && int(n) > len(r.b)/min {
		return 0, malformed("%s claims %d elements in %d bytes", what, n, len(r.b))
	}
	return int(n), nil
}

func (r *reader) str(what string) (string, error) {
	n, err := r.u32(what)
	if err != nil {
		return "", err
	}
	if n > uint32(len(r.b)) {
		return "", malformed("%s of %d bytes, %d left", what, n, len(r.b))
	}
	pad := (4 - n%4) % 4
	p, err := r.need(int(n+pad), what)
	if err != nil {
		return "", err
	}
	s := p[:n]
	if !utf8.Valid(s) {
		return "", malformed("%s is not UTF-8", what)
	}
	return string(s), nil
}

func (r *reader) real(wide bool, what string) (float64, error) {
	if wide {
		u, err := r.u64(what)
		return math.Float64frombits(u), err
	}
	u, err := r.u32(what)
	return float64(math.Float32frombits(u)), err
}

func (r *reader) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, malformed("containers nest deeper than %d", maxDepth)
	}
	h, err := r.u32("a header")
	if err != nil {
		return nil, err
	}
	types := r.d.types()
	id := h & typeMask
	if int(id) >= len(types) {
		return nil, malformed("unknown type %d", id)
	}
	k := types[id]
	wide := h&flag64 != 0
	switch {
	case k.comps > 0:
		m := Math{Type: k.name, V: make([]float64, k.comps)}
		for i := range m.V {
			switch {
			case k.ints:
				u, err := r.u32(k.name)
				if err != nil {
					return nil, err
				}
				m.V[i] = float64(int32(u))
			default:
				// Double-precision builds of Godot 4 flag their math types.
				if m.V[i], err = r.real(wide && !k.color && r.d == Godot4, k.name); err != nil {
					return nil, err
				}
			}
		}
		return m, nil
	case k == kNil:
		return nil, nil
	case k == kBool:
		u, err := r.u32("a bool")
		return u != 0, err
	case k == kInt:
		if wide {
			u, err := r.u64("an int")
			return int64(u), err
		}
		u, err := r.u32("an int")
		return int64(int32(u)), err
	case k == kFloat:
		return r.real(wide, "a float")
	case k == kString:
		return r.str("a String")
	case k == kStringName:
		s, err := r.str("a StringName")
		return StringName(s), err
	case k == kNodePath:
		return r.nodePath()
	case k == kRID:
		if r.d == Godot3 {
			return RID(0), nil
		}
		u, err := r.u64("a RID")
		return RID(u), err
	case k == kObject:
		return r.object(h, depth)
	case k == kCallable:
		return Callable{}, nil
	case k == kSignal:
		name, err := r.str("a Signal's name")
		if err != nil {
			return nil, err
		}
		id, err := r.u64("a Signal's object")
		return Signal{Name: name, ID: id}, err
	case k == kDict:
		return r.dict(h, depth)
	case k == kArray:
		return r.array(h, depth)
	}
	return r.packed(k.name, wide && r.d == Godot4)
}

func (r *reader) nodePath() (any, error) {
	n, err := r.u32("a NodePath")
	if err != nil {
		return nil, err
	}
	if n&0x80000000 == 0 {
		return nil, malformed("a NodePath in the old format")
	}
	names := int(n & 0x7FFFFFFF)
	subs, err := r.u32("a NodePath")
	if err != nil {
		return nil, err
	}
	flags, err := r.u32("a NodePath")
	if err != nil {
		return nil, err
	}
	if flags&2 != 0 { // a property kept apart from the subnames (old)
		subs++
	}
	if names > len(r.b)/4 || int(subs) > len(r.b)/4 || names+int(subs) > len(r.b)/4 {
		return nil, malformed("a NodePath claims %d names in %d bytes", names+int(subs), len(r.b))
	}
	var s string
	if flags&1 != 0 {
		s = "/"
	}
	for i := 0; i < names+int(subs); i++ {
		part, err := r.str("a NodePath name")
		if err != nil {
			return nil, err
		}
		switch {
		case i >= names:
			s += ":" + part
		case i > 0:
			s += "/" + part
		default:
			s += part
		}
	}
	return NodePath(s), nil
}

func (r *reader) object(h uint32, depth int) (any, error) {
	if h&flagObjectID != 0 {
		id, err := r.u64("an object id")
		if err != nil {
			return nil, err
		}
		if id == 0 {
			return nil, nil
		}
		return Object{ID: id}, nil
	}
	class, err := r.str("an object's class")
	if err != nil {
		return nil, err
	}
	if class == "" {
		return nil, nil
	}
	n, err := r.count("an object's properties", 8)
	if err != nil {
		return nil, err
	}
	o := Object{Class: class, Props: make([]Prop, 0, n)}
	for range n {
		name, err := r.str("a property name")
		if err != nil {
			return nil, err
		}
		v, err := r.value(depth + 1)
		if err != nil {
			return nil, err
		}
		o.Props = append(o.Props, Prop{Name: name, Value: v})
	}
	return o, nil
}

func (r *reader) containerType(field uint32) (*ContainerType, error) {
	if r.d == Godot3 || field == 0 {
		return nil, nil
	}
	t := &ContainerType{Kind: int(field)}
	switch field {
	case 1:
		u, err := r.u32("a container's element type")
		if err != nil {
			return nil, err
		}
		if int(u) >= len(types4) {
			return nil, malformed("a container of unknown type %d", u)
		}
		t.Builtin = int32(u)
	case 2, 3:
		s, err := r.str("a container's element class")
		if err != nil {
			return nil, err
		}
		t.Name = s
	}
	return t, nil
}

func (r *reader) dict(h uint32, depth int) (any, error) {
	kt, err := r.containerType(h >> typedShift & 3)
	if err != nil {
		return nil, err
	}
	vt, err := r.containerType(h >> typedValShift & 3)
	if err != nil {
		return nil, err
	}
	n, err := r.count("a Dictionary", 8)
	if err != nil {
		return nil, err
	}
	d := &Dict{Keys: make([]any, 0, n), Values: make([]any, 0, n), KeyType: kt, ValueType: vt}
	for range n {
		k, err := r.value(depth + 1)
		if err != nil {
			return nil, err
		}
		v, err := r.value(depth + 1)
		if err != nil {
			return nil, err
		}
		d.Keys, d.Values = append(d.Keys, k), append(d.Values, v)
	}
	return d, nil
}

func (r *reader) array(h uint32, depth int) (any, error) {
	et, err := r.containerType(h >> typedShift & 3)
	if err != nil {
		return nil, err
	}
	n, err := r.count("an Array", 4)
	if err != nil {
		return nil, err
	}
	items := make([]any, 0, n)
	for range n {
		v, err := r.value(depth + 1)
		if err != nil {
			return nil, err
		}
		items = append(items, v)
	}
	if et != nil {
		return TypedArray{Of: *et, Items: items}, nil
	}
	return items, nil
}

func (r *reader) packed(name string, wide bool) (any, error) {
	p := Packed{Type: name}
	switch name {
	case "PackedByteArray":
		n, err := r.count(name, 1)
		if err != nil {
			return nil, err
		}
		b, err := r.need(n+(4-n%4)%4, name)
		if err != nil {
			return nil, err
		}
		p.Items = make([]any, n)
		for i := range n {
			p.Items[i] = int64(b[i])
		}
		return p, nil
	case "PackedStringArray":
		n, err := r.count(name, 4)
		if err != nil {
			return nil, err
		}
		p.Items = make([]any, 0, n)
		for range n {
			s, err := r.str("a string of " + name)
			if err != nil {
				return nil, err
			}
			p.Items = append(p.Items, s)
		}
		return p, nil
	}
	elem, comps, size := packedElem(name, wide)
	n, err := r.count(name, size)
	if err != nil {
		return nil, err
	}
	p.Items = make([]any, 0, n)
	for range n {
		switch {
		case comps == 0 && name == "PackedInt32Array":
			u, _ := r.u32(name)
			p.Items = append(p.Items, int64(int32(u)))
		case comps == 0 && name == "PackedInt64Array":
			u, _ := r.u64(name)
			p.Items = append(p.Items, int64(u))
		case comps == 0:
			f, _ := r.real(size == 8, name)
			p.Items = append(p.Items, f)
		default:
			m := Math{Type: elem, V: make([]float64, comps)}
			for i := range m.V {
				m.V[i], _ = r.real(size/comps == 8, name)
			}
			p.Items = append(p.Items, m)
		}
	}
	return p, nil
}

// packedElem says what one element of a numeric packed array is: its
// Math type (or "" for a number), its components and its size in bytes.
func packedElem(name string, wide bool) (elem string, comps, size int) {
	real := 4
	if wide {
		real = 8
	}
	switch name {
	case "PackedInt32Array":
		return "", 0, 4
	case "PackedInt64Array", "PackedFloat64Array":
		return "", 0, 8
	case "PackedFloat32Array":
		return "", 0, 4
	case "PackedVector2Array":
		return "Vector2", 2, 2 * real
	case "PackedVector3Array":
		return "Vector3", 3, 3 * real
	case "PackedColorArray":
		return "Color", 4, 16
	case "PackedVector4Array":
		return "Vector4", 4, 4 * real
	}
	return "", 0, 4
}

// Encode encodes v, which must be one of the shapes Decode returns (or an
// int, for convenience).
func (d Dialect) Encode(v any) ([]byte, error) {
	w := &writer{d: d}
	if err := w.value(v, 0); err != nil {
		return nil, err
	}
	return w.b, nil
}

type writer struct {
	b []byte
	d Dialect
}

func (w *writer) u32(u uint32) { w.b = binary.LittleEndian.AppendUint32(w.b, u) }
func (w *writer) u64(u uint64) { w.b = binary.LittleEndian.AppendUint64(w.b, u) }

func (w *writer) str(s string) {
	w.u32(uint32(len(s)))
	w.b = append(w.b, s...)
	for len(w.b)%4 != 0 {
		w.b = append(w.b, 0)
	}
}

func (w *writer) header(name string, flags uint32) error {
	id, ok := w.d.typeID(name)
	if !ok {
		return fmt.Errorf("no %s in Godot %d", name, w.d)
	}
	w.u32(id | flags)
	return nil
}

// fits32 reports whether every component survives float32.
func fits32(v ...float64) bool {
	for _, f := range v {
		if g := float64(float32(f)); g != f && !(math.IsNaN(f) && math.IsNaN(g)) {
			return false
		}
	}
	return true
}

func (w *writer) real(f float64, wide bool) {
	if wide {
		w.u64(math.Float64bits(f))
	} else {
		w.u32(math.Float32bits(float32(f)))
	}
}

func (w *writer) value(v any, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("containers nest deeper than %d", maxDepth)
	}
	switch x := v.(type) {
	case nil:
		w.u32(0)
	case bool:
		w.u32(1)
		if x {
			w.u32(1)
		} else {
			w.u32(0)
		}
	case int:
		return w.value(int64(x), depth)
	case int64:
		if x == int64(int32(x)) {
			w.u32(2)
			w.u32(uint32(int32(x)))
		} else {
			w.u32(2 | flag64)
			w.u64(uint64(x))
		}
	case float64:
		// Godot 4 always sends a float as a double.
		wide := w.d == Godot4 || !fits32(x)
		if wide {
			w.u32(3 | flag64)
		} else {
			w.u32(3)
		}
		w.real(x, wide)
	case string:
		w.u32(4)
		w.str(x)
	case StringName:
		if err := w.header("StringName", 0); err != nil {
			return err
		}
		w.str(string(x))
	case NodePath:
		return w.nodePath(string(x))
	case Math:
		return w.math(x)
	case RID:
		if err := w.header("RID", 0); err != nil {
			return err
		}
		if w.d == Godot4 {
			w.u64(uint64(x))
		}
	case Object:
		if x.Class == "" {
			if err := w.header("Object", flagObjectID); err != nil {
				return err
			}
			w.u64(x.ID)
			return nil
		}
		if err := w.header("Object", 0); err != nil {
			return err
		}
		w.str(x.Class)
		w.u32(uint32(len(x.Props)))
		for _, p := range x.Props {
			w.str(p.Name)
			if err := w.value(p.Value, depth+1); err != nil {
				return err
			}
		}
	case Callable:
		return w.header("Callable", 0)
	case Signal:
		if err := w.header("Signal", 0); err != nil {
			return err
		}
		w.str(x.Name)
		w.u64(x.ID)
	case *Dict:
		if len(x.Keys) != len(x.Values) {
			return errors.New("a Dict with more keys than values")
		}
		var flags uint32
		if x.KeyType != nil {
			flags |= uint32(x.KeyType.Kind) << typedShift
		}
		if x.ValueType != nil {
			flags |= uint32(x.ValueType.Kind) << typedValShift
		}
		if err := w.header("Dictionary", flags); err != nil {
			return err
		}
		w.containerType(x.KeyType)
		w.containerType(x.ValueType)
		w.u32(uint32(len(x.Keys)))
		for i := range x.Keys {
			if err := w.value(x.Keys[i], depth+1); err != nil {
				return err
			}
			if err := w.value(x.Values[i], depth+1); err != nil {
				return err
			}
		}
	case []any:
		return w.array(nil, x, depth)
	case TypedArray:
		return w.array(&x.Of, x.Items, depth)
	case Packed:
		return w.packed(x)
	default:
		return fmt.Errorf("cannot encode a %T", v)
	}
	return nil
}

func (w *writer) containerType(t *ContainerType) {
	if t == nil || w.d == Godot3 {
		return
	}
	switch t.Kind {
	case 1:
		w.u32(uint32(t.Builtin))
	case 2, 3:
		w.str(t.Name)
	}
}

func (w *writer) array(of *ContainerType, items []any, depth int) error {
	var flags uint32
	if of != nil && w.d == Godot4 {
		flags = uint32(of.Kind) << typedShift
	}
	if err := w.header("Array", flags); err != nil {
		return err
	}
	w.containerType(of)
	w.u32(uint32(len(items)))
	for _, it := range items {
		if err := w.value(it, depth+1); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) nodePath(s string) error {
	if err := w.header("NodePath", 0); err != nil {
		return err
	}
	var flags uint32
	if len(s) > 0 && s[0] == '/' {
		flags = 1
		s = s[1:]
	}
	path, sub := s, ""
	if i := indexByte(s, ':'); i >= 0 {
		path, sub = s[:i], s[i+1:]
	}
	names, subs := split(path, '/'), split(sub, ':')
	w.u32(uint32(len(names)) | 0x80000000)
	w.u32(uint32(len(subs)))
	w.u32(flags)
	for _, n := range append(names, subs...) {
		w.str(n)
	}
	return nil
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// split splits s at sep; an empty s has no parts.
func split(s string, sep byte) []string {
	if s == "" {
		return nil
	}
	var out []string
	for {
		i := indexByte(s, sep)
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i])
		s = s[i+1:]
	}
}

func (w *writer) math(m Math) error {
	var k kind
	for _, t := range w.d.types() {
		if t.name == m.Type && t.comps > 0 {
			k = t
		}
	}
	if k.comps == 0 || len(m.V) != k.comps {
		return fmt.Errorf("no %s of %d components in Godot %d", m.Type, len(m.V), w.d)
	}
	wide := !k.ints && !k.color && !fits32(m.V...) && w.d == Godot4
	var flags uint32
	if wide {
		flags = flag64
	}
	if err := w.header(m.Type, flags); err != nil {
		return err
	}
	for _, f := range m.V {
		if k.ints {
			w.u32(uint32(int32(f)))
		} else {
			w.real(f, wide)
		}
	}
	return nil
}

func (w *writer) packed(p Packed) error {
	switch p.Type {
	case "PackedByteArray":
		if err := w.header(p.Type, 0); err != nil {
			return err
		}
		w.u32(uint32(len(p.Items)))
		for _, it := range p.Items {
			n, _ := it.(int64)
			w.b = append(w.b, byte(n))
		}
		for len(w.b)%4 != 0 {
			w.b = append(w.b, 0)
		}
		return nil
	case "PackedStringArray":
		if err := w.header(p.Type, 0); err != nil {
			return err
		}
		w.u32(uint32(len(p.Items)))
		for _, it := range p.Items {
			s, _ := it.(string)
			w.str(s)
		}
		return nil
	}
	// Numbers and vectors: double precision only when a value needs it
	// and the type has a 64-bit form.
	var all []float64
	for _, it := range p.Items {
		switch x := it.(type) {
		case float64:
			all = append(all, x)
		case Math:
			all = append(all, x.V...)
		}
	}
	wide := false
	switch p.Type {
	case "PackedVector2Array", "PackedVector3Array", "PackedVector4Array":
		wide = w.d == Godot4 && !fits32(all...)
	}
	var flags uint32
	if wide {
		flags = flag64
	}
	if err := w.header(p.Type, flags); err != nil {
		return err
	}
	elem, comps, size := packedElem(p.Type, wide)
	w.u32(uint32(len(p.Items)))
	for _, it := range p.Items {
		switch x := it.(type) {
		case int64:
			if size == 8 {
				w.u64(uint64(x))
			} else {
				w.u32(uint32(int32(x)))
			}
		case float64:
			w.real(x, size == 8)
		case Math:
			if x.Type != elem || len(x.V) != comps {
				return fmt.Errorf("a %s in a %s", x.Type, p.Type)
			}
			for _, f := range x.V {
				w.real(f, size/comps == 8)
			}
		default:
			return fmt.Errorf("a %T in a %s", it, p.Type)
		}
	}
	return nil
}
