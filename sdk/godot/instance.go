package godot

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// This file gives a scene's nodes as the editor shows them once loaded:
// the nodes of the file plus those of every scene it instances (or
// inherits), with the overrides applied. Edits of nodes that an instanced
// scene declares go through it, written the way the editor's saver writes
// them: an override section ([node name="Sprite2D" parent="Coin1"
// index="0" unique_id=...] with only the changed properties), a node added
// under a node of an instance (parent_id_path and index), and the
// [editable] entries without which the editor would not save either.

// SceneLoader returns a scene that another scene instances, parsed, by
// the res:// path of its [ext_resource]. Return an error wrapping
// ErrNotText for a scene that has no text form (an imported .glb, a binary
// .scn): its node is then shown as an instance with unknown contents.
type SceneLoader func(path string) (*File, error)

// ErrNotText says a scene has no text form headless tools can read (an
// imported model such as .glb, or a binary .scn).
var ErrNotText = errors.New("not a text scene")

// maxInstanceDepth bounds nested instancing; Godot refuses cycles, but
// files edited by hand may have them.
const maxInstanceDepth = 16

// Tree is a scene's effective node tree (see the file comment). It is a
// snapshot: after an edit that adds or removes nodes, build a new one.
type Tree struct {
	f      *File
	root   *TreeNode
	byPath map[string]*TreeNode
}

// TreeNode is one node of a Tree.
type TreeNode struct {
	name     string
	path     string
	class    string
	parent   *TreeNode
	children []*TreeNode
	// layers are the sections that set the node's properties, the
	// outermost scene first: its section in this file (declaration or
	// override), then in the scene that declares it, and so on.
	layers []*Node
	// owner is the instance root that brings the node in (nil: this
	// file declares it); inherited marks the root of an inherited scene.
	owner     *TreeNode
	inherited bool
	uid       int64  // unique_id in the scene that declares it; 0 unknown
	scene     string // res:// path of the scene that declares it ("" this file)
	instance  string // the scene an instance root instances
	opaque    bool   // instances a scene without text: children unknown
	top       *File  // the file the tree was built for
}

// Name returns the node's name.
func (n *TreeNode) Name() string { return n.name }

// Path returns the node's path relative to the root ("." the root).
func (n *TreeNode) Path() string { return n.path }

// Class returns the node's engine class, or "" when no readable scene
// names it (a node of an imported scene).
func (n *TreeNode) Class() string { return n.class }

// Children returns the node's children in tree order.
func (n *TreeNode) Children() []*TreeNode { return slices.Clone(n.children) }

// Section returns the node's section in this file (its declaration or
// override), or nil when the file does not mention it.
func (n *TreeNode) Section() *Node {
	if len(n.layers) > 0 && n.top != nil && n.layers[0].f == n.top {
		return n.layers[0]
	}
	return nil
}

// Declared reports whether this file declares the node (rather than an
// instanced or inherited scene).
func (n *TreeNode) Declared() bool { return n.owner == nil }

// Scene returns the res:// path of the scene that declares the node, ""
// for this file.
func (n *TreeNode) Scene() string { return n.scene }

// Instance returns the scene an instance root instances ("" otherwise).
func (n *TreeNode) Instance() string { return n.instance }

// Opaque reports whether the node instances a scene whose nodes cannot be
// read headless (an imported model).
func (n *TreeNode) Opaque() bool { return n.opaque }

// InnerPath returns the node's path in the scene that declares it (Scene):
// relative to the instance that brings it in, or to the root of an
// inherited scene; for a node this file declares, its Path.
func (n *TreeNode) InnerPath() string {
	switch {
	case n.owner == nil || n.owner.inherited:
		return n.path
	case n.path == n.owner.path:
		return "."
	}
	return strings.TrimPrefix(n.path, n.owner.path+"/")
}

