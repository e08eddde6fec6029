package godot

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"
)

// maxDepth bounds container nesting so hostile input cannot exhaust the stack.
// Real files nest a handful of levels.
const maxDepth = 512

// refHook is told about every ExtResource/SubResource reference as it is
// parsed, so a file parser can validate ids with precise positions.
type refHook func(sub bool, id string, off int) *parseError

// valueParser is the recursive-descent parser for Variant values
// (VariantParser::parse_value). It shares its lexer with the statement parser.
type valueParser struct {
	lx      lexer
	depth   int
	onRef   refHook
	format4 bool      // saw a PackedVector4Array or a PackedByteArray > 64 bytes
	scratch []float64 // reused buffer for packed float arrays
	iscr    []int64   // reused buffer for packed int arrays
	// vals and dents are stacks of the items of the arrays and dictionaries
	// being parsed (a nested one pushes above its parent's). Each finished
	// array is copied out at its exact size, so a large array costs its
	// items once instead of the doubling garbage of growing it by append.
	vals  []Value
	dents []DictEntry
	// toBytes makes numList append integers as bytes to bout, allocated at
	// its final size, instead of to the int64 scratch buffer: a large
	// PackedByteArray then costs its bytes, not 8 bytes per element.
	toBytes bool
	bout    []byte
}

// parserPool recycles parsers so their scratch buffers (sized by the largest
// packed array seen) are not regrown for every file.
var parserPool = sync.Pool{New: func() any { return new(valueParser) }}

func getParser(src []byte, onRef refHook) *valueParser {
	p := parserPool.Get().(*valueParser)
	p.lx = lexer{src: src}
	p.depth, p.onRef, p.format4 = 0, onRef, false
	return p
}

func putParser(p *valueParser) {
	p.lx.src, p.onRef = nil, nil
	parserPool.Put(p)
}

// ParseValue parses exactly one Variant value from src. Whitespace and ';'
// comments may surround it; anything else after the value is an error.
// The source is copied; the caller may reuse src.
func ParseValue(src []byte) (Value, error) {
	src = slices.Clone(src)
	p := getParser(src, nil)
	defer putParser(p)
	tok, err := p.lx.next()
	if err != nil {
		return nil, err.syntax("", src)
	}
	v, err := p.parseValue(tok)
	if err != nil {
		return nil, err.syntax("", src)
	}
	tok, err = p.lx.next()
	if err != nil {
		return nil, err.syntax("", src)
	}
	if tok.kind != tokEOF {
		return nil, errAt(tok.pos, "expected end of input after value, found %s", p.lx.describe(tok)).syntax("", src)
	}
	return v, nil
}

func (p *valueParser) ident(t token) string {
	return view(p.lx.src[t.pos:t.end])
}

// expect reads the next token and fails unless it has kind k. The context of
// the message is formatted from ctx and arg only on failure, keeping string
// building off the hot path.
func (p *valueParser) expect(k tokKind, what, ctx, arg string) (token, *parseError) {
	tok, err := p.lx.next()
	if err != nil {
		return tok, err
	}
	if tok.kind != k {
		if arg != "" {
			ctx = fmt.Sprintf(ctx, arg)
		}
		return tok, errAt(tok.pos, "expected %s %s, found %s", what, ctx, p.lx.describe(tok))
	}
	return tok, nil
}

// parseValue parses the value that starts with tok.
func (p *valueParser) parseValue(tok token) (Value, *parseError) {
	switch tok.kind {
	case tokNumber:
		if tok.isFloat {
			return Float(tok.f), nil
		}
		return Int(tok.i), nil
	case tokString:
		return String(tok.str), nil
	case tokStringName:
		return StringName(tok.str), nil
	case tokColor:
		return p.lx.color, nil
	case tokLBrace:
		if err := p.enter(tok); err != nil {
			return nil, err
		}
		d, err := p.parseDictBody(tok)
		p.depth--
		return d, err
	case tokLBracket:
		if err := p.enter(tok); err != nil {
			return nil, err
		}
		items, err := p.parseArrayBody(tok)
		p.depth--
		return Array{Items: items}, err
	case tokIdent:
		return p.parseIdent(tok)
	case tokEOF:
		return nil, errAt(tok.pos, "expected a value, found end of file")
	}
	return nil, errAt(tok.pos, "expected a value, found %s", p.lx.describe(tok))
}

