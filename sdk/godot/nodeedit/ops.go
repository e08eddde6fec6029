package nodeedit

import (
	pathpkg "path"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// CreateNode adds a node of class typ named name (default: the class;
// a name a sibling has gets the editor's next free name) under parent,
// which may be a node of an instanced scene: the new node is this
// scene's, placed through the instance (MadeEditable says whether that
// turned on its "Editable Children").
func (s *Scene) CreateNode(parent, name, typ string) (*godot.Node, error) {
	if err := s.db.ValidNodeTypeFor(typ, s.ws.GodotVersion(s.ctx)); err != nil {
		return nil, Invalid("node_type", "pick an instantiable Node class (the message names the closest)", "%v", err)
	}
	p, tp, err := s.Lookup(OrDot(parent))
	if err != nil {
		return nil, err
	}
	if name == "" {
		name = typ
	}
	if err := ValidName(name); err != nil {
		return nil, err
	}
	return s.addUnder(tp,
		func() (*godot.Node, error) { return s.Doc.AddNode(p.Path(), FreeName(s.Doc, p.Path(), name), typ) },
		func() (*godot.Node, error) { return s.tr.AddNode(tp.Path(), FreeChildName(tp, name), typ) })
}

// addUnder adds a node with inFile when its parent is declared in the file
// (tp nil), else with inTree under tp, a node of an instanced scene, which
// may make the instance's children editable (MadeEditable says so).
func (s *Scene) addUnder(tp *godot.TreeNode, inFile, inTree func() (*godot.Node, error)) (*godot.Node, error) {
	s.MadeEditable = false
	var n *godot.Node
	var err error
	if tp == nil {
		n, err = inFile()
	} else {
		editable := len(s.Doc.EditablePaths())
		n, err = inTree()
		s.MadeEditable = err == nil && len(s.Doc.EditablePaths()) > editable
		s.tr = nil
	}
	if err != nil {
		return nil, EditError(err, "node_path")
	}
	s.Edited = true
	return n, nil
}

// OrDot normalises a node path, an empty one naming the root (".").
func OrDot(p string) string {
	if strings.TrimSpace(p) == "" {
		return "."
	}
	return NormalizePath(p)
}

// Delete removes a node and its subtree.
func (s *Scene) Delete(path string) error {
	np := NormalizePath(path)
	if np == "." {
		return Invalid("node_path", "delete its children instead, or create a new scene", "Cannot delete the scene root.")
	}
	n, err := s.Own(np, "delete")
	if err != nil {
		return err
	}
	s.tr = nil
	if err := s.Doc.RemoveNode(n.Path()); err != nil {
		return EditError(err, "node_path")
	}
	s.Edited = true
	return nil
}

// Duplicate copies a node (with its subtree) next to it, under the
// editor's next free name, and returns the copy.
func (s *Scene) Duplicate(path string) (*godot.Node, error) {
	np := NormalizePath(path)
	if np == "." {
		return nil, Invalid("node_path", "duplicate a child node, or copy the scene file", "Cannot duplicate the scene root.")
	}
	n, err := s.Own(np, "duplicate")
	if err != nil {
		return nil, err
	}
	s.tr = nil
	c, err := s.Doc.DuplicateNode(n.Path(), "")
	if err != nil {
		return nil, EditError(err, "node_path")
	}
	s.Edited = true
	return c, nil
}

// Move reparents a node under parent at index among its children (-1
// appends) and returns the node.
func (s *Scene) Move(path, parent string, index int) (*godot.Node, error) {
	np, dest := NormalizePath(path), NormalizePath(parent)
	if np == "." {
		return nil, Invalid("node_path", "move its children instead", "Cannot move the scene root.")
	}
	n, err := s.Own(np, "move")
	if err != nil {
		return nil, err
	}
	p, tp, err := s.Lookup(dest)
	if err != nil {
		return nil, err
	}
	if dest == n.Path() || strings.HasPrefix(dest+"/", n.Path()+"/") {
		return nil, Invalid("node_path", "choose a parent outside the node's own subtree",
			"Cannot move '%s' into itself or one of its descendants ('%s').", np, dest)
	}
	if tp != nil && !tp.Declared() || p == nil {
		return nil, Invalid("new_parent_path", "move it under a node this scene declares, or create the node under the instanced one "+
			"(godot_scene_edit_create_node with that parent_path)",
			"'%s' belongs to an instanced scene; headless, nodes are not moved into an instance", dest)
	}
	s.tr = nil
	if err := s.Doc.MoveNodeTo(n.Path(), p.Path(), index); err != nil {
		return nil, EditError(err, "node_path")
	}
	s.Edited = true
	return n, nil
}

// Rename renames a node and returns it with its old name. Scenes that inherit or instance
// this one name the node by its path in their overrides and added nodes:
// they follow the rename (see [Scene.Writes]), and updated lists them.
func (s *Scene) Rename(path, name string) (n *godot.Node, old string, updated []string, err error) {
	if err := ValidName(name); err != nil {
		return nil, "", nil, err
	}
	n, err = s.Own(path, "rename")
	if err != nil {
		return nil, "", nil, err
	}
	old, oldPath := n.Name(), n.Path()
	s.tr = nil
	if err := s.Doc.RenameNode(n.Path(), name); err != nil {
		return nil, "", nil, EditError(err, "node_path")
	}
	s.Edited = true
	if old != name && oldPath != "." {
		if updated, err = s.followRename(oldPath, name); err != nil {
			return nil, "", nil, err
		}
	}
	return n, old, updated, nil
}

// Writes returns the writes of the other scenes the edits updated (see
// Rename), for a caller that commits Doc itself.
func (s *Scene) Writes() []func(*sdk.Tx) {
	var ws []func(*sdk.Tx)
	for _, f := range s.follow {
		data, version, path := f.doc.Bytes(), f.version, f.path
		ws = append(ws, func(tx *sdk.Tx) { tx.Write(path, data, version) })
	}
	return ws
}

// Instance adds an instance of the scene at scenePath named name
// (default: that scene's root name; a name a sibling has gets the
// editor's next free name) under parent, which may be a node of an
// instanced scene (MadeEditable as for CreateNode).
func (s *Scene) Instance(parent, name, scenePath string) (*godot.Node, error) {
	sp := scenePath
	if sp == s.Path {
		return nil, Invalid("scene_path", "instance a different scene", "a scene cannot instance itself (%s)", sp)
	}
	p, tp, err := s.Lookup(OrDot(parent))
	if err != nil {
		return nil, err
	}
	src, err := s.ws.Read(s.ctx, sp)
	if err != nil {
		return nil, err
	}
	uid := ""
	if sf, err := godot.ParseFile(sp, src.Data); err == nil && sf.Root() != nil {
		if name == "" {
			name = sf.Root().Name()
		}
		uid = sf.UID()
	} else if strings.HasSuffix(sp, ".tscn") {
		return nil, Invalid("scene_path", "fix or re-save that scene first", "%s does not load: %v", sp, err)
	}
	if name == "" {
		name = strings.TrimSuffix(pathpkg.Base(sp), pathpkg.Ext(sp))
	}
	if err := ValidName(name); err != nil {
		return nil, err
	}
	if tp == nil {
		name = FreeName(s.Doc, p.Path(), name)
	} else {
		name = FreeChildName(tp, name)
	}
	ref, err := s.Doc.AddExtResource("PackedScene", sp, uid)
	if err != nil {
		return nil, EditError(err, "scene_path")
	}
	return s.addUnder(tp,
		func() (*godot.Node, error) { return s.Doc.AddInstance(p.Path(), name, ref) },
		func() (*godot.Node, error) { return s.tr.AddInstance(tp.Path(), name, ref) })
}
