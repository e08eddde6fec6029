package godot

// Kind identifies the Variant type of a Value. The order matches Godot's
// Variant::Type enum because the engine orders dictionary keys of different
// types by that enum, and the canonical writer has to reproduce it.
type Kind uint8

// Variant kinds, in Godot's Variant::Type order.
const (
	KindNil Kind = iota
	KindBool
	KindInt
	KindFloat
	KindString
	KindVector2
	KindVector2i
	KindRect2
	KindRect2i
	KindVector3
	KindVector3i
	KindTransform2D
	KindVector4
	KindVector4i
	KindPlane
	KindQuaternion
	KindAABB
	KindBasis
	KindTransform3D
	KindProjection
	KindColor
	KindStringName
	KindNodePath
	KindRID
	KindObject
	KindCallable
	KindSignal
	KindDictionary
	KindArray
	KindPackedByteArray
	KindPackedInt32Array
	KindPackedInt64Array
	KindPackedFloat32Array
	KindPackedFloat64Array
	KindPackedStringArray
	KindPackedVector2Array
	KindPackedVector3Array
	KindPackedColorArray
	KindPackedVector4Array
)

var kindNames = [...]string{
	"Nil", "bool", "int", "float", "String", "Vector2", "Vector2i", "Rect2", "Rect2i",
	"Vector3", "Vector3i", "Transform2D", "Vector4", "Vector4i", "Plane", "Quaternion",
	"AABB", "Basis", "Transform3D", "Projection", "Color", "StringName", "NodePath", "RID",
	"Object", "Callable", "Signal", "Dictionary", "Array", "PackedByteArray",
	"PackedInt32Array", "PackedInt64Array", "PackedFloat32Array", "PackedFloat64Array",
	"PackedStringArray", "PackedVector2Array", "PackedVector3Array", "PackedColorArray",
	"PackedVector4Array",
}

// String returns Godot's name for the type, e.g. "Vector2" or "int".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(?)"
}

// Value is one Godot Variant as it appears in a text file. The concrete types
// are the ones declared in this package; the interface is sealed so that the
// writer can be exhaustive.
type Value interface {
	// Kind reports the Variant type. Resource references and inline objects
	// are all KindObject, as they are in the engine.
	Kind() Kind
	isValue()
}

// Nil is the null Variant, spelled null (or nil) in files.
type Nil struct{}

// Bool is a boolean.
type Bool bool

// Int is a 64-bit integer.
type Int int64

// Float is a double-precision float. Scalars are doubles in Godot text files.
type Float float64

// String is a Godot String.
type String string

// StringName is an interned Godot string, spelled &"name".
type StringName string

// NodePath is a path to a node (and optionally a property), spelled
// NodePath("path:prop").
type NodePath string

// Vector2 is a 2D vector.
type Vector2 struct{ X, Y float64 }

// Vector2i is a 2D integer vector.
type Vector2i struct{ X, Y int32 }

// Vector3 is a 3D vector.
type Vector3 struct{ X, Y, Z float64 }

// Vector3i is a 3D integer vector.
type Vector3i struct{ X, Y, Z int32 }

// Vector4 is a 4D vector.
type Vector4 struct{ X, Y, Z, W float64 }

// Vector4i is a 4D integer vector.
type Vector4i struct{ X, Y, Z, W int32 }

// Rect2 is an axis-aligned rectangle: position and size.
type Rect2 struct{ Position, Size Vector2 }

// Rect2i is an integer rectangle.
type Rect2i struct{ Position, Size Vector2i }

// Transform2D is a 2D affine transform stored by columns, as in the engine and
// in the file: x axis, y axis, origin.
type Transform2D struct{ X, Y, Origin Vector2 }

// Plane is a plane in Hessian normal form.
type Plane struct {
	Normal Vector3
	D      float64
}

// Quaternion is a rotation quaternion.
type Quaternion struct{ X, Y, Z, W float64 }

// AABB is an axis-aligned bounding box: position and size.
type AABB struct{ Position, Size Vector3 }

// Basis is a 3x3 matrix stored by rows, which is also the order of the nine
// numbers in the file.
type Basis struct{ Rows [3]Vector3 }

