package godot

import (
	"bytes"
)

// The lossless model. A document is the list of statements of a file: section
// headers ("[tag ...]") and property assignments ("key = value"). Every
// statement keeps the exact source bytes it was read from plus the trivia
// (whitespace and ';' comments) in front of it, so writing an untouched
// document reproduces the input byte for byte. An edit drops the raw bytes of
// the statements it touches; only those are re-rendered canonically, so a
// diff of the output shows exactly the lines the edit changed.

type sectionKind uint8

const (
	secOther sectionKind = iota
	secHeader
	secExt
	secSub
	secResource
	secNode
	secConnection
	secEditable
)

// span is a piece of the document's text: n bytes from off in the source,
// or, when off is negative, the bytes d.owned[-off-1] (trivia rewritten by
// an edit). Raw texts and trivia are kept as spans rather than slices
// (8 bytes instead of 24, for every statement and header field of a file),
// which is what a large scene costs per statement. The zero span is "no
// text": a real statement or field is never empty.
type span struct{ off, n int32 }

// spanOf is the span of src[start:end].
func spanOf(start, end int) span { return span{off: int32(start), n: int32(end - start)} }

// has reports whether the span holds text.
func (s span) has() bool { return s.n != 0 }

// text returns the bytes of sp (nil for an empty span).
func (d *document) text(sp span) []byte {
	switch {
	case sp.n == 0:
		return nil
	case sp.off < 0:
		return d.owned[-sp.off-1]
	}
	return d.src[sp.off : sp.off+sp.n : sp.off+sp.n]
}

// own keeps b (trivia an edit computed) in the document and returns its
// span. Edits are few, so what a later edit replaces is simply left in
// d.owned until the document goes.
func (d *document) own(b []byte) span {
	if len(b) == 0 {
		return span{}
	}
	d.owned = append(d.owned, b[:len(b):len(b)])
	return span{off: -int32(len(d.owned)), n: int32(len(b))}
}

// maxSource is the largest source a document can hold: spans are 32-bit.
const maxSource = 1<<31 - 1

// field is one name=value pair of a section header.
type field struct {
	name  string
	value Value
	raw   span // source text "name=value"; zero once edited
}

// entry is one property assignment.
type entry struct {
	pre     span  // trivia before the statement
	raw     span  // source text "key = value"; zero for entries created by edits
	headLen int32 // length of the "key = " prefix of raw
	dirty   bool  // value edited: render raw[:headLen] (or the key) + canonical value
	key     string
	value   Value
}

// Field is a read-only copy of one header field, e.g. name="Player".
type Field struct {
	Name  string
	Value Value
}

// Property is one property assignment of a section, e.g. position = Vector2(0, 0).
type Property struct {
	Key   string
	Value Value
}

// Section is one bracketed section of a file with the properties that follow
// it: a [node], [sub_resource] or [resource] of a scene or resource file, or a
// [section] of a ConfigFile. Properties keep file order. Keys set for the first
// time are appended; Godot orders them by the class's property list, which
// this package cannot know without the engine.
type Section struct {
	doc        *document
	kind       sectionKind
	pre        span // trivia before the header
	raw        span // header source text; zero for a headerless or edited section
	headerless bool // the ConfigFile pseudo-section "" holding keys before any [section]
	tag        string
	fields     []field
	entries    []entry
	wrap       any // the *Node / *ExtResourceDecl / *SubResourceDecl view, kept stable across edits
}

// document owns the statements of one file.
type document struct {
	name     string
	src      []byte
	config   bool   // ConfigFile syntax: simple tags, key=value without spaces
	nl       string // line ending used for inserted statements
	sections []*Section
	tail     span     // trivia after the last statement
	owned    [][]byte // trivia rewritten by edits; see span
	edited   bool

	// mode returns how edited values spell byte arrays (resource files
	// follow their format field); nil means as recorded.
	mode func() byteMode
	// floats is how edited values spell floats: the style of the Godot
	// version the file belongs to.
	floats FloatStyle
	// removed is told about values that an edit removed or replaced, so
	// the owner can drop resources nobody references any more.
	removed func(vals []Value)
}

