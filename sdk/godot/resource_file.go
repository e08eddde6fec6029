package godot

import (
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"strings"
)

// File is a parsed Godot 4 text scene (.tscn, header [gd_scene]) or text
// resource (.tres, header [gd_resource]). It is lossless: Bytes returns the
// input unchanged until an edit is made, and after edits only the statements
// the edits touched are re-rendered.
//
// A File is not safe for concurrent use.
type File struct {
	doc    *document
	header *Section
	scene  bool
	exts   []*ExtResourceDecl
	subs   []*SubResourceDecl
	main   *Section
	nodes  []*Node
	byPath map[string]*Node

	// Baselines for the file-wide rules applied when writing an edited file:
	// only a change caused by the edits may rewrite unrelated lines.
	format4  bool // the values require format=4 (see applyFileRules)
	resCount int  // ext + sub resources, for load_steps
}

// ExtResourceDecl is one [ext_resource type=... path=... id=...] line.
type ExtResourceDecl struct{ s *Section }

// ID returns the resource id used by ExtResource("id") references.
func (e *ExtResourceDecl) ID() string { return e.s.fieldString("id") }

// Type returns the resource class, e.g. "Texture2D" or "PackedScene".
func (e *ExtResourceDecl) Type() string { return e.s.fieldString("type") }

// Path returns the res:// path (or a path relative to the file).
func (e *ExtResourceDecl) Path() string { return e.s.fieldString("path") }

// UID returns the uid:// text, or "" when the line has none.
func (e *ExtResourceDecl) UID() string { return e.s.fieldString("uid") }

// Ref returns the value that refers to this resource from a property.
func (e *ExtResourceDecl) Ref() ExtResource { return ExtResource{ID: e.ID()} }

// SubResourceDecl is one [sub_resource] section with its properties.
type SubResourceDecl struct{ *Section }

// ID returns the resource id used by SubResource("id") references.
func (s *SubResourceDecl) ID() string { return s.fieldString("id") }

// Type returns the resource class, e.g. "RectangleShape2D".
func (s *SubResourceDecl) Type() string { return s.fieldString("type") }

// Ref returns the value that refers to this resource from a property.
func (s *SubResourceDecl) Ref() SubResource { return SubResource{ID: s.ID()} }

// Canonical header field orders, used when an edit adds a field.
var (
	sceneHeaderOrder    = []string{"load_steps", "format", "uid"}
	resourceHeaderOrder = []string{"type", "script_class", "load_steps", "format", "uid"}
	nodeOrder           = []string{"name", "type", "parent", "parent_id_path", "owner", "index", "unique_id", "node_paths", "groups", "instance_placeholder", "instance"}
	connectionOrder     = []string{"signal", "from", "to", "method", "flags", "unbinds", "binds"}
)

// ParseFile parses a .tscn or .tres file. name is used in error messages and
// may be empty. The source is copied; the caller may reuse src.
//
// Besides the grammar, ParseFile enforces the structural rules the engine's
// loader enforces: the [gd_scene]/[gd_resource] header comes first, format is
// at most 4, ext and sub resources precede nodes and carry their required
// fields, ids are unique, every ExtResource/SubResource reference names a
// resource declared before it, [node] only in scenes and [resource] only in
// resource files.
func ParseFile(name string, src []byte) (*File, error) {
	src = slices.Clone(src)
	f := &File{}
	b := &fileBuilder{f: f, extIDs: map[string]bool{}, subIDs: map[string]bool{}}
	p := getParser(src, b.ref)
	defer putParser(p)
	doc, err := parseDocument(name, src, false, p, docHooks{tag: b.tag, entry: b.entry})
	if err != nil {
		return nil, err.syntax(name, src)
	}
	if f.header == nil {
		return nil, errAt(len(src), "expected a [gd_scene] or [gd_resource] file header, found end of file").syntax(name, src)
	}
	if !f.scene && !b.sawResource {
		return nil, errAt(len(src), "expected a [resource] section in this [gd_resource] file, found end of file").syntax(name, src)
	}
	f.doc = doc
	doc.mode = f.byteMode
	doc.removed = f.valuesRemoved
	f.reindex()
	f.format4 = p.format4
	f.resCount = len(f.exts) + len(f.subs)
	return f, nil
}

