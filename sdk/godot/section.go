package godot

// The Section API: reading and editing the header fields and properties of
// one section.

import (
	"bytes"
	"slices"
)

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
			e.pre = d.own([]byte(pre))
		} else {
			e.pre = d.insertPre(pre, next)
		}
	} else {
		e.pre = d.own([]byte(pre))
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
			*next = d.own(joinPre(d.text(s.entries[i].pre), d.text(*next), tail))
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
