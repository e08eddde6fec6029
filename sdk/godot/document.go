package godot

import (
	"bytes"
	"slices"
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

// span is a piece of the document's source: n bytes from off. Raw texts
// are kept as spans rather than slices (8 bytes instead of 24, for every
// statement and header field of a file), which is what a large scene costs
// per statement. The zero span is "no text": a real statement or field is
// never empty.
type span struct{ off, n int32 }

// spanOf is the span of src[start:end].
func spanOf(start, end int) span { return span{off: int32(start), n: int32(end - start)} }

// has reports whether the span holds text.
func (s span) has() bool { return s.n != 0 }

// text returns the source bytes of sp (nil for the zero span).
func (d *document) text(sp span) []byte {
	if sp.n == 0 {
		return nil
	}
	return d.src[sp.off : sp.off+sp.n : sp.off+sp.n]
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
	pre     []byte // trivia before the statement
	raw     span   // source text "key = value"; zero for entries created by edits
	headLen int32  // length of the "key = " prefix of raw
	dirty   bool   // value edited: render raw[:headLen] (or the key) + canonical value
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
	pre        []byte
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
	tail     []byte // trivia after the last statement
	edited   bool

	// mode returns how edited values spell byte arrays (resource files
	// follow their format field); nil means as recorded.
	mode func() byteMode
	// removed is told about values that an edit removed or replaced, so
	// the owner can drop resources nobody references any more.
	removed func(vals []Value)
}

func (d *document) writer() writer {
	if d.mode == nil {
		return writer{}
	}
	return writer{bytes: d.mode()}
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
			d.tail = src[triviaStart:]
			return d, nil
		}
		pre := src[triviaStart:i]
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

// ---- rendering -------------------------------------------------------------

// bytes returns the document text. An unedited document is its source.
func (d *document) bytes() []byte {
	if !d.edited {
		return slices.Clone(d.src)
	}
	return d.appendTo(make([]byte, 0, len(d.src)+256))
}

func (d *document) appendTo(dst []byte) []byte {
	if !d.edited {
		return append(dst, d.src...)
	}
	w := d.writer()
	for _, s := range d.sections {
		dst = append(dst, s.pre...)
		if !s.headerless {
			if s.raw.has() {
				dst = append(dst, d.text(s.raw)...)
			} else {
				dst = s.appendHeader(dst, w)
			}
		}
		for i := range s.entries {
			e := &s.entries[i]
			dst = append(dst, e.pre...)
			if !e.dirty {
				dst = append(dst, d.text(e.raw)...)
				continue
			}
			dst = d.appendEntry(dst, w, e)
		}
	}
	return append(dst, d.tail...)
}

func (d *document) appendEntry(dst []byte, w writer, e *entry) []byte {
	if e.raw.has() {
		dst = append(dst, d.text(e.raw)[:e.headLen]...)
	} else {
		dst = appendKey(dst, e.key)
		if d.config {
			dst = append(dst, '=')
		} else {
			dst = append(dst, " = "...)
		}
	}
	return w.append(dst, e.value)
}

func (s *Section) appendHeader(dst []byte, w writer) []byte {
	dst = append(dst, '[')
	if s.doc.config {
		for i := 0; i < len(s.tag); i++ {
			if s.tag[i] == ']' {
				dst = append(dst, '\\')
			}
			dst = append(dst, s.tag[i])
		}
		return append(dst, ']')
	}
	dst = append(dst, s.tag...)
	for i := range s.fields {
		f := &s.fields[i]
		dst = append(dst, ' ')
		if f.raw.has() {
			dst = append(dst, s.doc.text(f.raw)...)
			continue
		}
		dst = append(dst, f.name...)
		dst = append(dst, '=')
		if s.kind == secConnection && f.name == "binds" {
			// The engine writes "binds= [...]" with a space; keep it so
			// edited connections look like saved ones.
			dst = append(dst, ' ')
		}
		dst = s.appendFieldValue(dst, w, f)
	}
	return append(dst, ']')
}

// appendFieldValue writes a header field. The engine C-escapes node names and
// paths, groups and connection fields, and writes the rest as plain values.
func (s *Section) appendFieldValue(dst []byte, w writer, f *field) []byte {
	cEscaped := false
	switch s.kind {
	case secNode:
		cEscaped = f.name == "name" || f.name == "parent" || f.name == "owner"
		if arr, ok := f.value.(Array); ok && f.name == "groups" && arr.Type == nil {
			dst = append(dst, '[')
			for i, it := range arr.Items {
				if i > 0 {
					dst = append(dst, ", "...)
				}
				if str, ok := it.(String); ok {
					dst = appendQuotedC(dst, string(str))
				} else {
					dst = w.append(dst, it)
				}
			}
			return append(dst, ']')
		}
	case secConnection:
		cEscaped = f.name == "signal" || f.name == "from" || f.name == "to" || f.name == "method"
	case secEditable:
		cEscaped = f.name == "path"
	}
	if str, ok := f.value.(String); ok && cEscaped {
		return appendQuotedC(dst, string(str))
	}
	return w.append(dst, f.value)
}

// ---- trivia bookkeeping for edits ------------------------------------------

// splitPre splits statement trivia into the part that finishes the previous
// line (up to and including the first newline, e.g. a trailing comment) and
// the part that belongs to this statement (blank lines, comment lines).
func splitPre(pre []byte) (lineTail, own []byte) {
	i := bytes.IndexByte(pre, '\n')
	if i < 0 {
		return pre, nil
	}
	return pre[:i+1], pre[i+1:]
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c > ' ' {
			return false
		}
	}
	return true
}