func (p *valueParser) enter(tok token) *parseError {
	p.depth++
	if p.depth > maxDepth {
		return errAt(tok.pos, "values nested more than %d levels deep", maxDepth)
	}
	return nil
}

// parseArrayBody parses the items after '['. A trailing comma is tolerated.
func (p *valueParser) parseArrayBody(open token) ([]Value, *parseError) {
	base := len(p.vals)
	defer func() {
		clear(p.vals[base:]) // the pool must not keep values alive
		p.vals = p.vals[:base]
	}()
	needComma := false
	for {
		tok, err := p.lx.next()
		if err != nil {
			return nil, err
		}
		switch {
		case tok.kind == tokRBracket:
			if len(p.vals) == base {
				return nil, nil
			}
			return slices.Clone(p.vals[base:]), nil
		case tok.kind == tokEOF:
			return nil, errAt(tok.pos, "unexpected end of file in array opened at %s, expected ']'", p.where(open.pos))
		case needComma:
			if tok.kind != tokComma {
				return nil, errAt(tok.pos, "expected ',' or ']' in array, found %s", p.lx.describe(tok))
			}
			needComma = false
			continue
		}
		v, err := p.parseValue(tok)
		if err != nil {
			return nil, err
		}
		p.vals = append(p.vals, v)
		needComma = true
	}
}

// parseDictBody parses the entries after '{'. A trailing comma is tolerated.
func (p *valueParser) parseDictBody(open token) (Dictionary, *parseError) {
	var d Dictionary
	base := len(p.dents)
	defer func() {
		clear(p.dents[base:])
		p.dents = p.dents[:base]
	}()
	needComma := false
	for {
		tok, err := p.lx.next()
		if err != nil {
			return d, err
		}
		switch {
		case tok.kind == tokRBrace:
			if len(p.dents) > base {
				d.Entries = slices.Clone(p.dents[base:])
			}
			return d, nil
		case tok.kind == tokEOF:
			return d, errAt(tok.pos, "unexpected end of file in dictionary opened at %s, expected '}'", p.where(open.pos))
		case needComma:
			if tok.kind != tokComma {
				return d, errAt(tok.pos, "expected ',' or '}' in dictionary, found %s", p.lx.describe(tok))
			}
			needComma = false
			continue
		}
		key, err := p.parseValue(tok)
		if err != nil {
			return d, err
		}
		if _, err := p.expect(tokColon, "':'", "after dictionary key", ""); err != nil {
			return d, err
		}
		tok, err = p.lx.next()
		if err != nil {
			return d, err
		}
		val, err := p.parseValue(tok)
		if err != nil {
			return d, err
		}
		p.dents = append(p.dents, DictEntry{Key: key, Value: val})
		needComma = true
	}
}

// where renders an offset as "line L:C" for messages about an opener.
func (p *valueParser) where(off int) string {
	line, col := position(p.lx.src, off)
	return "line " + itoa(line) + ":" + itoa(col)
}

func itoa(n int) string { return strconv.Itoa(n) }

