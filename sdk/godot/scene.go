package godot

import (
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
)

// Node is one [node] section of a scene: its header fields (name, type,
// parent, ...) and its properties. Property access comes from the embedded
// Section: Get, Set, Clear, Properties.
type Node struct {
	*Section
	f    *File
	path string
}

// Name returns the node's name.
func (n *Node) Name() string { return n.fieldString("name") }

// Type returns the node's class, or "" for an instanced scene or a node
// inherited from another scene that this file only overrides.
func (n *Node) Type() string { return n.fieldString("type") }

// ParentPath returns the parent field: "" for the root, "." for children of
// the root, "A/B" deeper down.
func (n *Node) ParentPath() string { return n.fieldString("parent") }

// Path returns the node's path relative to the scene root: "." for the root.
func (n *Node) Path() string { return n.path }

// IsRoot reports whether this is the scene's root node.
func (n *Node) IsRoot() bool { return n.path == "." }

// Parent returns the parent node, or nil for the root and for nodes whose
// parent lives inside an instanced scene (not in this file).
func (n *Node) Parent() *Node {
	if n.IsRoot() {
		return nil
	}
	return n.f.byPath[cleanPath(n.ParentPath())]
}

// Children returns the nodes of this file whose parent is n, in file order.
func (n *Node) Children() []*Node {
	var out []*Node
	for _, c := range n.f.nodes {
		if !c.IsRoot() && cleanPath(c.ParentPath()) == n.path {
			out = append(out, c)
		}
	}
	return out
}

// Instance returns the PackedScene this node instances (instance=ExtResource(...)).
func (n *Node) Instance() (ExtResource, bool) {
	v, ok := n.Field("instance")
	e, isExt := v.(ExtResource)
	return e, ok && isExt
}

// UniqueID returns the unique_id header field that Godot 4.6+ writes on every
// node.
func (n *Node) UniqueID() (int64, bool) {
	v, ok := n.Field("unique_id")
	i, isInt := v.(Int)
	return int64(i), ok && isInt
}

// ParentIDPath returns the parent_id_path field (4.6+): the unique ids leading
// to a parent that lives inside an instanced scene. It is nil when absent.
func (n *Node) ParentIDPath() []int32 {
	v, _ := n.Field("parent_id_path")
	if p, ok := v.(PackedInt32Array); ok {
		return p
	}
	return nil
}

// Groups returns the groups the node belongs to.
func (n *Node) Groups() []string {
	v, _ := n.Field("groups")
	arr, _ := v.(Array)
	var out []string
	for _, it := range arr.Items {
		if s, ok := stringOf(it); ok {
			out = append(out, s)
		}
	}
	return out
}

// AddGroup adds the node to a group. The groups field stays sorted, as the
// editor writes it. Adding a group the node already has changes nothing.
func (n *Node) AddGroup(group string) error {
	if group == "" {
		return fmt.Errorf("add group: empty group name: %w", ErrInvalid)
	}
	gs := n.Groups()
	if slices.Contains(gs, group) {
		return nil
	}
	gs = append(gs, group)
	slices.Sort(gs)
	n.setGroups(gs)
	return nil
}

// RemoveGroup removes the node from a group and reports whether it was in it.
func (n *Node) RemoveGroup(group string) bool {
	gs := n.Groups()
	i := slices.Index(gs, group)
	if i < 0 {
		return false
	}
	n.setGroups(slices.Delete(gs, i, i+1))
	return true
}

func (n *Node) setGroups(gs []string) {
	if len(gs) == 0 {
		n.removeField("groups")
		return
	}
	items := make([]Value, len(gs))
	for i, g := range gs {
		items[i] = String(g)
	}
	n.setField("groups", Array{Items: items}, nodeOrder)
}

// owned reports whether the scene declares the node itself (it has a type or
// instances a scene) rather than overriding a node of an instanced or
// inherited scene.
func (n *Node) owned() bool {
	if n.IsRoot() {
		return true
	}
	_, hasType := n.Field("type")
	_, hasInst := n.Field("instance")
	return hasType || hasInst
}