// joinPre computes the trivia of the statement following a removed one.
// A trailing comment on the line before the removed statement stays; the
// removed statement's own comments go with it; the wider blank-line gap of
// the two is kept so section grouping survives (removing the first
// [ext_resource] keeps the blank line after the file header).
func joinPre(removed, next []byte, nextIsTail bool) []byte {
	rt, ro := splitPre(removed)
	_, no := splitPre(next)
	keep := no
	if !nextIsTail && isBlank(ro) && isBlank(no) && bytes.Count(ro, []byte{'\n'}) > bytes.Count(no, []byte{'\n'}) {
		keep = ro
	}
	out := make([]byte, 0, len(rt)+len(keep))
	return append(append(out, rt...), keep...)
}

// insertPre returns the trivia for a statement inserted right before a
// statement whose trivia is *next, and fixes *next up: if *next starts with a
// trailing comment of the previous line, that comment stays on that line.
func (d *document) insertPre(defaultPre string, next *[]byte) []byte {
	lt, own := splitPre(*next)
	if len(lt) == 0 || string(lt) == d.nl || string(lt) == "\n" {
		return []byte(defaultPre)
	}
	if lt[len(lt)-1] != '\n' {
		// The trivia has no line break at all (say, a final comment without a
		// newline): the new statement must start on a line of its own.
		pre := append(slices.Clone(lt), defaultPre...)
		*next = nil
		return pre
	}
	// *next starts with a trailing comment of the previous line; it stays on
	// that line, ahead of the new statement.
	pre := append(slices.Clone(lt), defaultPre[len(d.nl):]...)
	*next = append([]byte(d.nl), own...)
	return pre
}

// followingPre returns the trivia slot of the statement after entry ei of
// section si (ei == -1 means after the header), and whether it is the file's
// tail.
func (d *document) followingPre(si, ei int) (*[]byte, bool) {
	s := d.sections[si]
	if ei+1 < len(s.entries) {
		return &s.entries[ei+1].pre, false
	}
	if si+1 < len(d.sections) {
		n := d.sections[si+1]
		if n.headerless && len(n.entries) > 0 {
			return &n.entries[0].pre, false
		}
		return &n.pre, false
	}
	return &d.tail, true
}