// parseIdent handles keywords and constructors. The switch on the source
// bytes compiles to a string switch without allocating.
func (p *valueParser) parseIdent(tok token) (Value, *parseError) {
	name := p.lx.src[tok.pos:tok.end]
	switch string(name) {
	case "true":
		return Bool(true), nil
	case "false":
		return Bool(false), nil
	case "null", "nil":
		return Nil{}, nil
	case "inf":
		return Float(math.Inf(1)), nil
	case "-inf", "inf_neg":
		return Float(math.Inf(-1)), nil
	case "nan":
		return Float(math.NaN()), nil
	case "Vector2":
		n, err := p.fixed(tok, 2)
		return Vector2{n[0], n[1]}, err
	case "Vector2i":
		n, err := p.fixed(tok, 2)
		return Vector2i{toI32(n[0]), toI32(n[1])}, err
	case "Vector3":
		n, err := p.fixed(tok, 3)
		return Vector3{n[0], n[1], n[2]}, err
	case "Vector3i":
		n, err := p.fixed(tok, 3)
		return Vector3i{toI32(n[0]), toI32(n[1]), toI32(n[2])}, err
	case "Vector4":
		n, err := p.fixed(tok, 4)
		return Vector4{n[0], n[1], n[2], n[3]}, err
	case "Vector4i":
		n, err := p.fixed(tok, 4)
		return Vector4i{toI32(n[0]), toI32(n[1]), toI32(n[2]), toI32(n[3])}, err
	case "Rect2":
		n, err := p.fixed(tok, 4)
		return Rect2{Vector2{n[0], n[1]}, Vector2{n[2], n[3]}}, err
	case "Rect2i":
		n, err := p.fixed(tok, 4)
		return Rect2i{Vector2i{toI32(n[0]), toI32(n[1])}, Vector2i{toI32(n[2]), toI32(n[3])}}, err
	case "Transform2D", "Matrix32":
		n, err := p.fixed(tok, 6)
		return Transform2D{Vector2{n[0], n[1]}, Vector2{n[2], n[3]}, Vector2{n[4], n[5]}}, err
	case "Plane":
		n, err := p.fixed(tok, 4)
		return Plane{Vector3{n[0], n[1], n[2]}, n[3]}, err
	case "Quaternion", "Quat":
		n, err := p.fixed(tok, 4)
		return Quaternion{n[0], n[1], n[2], n[3]}, err
	case "AABB", "Rect3":
		n, err := p.fixed(tok, 6)
		return AABB{Vector3{n[0], n[1], n[2]}, Vector3{n[3], n[4], n[5]}}, err
	case "Basis", "Matrix3":
		n, err := p.fixed(tok, 9)
		return basisOf(n[:9]), err
	case "Transform3D", "Transform":
		n, err := p.fixed(tok, 12)
		return Transform3D{basisOf(n[:9]), Vector3{n[9], n[10], n[11]}}, err
	case "Projection":
		n, err := p.fixed(tok, 16)
		var pr Projection
		for c := 0; c < 4; c++ {
			pr.Columns[c] = Vector4{n[4*c], n[4*c+1], n[4*c+2], n[4*c+3]}
		}
		return pr, err
	case "Color":
		n, err := p.fixed(tok, 4)
		return Color{n[0], n[1], n[2], n[3]}, err
	case "NodePath":
		s, err := p.stringArg(tok)
		return NodePath(s), err
	case "RID":
		return p.parseRID(tok)
	case "Signal":
		_, err := p.emptyArgs(tok)
		return Signal{}, err
	case "Callable":
		_, err := p.emptyArgs(tok)
		return Callable{}, err
	case "Object":
		if err := p.enter(tok); err != nil {
			return nil, err
		}
		v, err := p.parseObject(tok)
		p.depth--
		return v, err
	case "Resource", "ExtResource", "SubResource":
		return p.parseResource(tok)
	case "Array":
		if err := p.enter(tok); err != nil {
			return nil, err
		}
		v, err := p.parseTypedArray(tok)
		p.depth--
		return v, err
	case "Dictionary":
		if err := p.enter(tok); err != nil {
			return nil, err
		}
		v, err := p.parseTypedDict(tok)
		p.depth--
		return v, err
	case "PackedByteArray", "PoolByteArray", "ByteArray":
		return p.parseByteArray(tok)
	case "PackedInt32Array", "PackedIntArray", "PoolIntArray", "IntArray":
		ints, err := p.ints(tok)
		if err != nil {
			return nil, err
		}
		out := make(PackedInt32Array, len(ints))
		for i, v := range ints {
			out[i] = int32(v)
		}
		return out, nil
	case "PackedInt64Array":
		ints, err := p.ints(tok)
		if err != nil {
			return nil, err
		}
		return PackedInt64Array(append([]int64(nil), ints...)), nil
	case "PackedFloat32Array", "PackedRealArray", "PoolRealArray", "FloatArray":
		fs, err := p.floats(tok, 1)
		if err != nil {
			return nil, err
		}
		out := make(PackedFloat32Array, len(fs))
		for i, v := range fs {
			out[i] = float32(v)
		}
		return out, nil
	case "PackedFloat64Array":
		fs, err := p.floats(tok, 1)
		if err != nil {
			return nil, err
		}
		return PackedFloat64Array(append([]float64(nil), fs...)), nil
	case "PackedStringArray", "PoolStringArray", "StringArray":
		return p.parseStringArray(tok)
	case "PackedVector2Array", "PoolVector2Array", "Vector2Array":
		fs, err := p.floats(tok, 2)
		if err != nil {
			return nil, err
		}
		out := make(PackedVector2Array, len(fs)/2)
		for i := range out {
			out[i] = Vector2{fs[2*i], fs[2*i+1]}
		}
		return out, nil
	case "PackedVector3Array", "PoolVector3Array", "Vector3Array":
		fs, err := p.floats(tok, 3)
		if err != nil {
			return nil, err
		}
		out := make(PackedVector3Array, len(fs)/3)
		for i := range out {
			out[i] = Vector3{fs[3*i], fs[3*i+1], fs[3*i+2]}
		}
		return out, nil
	case "PackedVector4Array":
		fs, err := p.floats(tok, 4)
		if err != nil {
			return nil, err
		}
		p.format4 = true
		out := make(PackedVector4Array, len(fs)/4)
		for i := range out {
			out[i] = Vector4{fs[4*i], fs[4*i+1], fs[4*i+2], fs[4*i+3]}
		}
		return out, nil
	case "PackedColorArray", "PoolColorArray", "ColorArray":
		fs, err := p.floats(tok, 4)
		if err != nil {
			return nil, err
		}
		out := make(PackedColorArray, len(fs)/4)
		for i := range out {
			out[i] = Color{fs[4*i], fs[4*i+1], fs[4*i+2], fs[4*i+3]}
		}
		return out, nil
	}
	return nil, errAt(tok.pos, "unexpected identifier %q, expected a value", name)
}