// Transform3D is a basis plus an origin.
type Transform3D struct {
	Basis  Basis
	Origin Vector3
}

// Projection is a 4x4 matrix stored by columns, the order used in the file.
type Projection struct{ Columns [4]Vector4 }

// Color is an RGBA color with float components.
type Color struct{ R, G, B, A float64 }

// RID is an engine resource id. Files only ever hold RID() (zero).
type RID struct{ ID int64 }

// Signal stands for Signal(); the text format does not store its target.
type Signal struct{}

// Callable stands for Callable(); the text format does not store its target.
type Callable struct{}

// TypeRef is the element type of a typed Array or a key/value type of a typed
// Dictionary. Either Name is a builtin type or class name ("int",
// "PackedScene", "Variant"), or Script holds the script resource reference
// (ExtResource, SubResource or ResourceRef) for a script class.
type TypeRef struct {
	Name   string
	Script Value
}

// Array is an ordered list of values. A non-nil Type makes it a typed array,
// written Array[T]([...]).
type Array struct {
	Type  *TypeRef
	Items []Value
}

// DictEntry is one key/value pair of a Dictionary.
type DictEntry struct {
	Key   Value
	Value Value
}

// Dictionary keeps its entries in file order. Godot writes keys sorted, but a
// hand-edited file may not, and order is kept so untouched files are not
// rewritten. KeyType/ValueType are set for typed dictionaries (Godot 4.4+).
// Duplicate keys are kept as written; Godot's loader keeps the last one, and
// so does Get.
type Dictionary struct {
	KeyType   *TypeRef
	ValueType *TypeRef
	Entries   []DictEntry
}

// PackedByteArray is a byte array. Base64 records the spelling it was read
// with: PackedByteArray("base64") (format=4 files) or a list of integers.
type PackedByteArray struct {
	Data   []byte
	Base64 bool
}

// PackedInt32Array is a packed array of 32-bit integers.
type PackedInt32Array []int32

// PackedInt64Array is a packed array of 64-bit integers.
type PackedInt64Array []int64

// PackedFloat32Array is a packed array of 32-bit floats. They are kept as
// float32 because that is what the engine stores, and the shortest float32
// text is what it writes back.
type PackedFloat32Array []float32

// PackedFloat64Array is a packed array of doubles.
type PackedFloat64Array []float64

// PackedStringArray is a packed array of strings.
type PackedStringArray []string

// PackedVector2Array is a packed array of Vector2.
type PackedVector2Array []Vector2

// PackedVector3Array is a packed array of Vector3.
type PackedVector3Array []Vector3

// PackedVector4Array is a packed array of Vector4. Its presence makes a
// resource file format=4.
type PackedVector4Array []Vector4

// PackedColorArray is a packed array of Color.
type PackedColorArray []Color

// ObjectProp is one property of an inline Object.
type ObjectProp struct {
	Name  string
	Value Value
}

// Object is an inline object, Object(Class,"prop":value,...). project.godot
// stores input events this way.
type Object struct {
	Class string
	Props []ObjectProp
}

// ExtResource refers to an [ext_resource] of the same file by id.
type ExtResource struct{ ID string }

// SubResource refers to a [sub_resource] of the same file by id.
type SubResource struct{ ID string }

// ResourceRef is an inline external reference, Resource("path") or
// Resource("uid://...", "path"), used where no resource table exists.
type ResourceRef struct {
	UID  string // empty when the reference has no UID
	Path string
}