func (d *document) writer() writer {
	if d.mode == nil {
		return writer{floats: d.floats}
	}
	return writer{bytes: d.mode(), floats: d.floats}
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// docHooks let the file-level parsers validate structure while the document
// is read, with exact positions.
type docHooks struct {
	tag   func(s *Section, off int) *parseError
	entry func(s *Section, key string, off int) *parseError
}

// parseDocument splits src into statements (VariantParser's
// parse_tag_assign_eof loop). src must not be modified afterwards: raw spans
// alias it.
func parseDocument(name string, src []byte, config bool, p *valueParser, h docHooks) (*document, *parseError) {
	if len(src) > maxSource {
		return nil, errAt(0, "the file is larger than 2 GiB, more than any Godot file can be")
	}
	d := &document{name: name, src: src, config: config, nl: "\n"}
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		d.nl = "\r\n"
	}
	p.lx.src = src
	// Sections, fields and entries are carved out of three slabs sized from
	// cheap estimates, instead of one allocation per statement. Each
	// section's slices are capped (full slice expressions) so a later append
	// by an edit reallocates instead of overwriting the next section.
	nsec, nent := countStatements(src)
	secSlab := make([]Section, 0, nsec)
	// Most headers have two to four fields ([node name type parent]); the
	// slab is topped up in chunks when a file has more (fieldChunk).
	fieldSlab := make([]field, 0, 3*nsec+fieldChunk)
	entrySlab := make([]entry, 0, nent)
	d.sections = make([]*Section, 0, nsec)
	pos := 0
	if bytes.HasPrefix(src, utf8BOM) {
		pos = len(utf8BOM) // kept in the first statement's trivia
	}
	triviaStart := 0
	var cur *Section
	entStart := 0
	closeSection := func() {
		if cur != nil {
			cur.entries = entrySlab[entStart:len(entrySlab):len(entrySlab)]
		}
		entStart = len(entrySlab)
	}
	for {
		i := skipTrivia(src, pos)
		if i >= len(src) {
			closeSection()
			d.tail = spanOf(triviaStart, len(src))
			return d, nil
		}
		pre := spanOf(triviaStart, i)
		if src[i] == '[' {
			closeSection()
			if len(secSlab) == cap(secSlab) {
				secSlab = make([]Section, 0, 16)
			}
			secSlab = append(secSlab, Section{doc: d})
			sec := &secSlab[len(secSlab)-1]
			var end int
			var err *parseError
			if config {
				end, err = d.parseSimpleTag(sec, i)
			} else {
				if cap(fieldSlab)-len(fieldSlab) < fieldChunk {
					// A new chunk: the sections before keep theirs.
					fieldSlab = make([]field, 0, 4*fieldChunk)
				}
				fstart := len(fieldSlab)
				end, err = d.parseTag(p, sec, i, &fieldSlab)
				sec.fields = fieldSlab[fstart:len(fieldSlab):len(fieldSlab)]
			}
			if err != nil {
				return nil, err
			}
			sec.pre = pre
			if h.tag != nil {
				if err := h.tag(sec, i); err != nil {
					return nil, err
				}
			}
			d.sections = append(d.sections, sec)
			cur = sec
			pos, triviaStart = end, end
			continue
		}
		entrySlab = append(entrySlab, entry{pre: pre})
		e := &entrySlab[len(entrySlab)-1]
		end, err := d.parseEntry(p, i, e)
		if err != nil {
			return nil, err
		}
		if cur == nil && config {
			cur = &Section{doc: d, headerless: true}
			d.sections = append(d.sections, cur)
		}
		if h.entry != nil {
			if err := h.entry(cur, e.key, i); err != nil {
				return nil, err
			}
		}
		if cur == nil {
			return nil, errAt(i, "property %q outside of any section", e.key)
		}
		pos, triviaStart = end, end
	}
}

// fieldChunk is the least room left in the field slab before a header is
// parsed into it; a header with more fields reallocates only its own.
const fieldChunk = 16

// countStatements estimates, in one cheap pass, how many sections and
// property entries src holds: lines starting with '[' and other non-blank
// lines. Continuation lines of multi-line values count as entries, so the
// entry estimate is high for such files but never low for ordinary ones;
// blank lines (one per section in saved files) are not counted, so the
// entry slab is not a section's worth too large per section.
func countStatements(src []byte) (sections, entries int) {
	sections = 1
	entries = 1
	for i := 0; i < len(src); {
		switch src[i] {
		case '[':
			sections++
		case '\n', '\r':
		default:
			entries++
		}
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
	}
	return sections, entries
}