// InstanceRoot returns the instance (or, for an inherited scene, the
// root) that brings a node this file does not declare; nil for a declared
// node.
func (n *TreeNode) InstanceRoot() *TreeNode { return n.owner }

// Groups returns the groups the node is in, from every scene that puts
// it in one.
func (n *TreeNode) Groups() []string {
	var out []string
	for _, l := range n.layers {
		for _, g := range l.Groups() {
			if !slices.Contains(out, g) {
				out = append(out, g)
			}
		}
	}
	return out
}

// Get returns the node's effective value of a property: the outermost
// scene's that sets it. file is the file the value comes from, which
// resolves the resources the value refers to.
func (n *TreeNode) Get(key string) (v Value, file *File, ok bool) {
	for _, l := range n.layers {
		if v, ok := l.Get(key); ok {
			return v, l.f, true
		}
	}
	return nil, nil, false
}

// Base returns the value a property has without this file's own section:
// what the instanced scene gives it. ok is false when no scene sets it.
func (n *TreeNode) Base(key string) (v Value, file *File, ok bool) {
	for i, l := range n.layers {
		if i == 0 && n.Section() != nil {
			continue
		}
		if v, ok := l.Get(key); ok {
			return v, l.f, true
		}
	}
	return nil, nil, false
}

// Tree builds the file's effective node tree, reading the scenes it
// instances with load.
func (f *File) Tree(load SceneLoader) (*Tree, error) {
	if !f.scene || f.Root() == nil {
		return nil, fmt.Errorf("tree: %s is not a scene with a root node: %w", f.doc.name, ErrInvalid)
	}
	b := &treeBuilder{load: load, files: map[string]*TreeNode{}}
	root, err := b.expand(f, "", nil)
	if err != nil {
		return nil, err
	}
	t := &Tree{f: f, root: root, byPath: map[string]*TreeNode{}}
	root.walk(func(n *TreeNode) {
		n.top = f
		if _, dup := t.byPath[n.path]; !dup {
			t.byPath[n.path] = n
		}
	})
	return t, nil
}

// Root returns the root node.
func (t *Tree) Root() *TreeNode { return t.root }

// Node returns the node at a root-relative path, or nil.
func (t *Tree) Node(path string) *TreeNode { return t.byPath[cleanPath(path)] }

// All returns every node in tree order.
func (t *Tree) All() []*TreeNode {
	var out []*TreeNode
	t.root.walk(func(n *TreeNode) { out = append(out, n) })
	return out
}

func (n *TreeNode) walk(fn func(*TreeNode)) {
	fn(n)
	for _, c := range n.children {
		c.walk(fn)
	}
}

type treeBuilder struct {
	load  SceneLoader
	files map[string]*TreeNode // expanded trees of instanced scenes by path
}

func (b *treeBuilder) expand(f *File, path string, stack []string) (*TreeNode, error) {
	var root *TreeNode
	byPath := map[string]*TreeNode{}
	for _, fn := range f.Nodes() {
		inst, isInst := fn.Instance()
		var n *TreeNode
		switch {
		case fn.IsRoot() && isInst:
			base, err := b.instance(f, inst, stack)
			if err != nil {
				return nil, err
			}
			base.walk(func(d *TreeNode) {
				if d != base && d.owner == nil {
					d.owner = base
				}
			})
			base.inherited, base.owner = true, nil
			n = base
			root = n
		case fn.IsRoot():
			n = &TreeNode{path: ".", class: fn.Type()}
			root = n
		default:
			parent := byPath[cleanPath(fn.ParentPath())]
			if parent == nil {
				continue // Godot skips a node whose parent is missing
			}
			npath := JoinNodePath(parent.path, fn.Name())
			switch {
			case isInst:
				sub, err := b.instance(f, inst, stack)
				if err != nil {
					return nil, err
				}
				sub.walk(func(d *TreeNode) {
					if d != sub && d.owner == nil {
						d.owner = sub
					}
				})
				sub.inherited = false // an instance here, whatever it is in its own file
				n = sub
				n.parent = parent
				parent.children = append(parent.children, n)
			case fn.Type() == "" && byPath[npath] != nil:
				n = byPath[npath]
			default:
				n = &TreeNode{class: fn.Type(), parent: parent}
				parent.children = append(parent.children, n)
			}
			n.name = fn.Name()
			n.rebase(npath)
		}
		if n.owner == nil && n != root || fn.IsRoot() {
			// Declared here: identity and scene are this file's.
			n.scene = path
			n.uid, _ = fn.UniqueID()
			if t := fn.Type(); t != "" {
				n.class = t
			}
		}
		if fn.IsRoot() {
			n.name = fn.Name()
		}
		n.layers = append([]*Node{fn}, n.layers...)
		n.walk(func(d *TreeNode) { byPath[d.path] = d })
	}
	if root == nil {
		return nil, fmt.Errorf("tree: %s has no root node: %w", f.doc.name, ErrInvalid)
	}
	return root, nil
}