// fileBuilder validates the section structure while the document is parsed.
type fileBuilder struct {
	f           *File
	stage       int // 1: ext resources, 2: sub resources, 3: body
	sawResource bool
	nodes       int
	extIDs      map[string]bool
	subIDs      map[string]bool
}

func idOf(v Value) (string, bool) {
	switch x := v.(type) {
	case String:
		return string(x), true
	case Int:
		return itoa(int(x)), true
	}
	return "", false
}

func (b *fileBuilder) require(s *Section, off int, names ...string) *parseError {
	for _, n := range names {
		if _, ok := s.Field(n); !ok {
			return errAt(off, "[%s] is missing its %q field", s.tag, n)
		}
	}
	return nil
}

func (b *fileBuilder) requireString(s *Section, off int, names ...string) *parseError {
	if err := b.require(s, off, names...); err != nil {
		return err
	}
	for _, n := range names {
		v, _ := s.Field(n)
		if _, ok := v.(String); !ok {
			return errAt(off, "field %q of [%s] must be a string, found %s", n, s.tag, v.Kind())
		}
	}
	return nil
}

func (b *fileBuilder) tag(s *Section, off int) *parseError {
	f := b.f
	if f.header == nil {
		switch s.tag {
		case "gd_scene":
			f.scene = true
		case "gd_resource":
			if err := b.requireString(s, off, "type"); err != nil {
				return err
			}
		default:
			return errAt(off, "expected a [gd_scene] or [gd_resource] file header, found [%s]", s.tag)
		}
		if v, ok := s.Field("format"); ok {
			n, isInt := v.(Int)
			if !isInt {
				return errAt(off, "field \"format\" of [%s] must be an integer, found %s", s.tag, v.Kind())
			}
			if n > 4 {
				return errAt(off, "file was saved with format=%d by a newer Godot; formats up to 4 can be read", n)
			}
		}
		s.kind = secHeader
		f.header = s
		b.stage = 1
		return nil
	}
	if b.sawResource {
		return errAt(off, "unexpected [%s] after the [resource] section, which must be last", s.tag)
	}
	switch s.tag {
	case "gd_scene", "gd_resource":
		return errAt(off, "unexpected second file header [%s]", s.tag)
	case "ext_resource":
		if b.stage > 1 {
			return errAt(off, "[ext_resource] must come before any [sub_resource], [node] or [resource] section")
		}
		if err := b.require(s, off, "type", "path", "id"); err != nil {
			return err
		}
		v, _ := s.Field("id")
		id, ok := idOf(v)
		if !ok {
			return errAt(off, "field \"id\" of [ext_resource] must be a string, found %s", v.Kind())
		}
		if b.extIDs[id] {
			return errAt(off, "duplicate [ext_resource] id %q", id)
		}
		b.extIDs[id] = true
		s.kind = secExt
	case "sub_resource":
		if b.stage > 2 {
			return errAt(off, "[sub_resource] must come before any [node] or [resource] section")
		}
		if err := b.require(s, off, "type", "id"); err != nil {
			return err
		}
		v, _ := s.Field("id")
		id, ok := idOf(v)
		if !ok {
			return errAt(off, "field \"id\" of [sub_resource] must be a string, found %s", v.Kind())
		}
		if b.subIDs[id] {
			return errAt(off, "duplicate [sub_resource] id %q", id)
		}
		b.subIDs[id] = true
		b.stage = 2
		s.kind = secSub
	case "resource":
		if f.scene {
			return errAt(off, "[resource] section in a [gd_scene] file; only resource files have one")
		}
		b.sawResource = true
		b.stage = 3
		s.kind = secResource
	case "node":
		if !f.scene {
			return errAt(off, "[node] section in a [gd_resource] file; only scenes have nodes")
		}
		if err := b.requireString(s, off, "name"); err != nil {
			return err
		}
		if v, ok := s.Field("parent"); ok {
			if _, isStr := v.(String); !isStr {
				return errAt(off, "field \"parent\" of [node] must be a string, found %s", v.Kind())
			}
		} else if b.nodes > 0 {
			return errAt(off, "[node] %q has no \"parent\" field; only the first node (the root) may omit it", s.fieldString("name"))
		}
		b.nodes++
		b.stage = 3
		s.kind = secNode
	case "connection":
		if !f.scene {
			return errAt(off, "[connection] section in a [gd_resource] file; only scenes have connections")
		}
		if err := b.requireString(s, off, "signal", "from", "to", "method"); err != nil {
			return err
		}
		b.stage = 3
		s.kind = secConnection
	case "editable":
		if !f.scene {
			return errAt(off, "[editable] section in a [gd_resource] file; only scenes have them")
		}
		if err := b.requireString(s, off, "path"); err != nil {
			return err
		}
		b.stage = 3
		s.kind = secEditable
	default:
		return errAt(off, "unknown section [%s]", s.tag)
	}
	return nil
}