func (d *document) indexOf(s *Section) int {
	for i, x := range d.sections {
		if x == s {
			return i
		}
	}
	return -1
}

// removeSection drops a section and its properties.
func (d *document) removeSection(s *Section) {
	si := d.indexOf(s)
	if si < 0 {
		return
	}
	next, tail := d.followingPre(si, len(s.entries)-1)
	if s.headerless {
		if len(s.entries) > 0 {
			*next = joinPre(s.entries[0].pre, *next, tail)
		}
	} else {
		*next = joinPre(s.pre, *next, tail)
	}
	d.sections = slices.Delete(d.sections, si, si+1)
	d.edited = true
}

// insertSection inserts s before index si (len(d.sections) appends).
// defaultPre is the trivia it should get in a well-formed file.
func (d *document) insertSection(si int, s *Section, defaultPre string) {
	var next *[]byte
	if si < len(d.sections) {
		n := d.sections[si]
		if n.headerless && len(n.entries) > 0 {
			next = &n.entries[0].pre
		} else {
			next = &n.pre
		}
	} else {
		next = &d.tail
	}
	if si == 0 {
		// Nothing precedes the new statement: the trivia that led the file
		// (typically its comment block) stays at the top, ahead of it, and
		// must end with a line break so it cannot swallow the statement.
		lead := *next
		if len(lead) > 0 && lead[len(lead)-1] != '\n' {
			lead = append(slices.Clone(lead), d.nl...)
		}
		s.pre = lead
		if len(d.sections) > 0 {
			*next = []byte(defaultPre)
		} else {
			*next = []byte(d.nl) // the new statement is the whole file
		}
	} else {
		s.pre = d.insertPre(defaultPre, next)
	}
	s.doc = d
	d.sections = slices.Insert(d.sections, si, s)
	d.edited = true
}

// ---- Section API -------------------------------------------------------------

// Tag returns the section's name: "node", "sub_resource", "resource" in
// resource files, or the section name ("application", "input", "" for keys
// before any section) in a ConfigFile.
func (s *Section) Tag() string { return s.tag }

// Field returns a header field, e.g. Field("type") of a [node].
func (s *Section) Field(name string) (Value, bool) {
	for i := len(s.fields) - 1; i >= 0; i-- {
		if s.fields[i].name == name {
			return s.fields[i].value, true
		}
	}
	return nil, false
}

// Fields returns the header fields in file order.
func (s *Section) Fields() []Field {
	out := make([]Field, len(s.fields))
	for i, f := range s.fields {
		out[i] = Field{Name: f.name, Value: f.value}
	}
	return out
}

func (s *Section) fieldString(name string) string {
	v, _ := s.Field(name)
	if str, ok := stringOf(v); ok {
		return str
	}
	if i, ok := v.(Int); ok {
		return itoa(int(i))
	}
	return ""
}

func (s *Section) find(key string) int {
	for i := len(s.entries) - 1; i >= 0; i-- {
		if s.entries[i].key == key {
			return i
		}
	}
	return -1
}

// Get returns a property's value. When a key appears twice, the last one
// wins, as in the engine.
func (s *Section) Get(key string) (Value, bool) {
	if i := s.find(key); i >= 0 {
		return s.entries[i].value, true
	}
	return nil, false
}

// Has reports whether the property is set.
func (s *Section) Has(key string) bool { return s.find(key) >= 0 }

// Keys returns the property keys in file order.
func (s *Section) Keys() []string {
	out := make([]string, len(s.entries))
	for i := range s.entries {
		out[i] = s.entries[i].key
	}
	return out
}

// Properties returns the properties in file order.
func (s *Section) Properties() []Property {
	out := make([]Property, len(s.entries))
	for i := range s.entries {
		out[i] = Property{Key: s.entries[i].key, Value: s.entries[i].value}
	}
	return out
}