// instance returns a fresh copy of the tree of the scene ref names.
func (b *treeBuilder) instance(f *File, ref ExtResource, stack []string) (*TreeNode, error) {
	d := f.ExtResource(ref.ID)
	if d == nil {
		return nil, fmt.Errorf("tree: %s instances ExtResource(%q), which it does not declare: %w", f.doc.name, ref.ID, ErrNotFound)
	}
	p := d.Path()
	if slices.Contains(stack, p) || len(stack) >= maxInstanceDepth {
		return nil, fmt.Errorf("tree: %s instances itself (through %s): %w", p, strings.Join(stack, " -> "), ErrInvalid)
	}
	t, ok := b.files[p]
	if !ok {
		sf, err := b.load(p)
		switch {
		case errors.Is(err, ErrNotText):
			t = &TreeNode{path: ".", opaque: true}
		case err != nil:
			return nil, err
		default:
			if t, err = b.expand(sf, p, append(stack, p)); err != nil {
				return nil, err
			}
		}
		b.files[p] = t
	}
	c := t.clone(nil, map[*TreeNode]*TreeNode{})
	c.instance = p
	if c.scene == "" {
		c.scene = p
	}
	return c, nil
}

func (n *TreeNode) clone(parent *TreeNode, seen map[*TreeNode]*TreeNode) *TreeNode {
	c := *n
	seen[n] = &c
	c.parent = parent
	c.layers = slices.Clone(n.layers)
	c.children = make([]*TreeNode, len(n.children))
	for i, ch := range n.children {
		c.children[i] = ch.clone(&c, seen)
	}
	if n.owner != nil {
		c.owner = seen[n.owner]
	}
	return &c
}

func (n *TreeNode) rebase(path string) {
	n.path = path
	for _, c := range n.children {
		c.rebase(JoinNodePath(path, c.name))
	}
}

// index returns the node's position among its parent's children.
func (n *TreeNode) index() int {
	if n.parent == nil {
		return -1
	}
	return slices.Index(n.parent.children, n)
}

// idPath returns the unique ids that lead to n across scenes, as
// parent_id_path names a parent inside an instance: the id of each
// instance root from this file inward, then n's own. nil when an id is
// unknown (scenes saved before Godot 4.6).
func (n *TreeNode) idPath() []int32 {
	if n.parent == nil {
		return []int32{}
	}
	if n.uid == 0 {
		return nil
	}
	var pre []int32
	if n.owner != nil {
		if pre = n.owner.idPath(); pre == nil {
			return nil
		}
	}
	return append(slices.Clone(pre), int32(n.uid))
}

// needEditable returns the instance roots that must have editable
// children for the editor to show (and save) edits of n's section: every
// instance between n and this file, outermost first.
func (n *TreeNode) needEditable() []string {
	var out []string
	for o := n.owner; o != nil; o = o.owner {
		if !o.inherited {
			out = append([]string{o.path}, out...)
		}
	}
	return out
}