// Root returns the scene's root node, or nil for resource files and empty
// scenes.
func (f *File) Root() *Node {
	if len(f.nodes) == 0 {
		return nil
	}
	return f.nodes[0]
}

// Nodes returns every node in file order (parents before children).
func (f *File) Nodes() []*Node { return slices.Clone(f.nodes) }

// Node returns the node at a root-relative path ("." or "" for the root,
// "Player/Sprite2D"), or nil.
func (f *File) Node(path string) *Node { return f.byPath[cleanPath(path)] }

func (f *File) mustNode(op, path string) (*Node, error) {
	if !f.scene {
		return nil, fmt.Errorf("%s: %s is not a scene: %w", op, f.doc.name, ErrInvalid)
	}
	n := f.Node(path)
	if n == nil {
		return nil, fmt.Errorf("%s: node %q: %w", op, path, ErrNotFound)
	}
	return n, nil
}

// validNodeName applies the engine's rule for node names: not empty and none
// of . : @ / " % (String::validate_node_name).
func validNodeName(name string) error {
	if name == "" || strings.ContainsAny(name, ".:@/\"%") {
		return fmt.Errorf("node name %q must be non-empty and may not contain . : @ / \" %%: %w", name, ErrInvalid)
	}
	return nil
}

// subtreeEnd returns the index in the section list of the last node section
// in the subtree of path.
func (f *File) subtreeEnd(path string) int {
	end := -1
	for i, s := range f.doc.sections {
		if n, ok := s.wrap.(*Node); ok && s.kind == secNode && inSubtree(n.path, path) {
			end = i
		}
	}
	return end
}

func (f *File) subtree(path string) []*Node {
	var out []*Node
	for _, n := range f.nodes {
		if inSubtree(n.path, path) {
			out = append(out, n)
		}
	}
	return out
}

func (f *File) usesUniqueIDs() bool {
	if f.uniqueIDs {
		return true
	}
	for _, n := range f.nodes {
		if _, ok := n.UniqueID(); ok {
			return true
		}
	}
	return false
}

// newUniqueID derives an unused unique_id for a node created at path. Like
// generated resource ids it is a hash rather than random, so edits are
// reproducible.
func (f *File) newUniqueID(path string, taken map[int64]bool) int64 {
	if taken == nil {
		taken = map[int64]bool{}
	}
	for _, n := range f.nodes {
		if id, ok := n.UniqueID(); ok {
			taken[id] = true
		}
	}
	for attempt := 0; ; attempt++ {
		h := fnv.New32a()
		fmt.Fprintf(h, "%s\x00%s\x00%d", f.UID(), path, attempt)
		id := int64(h.Sum32() & 0x7fffffff)
		if id != 0 && !taken[id] {
			taken[id] = true
			return id
		}
	}
}

// AddNode adds a node of class typ named name under the node at parent and
// returns it. The new [node] section goes after the parent's last
// descendant, so it becomes the last child. In files that use unique_id
// (Godot 4.6+) the node gets one. Pass parent "" to create the root of an
// empty scene.
func (f *File) AddNode(parent, name, typ string) (*Node, error) {
	if typ == "" {
		return nil, fmt.Errorf("add node %q: type is required: %w", name, ErrInvalid)
	}
	return f.addNode(parent, name, field{name: "type", value: String(typ)})
}

// AddInstance adds a node that instances a scene, given the ExtResource of a
// PackedScene (see AddExtResource).
func (f *File) AddInstance(parent, name string, scene ExtResource) (*Node, error) {
	if f.ExtResource(scene.ID) == nil {
		return nil, fmt.Errorf("add instance %q: ext_resource %q: %w", name, scene.ID, ErrNotFound)
	}
	return f.addNode(parent, name, field{name: "instance", value: scene})
}

