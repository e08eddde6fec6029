package godot

import (
	"cmp"
	"encoding/base64"
	"slices"
	"strconv"
)

// byteMode decides how PackedByteArray values are spelled. In resource files
// the whole file switches between integer lists (format=3) and base64
// (format=4); elsewhere each value keeps the spelling it was read with.
type byteMode uint8

const (
	bytesAsRecorded byteMode = iota
	bytesAsInts
	bytesAsBase64
)

// writer renders values in the engine's canonical spelling
// (VariantWriter::write).
type writer struct {
	bytes  byteMode
	floats FloatStyle
}

// FormatValue returns the canonical text of v, as the current Godot editor
// would write it (floats in FloatsShortest). PackedByteArray values keep
// their recorded spelling; resource files apply the file-wide format=3/4
// rule when they write edited values. For the spelling of a given Godot
// version use FormatValueFor.
func FormatValue(v Value) string {
	return string(AppendValue(nil, v))
}

// AppendValue appends the canonical text of v to dst, like FormatValue.
func AppendValue(dst []byte, v Value) []byte {
	return writer{}.append(dst, v)
}

// FormatValueFor returns the text of v with floats spelled in style, e.g.
// FormatValueFor(v, FloatStyleFor(project.Version())). Edits through a
// File or ConfigFile use the file's style (SetFloatStyle) instead.
func FormatValueFor(v Value, style FloatStyle) string {
	return string(AppendValueFor(nil, v, style))
}

// AppendValueFor appends the text of v to dst, like FormatValueFor.
func AppendValueFor(dst []byte, v Value, style FloatStyle) []byte {
	return writer{floats: style}.append(dst, v)
}

// appendMultilineString writes a String: only '\' and '"' are escaped, so
// newlines stay raw (String::c_escape_multiline).
func appendMultilineString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' || c == '"' {
			dst = append(dst, '\\')
		}
		dst = append(dst, c)
	}
	return append(dst, '"')
}