// Override returns the section of this file that sets properties of the
// node at path, adding one for a node an instanced scene declares: as the
// editor writes it, with parent, parent_id_path (Godot 4.6+), index and
// the node's unique_id in its scene, placed where the saver puts it (tree
// order), and with the instances it lies in made editable. The tree must
// have been built from the file as it is now.
func (t *Tree) Override(path string) (*Node, error) {
	n := t.Node(path)
	if n == nil {
		return nil, fmt.Errorf("override: node %q: %w", path, ErrNotFound)
	}
	if s := n.Section(); s != nil {
		t.makeEditable(n)
		return s, nil
	}
	f := t.f
	s := &Section{doc: f.doc, kind: secNode, tag: "node"}
	s.fields = []field{{name: "name", value: String(n.name)}, {name: "parent", value: String(n.parent.path)}}
	t.placement(s, n.parent, n.index(), false)
	if f.usesUniqueIDs() && n.uid != 0 {
		s.fields = append(s.fields, field{name: "unique_id", value: Int(n.uid)})
	}
	f.doc.insertSection(t.insertAt(n), s, f.doc.nl+f.doc.nl)
	f.reindex()
	t.makeEditable(n)
	sec := f.byPath[n.path]
	n.layers = append([]*Node{sec}, n.layers...)
	return sec, nil
}

// placement adds the fields that place a node under parent when the node
// or its parent is not this file's own (or the scene is inherited):
// parent_id_path and the node's index among the parent's children, as the
// saver writes them.
func (t *Tree) placement(s *Section, parent *TreeNode, index int, declared bool) {
	if parent.owner != nil && t.f.usesUniqueIDs() {
		if ids := parent.idPath(); len(ids) > 0 {
			s.fields = append(s.fields, field{name: "parent_id_path", value: PackedInt32Array(ids)})
		}
	}
	if parent.owner != nil || !declared || t.root.inherited {
		s.fields = append(s.fields, field{name: "index", value: String(strconv.Itoa(index))})
	}
}

// insertAt returns the section index for a new section of n: after the
// last section of the nodes before it in tree order.
func (t *Tree) insertAt(n *TreeNode) int { return t.after(n, false) }

// after returns the section index just after the sections of the nodes
// before n in tree order, and of n itself when inclusive.
func (t *Tree) after(n *TreeNode, inclusive bool) int {
	prev, done := t.f.Root(), false
	t.root.walk(func(d *TreeNode) {
		if done || d == n && !inclusive {
			done = true
			return
		}
		if s := d.Section(); s != nil {
			prev = s
		}
		done = d == n
	})
	return t.f.doc.indexOf(prev.Section) + 1
}

// makeEditable adds the [editable] entries that edits of n need.
func (t *Tree) makeEditable(n *TreeNode) {
	for _, p := range n.needEditable() {
		t.f.setEditable(p, true)
	}
}

// AddNode adds a node of class typ named name under the node at parent,
// which may be a node of an instanced scene: the new section then names
// its parent through the instance, with parent_id_path and index as the
// editor writes them, and the instance gets editable children (without
// them the editor would not save the node). Under a node this file
// declares it is File.AddNode.
func (t *Tree) AddNode(parent, name, typ string) (*Node, error) {
	if typ == "" {
		return nil, fmt.Errorf("add node %q: type is required: %w", name, ErrInvalid)
	}
	return t.add(parent, name, field{name: "type", value: String(typ)})
}

// AddInstance is AddNode for a node that instances a scene (see
// File.AddInstance).
func (t *Tree) AddInstance(parent, name string, scene ExtResource) (*Node, error) {
	if t.f.ExtResource(scene.ID) == nil {
		return nil, fmt.Errorf("add instance %q: ext_resource %q: %w", name, scene.ID, ErrNotFound)
	}
	return t.add(parent, name, field{name: "instance", value: scene})
}