func (Nil) Kind() Kind                { return KindNil }
func (Bool) Kind() Kind               { return KindBool }
func (Int) Kind() Kind                { return KindInt }
func (Float) Kind() Kind              { return KindFloat }
func (String) Kind() Kind             { return KindString }
func (StringName) Kind() Kind         { return KindStringName }
func (NodePath) Kind() Kind           { return KindNodePath }
func (Vector2) Kind() Kind            { return KindVector2 }
func (Vector2i) Kind() Kind           { return KindVector2i }
func (Vector3) Kind() Kind            { return KindVector3 }
func (Vector3i) Kind() Kind           { return KindVector3i }
func (Vector4) Kind() Kind            { return KindVector4 }
func (Vector4i) Kind() Kind           { return KindVector4i }
func (Rect2) Kind() Kind              { return KindRect2 }
func (Rect2i) Kind() Kind             { return KindRect2i }
func (Transform2D) Kind() Kind        { return KindTransform2D }
func (Plane) Kind() Kind              { return KindPlane }
func (Quaternion) Kind() Kind         { return KindQuaternion }
func (AABB) Kind() Kind               { return KindAABB }
func (Basis) Kind() Kind              { return KindBasis }
func (Transform3D) Kind() Kind        { return KindTransform3D }
func (Projection) Kind() Kind         { return KindProjection }
func (Color) Kind() Kind              { return KindColor }
func (RID) Kind() Kind                { return KindRID }
func (Signal) Kind() Kind             { return KindSignal }
func (Callable) Kind() Kind           { return KindCallable }
func (Array) Kind() Kind              { return KindArray }
func (Dictionary) Kind() Kind         { return KindDictionary }
func (PackedByteArray) Kind() Kind    { return KindPackedByteArray }
func (PackedInt32Array) Kind() Kind   { return KindPackedInt32Array }
func (PackedInt64Array) Kind() Kind   { return KindPackedInt64Array }
func (PackedFloat32Array) Kind() Kind { return KindPackedFloat32Array }
func (PackedFloat64Array) Kind() Kind { return KindPackedFloat64Array }
func (PackedStringArray) Kind() Kind  { return KindPackedStringArray }
func (PackedVector2Array) Kind() Kind { return KindPackedVector2Array }
func (PackedVector3Array) Kind() Kind { return KindPackedVector3Array }
func (PackedVector4Array) Kind() Kind { return KindPackedVector4Array }
func (PackedColorArray) Kind() Kind   { return KindPackedColorArray }
func (Object) Kind() Kind             { return KindObject }
func (ExtResource) Kind() Kind        { return KindObject }
func (SubResource) Kind() Kind        { return KindObject }
func (ResourceRef) Kind() Kind        { return KindObject }

func (Nil) isValue()                {}
func (Bool) isValue()               {}
func (Int) isValue()                {}
func (Float) isValue()              {}
func (String) isValue()             {}
func (StringName) isValue()         {}
func (NodePath) isValue()           {}
func (Vector2) isValue()            {}
func (Vector2i) isValue()           {}
func (Vector3) isValue()            {}
func (Vector3i) isValue()           {}
func (Vector4) isValue()            {}
func (Vector4i) isValue()           {}
func (Rect2) isValue()              {}
func (Rect2i) isValue()             {}
func (Transform2D) isValue()        {}
func (Plane) isValue()              {}
func (Quaternion) isValue()         {}
func (AABB) isValue()               {}
func (Basis) isValue()              {}
func (Transform3D) isValue()        {}
func (Projection) isValue()         {}
func (Color) isValue()              {}
func (RID) isValue()                {}
func (Signal) isValue()             {}
func (Callable) isValue()           {}
func (Array) isValue()              {}
func (Dictionary) isValue()         {}
func (PackedByteArray) isValue()    {}
func (PackedInt32Array) isValue()   {}
func (PackedInt64Array) isValue()   {}
func (PackedFloat32Array) isValue() {}
func (PackedFloat64Array) isValue() {}
func (PackedStringArray) isValue()  {}
func (PackedVector2Array) isValue() {}
func (PackedVector3Array) isValue() {}
func (PackedVector4Array) isValue() {}
func (PackedColorArray) isValue()   {}
func (Object) isValue()             {}
func (ExtResource) isValue()        {}
func (SubResource) isValue()        {}
func (ResourceRef) isValue()        {}

// Get returns the value of the last entry whose key equals key (Godot keeps
// the last of duplicate keys).
func (d Dictionary) Get(key Value) (Value, bool) {
	for i := len(d.Entries) - 1; i >= 0; i-- {
		if Equal(d.Entries[i].Key, key) {
			return d.Entries[i].Value, true
		}
	}
	return nil, false
}