func (b *fileBuilder) entry(s *Section, key string, off int) *parseError {
	if s == nil {
		return errAt(off, "property %q before the [gd_scene] or [gd_resource] header", key)
	}
	switch s.kind {
	case secSub, secResource, secNode:
		return nil
	}
	return errAt(off, "property %q is not allowed after [%s]; only [sub_resource], [resource] and [node] have properties", key, s.tag)
}

func (b *fileBuilder) ref(sub bool, id string, off int) *parseError {
	if b.f.header == nil {
		return nil // the statement itself is misplaced; that error wins
	}
	if sub {
		if !b.subIDs[id] {
			return errAt(off, "SubResource(%q) does not match any [sub_resource] declared before it", id)
		}
		return nil
	}
	if !b.extIDs[id] {
		return errAt(off, "ExtResource(%q) does not match any [ext_resource] id", id)
	}
	return nil
}

// reindex rebuilds the typed views from the section list after any
// structural edit. Wrappers are reused so pointers held by callers stay valid.
func (f *File) reindex() {
	f.byPath = make(map[string]*Node, len(f.nodes))
	f.exts, f.subs, f.nodes, f.main = f.exts[:0], f.subs[:0], f.nodes[:0], nil
	for _, s := range f.doc.sections {
		switch s.kind {
		case secExt:
			e, _ := s.wrap.(*ExtResourceDecl)
			if e == nil {
				e = &ExtResourceDecl{s: s}
				s.wrap = e
			}
			f.exts = append(f.exts, e)
		case secSub:
			sr, _ := s.wrap.(*SubResourceDecl)
			if sr == nil {
				sr = &SubResourceDecl{Section: s}
				s.wrap = sr
			}
			f.subs = append(f.subs, sr)
		case secResource:
			f.main = s
		case secNode:
			n, _ := s.wrap.(*Node)
			if n == nil {
				n = &Node{Section: s, f: f}
				s.wrap = n
			}
			if len(f.nodes) == 0 {
				n.path = "."
			} else {
				n.path = joinPath(n.ParentPath(), n.Name())
			}
			f.nodes = append(f.nodes, n)
			if _, dup := f.byPath[n.path]; !dup {
				f.byPath[n.path] = n
			}
		}
	}
}

// Name returns the file name given to ParseFile.
func (f *File) Name() string { return f.doc.name }

// IsScene reports whether the file is a scene ([gd_scene]).
func (f *File) IsScene() bool { return f.scene }

// Format returns the header's format field (3 or 4 for Godot 4 files), or 0
// when it is absent.
func (f *File) Format() int {
	if v, ok := f.header.Field("format"); ok {
		if n, ok := v.(Int); ok {
			return int(n)
		}
	}
	return 0
}

// UID returns the header's uid:// text, or "".
func (f *File) UID() string { return f.header.fieldString("uid") }

// ResourceType returns the class of the main resource: the type field of a
// [gd_resource] header, or "PackedScene" for scenes.
func (f *File) ResourceType() string {
	if f.scene {
		return "PackedScene"
	}
	return f.header.fieldString("type")
}

// ScriptClass returns the script_class field of a [gd_resource] header.
func (f *File) ScriptClass() string { return f.header.fieldString("script_class") }

// LoadSteps returns the load_steps header field written by Godot before 4.6,
// or 0. Readers ignore it; it is kept up to date when resources are added or
// removed.
func (f *File) LoadSteps() int {
	if v, ok := f.header.Field("load_steps"); ok {
		if n, ok := v.(Int); ok {
			return int(n)
		}
	}
	return 0
}

// Header returns the fields of the file header ([gd_scene ...] or
// [gd_resource ...]) in file order.
func (f *File) Header() []Field { return f.header.Fields() }