// parseEntry reads "key = value" starting at a non-trivia byte that is not
// '['. Keys follow the engine: unquoted keys are every byte > 32 up to '='
// (spaces inside are skipped), or a quoted string.
func (d *document) parseEntry(p *valueParser, start int, e *entry) (int, *parseError) {
	src := d.src
	j := start
	for j < len(src) && src[j] > ' ' && src[j] != '=' && src[j] != ';' && src[j] != '"' {
		j++
	}
	k := j
	for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
		k++
	}
	var key string
	eq := -1
	if j > start && k < len(src) && src[k] == '=' {
		key = view(src[start:j])
		eq = k
	} else {
		var buf []byte
		quoted := false
		i := start
		for eq < 0 {
			if i >= len(src) {
				return 0, errAt(start, "expected '=' after property name %q, found end of file", buf)
			}
			switch c := src[i]; {
			case c == ';':
				n := bytes.IndexByte(src[i:], '\n')
				if n < 0 {
					i = len(src)
				} else {
					i += n + 1
				}
			case c == '"':
				p.lx.pos = i
				tok, err := p.lx.next()
				if err != nil {
					return 0, err
				}
				buf = append(buf[:0], tok.str...)
				quoted = true
				i = tok.end
			case c == '=':
				eq = i
			case c > ' ':
				buf = append(buf, c)
				i++
			default:
				i++
			}
		}
		if len(buf) == 0 && !quoted {
			return 0, errAt(eq, "expected a property name before '='")
		}
		key = view(buf) // buf is not reused
	}
	p.lx.pos = eq + 1
	tok, err := p.lx.next()
	if err != nil {
		return 0, err
	}
	if tok.kind == tokEOF {
		return 0, errAt(tok.pos, "expected a value after '%s =', found end of file", key)
	}
	v, err := p.parseValue(tok)
	if err != nil {
		return 0, err
	}
	end := p.lx.pos
	e.raw, e.headLen, e.key, e.value = spanOf(start, end), int32(tok.pos-start), key, v
	return end, nil
}

// parseTag reads a resource-file section header: [name field=value ...].
func (d *document) parseTag(p *valueParser, sec *Section, start int, fields *[]field) (int, *parseError) {
	src := d.src
	p.lx.pos = start + 1
	tok, err := p.lx.next()
	if err != nil {
		return 0, err
	}
	if tok.kind != tokIdent {
		return 0, errAt(tok.pos, "expected a section name after '[', found %s", p.lx.describe(tok))
	}
	name := view(src[tok.pos:tok.end])
	parsingName := true
	for {
		tok, err = p.lx.next()
		if err != nil {
			return 0, err
		}
		if tok.kind == tokEOF {
			return 0, errAt(start, "unterminated [%s] header: expected ']' before end of file", name)
		}
		// Names such as [a.b] or [a:b] are joined back together.
		if parsingName && (tok.kind == tokPeriod || tok.kind == tokColon) {
			name += string(src[tok.pos:tok.end])
			if tok, err = p.lx.next(); err != nil {
				return 0, err
			}
		} else {
			parsingName = false
		}
		if tok.kind == tokRBracket {
			break
		}
		if parsingName && tok.kind == tokIdent {
			name += string(src[tok.pos:tok.end])
			continue
		}
		parsingName = false
		if tok.kind != tokIdent {
			return 0, errAt(tok.pos, "expected a field name or ']' in [%s] header, found %s", name, p.lx.describe(tok))
		}
		fstart := tok.pos
		fname := view(src[tok.pos:tok.end])
		eq, err := p.lx.next()
		if err != nil {
			return 0, err
		}
		if eq.kind != tokEqual {
			return 0, errAt(eq.pos, "expected '=' after field %q in [%s] header, found %s", fname, name, p.lx.describe(eq))
		}
		vt, err := p.lx.next()
		if err != nil {
			return 0, err
		}
		v, err := p.parseValue(vt)
		if err != nil {
			return 0, err
		}
		*fields = append(*fields, field{name: fname, value: v, raw: spanOf(fstart, p.lx.pos)})
	}
	sec.tag = name
	sec.raw = spanOf(start, p.lx.pos)
	return p.lx.pos, nil
}

// parseSimpleTag reads a ConfigFile section header: the raw text between '['
// and ']', where "\]" escapes a bracket.
func (d *document) parseSimpleTag(sec *Section, start int) (int, *parseError) {
	src := d.src
	escaping := false
	i := start + 1
	for {
		if i >= len(src) {
			return 0, errAt(start, "unterminated section header: expected ']' before end of file")
		}
		c := src[i]
		if c == ']' {
			if !escaping {
				break
			}
			escaping = false
		} else {
			escaping = c == '\\'
		}
		i++
	}
	name := bytes.TrimFunc(src[start+1:i], func(r rune) bool { return r <= ' ' })
	sec.tag = view(name)
	if bytes.Contains(name, []byte(`\]`)) {
		sec.tag = string(bytes.ReplaceAll(name, []byte(`\]`), []byte("]")))
	}
	sec.raw = spanOf(start, i+1)
	return i + 1, nil
}