// Lookup is Get for the common case of a String or StringName key.
func (d Dictionary) Lookup(key string) (Value, bool) {
	for i := len(d.Entries) - 1; i >= 0; i-- {
		if s, ok := stringOf(d.Entries[i].Key); ok && s == key {
			return d.Entries[i].Value, true
		}
	}
	return nil, false
}

// Get returns the named property of an inline object.
func (o Object) Get(name string) (Value, bool) {
	for i := len(o.Props) - 1; i >= 0; i-- {
		if o.Props[i].Name == name {
			return o.Props[i].Value, true
		}
	}
	return nil, false
}

// stringOf returns the text of a String or StringName.
func stringOf(v Value) (string, bool) {
	switch s := v.(type) {
	case String:
		return string(s), true
	case StringName:
		return string(s), true
	}
	return "", false
}

// Equal reports whether two values have the same type and content. Floats
// compare numerically, so NaN is not equal to itself (as in the engine).
func Equal(a, b Value) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if a.Kind() != b.Kind() {
		return false
	}
	switch x := a.(type) {
	case Array:
		y := b.(Array)
		if !equalTypeRef(x.Type, y.Type) || len(x.Items) != len(y.Items) {
			return false
		}
		for i := range x.Items {
			if !Equal(x.Items[i], y.Items[i]) {
				return false
			}
		}
		return true
	case Dictionary:
		y := b.(Dictionary)
		if !equalTypeRef(x.KeyType, y.KeyType) || !equalTypeRef(x.ValueType, y.ValueType) || len(x.Entries) != len(y.Entries) {
			return false
		}
		for i := range x.Entries {
			if !Equal(x.Entries[i].Key, y.Entries[i].Key) || !Equal(x.Entries[i].Value, y.Entries[i].Value) {
				return false
			}
		}
		return true
	case Object:
		y, ok := b.(Object)
		if !ok || x.Class != y.Class || len(x.Props) != len(y.Props) {
			return false
		}
		for i := range x.Props {
			if x.Props[i].Name != y.Props[i].Name || !Equal(x.Props[i].Value, y.Props[i].Value) {
				return false
			}
		}
		return true
	case PackedByteArray:
		y := b.(PackedByteArray)
		return string(x.Data) == string(y.Data)
	case PackedInt32Array:
		return equalSlices(x, b.(PackedInt32Array))
	case PackedInt64Array:
		return equalSlices(x, b.(PackedInt64Array))
	case PackedFloat32Array:
		return equalSlices(x, b.(PackedFloat32Array))
	case PackedFloat64Array:
		return equalSlices(x, b.(PackedFloat64Array))
	case PackedStringArray:
		return equalSlices(x, b.(PackedStringArray))
	case PackedVector2Array:
		return equalSlices(x, b.(PackedVector2Array))
	case PackedVector3Array:
		return equalSlices(x, b.(PackedVector3Array))
	case PackedVector4Array:
		return equalSlices(x, b.(PackedVector4Array))
	case PackedColorArray:
		return equalSlices(x, b.(PackedColorArray))
	}
	// Every remaining type is a comparable struct or scalar; the dynamic types
	// may still differ within KindObject (ExtResource vs SubResource).
	return a == b
}

func equalSlices[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func equalTypeRef(a, b *TypeRef) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Name == b.Name && Equal(a.Script, b.Script)
}

// walkValue calls fn for v and every value nested in it (container items,
// dictionary keys and values, object properties, type references).
func walkValue(v Value, fn func(Value)) {
	if v == nil {
		return
	}
	fn(v)
	switch x := v.(type) {
	case Array:
		if x.Type != nil {
			walkValue(x.Type.Script, fn)
		}
		for _, it := range x.Items {
			walkValue(it, fn)
		}
	case Dictionary:
		if x.KeyType != nil {
			walkValue(x.KeyType.Script, fn)
		}
		if x.ValueType != nil {
			walkValue(x.ValueType.Script, fn)
		}
		for _, e := range x.Entries {
			walkValue(e.Key, fn)
			walkValue(e.Value, fn)
		}
	case Object:
		for _, p := range x.Props {
			walkValue(p.Value, fn)
		}
	}
}