// Resource returns the [resource] section of a resource file (the main
// resource's properties), or nil for scenes.
func (f *File) Resource() *Section { return f.main }

// ExtResources returns the [ext_resource] lines in file order.
func (f *File) ExtResources() []*ExtResourceDecl { return slices.Clone(f.exts) }

// ExtResource returns the [ext_resource] with the given id, or nil.
func (f *File) ExtResource(id string) *ExtResourceDecl {
	for _, e := range f.exts {
		if e.ID() == id {
			return e
		}
	}
	return nil
}

// ExtResourceByPath returns the [ext_resource] with the given path, or nil.
func (f *File) ExtResourceByPath(path string) *ExtResourceDecl {
	for _, e := range f.exts {
		if e.Path() == path {
			return e
		}
	}
	return nil
}

// SubResources returns the [sub_resource] sections in file order.
func (f *File) SubResources() []*SubResourceDecl { return slices.Clone(f.subs) }

// SubResource returns the [sub_resource] with the given id, or nil.
func (f *File) SubResource(id string) *SubResourceDecl {
	for _, s := range f.subs {
		if s.ID() == id {
			return s
		}
	}
	return nil
}

// Bytes returns the file text. Before any edit it is exactly the parsed
// input. After edits, the file-wide rules of the editor's saver are applied
// first: format becomes 4 when the values now need it (a PackedVector4Array or
// a PackedByteArray over 64 bytes) or 3 when they no longer do, every byte
// array is then spelled to match, and a pre-4.6 load_steps field follows the
// number of resources.
func (f *File) Bytes() []byte {
	if f.doc.edited {
		f.applyFileRules()
	}
	return f.doc.bytes()
}

// WriteTo writes Bytes to w.
func (f *File) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(f.Bytes())
	return int64(n), err
}

func (f *File) byteMode() byteMode {
	switch f.Format() {
	case 3:
		return bytesAsInts
	case 4:
		return bytesAsBase64
	}
	return bytesAsRecorded
}

func (f *File) headerOrder() []string {
	if f.scene {
		return sceneHeaderOrder
	}
	return resourceHeaderOrder
}

func (f *File) applyFileRules() {
	f.orderSubResources()
	need4 := false
	f.eachValue(func(s *Section, v Value) {
		if need4 {
			return
		}
		walkValue(v, func(x Value) {
			switch b := x.(type) {
			case PackedVector4Array:
				need4 = true
			case PackedByteArray:
				if len(b.Data) > 64 {
					need4 = true
				}
			}
		})
	})
	if need4 != f.format4 {
		f.format4 = need4
		if cur := f.Format(); cur == 3 || cur == 4 {
			want := 3
			if need4 {
				want = 4
			}
			if want != cur {
				f.header.setField("format", Int(want), f.headerOrder())
				for _, s := range f.doc.sections {
					s.markDirty(func(x Value) bool {
						b, ok := x.(PackedByteArray)
						return ok && len(b.Data) > 0 && b.Base64 != need4
					})
				}
			}
		}
	}
	if n := len(f.exts) + len(f.subs); n != f.resCount {
		f.resCount = n
		if _, ok := f.header.Field("load_steps"); ok {
			if n+1 > 1 {
				f.header.setField("load_steps", Int(n+1), f.headerOrder())
			} else {
				f.header.removeField("load_steps")
			}
		}
	}
}

