package godot

import (
	"fmt"
	"slices"
)

// This file holds the editing operations the scene_edit toolset needs
// beyond scene.go: a new empty scene, declared vs overridden nodes, sibling
// order and [editable] entries. Each keeps the file the way the editor's
// saver would write it.

// NewScene returns an empty scene file (just the [gd_scene] header) for
// AddNode("", rootName, rootType) to give a root. uid is the scene's
// "uid://..." text, or "" for none. uniqueIDs makes every node get a
// unique_id, as Godot 4.6 and later write them; pass false for projects of
// older versions. name is used in error messages.
func NewScene(name, uid string, uniqueIDs bool) (*File, error) {
	header := "[gd_scene format=3"
	if uid != "" {
		header += " uid=" + FormatValue(String(uid))
	}
	header += "]\n"
	f, err := ParseFile(name, []byte(header))
	if err != nil {
		return nil, fmt.Errorf("new scene: %w", err)
	}
	f.uniqueIDs = uniqueIDs
	return f, nil
}

// Declared reports whether this scene declares the node itself (the root,
// a node with a type, or an instance of another scene) rather than
// overriding properties of a node that an instanced or inherited scene
// declares. Only declared nodes may be renamed, moved or deleted.
func (n *Node) Declared() bool { return n.owned() }

// Index returns the node's position among its parent's children in this
// file (0 for the first), or -1 for the root.
func (n *Node) Index() int {
	if n.IsRoot() {
		return -1
	}
	p := cleanPath(n.ParentPath())
	i := 0
	for _, c := range n.f.nodes {
		if c == n {
			return i
		}
		if !c.IsRoot() && cleanPath(c.ParentPath()) == p {
			i++
		}
	}
	return -1
}

// MoveNodeTo is MoveNode that also places the node at index among the new
// parent's children (the node's own subtree moves with it). index -1, or
// an index past the end, appends. With newParent equal to the current
// parent it only reorders.
func (f *File) MoveNodeTo(path, newParent string, index int) error {
	n, err := f.mustNode("move node", path)
	if err != nil {
		return err
	}
	if err := f.MoveNode(path, newParent); err != nil {
		return err
	}
	if index < 0 {
		if cleanPath(newParent) == cleanPath(n.ParentPath()) && f.isLastChild(n) {
			return nil
		}
		index = 1 << 30
	}
	return f.reorder(n, index)
}

func (f *File) isLastChild(n *Node) bool {
	sibs := f.siblings(n)
	return len(sibs) > 0 && sibs[len(sibs)-1] == n
}

// siblings returns the children of n's parent in file order, n included.
func (f *File) siblings(n *Node) []*Node {
	p := cleanPath(n.ParentPath())
	var out []*Node
	for _, c := range f.nodes {
		if !c.IsRoot() && cleanPath(c.ParentPath()) == p {
			out = append(out, c)
		}
	}
	return out
}

// reorder moves n's subtree so that n is the index-th child of its parent.
func (f *File) reorder(n *Node, index int) error {
	if n.IsRoot() {
		return fmt.Errorf("move node: cannot reorder the root node: %w", ErrInvalid)
	}
	sibs := f.siblings(n)
	others := slices.DeleteFunc(slices.Clone(sibs), func(c *Node) bool { return c == n })
	if index > len(others) {
		index = len(others)
	}
	if slices.Index(sibs, n) == index {
		return nil
	}
	d := f.doc
	moved := f.subtree(n.path)
	pres := make([][]byte, len(moved))
	for i, m := range moved {
		_, own := splitPre(d.text(m.Section.pre))
		pres[i] = own
		d.removeSection(m.Section)
	}
	f.reindex()
	var at int
	if index < len(others) {
		at = d.indexOf(others[index].Section)
	} else {
		at = f.subtreeEnd(others[len(others)-1].path) + 1
	}
	for i, m := range moved {
		pre := d.nl + d.nl
		if !isBlank(pres[i]) {
			pre = d.nl + string(pres[i])
		}
		d.insertSection(at+i, m.Section, pre)
	}
	f.reindex()
	return nil
}

// SetEditable turns "Editable Children" on or off for the instanced scene
// at path: an [editable path="..."] entry after the connections, as the
// editor writes it. It reports whether the file changed. The node must be
// an instance this scene declares.
func (f *File) SetEditable(path string, editable bool) (bool, error) {
	n, err := f.mustNode("set editable", path)
	if err != nil {
		return false, err
	}
	if _, ok := n.Instance(); !ok || n.IsRoot() || !n.owned() {
		return false, fmt.Errorf("set editable: %q is not an instanced scene declared by this scene: %w", n.path, ErrInvalid)
	}
	return f.setEditable(n.path, editable), nil
}

// setEditable adds or removes the [editable] entry of path (an instance
// root, checked by the caller) and reports whether the file changed. A
// new entry goes after the connections and the other entries.
func (f *File) setEditable(path string, editable bool) bool {
	d := f.doc
	for _, s := range d.sections {
		if s.kind == secEditable && cleanPath(s.fieldString("path")) == path {
			if editable {
				return false
			}
			d.removeSection(s)
			f.reindex()
			return true
		}
	}
	if !editable {
		return false
	}
	s := &Section{doc: d, kind: secEditable, tag: "editable"}
	s.fields = []field{{name: "path", value: String(path)}}
	at, pre := len(d.sections), d.nl+d.nl
	if len(d.sections) > 0 && d.sections[len(d.sections)-1].kind == secEditable {
		pre = d.nl
	}
	d.insertSection(at, s, pre)
	f.reindex()
	return true
}

// SetOrdered is Set for a property the section may not have yet: a new
// assignment goes before the first existing one that rank puts after it,
// instead of at the end, so properties stay in the order the editor writes
// them (the class's property list: base classes first, then script, script
// variables and metadata). An existing assignment is rewritten in place.
func (s *Section) SetOrdered(key string, v Value, rank func(key string) int) {
	if s.find(key) >= 0 || rank == nil {
		s.Set(key, v)
		return
	}
	r := rank(key)
	at := -1
	for i := range s.entries {
		if rank(s.entries[i].key) > r {
			at = i
			break
		}
	}
	if at < 0 {
		s.Set(key, v)
		return
	}
	if v == nil {
		v = Nil{}
	}
	d := s.doc
	e := entry{key: key, value: v, dirty: true, pre: d.own([]byte(d.nl))}
	if at == 0 {
		// The first entry's separator from the header (a blank line in a
		// ConfigFile) stays first.
		e.pre, s.entries[0].pre = s.entries[0].pre, e.pre
	}
	s.entries = slices.Insert(s.entries, at, e)
	d.edited = true
}