// Set sets a property. An existing assignment is rewritten in place (only its
// value text changes); a new one is appended to the section. Setting a value
// whose canonical text equals the current text leaves the file untouched.
func (s *Section) Set(key string, v Value) {
	if v == nil {
		v = Nil{}
	}
	d := s.doc
	if i := s.find(key); i >= 0 {
		e := &s.entries[i]
		w := d.writer()
		if !e.dirty && bytes.Equal(s.doc.text(e.raw)[e.headLen:], w.append(nil, v)) {
			e.value = v
			return
		}
		old := e.value
		e.value = v
		e.dirty = true
		d.edited = true
		if d.removed != nil {
			d.removed([]Value{old})
		}
		return
	}
	si := d.indexOf(s)
	pre := d.nl
	if len(s.entries) == 0 && d.config && !s.headerless {
		pre = d.nl + d.nl // ConfigFile puts a blank line after a section header
	}
	e := entry{key: key, value: v, dirty: true}
	if si >= 0 {
		next, _ := d.followingPre(si, len(s.entries)-1)
		if len(s.entries) == 0 && s.headerless {
			e.pre = []byte(pre)
		} else {
			e.pre = d.insertPre(pre, next)
		}
	} else {
		e.pre = []byte(pre)
	}
	s.entries = append(s.entries, e)
	d.edited = true
}

// Clear removes a property (every assignment of the key). It reports whether
// anything was removed. In a ConfigFile a section left empty is removed too,
// as the engine never writes empty sections.
func (s *Section) Clear(key string) bool {
	d := s.doc
	var removed []Value
	si := d.indexOf(s)
	for i := len(s.entries) - 1; i >= 0; i-- {
		if s.entries[i].key != key {
			continue
		}
		removed = append(removed, s.entries[i].value)
		if si >= 0 {
			next, tail := d.followingPre(si, i)
			*next = joinPre(s.entries[i].pre, *next, tail)
		}
		s.entries = slices.Delete(s.entries, i, i+1)
	}
	if len(removed) == 0 {
		return false
	}
	d.edited = true
	if d.config && len(s.entries) == 0 && si >= 0 {
		d.removeSection(s)
	}
	if d.removed != nil {
		d.removed(removed)
	}
	return true
}

// setField sets a header field, inserting a new one at the position given by
// the canonical field order for this kind of section.
func (s *Section) setField(name string, v Value, order []string) {
	for i := len(s.fields) - 1; i >= 0; i-- {
		if s.fields[i].name == name {
			f := &s.fields[i]
			if f.raw.has() && Equal(f.value, v) {
				return
			}
			f.value, f.raw = v, span{}
			s.raw = span{}
			s.doc.edited = true
			return
		}
	}
	rank := slices.Index(order, name)
	at := len(s.fields)
	if rank >= 0 {
		at = 0
		// After the last known field that sorts before this one; unknown
		// fields do not move the insertion point.
		for i, f := range s.fields {
			if r := slices.Index(order, f.name); r >= 0 && r < rank {
				at = i + 1
			}
		}
	}
	s.fields = slices.Insert(s.fields, at, field{name: name, value: v})
	s.raw = span{}
	s.doc.edited = true
}

// removeField drops a header field.
func (s *Section) removeField(name string) bool {
	n := len(s.fields)
	s.fields = slices.DeleteFunc(s.fields, func(f field) bool { return f.name == name })
	if len(s.fields) == n {
		return false
	}
	s.raw = span{}
	s.doc.edited = true
	return true
}

// markDirty forces re-rendering of every statement of s that contains a
// value for which pred is true.
func (s *Section) markDirty(pred func(Value) bool) {
	has := func(v Value) bool {
		found := false
		walkValue(v, func(x Value) {
			if !found && pred(x) {
				found = true
			}
		})
		return found
	}
	for i := range s.fields {
		if s.fields[i].raw.has() && has(s.fields[i].value) {
			s.fields[i].raw = span{}
			s.raw = span{}
		}
	}
	for i := range s.entries {
		if !s.entries[i].dirty && has(s.entries[i].value) {
			s.entries[i].dirty = true
		}
	}
}