// orderSubResources restores the rule that a sub resource is declared before
// anything that refers to it, which an edit can break (an existing sub
// resource given a reference to a newly added one). The editor's saver
// writes dependencies first; the same stable depth-first order is applied
// here, and only when some reference points forward, so files that are
// already in order are not touched. Cycles, which the engine cannot load
// either, keep their order.
func (f *File) orderSubResources() {
	subs := f.subs
	idx := make(map[string]int, len(subs))
	for i, s := range subs {
		idx[s.ID()] = i
	}
	deps := make([][]int, len(subs))
	forward := false
	for i, s := range subs {
		refs := newRefSets()
		for k := range s.entries {
			refs.add(s.entries[k].value)
		}
		for id := range refs.sub {
			if j, ok := idx[id]; ok && j != i {
				deps[i] = append(deps[i], j)
				forward = forward || j > i
			}
		}
		slices.Sort(deps[i])
	}
	if !forward {
		return
	}
	state := make([]uint8, len(subs)) // 0 new, 1 visiting, 2 placed
	order := make([]int, 0, len(subs))
	var visit func(i int)
	visit = func(i int) {
		if state[i] != 0 {
			return
		}
		state[i] = 1
		for _, j := range deps[i] {
			visit(j)
		}
		state[i] = 2
		order = append(order, i)
	}
	for i := range subs {
		visit(i)
	}
	d := f.doc
	slots := make([]int, len(subs))
	pres := make([][]byte, len(subs))
	for k, s := range subs {
		slots[k] = d.indexOf(s.Section)
		pres[k] = s.pre
	}
	for k, i := range order {
		sec := subs[i].Section
		sec.pre = pres[k] // the layout stays with the position
		d.sections[slots[k]] = sec
	}
	d.edited = true
	f.reindex()
}

// eachValue calls fn for every header field value and property value.
func (f *File) eachValue(fn func(s *Section, v Value)) {
	for _, s := range f.doc.sections {
		for i := range s.fields {
			fn(s, s.fields[i].value)
		}
		for i := range s.entries {
			fn(s, s.entries[i].value)
		}
	}
}

// refSets collects the resource ids referenced by values.
type refSets struct{ ext, sub map[string]bool }

func newRefSets() refSets { return refSets{ext: map[string]bool{}, sub: map[string]bool{}} }

func (r refSets) add(v Value) {
	walkValue(v, func(x Value) {
		switch ref := x.(type) {
		case ExtResource:
			r.ext[ref.ID] = true
		case SubResource:
			r.sub[ref.ID] = true
		}
	})
}

func (r refSets) empty() bool { return len(r.ext) == 0 && len(r.sub) == 0 }

// used returns every id referenced anywhere in the file. A sub resource's
// references to itself do not keep it alive.
func (f *File) used() refSets {
	r := newRefSets()
	for _, s := range f.doc.sections {
		if s.kind == secExt {
			continue
		}
		var self string
		if s.kind == secSub {
			self = s.fieldString("id")
		}
		for i := range s.fields {
			if s.kind != secSub {
				r.add(s.fields[i].value)
			}
		}
		for i := range s.entries {
			walkValue(s.entries[i].value, func(x Value) {
				switch ref := x.(type) {
				case ExtResource:
					r.ext[ref.ID] = true
				case SubResource:
					if ref.ID != self {
						r.sub[ref.ID] = true
					}
				}
			})
		}
	}
	return r
}

// valuesRemoved drops resources whose last reference an edit removed, the
// way the editor's saver only writes resources that are still reachable.
// Resources that were already unreferenced before the edit are left alone.
func (f *File) valuesRemoved(vals []Value) {
	cand := newRefSets()
	for _, v := range vals {
		cand.add(v)
	}
	f.prune(cand)
}

func (f *File) prune(cand refSets) []string {
	var removed []string
	for !cand.empty() {
		used := f.used()
		next := newRefSets()
		for id := range cand.sub {
			if used.sub[id] {
				continue
			}
			if s := f.SubResource(id); s != nil {
				for i := range s.entries {
					next.add(s.entries[i].value)
				}
				f.doc.removeSection(s.Section)
				removed = append(removed, id)
			}
		}
		for id := range cand.ext {
			if used.ext[id] {
				continue
			}
			if e := f.ExtResource(id); e != nil {
				f.doc.removeSection(e.s)
			}
		}
		f.reindex()
		cand = next
	}
	slices.Sort(removed)
	return removed
}

// RemoveUnusedSubResources removes every [sub_resource] that nothing in the
// file references, directly or through other sub resources, and returns
// their ids.
func (f *File) RemoveUnusedSubResources() []string {
	cand := newRefSets()
	for _, s := range f.subs {
		cand.sub[s.ID()] = true
	}
	return f.prune(cand)
}

// idAlphabet is the 34-character alphabet of Godot's generated ids and UIDs
// (a..y, 0..8; never z or 9).
const idAlphabet = "abcdefghijklmnopqrstuvwxy012345678"