func (f *File) addNode(parent, name string, kind field) (*Node, error) {
	if !f.scene {
		return nil, fmt.Errorf("add node: %s is not a scene: %w", f.doc.name, ErrInvalid)
	}
	if err := validNodeName(name); err != nil {
		return nil, fmt.Errorf("add node: %w", err)
	}
	s := &Section{doc: f.doc, kind: secNode, tag: "node"}
	s.fields = []field{{name: "name", value: String(name)}}
	var at int
	var path string
	if parent == "" && f.Root() == nil {
		path = "."
		at = len(f.doc.sections)
		for i, sec := range f.doc.sections {
			if sec.kind == secConnection || sec.kind == secEditable {
				at = i
				break
			}
		}
	} else {
		p, err := f.mustNode("add node", parent)
		if err != nil {
			return nil, err
		}
		path = JoinNodePath(p.path, name)
		if f.byPath[path] != nil {
			return nil, fmt.Errorf("add node: %q already has a child named %q: %w", p.path, name, ErrExists)
		}
		s.fields = append(s.fields, field{name: "parent", value: String(p.path)})
		at = f.subtreeEnd(p.path) + 1
	}
	if kind.name == "type" {
		s.fields = slices.Insert(s.fields, 1, kind)
	}
	if f.usesUniqueIDs() {
		s.fields = append(s.fields, field{name: "unique_id", value: Int(f.newUniqueID(path, nil))})
	}
	if kind.name == "instance" {
		s.fields = append(s.fields, kind)
	}
	f.doc.insertSection(at, s, f.doc.nl+f.doc.nl)
	f.reindex()
	return f.byPath[path], nil
}

// RemoveNode removes a node with all its descendants, the connections from
// or to any of them and their [editable] entries. Sub resources (and ext
// resources) that only the removed nodes used are dropped as well.
func (f *File) RemoveNode(path string) error {
	n, err := f.mustNode("remove node", path)
	if err != nil {
		return err
	}
	if n.IsRoot() {
		return fmt.Errorf("remove node: cannot remove the root node: %w", ErrInvalid)
	}
	root := n.path
	var removed []Value
	var drop []*Section
	for _, s := range f.doc.sections {
		hit := false
		switch s.kind {
		case secNode:
			hit = inSubtree(s.wrap.(*Node).path, root)
		case secConnection:
			hit = inSubtree(cleanPath(s.fieldString("from")), root) || inSubtree(cleanPath(s.fieldString("to")), root)
		case secEditable:
			hit = inSubtree(cleanPath(s.fieldString("path")), root)
		}
		if hit {
			drop = append(drop, s)
			for i := range s.fields {
				removed = append(removed, s.fields[i].value)
			}
			for i := range s.entries {
				removed = append(removed, s.entries[i].value)
			}
		}
	}
	for _, s := range drop {
		f.doc.removeSection(s)
	}
	f.reindex()
	f.valuesRemoved(removed)
	return nil
}

// remap applies a path change (rename or move of the subtree at from, now at
// to) to everything that names nodes by path: parent and owner fields,
// connections, [editable] entries and NodePath property values.
func (f *File) remap(from, to string) {
	mapFn := func(p string) string { return rebase(p, from, to) }
	for _, n := range f.nodes {
		holder := n.path
		for i := range n.entries {
			e := &n.entries[i]
			nv, changed := rewriteNodePathsIn(e.value, func(p string) (string, bool) {
				return remapNodePath(p, holder, mapFn)
			})
			if changed {
				e.value, e.dirty = nv, true
				f.doc.edited = true
			}
		}
	}
	for _, s := range f.doc.sections {
		switch s.kind {
		case secNode:
			n := s.wrap.(*Node)
			if n.path == from {
				continue // its own parent did not move
			}
			for _, fld := range []string{"parent", "owner"} {
				if v, ok := s.Field(fld); ok {
					if str, ok := v.(String); ok && inSubtree(cleanPath(string(str)), from) && from != "." {
						s.setField(fld, String(rebase(cleanPath(string(str)), from, to)), nodeOrder)
					}
				}
			}
		case secConnection:
			for _, fld := range []string{"from", "to"} {
				p := cleanPath(s.fieldString(fld))
				if np := rebase(p, from, to); np != p {
					s.setField(fld, String(np), connectionOrder)
				}
			}
		case secEditable:
			p := cleanPath(s.fieldString("path"))
			if np := rebase(p, from, to); np != p {
				s.setField("path", String(np), nil)
			}
		}
	}
}