// appendCEscaped writes s with String::c_escape, used for StringName,
// NodePath, PackedStringArray items and header fields.
//
// \a and \v are produced here although the reader turns them back into plain
// 'a' and 'v'; that is the engine's behaviour and is kept so edited files
// match what the editor writes.
func appendCEscaped(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\a':
			dst = append(dst, '\\', 'a')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\v':
			dst = append(dst, '\\', 'v')
		case '\'':
			dst = append(dst, '\\', '\'')
		case '?':
			dst = append(dst, '\\', '?')
		case '"':
			dst = append(dst, '\\', '"')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

func appendQuotedC(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = appendCEscaped(dst, s)
	return append(dst, '"')
}

func appendInts32(dst []byte, is ...int32) []byte {
	for i, v := range is {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = strconv.AppendInt(dst, int64(v), 10)
	}
	return dst
}

func (w writer) appendTypeRef(dst []byte, t *TypeRef) []byte {
	switch {
	case t == nil:
		return append(dst, "Variant"...)
	case t.Script != nil:
		return w.append(dst, t.Script)
	}
	return append(dst, t.Name...)
}

func (w writer) append(dst []byte, v Value) []byte {
	switch x := v.(type) {
	case nil, Nil:
		return append(dst, "null"...)
	case Bool:
		if x {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case Int:
		return strconv.AppendInt(dst, int64(x), 10)
	case Float:
		return w.appendScalarFloat(dst, float64(x))
	case String:
		return appendMultilineString(dst, string(x))
	case StringName:
		dst = append(dst, '&')
		return appendQuotedC(dst, string(x))
	case NodePath:
		dst = append(dst, "NodePath("...)
		dst = appendQuotedC(dst, string(x))
		return append(dst, ')')
	case Vector2:
		dst = append(dst, "Vector2("...)
		return append(w.appendReals(dst, x.X, x.Y), ')')
	case Vector2i:
		dst = append(dst, "Vector2i("...)
		return append(appendInts32(dst, x.X, x.Y), ')')
	case Vector3:
		dst = append(dst, "Vector3("...)
		return append(w.appendReals(dst, x.X, x.Y, x.Z), ')')
	case Vector3i:
		dst = append(dst, "Vector3i("...)
		return append(appendInts32(dst, x.X, x.Y, x.Z), ')')
	case Vector4:
		dst = append(dst, "Vector4("...)
		return append(w.appendReals(dst, x.X, x.Y, x.Z, x.W), ')')
	case Vector4i:
		dst = append(dst, "Vector4i("...)
		return append(appendInts32(dst, x.X, x.Y, x.Z, x.W), ')')
	case Rect2:
		dst = append(dst, "Rect2("...)
		return append(w.appendReals(dst, x.Position.X, x.Position.Y, x.Size.X, x.Size.Y), ')')
	case Rect2i:
		dst = append(dst, "Rect2i("...)
		return append(appendInts32(dst, x.Position.X, x.Position.Y, x.Size.X, x.Size.Y), ')')
	case Transform2D:
		dst = append(dst, "Transform2D("...)
		return append(w.appendReals(dst, x.X.X, x.X.Y, x.Y.X, x.Y.Y, x.Origin.X, x.Origin.Y), ')')
	case Plane:
		dst = append(dst, "Plane("...)
		return append(w.appendReals(dst, x.Normal.X, x.Normal.Y, x.Normal.Z, x.D), ')')
	case Quaternion:
		dst = append(dst, "Quaternion("...)
		return append(w.appendReals(dst, x.X, x.Y, x.Z, x.W), ')')
	case AABB:
		dst = append(dst, "AABB("...)
		return append(w.appendReals(dst, x.Position.X, x.Position.Y, x.Position.Z, x.Size.X, x.Size.Y, x.Size.Z), ')')
	case Basis:
		dst = append(dst, "Basis("...)
		return append(w.appendBasis(dst, x), ')')
	case Transform3D:
		dst = append(dst, "Transform3D("...)
		dst = w.appendBasis(dst, x.Basis)
		dst = append(dst, ", "...)
		return append(w.appendReals(dst, x.Origin.X, x.Origin.Y, x.Origin.Z), ')')
	case Projection:
		dst = append(dst, "Projection("...)
		for c, col := range x.Columns {
			if c > 0 {
				dst = append(dst, ", "...)
			}
			dst = w.appendReals(dst, col.X, col.Y, col.Z, col.W)
		}
		return append(dst, ')')
	case Color:
		dst = append(dst, "Color("...)
		return append(w.appendReals(dst, x.R, x.G, x.B, x.A), ')')
	case RID:
		if x.ID == 0 {
			return append(dst, "RID()"...)
		}
		dst = append(dst, "RID("...)
		dst = strconv.AppendInt(dst, x.ID, 10)
		return append(dst, ')')
	case Signal:
		return append(dst, "Signal()"...)
	case Callable:
		return append(dst, "Callable()"...)
	case ExtResource:
		dst = append(dst, "ExtResource("...)
		dst = appendMultilineString(dst, x.ID)
		return append(dst, ')')
	case SubResource:
		dst = append(dst, "SubResource("...)
		dst = appendMultilineString(dst, x.ID)
		return append(dst, ')')
	case ResourceRef:
		dst = append(dst, "Resource("...)
		if x.UID != "" {
			dst = appendMultilineString(dst, x.UID)
			dst = append(dst, ", "...)
		}
		dst = appendMultilineString(dst, x.Path)
		return append(dst, ')')
	case Object:
		dst = append(dst, "Object("...)
		dst = append(dst, x.Class...)
		dst = append(dst, ',')
		for i, p := range x.Props {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendMultilineString(dst, p.Name)
			dst = append(dst, ':')
			dst = w.append(dst, p.Value)
		}
		// The engine ends every inline object with a newline; this is why
		// input event arrays in project.godot put ", Object(" on new lines.
		return append(dst, ")\n"...)
	case Array:
		if x.Type != nil {
			dst = append(dst, "Array["...)
			dst = w.appendTypeRef(dst, x.Type)
			dst = append(dst, "]("...)
		}
		dst = append(dst, '[')
		for i, it := range x.Items {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = w.append(dst, it)
		}
		dst = append(dst, ']')
		if x.Type != nil {
			dst = append(dst, ')')
		}
		return dst
	case Dictionary:
		typed := x.KeyType != nil || x.ValueType != nil
		if typed {
			dst = append(dst, "Dictionary["...)
			dst = w.appendTypeRef(dst, x.KeyType)
			dst = append(dst, ", "...)
			dst = w.appendTypeRef(dst, x.ValueType)
			dst = append(dst, "]("...)
		}
		if len(x.Entries) == 0 {
			dst = append(dst, "{}"...)
		} else {
			dst = append(dst, "{\n"...)
			for i, e := range sortedEntries(x.Entries) {
				if i > 0 {
					dst = append(dst, ",\n"...)
				}
				dst = w.append(dst, e.Key)
				dst = append(dst, ": "...)
				dst = w.append(dst, e.Value)
			}
			dst = append(dst, "\n}"...)
		}
		if typed {
			dst = append(dst, ')')
		}
		return dst
	case PackedByteArray:
		b64 := x.Base64
		switch w.bytes {
		case bytesAsInts:
			b64 = false
		case bytesAsBase64:
			b64 = true
		}
		dst = append(dst, "PackedByteArray("...)
		if len(x.Data) > 0 {
			if b64 {
				dst = append(dst, '"')
				dst = base64.StdEncoding.AppendEncode(dst, x.Data)
				dst = append(dst, '"')
			} else {
				for i, b := range x.Data {
					if i > 0 {
						dst = append(dst, ", "...)
					}
					dst = strconv.AppendUint(dst, uint64(b), 10)
				}
			}
		}
		return append(dst, ')')
	case PackedInt32Array:
		dst = append(dst, "PackedInt32Array("...)
		return append(appendInts32(dst, x...), ')')
	case PackedInt64Array:
		dst = append(dst, "PackedInt64Array("...)
		for i, v := range x {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = strconv.AppendInt(dst, v, 10)
		}
		return append(dst, ')')
	case PackedFloat32Array:
		dst = append(dst, "PackedFloat32Array("...)
		for i, v := range x {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = w.appendReal(dst, float64(v))
		}
		return append(dst, ')')
	case PackedFloat64Array:
		dst = append(dst, "PackedFloat64Array("...)
		for i, v := range x {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = w.appendReal(dst, v)
		}
		return append(dst, ')')
	case PackedStringArray:
		dst = append(dst, "PackedStringArray("...)
		for i, s := range x {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = appendQuotedC(dst, s)
		}
		return append(dst, ')')
	case PackedVector2Array:
		dst = append(dst, "PackedVector2Array("...)
		for i, v := range x {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = w.appendReals(dst, v.X, v.Y)
		}
		return append(dst, ')')
	case PackedVector3Array:
		dst = append(dst, "PackedVector3Array("...)
		for i, v := range x {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = w.appendReals(dst, v.X, v.Y, v.Z)
		}
		return append(dst, ')')
	case PackedVector4Array:
		dst = append(dst, "PackedVector4Array("...)
		for i, v := range x {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = w.appendReals(dst, v.X, v.Y, v.Z, v.W)
		}
		return append(dst, ')')
	case PackedColorArray:
		dst = append(dst, "PackedColorArray("...)
		for i, v := range x {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = w.appendReals(dst, v.R, v.G, v.B, v.A)
		}
		return append(dst, ')')
	}
	// Unreachable for values built from this package's types: Value is sealed.
	return append(dst, "null"...)
}

func (w writer) appendBasis(dst []byte, b Basis) []byte {
	for r, row := range b.Rows {
		if r > 0 {
			dst = append(dst, ", "...)
		}
		dst = w.appendReals(dst, row.X, row.Y, row.Z)
	}
	return dst
}

// sortedEntries orders dictionary entries the way the engine's writer does
// (StringLikeVariantOrder): String and StringName keys compare as text, other
// keys first by Variant type and then by value.
func sortedEntries(es []DictEntry) []DictEntry {
	if slices.IsSortedFunc(es, cmpEntry) {
		return es
	}
	out := slices.Clone(es)
	slices.SortStableFunc(out, cmpEntry)
	return out
}

func cmpEntry(a, b DictEntry) int { return compareValues(a.Key, b.Key) }

// compareValues orders dictionary keys. Within a type it follows the
// engine's '<'; across types it follows the Variant type order, except that
// String and StringName share one rank so that the order stays transitive
// (the engine compares them as text with each other but by type with
// everything else, which is not a consistent order for mixed keys). Types
// without an order compare equal and keep their relative order (stable sort).
func compareValues(a, b Value) int {
	if a == nil {
		a = Nil{}
	}
	if b == nil {
		b = Nil{}
	}
	as, aok := stringOf(a)
	bs, bok := stringOf(b)
	if aok && bok {
		return cmp.Compare(as, bs)
	}
	if ka, kb := keyRank(a), keyRank(b); ka != kb {
		return cmp.Compare(ka, kb)
	}
	switch x := a.(type) {
	case Bool:
		y := b.(Bool)
		switch {
		case x == y:
			return 0
		case !bool(x):
			return -1
		}
		return 1
	case Int:
		return cmp.Compare(x, b.(Int))
	case Float:
		return cmpFloat(float64(x), float64(b.(Float)))
	case NodePath:
		return cmp.Compare(x, b.(NodePath))
	case Vector2:
		y := b.(Vector2)
		return cmpFloats([]float64{x.X, x.Y}, []float64{y.X, y.Y})
	case Vector3:
		y := b.(Vector3)
		return cmpFloats([]float64{x.X, x.Y, x.Z}, []float64{y.X, y.Y, y.Z})
	case Vector4:
		y := b.(Vector4)
		return cmpFloats([]float64{x.X, x.Y, x.Z, x.W}, []float64{y.X, y.Y, y.Z, y.W})
	case Vector2i:
		y := b.(Vector2i)
		return cmp.Or(cmp.Compare(x.X, y.X), cmp.Compare(x.Y, y.Y))
	case Vector3i:
		y := b.(Vector3i)
		return cmp.Or(cmp.Compare(x.X, y.X), cmp.Compare(x.Y, y.Y), cmp.Compare(x.Z, y.Z))
	case Vector4i:
		y := b.(Vector4i)
		return cmp.Or(cmp.Compare(x.X, y.X), cmp.Compare(x.Y, y.Y), cmp.Compare(x.Z, y.Z), cmp.Compare(x.W, y.W))
	case Color:
		y := b.(Color)
		return cmpFloats([]float64{x.R, x.G, x.B, x.A}, []float64{y.R, y.G, y.B, y.A})
	}
	return 0
}

func keyRank(v Value) Kind {
	if k := v.Kind(); k != KindStringName {
		return k
	}
	return KindString
}

// cmpFloat is a total order: NaN sorts first, so sorting is deterministic.
func cmpFloat(a, b float64) int {
	return cmp.Compare(a, b)
}

func cmpFloats(a, b []float64) int {
	for i := range a {
		if c := cmpFloat(a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}

// needsKeyQuotes reports whether a property key must be quoted
// (String::property_name_encode).
func needsKeyQuotes(k string) bool {
	if k == "" {
		return true
	}
	for i := 0; i < len(k); i++ {
		switch c := k[i]; {
		case c == '=' || c == '"' || c == ';' || c == '[' || c == ']' || c < 33 || c > 126:
			return true
		}
	}
	return false
}

func appendKey(dst []byte, k string) []byte {
	if needsKeyQuotes(k) {
		return appendMultilineString(dst, k)
	}
	return append(dst, k...)
}