// idSuffix derives the 5-character random-looking part of a generated id.
// It is a hash of seed rather than random so that the same edit always
// produces the same file, which keeps diffs and tests reproducible.
func idSuffix(seed string, attempt int) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%d", seed, attempt)
	v := h.Sum64()
	var b [5]byte
	for i := range b {
		b[i] = idAlphabet[v%34]
		v /= 34
	}
	return string(b[:])
}

// naturalLess compares like String::naturalnocasecmp_to, the order of
// [ext_resource] ids: digit runs compare as numbers, letters ignore case.
func naturalLess(a, b string) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ca, cb := a[i], b[j]
		if isDigit(ca) && isDigit(cb) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			na := strings.TrimLeft(a[si:i], "0")
			nb := strings.TrimLeft(b[sj:j], "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			continue
		}
		la, lb := lower(ca), lower(cb)
		if la != lb {
			return la < lb
		}
		i++
		j++
	}
	return len(a)-i < len(b)-j
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// AddExtResource declares an external resource and returns the reference to
// use in properties. If the path is already declared, its existing id is
// returned and nothing changes (the editor also keeps one id per path). New
// ids follow the editor's "<n>_<5 chars>" style, and the line is placed in
// natural id order. uid may be empty.
func (f *File) AddExtResource(typ, path, uid string) (ExtResource, error) {
	if path == "" || typ == "" {
		return ExtResource{}, fmt.Errorf("add ext_resource: type and path are required: %w", ErrInvalid)
	}
	if e := f.ExtResourceByPath(path); e != nil {
		return e.Ref(), nil
	}
	var id string
	for n, attempt := len(f.exts)+1, 0; ; attempt++ {
		id = itoa(n) + "_" + idSuffix(path, attempt)
		if f.ExtResource(id) == nil {
			break
		}
		n++
	}
	s := &Section{doc: f.doc, kind: secExt, tag: "ext_resource"}
	s.fields = append(s.fields, field{name: "type", value: String(typ)})
	if uid != "" {
		s.fields = append(s.fields, field{name: "uid", value: String(uid)})
	}
	s.fields = append(s.fields, field{name: "path", value: String(path)}, field{name: "id", value: String(id)})

	d := f.doc
	nl := d.nl
	at := d.indexOf(f.header) + 1
	var before *Section
	for _, e := range f.exts {
		if naturalLess(id, e.ID()) {
			before = e.s
			break
		}
		at = d.indexOf(e.s) + 1
	}
	switch {
	case before != nil && len(f.exts) > 0 && before == f.exts[0].s && isBlank(before.pre):
		// New first line of the group: it takes over the blank line after
		// the header.
		at = d.indexOf(before)
		d.insertSection(at, s, nl)
		s.pre, before.pre = before.pre, []byte(nl)
	case len(f.exts) == 0:
		d.insertSection(at, s, nl+nl)
	default:
		if before != nil {
			at = d.indexOf(before)
		}
		d.insertSection(at, s, nl)
	}
	f.reindex()
	return ExtResource{ID: id}, nil
}

// AddSubResource declares a new, empty sub resource of the given class after
// the existing ones and returns it; set its properties with Set. Its id
// follows the editor's "<Class>_<5 chars>" style. A sub resource must be
// declared before anything that refers to it: appending guarantees that for
// nodes and the main resource, and Bytes moves sub resources into
// dependency order if other sub resources come to refer to it.
func (f *File) AddSubResource(typ string) (*SubResourceDecl, error) {
	if typ == "" {
		return nil, fmt.Errorf("add sub_resource: type is required: %w", ErrInvalid)
	}
	var id string
	for attempt := len(f.subs); ; attempt++ {
		id = typ + "_" + idSuffix(typ+f.doc.name, attempt)
		if f.SubResource(id) == nil {
			break
		}
	}
	s := &Section{doc: f.doc, kind: secSub, tag: "sub_resource"}
	s.fields = []field{{name: "type", value: String(typ)}, {name: "id", value: String(id)}}
	d := f.doc
	at := d.indexOf(f.header) + 1
	if len(f.exts) > 0 {
		at = d.indexOf(f.exts[len(f.exts)-1].s) + 1
	}
	if len(f.subs) > 0 {
		at = d.indexOf(f.subs[len(f.subs)-1].Section) + 1
	}
	d.insertSection(at, s, d.nl+d.nl)
	f.reindex()
	return s.wrap.(*SubResourceDecl), nil
}
