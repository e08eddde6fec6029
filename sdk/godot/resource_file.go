package godot

import (
	"slices"
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

	// uniqueIDs makes new nodes get a unique_id even before any node has
	// one: set by NewScene for projects of Godot 4.6 and later.
	uniqueIDs bool

	// newSubs are the sub-resources added by edits, which Bytes places
	// where the editor's saver would write them (placeNewSubResources).
	newSubs map[*Section]bool
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
				n.path = JoinNodePath(n.ParentPath(), n.Name())
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

// SetFloatStyle sets how values written by later edits spell floats; use
// the style of the project's Godot version, FloatStyleFor(version). The
// default is FloatsShortest, the current editors' spelling. Text that no
// edit touches keeps its bytes whatever the style.
func (f *File) SetFloatStyle(s FloatStyle) { f.doc.floats = s }

// FloatStyle returns the float spelling of edits (SetFloatStyle).
func (f *File) FloatStyle() FloatStyle { return f.doc.floats }

// FormatValue returns v as an edit of this file writes it: floats in the
// file's FloatStyle and byte arrays following its format field.
func (f *File) FormatValue(v Value) string { return string(f.doc.writer().append(nil, v)) }

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
