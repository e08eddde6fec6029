package godot

// Source offsets of statements, for tools that report findings as file:line
// (dependency analysis, integrity checks). They are byte offsets into the
// source given to ParseFile, so a caller that kept the bytes can turn them
// into lines without this package re-scanning the file.

// Offset returns the byte offset of the section's header in the parsed
// source, or -1 for a section created or rewritten by an edit (it has no
// place in the original text).
func (s *Section) Offset() int {
	if !s.raw.has() || s.raw.off < 0 {
		return -1
	}
	return int(s.raw.off)
}

// PropertyOffset returns the byte offset of the statement that sets key (the
// last one, as Get reads it), or -1 when the key is not set or was added by
// an edit.
func (s *Section) PropertyOffset(key string) int {
	i := s.find(key)
	if i < 0 {
		return -1
	}
	e := s.entries[i]
	if !e.raw.has() || e.raw.off < 0 {
		return -1
	}
	return int(e.raw.off)
}

// Offset returns the byte offset of the [ext_resource] statement, or -1
// when it was added by an edit.
func (e *ExtResourceDecl) Offset() int { return e.s.Offset() }

// ConnectionOffsets returns the byte offset of each [connection] statement,
// in the order of Connections (-1 for connections added by edits).
func (f *File) ConnectionOffsets() []int {
	var out []int
	for _, s := range f.doc.sections {
		if s.kind == secConnection {
			out = append(out, s.Offset())
		}
	}
	return out
}

// Source returns the bytes the file was parsed from (shared: do not modify).
// Offsets returned by Offset, PropertyOffset and ConnectionOffsets index it.
func (f *File) Source() []byte { return f.doc.src }

// WalkValue calls fn for v and every value nested in it: container items,
// dictionary keys and values, inline object properties and typed-container
// script references. Reference scanners use it to find every ExtResource,
// SubResource and Resource("…") a property holds.
func WalkValue(v Value, fn func(Value)) { walkValue(v, fn) }

// Source returns the bytes the ConfigFile was parsed from (shared: do not
// modify); Section offsets index it.
func (c *ConfigFile) Source() []byte { return c.doc.src }