func basisOf(n []float64) Basis {
	return Basis{Rows: [3]Vector3{{n[0], n[1], n[2]}, {n[3], n[4], n[5]}, {n[6], n[7], n[8]}}}
}

// toI32 converts a constructor argument to int32 the way a Variant cast does,
// without relying on Go's implementation-defined float-to-int conversion.
func toI32(f float64) int32 {
	switch {
	case f != f:
		return 0
	case f >= math.MaxInt32:
		return math.MaxInt32
	case f <= math.MinInt32:
		return math.MinInt32
	}
	return int32(f)
}

func toI64(f float64) int64 {
	switch {
	case f != f:
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

// numberOf returns the numeric value of a constructor argument token:
// a number or one of the identifiers inf, -inf, inf_neg, nan.
func (p *valueParser) numberOf(tok token) (float64, bool) {
	switch tok.kind {
	case tokNumber:
		if tok.isFloat {
			return tok.f, true
		}
		return float64(tok.i), true
	case tokIdent:
		switch string(p.lx.src[tok.pos:tok.end]) {
		case "inf":
			return math.Inf(1), true
		case "-inf", "inf_neg":
			return math.Inf(-1), true
		case "nan":
			return math.NaN(), true
		}
	}
	return 0, false
}

// numList reads "(n, n, ...)" into p.scratch (asInts false) or p.iscr
// (asInts true). Unlike arrays, numeric constructors do not allow a trailing
// comma. It is the hot loop for packed arrays, so it avoids closures and
// re-scans punctuation directly.
func (p *valueParser) numList(ctor token, asInts bool) *parseError {
	lx := &p.lx
	src := lx.src
	name := p.ident(ctor)
	if _, err := p.expect(tokLParen, "'('", "after %s", name); err != nil {
		return err
	}
	fs, is, bs := p.scratch[:0], p.iscr[:0], []byte(nil)
	defer func() { p.scratch, p.iscr, p.bout = fs, is, bs }()
	i := skipTrivia(src, lx.pos)
	if i < len(src) && src[i] == ')' {
		lx.pos = i + 1
		return nil
	}
	// Size the buffer once from the commas before the closing parenthesis
	// (a memchr-speed pass) instead of growing it by doubling: a large
	// packed array would otherwise cost up to twice its size in garbage.
	if j := bytes.IndexByte(src[i:], ')'); j > 0 {
		n := bytes.Count(src[i:i+j], []byte{','}) + 1
		switch {
		case p.toBytes:
			bs = make([]byte, 0, n)
		case asInts:
			is = slices.Grow(is, n)
		default:
			fs = slices.Grow(fs, n)
		}
	}
	for {
		lx.pos = i
		tok, err := lx.next()
		if err != nil {
			return err
		}
		switch {
		case tok.kind == tokNumber && p.toBytes && !tok.isFloat:
			bs = append(bs, byte(tok.i))
		case tok.kind == tokNumber && asInts && !tok.isFloat:
			is = append(is, tok.i)
		case tok.kind == tokNumber && !asInts && tok.isFloat:
			fs = append(fs, tok.f)
		default:
			f, ok := p.numberOf(tok)
			if !ok {
				return errAt(tok.pos, "expected a number in %s(...), found %s", name, lx.describe(tok))
			}
			if asInts {
				v := toI64(f)
				if tok.kind == tokNumber && !tok.isFloat {
					v = tok.i
				}
				if p.toBytes {
					bs = append(bs, byte(v))
				} else {
					is = append(is, v)
				}
			} else {
				fs = append(fs, f)
			}
		}
		i = skipTrivia(src, lx.pos)
		if i < len(src) {
			switch src[i] {
			case ')':
				lx.pos = i + 1
				return nil
			case ',':
				i = skipTrivia(src, i+1)
				continue
			}
		}
		lx.pos = i
		tok, err = lx.next()
		if err != nil {
			return err
		}
		return errAt(tok.pos, "expected ',' or ')' in %s(...), found %s", name, lx.describe(tok))
	}
}

// fixed reads a constructor that takes exactly n numbers.
func (p *valueParser) fixed(ctor token, n int) ([16]float64, *parseError) {
	var out [16]float64
	if err := p.numList(ctor, false); err != nil {
		return out, err
	}
	if len(p.scratch) != n {
		return out, errAt(ctor.pos, "%s expects %d numbers, found %d", p.ident(ctor), n, len(p.scratch))
	}
	copy(out[:], p.scratch)
	return out, nil
}

// floats reads a packed float list whose length must be a multiple of group.
// The result aliases p.scratch and is only valid until the next call.
func (p *valueParser) floats(ctor token, group int) ([]float64, *parseError) {
	if err := p.numList(ctor, false); err != nil {
		return nil, err
	}
	if len(p.scratch)%group != 0 {
		return nil, errAt(ctor.pos, "%s needs a multiple of %d numbers, found %d", p.ident(ctor), group, len(p.scratch))
	}
	return p.scratch, nil
}

// ints reads a packed integer list. Integer tokens keep full int64 precision.
// The result aliases p.iscr and is only valid until the next call.
func (p *valueParser) ints(ctor token) ([]int64, *parseError) {
	if err := p.numList(ctor, true); err != nil {
		return nil, err
	}
	return p.iscr, nil
}

func (p *valueParser) emptyArgs(ctor token) (token, *parseError) {
	name := p.ident(ctor)
	if _, err := p.expect(tokLParen, "'('", "after %s", name); err != nil {
		return token{}, err
	}
	return p.expect(tokRParen, "')'", "in %s()", name)
}

func (p *valueParser) stringArg(ctor token) (string, *parseError) {
	name := p.ident(ctor)
	if _, err := p.expect(tokLParen, "'('", "after %s", name); err != nil {
		return "", err
	}
	s, err := p.expect(tokString, "a string", "as the argument of %s()", name)
	if err != nil {
		return "", err
	}
	if _, err := p.expect(tokRParen, "')'", "after the argument of %s()", name); err != nil {
		return "", err
	}
	return s.str, nil
}

func (p *valueParser) parseRID(ctor token) (Value, *parseError) {
	if _, err := p.expect(tokLParen, "'('", "after RID", ""); err != nil {
		return nil, err
	}
	tok, err := p.lx.next()
	if err != nil {
		return nil, err
	}
	if tok.kind == tokRParen {
		return RID{}, nil
	}
	if tok.kind != tokNumber {
		return nil, errAt(tok.pos, "expected a number or ')' in RID(), found %s", p.lx.describe(tok))
	}
	id := tok.i
	if tok.isFloat {
		id = toI64(tok.f)
	}
	if _, err := p.expect(tokRParen, "')'", "in RID()", ""); err != nil {
		return nil, err
	}
	return RID{ID: id}, nil
}

// parseResource handles Resource("path"), Resource("uid", "path"),
// ExtResource("id") and SubResource("id"). Numeric ids (from files converted
// from Godot 3) are kept as their text.
func (p *valueParser) parseResource(ctor token) (Value, *parseError) {
	name := p.ident(ctor)
	if _, err := p.expect(tokLParen, "'('", "after %s", name); err != nil {
		return nil, err
	}
	tok, err := p.lx.next()
	if err != nil {
		return nil, err
	}
	if name == "Resource" {
		if tok.kind != tokString {
			return nil, errAt(tok.pos, "expected a path string in Resource(), found %s", p.lx.describe(tok))
		}
		ref := ResourceRef{Path: tok.str}
		tok, err = p.lx.next()
		if err != nil {
			return nil, err
		}
		if tok.kind == tokComma {
			second, err := p.expect(tokString, "a path string", "after the UID in Resource()", "")
			if err != nil {
				return nil, err
			}
			ref = ResourceRef{UID: ref.Path, Path: second.str}
			tok, err = p.lx.next()
			if err != nil {
				return nil, err
			}
		}
		if tok.kind != tokRParen {
			return nil, errAt(tok.pos, "expected ')' in Resource(), found %s", p.lx.describe(tok))
		}
		return ref, nil
	}
	var id string
	switch tok.kind {
	case tokString:
		id = tok.str
	case tokNumber:
		id = view(p.lx.src[tok.pos:tok.end])
	default:
		return nil, errAt(tok.pos, "expected an id string in %s(), found %s", name, p.lx.describe(tok))
	}
	if _, err := p.expect(tokRParen, "')'", "after the id in %s()", name); err != nil {
		return nil, err
	}
	sub := name == "SubResource"
	if p.onRef != nil {
		if err := p.onRef(sub, id, ctor.pos); err != nil {
			return nil, err
		}
	}
	if sub {
		return SubResource{ID: id}, nil
	}
	return ExtResource{ID: id}, nil
}

// parseTypeRef reads the element type inside Array[...] or Dictionary[...].
func (p *valueParser) parseTypeRef(ctx string) (*TypeRef, *parseError) {
	tok, err := p.lx.next()
	if err != nil {
		return nil, err
	}
	if tok.kind != tokIdent {
		return nil, errAt(tok.pos, "expected a type name %s, found %s", ctx, p.lx.describe(tok))
	}
	name := p.ident(tok)
	switch name {
	case "Resource", "ExtResource", "SubResource":
		// Resource alone is a class name (Array[Resource]); followed by '('
		// it is a reference to the script that types the container.
		save := p.lx.pos
		peek, err := p.lx.next()
		if err != nil {
			return nil, err
		}
		p.lx.pos = save
		if peek.kind == tokLParen {
			v, err := p.parseResource(tok)
			if err != nil {
				return nil, err
			}
			return &TypeRef{Script: v}, nil
		}
	}
	return &TypeRef{Name: name}, nil
}

func (p *valueParser) parseTypedArray(ctor token) (Value, *parseError) {
	tok, err := p.lx.next()
	if err != nil {
		return nil, err
	}
	var typ *TypeRef
	switch tok.kind {
	case tokLBracket:
		if typ, err = p.parseTypeRef("in Array[...]"); err != nil {
			return nil, err
		}
		if _, err := p.expect(tokRBracket, "']'", "after the element type of Array[...]", ""); err != nil {
			return nil, err
		}
		if _, err := p.expect(tokLParen, "'('", "after Array[...]", ""); err != nil {
			return nil, err
		}
	case tokLParen:
		// Array([...]) without a type: not written by Godot 4, accepted anyway.
	default:
		return nil, errAt(tok.pos, "expected '[' after Array, found %s", p.lx.describe(tok))
	}
	open, err := p.expect(tokLBracket, "'['", "inside Array(...)", "")
	if err != nil {
		return nil, err
	}
	items, err := p.parseArrayBody(open)
	if err != nil {
		return nil, err
	}
	if _, err := p.expect(tokRParen, "')'", "after the items of Array(...)", ""); err != nil {
		return nil, err
	}
	return Array{Type: typ, Items: items}, nil
}

func (p *valueParser) parseTypedDict(ctor token) (Value, *parseError) {
	tok, err := p.lx.next()
	if err != nil {
		return nil, err
	}
	var kt, vt *TypeRef
	switch tok.kind {
	case tokLBracket:
		if kt, err = p.parseTypeRef("for the key of Dictionary[...]"); err != nil {
			return nil, err
		}
		if _, err := p.expect(tokComma, "','", "after the key type of Dictionary[...]", ""); err != nil {
			return nil, err
		}
		if vt, err = p.parseTypeRef("for the value of Dictionary[...]"); err != nil {
			return nil, err
		}
		if _, err := p.expect(tokRBracket, "']'", "after the value type of Dictionary[...]", ""); err != nil {
			return nil, err
		}
		if _, err := p.expect(tokLParen, "'('", "after Dictionary[...]", ""); err != nil {
			return nil, err
		}
	case tokLParen:
	default:
		return nil, errAt(tok.pos, "expected '[' after Dictionary, found %s", p.lx.describe(tok))
	}
	open, err := p.expect(tokLBrace, "'{'", "inside Dictionary(...)", "")
	if err != nil {
		return nil, err
	}
	d, err := p.parseDictBody(open)
	if err != nil {
		return nil, err
	}
	if _, err := p.expect(tokRParen, "')'", "after the entries of Dictionary(...)", ""); err != nil {
		return nil, err
	}
	d.KeyType, d.ValueType = kt, vt
	return d, nil
}

// parseObject reads Object(Class,"prop":value,...). The writer always puts a
// comma after the class, even with no properties; both forms are accepted, as
// is a trailing comma.
func (p *valueParser) parseObject(ctor token) (Value, *parseError) {
	if _, err := p.expect(tokLParen, "'('", "after Object", ""); err != nil {
		return nil, err
	}
	cls, err := p.expect(tokIdent, "a class name", "in Object(...)", "")
	if err != nil {
		return nil, err
	}
	obj := Object{Class: p.ident(cls)}
	for {
		tok, err := p.lx.next()
		if err != nil {
			return nil, err
		}
		if tok.kind == tokRParen {
			return obj, nil
		}
		if tok.kind != tokComma {
			return nil, errAt(tok.pos, "expected ',' or ')' in Object(...), found %s", p.lx.describe(tok))
		}
		tok, err = p.lx.next()
		if err != nil {
			return nil, err
		}
		if tok.kind == tokRParen {
			return obj, nil
		}
		if tok.kind != tokString {
			return nil, errAt(tok.pos, "expected a property name string in Object(...), found %s", p.lx.describe(tok))
		}
		if _, err := p.expect(tokColon, "':'", "after property name in Object(...)", ""); err != nil {
			return nil, err
		}
		vt, err := p.lx.next()
		if err != nil {
			return nil, err
		}
		v, err := p.parseValue(vt)
		if err != nil {
			return nil, err
		}
		obj.Props = append(obj.Props, ObjectProp{Name: tok.str, Value: v})
	}
}

// parseStringArray reads PackedStringArray("a", "b"); a trailing comma is
// tolerated, as in the engine.
func (p *valueParser) parseStringArray(ctor token) (Value, *parseError) {
	if _, err := p.expect(tokLParen, "'('", "after PackedStringArray", ""); err != nil {
		return nil, err
	}
	var out PackedStringArray
	for {
		tok, err := p.lx.next()
		if err != nil {
			return nil, err
		}
		if tok.kind == tokRParen {
			return out, nil
		}
		if tok.kind != tokString {
			return nil, errAt(tok.pos, "expected a string or ')' in PackedStringArray(...), found %s", p.lx.describe(tok))
		}
		out = append(out, tok.str)
		tok, err = p.lx.next()
		if err != nil {
			return nil, err
		}
		if tok.kind == tokRParen {
			return out, nil
		}
		if tok.kind != tokComma {
			return nil, errAt(tok.pos, "expected ',' or ')' in PackedStringArray(...), found %s", p.lx.describe(tok))
		}
	}
}

// parseByteArray accepts PackedByteArray(), PackedByteArray("base64") and
// PackedByteArray(1, 2, 3).
func (p *valueParser) parseByteArray(ctor token) (Value, *parseError) {
	save := p.lx.pos
	if _, err := p.expect(tokLParen, "'('", "after PackedByteArray", ""); err != nil {
		return nil, err
	}
	tok, err := p.lx.next()
	if err != nil {
		return nil, err
	}
	switch tok.kind {
	case tokRParen:
		return PackedByteArray{Data: []byte{}}, nil
	case tokString:
		data, derr := base64.StdEncoding.DecodeString(tok.str)
		if derr != nil {
			return nil, errAt(tok.pos, "invalid base64 data in PackedByteArray")
		}
		if _, err := p.expect(tokRParen, "')'", "after the base64 data of PackedByteArray", ""); err != nil {
			return nil, err
		}
		if len(data) > 64 {
			p.format4 = true
		}
		return PackedByteArray{Data: data, Base64: true}, nil
	}
	p.lx.pos = save
	p.toBytes = true
	err = p.numList(ctor, true)
	p.toBytes = false
	data := p.bout
	p.bout = nil
	if err != nil {
		return nil, err
	}
	if data == nil {
		data = []byte{}
	}
	if len(data) > 64 {
		p.format4 = true
	}
	return PackedByteArray{Data: data}, nil
}
