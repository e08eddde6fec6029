package godot

import (
	"io"
	"slices"
)

// ConfigFile is a parsed file in Godot's ConfigFile syntax: project.godot,
// export_presets.cfg, plugin.cfg, .import files. Sections are simple
// "[name]" headers; keys before the first section belong to section "".
// Like File it is lossless: unedited files are written back byte for byte
// and edits re-render only the statements they touch.
//
// A ConfigFile is not safe for concurrent use.
type ConfigFile struct {
	doc *document
	// sortedSections places new sections in alphabetical order, as
	// ProjectSettings writes them; plain ConfigFiles append them.
	sortedSections bool
}

// ParseConfig parses a ConfigFile. name is used in error messages and may be
// empty. The source is copied; the caller may reuse src.
func ParseConfig(name string, src []byte) (*ConfigFile, error) {
	src = slices.Clone(src)
	p := getParser(src, nil)
	defer putParser(p)
	doc, err := parseDocument(name, src, true, p, docHooks{})
	if err != nil {
		return nil, err.syntax(name, src)
	}
	return &ConfigFile{doc: doc}, nil
}

// SetFloatStyle sets how values written by later edits spell floats; use
// the style of the project's Godot version, FloatStyleFor(version). The
// default is FloatsShortest; ParseProject sets the project's own style.
func (c *ConfigFile) SetFloatStyle(s FloatStyle) { c.doc.floats = s }

// FloatStyle returns the float spelling of edits (SetFloatStyle).
func (c *ConfigFile) FloatStyle() FloatStyle { return c.doc.floats }

// FormatValue returns v as an edit of this file writes it, in the file's
// FloatStyle.
func (c *ConfigFile) FormatValue(v Value) string { return string(c.doc.writer().append(nil, v)) }

// Name returns the file name given to the parser.
func (c *ConfigFile) Name() string { return c.doc.name }

// Sections returns the section names in order of first appearance. "" comes
// first when keys precede every section. A name that appears twice in the
// file (the engine merges such sections) is listed once.
func (c *ConfigFile) Sections() []string {
	var out []string
	for _, s := range c.doc.sections {
		if !slices.Contains(out, s.tag) {
			out = append(out, s.tag)
		}
	}
	return out
}

// Section returns the last section with the given name, for direct access to
// its properties, or nil.
func (c *ConfigFile) Section(name string) *Section {
	for i := len(c.doc.sections) - 1; i >= 0; i-- {
		if s := c.doc.sections[i]; s.tag == name {
			return s
		}
	}
	return nil
}

// Keys returns the keys of a section in file order, each once.
func (c *ConfigFile) Keys(section string) []string {
	var out []string
	for _, s := range c.doc.sections {
		if s.tag != section {
			continue
		}
		for i := range s.entries {
			if k := s.entries[i].key; !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// sectionWith returns the last section called name that holds key.
func (c *ConfigFile) sectionWith(name, key string) *Section {
	for i := len(c.doc.sections) - 1; i >= 0; i-- {
		if s := c.doc.sections[i]; s.tag == name && s.find(key) >= 0 {
			return s
		}
	}
	return nil
}

// Get returns a value. A later duplicate key wins, as in the engine.
func (c *ConfigFile) Get(section, key string) (Value, bool) {
	if s := c.sectionWith(section, key); s != nil {
		return s.Get(key)
	}
	return nil, false
}

// Set sets a value, rewriting an existing assignment in place or appending
// the key to the section. A missing section is created: at the end of a
// plain ConfigFile, in alphabetical order in project.godot.
func (c *ConfigFile) Set(section, key string, v Value) {
	if s := c.sectionWith(section, key); s != nil {
		s.Set(key, v)
		return
	}
	if s := c.Section(section); s != nil {
		s.Set(key, v)
		return
	}
	d := c.doc
	if v == nil {
		v = Nil{}
	}
	s := &Section{doc: d, tag: section, headerless: section == ""}
	if s.headerless {
		s.entries = []entry{{key: key, value: v, dirty: true}}
		d.insertSection(0, s, d.nl+d.nl)
		return
	}
	s.entries = []entry{{pre: d.own([]byte(d.nl + d.nl)), key: key, value: v, dirty: true}}
	at := len(d.sections)
	if c.sortedSections {
		for i, o := range d.sections {
			if !o.headerless && o.tag > section {
				at = i
				break
			}
		}
	}
	d.insertSection(at, s, d.nl+d.nl)
}

// SetOrdered is Set for a key the section may not have yet: a new key goes
// before the first existing one that rank puts after it (see
// Section.SetOrdered) instead of at the end, so a section keeps the order
// the engine saves it in. rank gets the key within the section.
func (c *ConfigFile) SetOrdered(section, key string, v Value, rank func(key string) int) {
	if c.sectionWith(section, key) == nil {
		if s := c.Section(section); s != nil && rank != nil {
			s.SetOrdered(key, v, rank)
			return
		}
	}
	c.Set(section, key, v)
}

// Clear removes a key from a section and reports whether it was present. A
// section left empty is removed.
func (c *ConfigFile) Clear(section, key string) bool {
	found := false
	for _, s := range slices.Clone(c.doc.sections) {
		if s.tag == section && s.Clear(key) {
			found = true
		}
	}
	return found
}

// RemoveSection removes every section with the given name and its keys.
func (c *ConfigFile) RemoveSection(name string) bool {
	found := false
	for _, s := range slices.Clone(c.doc.sections) {
		if s.tag == name {
			c.doc.removeSection(s)
			found = true
		}
	}
	return found
}

// Bytes returns the file text: the parsed input until an edit is made.
func (c *ConfigFile) Bytes() []byte { return c.doc.bytes() }

// WriteTo writes Bytes to w.
func (c *ConfigFile) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(c.Bytes())
	return int64(n), err
}