func (t *Tree) add(parent, name string, kind field) (*Node, error) {
	p := t.Node(parent)
	if p == nil {
		return nil, fmt.Errorf("add node: node %q: %w", parent, ErrNotFound)
	}
	if p.opaque && p.owner != nil {
		// Where among the imported scene's children it would go is unknown.
		return nil, fmt.Errorf("add node: %q instances %s, whose nodes cannot be read headless: %w", p.path, p.instance, ErrInvalid)
	}
	if err := validNodeName(name); err != nil {
		return nil, fmt.Errorf("add node: %w", err)
	}
	path := JoinNodePath(p.path, name)
	if t.byPath[path] != nil || t.f.byPath[path] != nil {
		return nil, fmt.Errorf("add node: %q already has a child named %q: %w", p.path, name, ErrExists)
	}
	if p.owner == nil && !t.root.inherited {
		return t.f.addNode(p.path, name, kind)
	}
	f := t.f
	s := &Section{doc: f.doc, kind: secNode, tag: "node"}
	s.fields = []field{{name: "name", value: String(name)}}
	if kind.name == "type" {
		s.fields = append(s.fields, kind)
	}
	s.fields = append(s.fields, field{name: "parent", value: String(p.path)})
	t.placement(s, p, len(p.children), true)
	if f.usesUniqueIDs() {
		s.fields = append(s.fields, field{name: "unique_id", value: Int(f.newUniqueID(path, nil))})
	}
	if kind.name == "instance" {
		s.fields = append(s.fields, kind)
	}
	// After the last section of the parent's subtree in tree order.
	last := p
	for len(last.children) > 0 {
		last = last.children[len(last.children)-1]
	}
	f.doc.insertSection(t.after(last, true), s, f.doc.nl+f.doc.nl)
	f.reindex()
	for _, e := range p.needEditable() {
		f.setEditable(e, true)
	}
	return f.byPath[path], nil
}

// SetEditable is File.SetEditable for any instance of the tree, also one
// that an instanced scene declares (its path goes through the instance);
// the instances it lies in become editable too, as the editor needs.
func (t *Tree) SetEditable(path string, editable bool) (bool, error) {
	n := t.Node(path)
	if n == nil {
		return false, fmt.Errorf("set editable: node %q: %w", path, ErrNotFound)
	}
	if n.instance == "" || n.parent == nil {
		return false, fmt.Errorf("set editable: %q is not an instanced scene: %w", n.path, ErrInvalid)
	}
	changed := false
	if editable {
		for _, p := range n.needEditable() {
			changed = t.f.setEditable(p, true) || changed
		}
	}
	return t.f.setEditable(n.path, editable) || changed, nil
}

// PruneOverride removes an override section that no longer sets anything
// (no property, no group), as the editor saves only overrides that
// change something. It reports whether it removed it.
func (f *File) PruneOverride(n *Node) bool {
	if n == nil || n.owned() || len(n.entries) > 0 || len(n.Groups()) > 0 {
		return false
	}
	f.doc.removeSection(n.Section)
	f.reindex()
	return true
}

// FollowRename updates this file after the scene that declares the node
// at path (in this file's terms: a node of an instanced or inherited
// scene) renamed it to newName there: the override section of the node
// itself, and every parent field, connection, [editable] entry and NodePath
// of this file that goes through it. Without it Godot would find none of
// them on load and drop the overrides and the nodes added below. It
// reports whether the file changed.
func (f *File) FollowRename(path, newName string) bool {
	from := cleanPath(path)
	if from == "." {
		return false
	}
	to := JoinNodePath(parentOf(from), newName)
	before := string(f.Bytes())
	if n := f.byPath[from]; n != nil {
		n.setField("name", String(newName), nodeOrder)
	}
	f.remap(from, to)
	f.reindex()
	return string(f.Bytes()) != before
}