// RenameNode renames a node and updates every path that goes through it:
// descendants' parent fields, connections, [editable] entries and NodePath
// properties of nodes in this scene.
func (f *File) RenameNode(path, newName string) error {
	n, err := f.mustNode("rename node", path)
	if err != nil {
		return err
	}
	if err := validNodeName(newName); err != nil {
		return fmt.Errorf("rename node: %w", err)
	}
	if newName == n.Name() {
		return nil
	}
	if !n.owned() {
		// Its name is how this scene finds it inside the instance; a new name
		// would match nothing there, and Godot would drop the overrides.
		return fmt.Errorf("rename node: %q belongs to an instanced or inherited scene; rename it in the scene that defines it: %w", n.path, ErrInvalid)
	}
	if n.IsRoot() {
		// Paths are relative to the root, so nothing else changes.
		n.setField("name", String(newName), nodeOrder)
		return nil
	}
	newPath := JoinNodePath(parentOf(n.path), newName)
	if f.byPath[newPath] != nil {
		return fmt.Errorf("rename node: %q already exists: %w", newPath, ErrExists)
	}
	f.remap(n.path, newPath)
	n.setField("name", String(newName), nodeOrder)
	f.reindex()
	return nil
}

// MoveNode reparents a node (with its subtree) to be the last child of
// newParent. Paths through the node are updated as by RenameNode, including
// NodePaths from the moved nodes to the rest of the scene.
func (f *File) MoveNode(path, newParent string) error {
	n, err := f.mustNode("move node", path)
	if err != nil {
		return err
	}
	p, err := f.mustNode("move node", newParent)
	if err != nil {
		return err
	}
	switch {
	case n.IsRoot():
		return fmt.Errorf("move node: cannot move the root node: %w", ErrInvalid)
	case inSubtree(p.path, n.path):
		return fmt.Errorf("move node: cannot move %q under itself (%q): %w", n.path, p.path, ErrInvalid)
	case !n.owned():
		return fmt.Errorf("move node: %q belongs to an instanced or inherited scene: %w", n.path, ErrInvalid)
	case !p.owned():
		return fmt.Errorf("move node: new parent %q belongs to an instanced or inherited scene: %w", p.path, ErrInvalid)
	}
	if parentOf(n.path) == p.path {
		return nil
	}
	newPath := JoinNodePath(p.path, n.Name())
	if f.byPath[newPath] != nil {
		return fmt.Errorf("move node: %q already exists: %w", newPath, ErrExists)
	}
	oldPath := n.path
	moved := f.subtree(oldPath)
	f.remap(oldPath, newPath)
	n.setField("parent", String(p.path), nodeOrder)
	// The new parent is declared by this scene, so the fields that locate a
	// parent inside an instanced scene no longer apply.
	n.removeField("parent_id_path")
	n.removeField("index")

	d := f.doc
	pres := make([][]byte, len(moved))
	for i, m := range moved {
		_, own := splitPre(d.text(m.Section.pre))
		pres[i] = own
		d.removeSection(m.Section)
	}
	f.reindex() // paths now reflect the new parent
	at := f.subtreeEnd(p.path) + 1
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

// NextName returns the name the editor gives a duplicate: a trailing number
// is incremented ("Enemy2" -> "Enemy3"), otherwise "2" is appended.
func NextName(name string) string {
	i := len(name)
	for i > 0 && isDigit(name[i-1]) {
		i--
	}
	if i < len(name) {
		if n, err := strconv.Atoi(name[i:]); err == nil {
			return name[:i] + strconv.Itoa(n+1)
		}
	}
	return name + "2"
}

// DuplicateNode copies a node and its subtree as a new sibling named newName
// (or, when newName is "", the editor's next free name such as "Enemy2"),
// placed right after the original subtree. Properties are copied verbatim and
// sub resources are shared, as with the editor's Duplicate. Connections from
// the copied nodes are duplicated too. New unique_ids are generated for nodes
// the scene declares.
func (f *File) DuplicateNode(path, newName string) (*Node, error) {
	n, err := f.mustNode("duplicate node", path)
	if err != nil {
		return nil, err
	}
	if n.IsRoot() {
		return nil, fmt.Errorf("duplicate node: cannot duplicate the root node: %w", ErrInvalid)
	}
	if !n.owned() {
		return nil, fmt.Errorf("duplicate node: %q belongs to an instanced or inherited scene: %w", n.path, ErrInvalid)
	}
	parent := parentOf(n.path)
	if newName == "" {
		newName = NextName(n.Name())
		for f.byPath[JoinNodePath(parent, newName)] != nil {
			newName = NextName(newName)
		}
	}
	if err := validNodeName(newName); err != nil {
		return nil, fmt.Errorf("duplicate node: %w", err)
	}
	newPath := JoinNodePath(parent, newName)
	if f.byPath[newPath] != nil {
		return nil, fmt.Errorf("duplicate node: %q already exists: %w", newPath, ErrExists)
	}
	oldPath := n.path
	src := f.subtree(oldPath)
	useIDs := f.usesUniqueIDs()
	taken := map[int64]bool{}
	idMap := map[int32]int32{}
	clones := make([]*Section, len(src))
	for i, m := range src {
		c := &Section{doc: f.doc, kind: secNode, tag: "node", pre: m.pre}
		c.fields = slices.Clone(m.fields)
		c.entries = slices.Clone(m.entries)
		clones[i] = c
		if old, ok := m.UniqueID(); ok && useIDs && m.owned() {
			id := f.newUniqueID(rebase(m.path, oldPath, newPath), taken)
			idMap[int32(old)] = int32(id)
			c.setField("unique_id", Int(id), nodeOrder)
		}
	}
	for i, m := range src {
		c := clones[i]
		if m == n {
			c.setField("name", String(newName), nodeOrder)
		} else {
			c.setField("parent", String(rebase(cleanPath(m.ParentPath()), oldPath, newPath)), nodeOrder)
		}
		if ids := m.ParentIDPath(); len(ids) > 0 {
			mapped := slices.Clone(ids)
			for k, id := range mapped {
				if nid, ok := idMap[id]; ok {
					mapped[k] = nid
				}
			}
			c.setField("parent_id_path", PackedInt32Array(mapped), nodeOrder)
		}
	}
	// A node placed by index (in an inherited scene, or under a node of an
	// instance) keeps its place: the copy goes right after the original
	// and the later siblings move up one, as the editor saves them. A
	// copied index would put the copy before the original on load.
	if v, ok := n.Field("index"); ok {
		if s, ok := v.(String); ok {
			if i, err := strconv.Atoi(string(s)); err == nil {
				for _, sib := range f.siblings(n) {
					if sib == n {
						continue
					}
					if sv, ok := sib.Field("index"); ok {
						if ss, ok := sv.(String); ok {
							if j, err := strconv.Atoi(string(ss)); err == nil && j > i {
								sib.setField("index", String(strconv.Itoa(j+1)), nodeOrder)
							}
						}
					}
				}
				clones[0].setField("index", String(strconv.Itoa(i+1)), nodeOrder)
			}
		}
	}
	d := f.doc
	at := f.subtreeEnd(oldPath) + 1
	for i, c := range clones {
		pre := d.nl + d.nl
		if i > 0 {
			if _, own := splitPre(d.text(c.pre)); !isBlank(own) {
				pre = d.nl + string(own)
			}
		}
		d.insertSection(at+i, c, pre)
	}
	f.reindex()
	for _, c := range f.Connections() {
		if inSubtree(c.From, oldPath) {
			c.From = rebase(c.From, oldPath, newPath)
			c.To = rebase(c.To, oldPath, newPath)
			// A connection to a node that does not exist was already
			// dangling (Godot drops it on load); copying it would fail
			// halfway through a duplicate that has already inserted nodes.
			if err := f.AddConnection(c); err != nil && !errors.Is(err, ErrExists) && !errors.Is(err, ErrNotFound) {
				return nil, err
			}
		}
	}
	return f.byPath[newPath], nil
}

// EditablePaths returns the paths of instanced scenes whose children are
// editable in this scene ([editable path="..."]).
func (f *File) EditablePaths() []string {
	var out []string
	for _, s := range f.doc.sections {
		if s.kind == secEditable {
			out = append(out, s.fieldString("path"))
		}
	}
	return out
}
