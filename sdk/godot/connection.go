package godot

import (
	"fmt"
	"slices"
)

// ConnectPersist is the Object::CONNECT_PERSIST flag. Every connection saved
// in a scene has it; the file omits flags when they equal it.
const ConnectPersist = 2

// Connection is one [connection] of a scene: a signal of the node at From
// connected to a method of the node at To. Paths are relative to the root
// ("." is the root).
type Connection struct {
	Signal  string
	From    string
	To      string
	Method  string
	Flags   int64   // connect flags; ConnectPersist when the file has none. 0 is treated as ConnectPersist when adding.
	Unbinds int64   // number of trailing signal arguments dropped
	Binds   []Value // extra arguments passed to the method
}

func (c Connection) same(o Connection) bool {
	return c.Signal == o.Signal && cleanPath(c.From) == cleanPath(o.From) &&
		cleanPath(c.To) == cleanPath(o.To) && c.Method == o.Method
}

func connectionOf(s *Section) Connection {
	c := Connection{
		Signal: s.fieldString("signal"),
		From:   s.fieldString("from"),
		To:     s.fieldString("to"),
		Method: s.fieldString("method"),
		Flags:  ConnectPersist,
	}
	if v, ok := s.Field("flags"); ok {
		if n, ok := v.(Int); ok {
			c.Flags = int64(n)
		}
	}
	if v, ok := s.Field("unbinds"); ok {
		if n, ok := v.(Int); ok {
			c.Unbinds = int64(n)
		}
	}
	if v, ok := s.Field("binds"); ok {
		if a, ok := v.(Array); ok {
			c.Binds = a.Items
		}
	}
	return c
}

// Connections returns the scene's signal connections in file order.
func (f *File) Connections() []Connection {
	var out []Connection
	for _, s := range f.doc.sections {
		if s.kind == secConnection {
			out = append(out, connectionOf(s))
		}
	}
	return out
}

// AddConnection appends a connection after the existing ones. Both nodes must
// exist in this file; an identical connection (same signal, nodes and method)
// is an error.
func (f *File) AddConnection(c Connection) error {
	if !f.scene {
		return fmt.Errorf("add connection: %s is not a scene: %w", f.doc.name, ErrInvalid)
	}
	if c.Signal == "" || c.Method == "" {
		return fmt.Errorf("add connection: signal and method are required: %w", ErrInvalid)
	}
	for _, p := range []string{c.From, c.To} {
		if !f.reachable(p) {
			return fmt.Errorf("add connection: node %q: %w", p, ErrNotFound)
		}
	}
	for _, o := range f.Connections() {
		if o.same(c) {
			return fmt.Errorf("add connection: %s from %q to %q.%s: %w", c.Signal, c.From, c.To, c.Method, ErrExists)
		}
	}
	flags := c.Flags
	if flags == 0 {
		flags = ConnectPersist
	}
	s := &Section{doc: f.doc, kind: secConnection, tag: "connection"}
	s.fields = []field{
		{name: "signal", value: String(c.Signal)},
		{name: "from", value: String(cleanPath(c.From))},
		{name: "to", value: String(cleanPath(c.To))},
		{name: "method", value: String(c.Method)},
	}
	if flags != ConnectPersist {
		s.fields = append(s.fields, field{name: "flags", value: Int(flags)})
	}
	if c.Unbinds > 0 {
		s.fields = append(s.fields, field{name: "unbinds", value: Int(c.Unbinds)})
	}
	if len(c.Binds) > 0 {
		s.fields = append(s.fields, field{name: "binds", value: Array{Items: slices.Clone(c.Binds)}})
	}
	d := f.doc
	at, pre := len(d.sections), d.nl+d.nl
	lastNode := -1
	for i, sec := range d.sections {
		switch sec.kind {
		case secConnection:
			at, pre = i+1, d.nl
		case secNode:
			lastNode = i
		}
	}
	if pre != d.nl && lastNode >= 0 {
		at = lastNode + 1
	}
	d.insertSection(at, s, pre)
	f.reindex()
	return nil
}

// RemoveConnection removes the connection with the same signal, nodes and
// method as c (Flags, Unbinds and Binds are ignored) and reports whether one
// was found.
func (f *File) RemoveConnection(c Connection) bool {
	found := false
	for _, s := range slices.Clone(f.doc.sections) {
		if s.kind == secConnection && connectionOf(s).same(c) {
			var removed []Value
			for _, fld := range s.fields {
				removed = append(removed, fld.value)
			}
			f.doc.removeSection(s)
			f.valuesRemoved(removed)
			found = true
		}
	}
	if found {
		f.reindex()
	}
	return found
}

// reachable reports whether a path names a node of this scene or a node
// inside a scene instanced by it (which this file cannot list).
func (f *File) reachable(p string) bool {
	p = cleanPath(p)
	if f.byPath[p] != nil {
		return true
	}
	for q := p; q != "."; {
		q = parentOf(q)
		if n := f.byPath[q]; n != nil {
			_, inst := n.Instance()
			return inst || !n.owned()
		}
	}
	return false
}
