package nodeedit

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// TreeHint is the hint of a node path that names no node.
const TreeHint = "godot_inspection_get_scene_tree lists the scene's node paths (\".\" is the root)"

// Invalid is INVALID_ARGUMENT naming the argument (required) to fix.
func Invalid(required, hint, format string, args ...any) *sdk.Error {
	e := sdk.Errorf(sdk.CodeInvalidArgument, hint, format, args...)
	e.Required = required
	return e
}

// NotFound is NOT_FOUND with a hint.
func NotFound(hint, format string, args ...any) *sdk.Error {
	return sdk.Errorf(sdk.CodeNotFound, hint, format, args...)
}

// EditError turns an error of sdk/godot's editing API into the contract's
// refusal: a missing node NOT_FOUND, a taken name or an edit Godot does
// not allow INVALID_ARGUMENT naming the argument required. Other errors
// are returned unchanged.
func EditError(err error, required string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, godot.ErrNotFound):
		return NotFound(TreeHint, "%v", err)
	case errors.Is(err, godot.ErrExists):
		return Invalid(required, "choose another name, or read the tree with godot_inspection_get_scene_tree", "%v", err)
	case errors.Is(err, godot.ErrInvalid):
		return Invalid(required, "see the message for what Godot does not allow here", "%v", err)
	}
	return err
}

// Tree returns the scene's effective node tree (see godot.Tree), built on
// first need and dropped by edits that add or remove nodes.
func (s *Scene) Tree() (*godot.Tree, error) {
	s.sync()
	if s.tr != nil {
		return s.tr, nil
	}
	tr, err := s.Doc.Tree(s.loader())
	if err != nil {
		return nil, Invalid("scene_path", "fix or restore the instanced scene the message names",
			"the scenes %s instances cannot be read: %v", s.Path, err)
	}
	s.tr, s.trDoc = tr, s.Doc
	return tr, nil
}

// Built returns the effective tree if one is built, else nil.
func (s *Scene) Built() *godot.Tree {
	s.sync()
	return s.tr
}

// Forget drops the effective tree after an edit that added or removed
// nodes, or rewrote sections, outside the Scene's methods.
func (s *Scene) Forget() { s.tr = nil }

// Lookup resolves a node path argument in the effective tree: also a node
// that an instanced (or inherited) scene brings in. sec is the node's
// section in this file, nil when the file does not mention it; tn is nil
// for a node of the file that no instancing concerns. A path the file
// declares is answered without reading other scenes.
func (s *Scene) Lookup(arg string) (sec *godot.Node, tn *godot.TreeNode, err error) {
	s.sync()
	p := NormalizePath(arg)
	if n := s.Doc.Node(p); n != nil && n.Declared() && !s.inherited() {
		if _, inst := n.Instance(); !inst {
			return n, nil, nil
		}
	}
	tr, err := s.Tree()
	if err != nil {
		if n := s.Doc.Node(p); n != nil {
			return n, nil, nil
		}
		// The path may lie in a scene that cannot be read: say so.
		return nil, nil, NotFound(TreeHint+"; the scenes this one instances could not all be read ("+err.Error()+")",
			"No node at '%s' in %s.", arg, s.Path)
	}
	tn = tr.Node(p)
	if tn == nil {
		hint := TreeHint
		for q := p; q != "."; {
			q = parentPath(q)
			if a := tr.Node(q); a != nil && a.Opaque() {
				hint = fmt.Sprintf("'%s' instances %s, an imported scene whose nodes cannot be read headless; attach the Godot editor to edit them", q, a.Instance())
				break
			}
		}
		return nil, nil, NotFound(hint, "No node at '%s' in %s.", arg, s.Path)
	}
	return tn.Section(), tn, nil
}

// Override returns the section that sets properties of the node at arg:
// its own, or for a node of an instanced scene the override section that
// the editor would write (see godot.Tree.Override), added when missing
// (MadeEditable then says whether that turned on "Editable Children" of
// the instance it lies in).
func (s *Scene) Override(arg string) (*godot.Node, *godot.TreeNode, error) {
	sec, tn, err := s.Lookup(arg)
	if err != nil || tn == nil {
		return sec, tn, err
	}
	if sec == nil || !tn.Declared() {
		if tn.Opaque() && sec == nil {
			return nil, nil, Invalid("node_path", "attach the Godot editor to edit it", "'%s' instances %s, which cannot be read headless", tn.Path(), tn.Instance())
		}
		before := len(s.Doc.EditablePaths())
		sec, err = s.tr.Override(tn.Path())
		if err != nil {
			return nil, nil, EditError(err, "node_path")
		}
		s.MadeEditable = len(s.Doc.EditablePaths()) > before
	}
	if s.overrides == nil {
		s.overrides = map[*godot.Node]*godot.TreeNode{}
	}
	s.overrides[sec] = tn
	return sec, tn, nil
}

// Node returns the section to edit of the node at path (see Override).
func (s *Scene) Node(path string) (*godot.Node, error) {
	n, _, err := s.Override(path)
	return n, err
}

// Prune drops an override section left setting nothing (the editor saves
// no such section); it reports whether it did.
func (s *Scene) Prune(sec *godot.Node) bool {
	if s.Doc.PruneOverride(sec) {
		delete(s.overrides, sec)
		s.tr = nil
		return true
	}
	return false
}

// Own resolves the node at arg for an edit that only the scene's own
// nodes allow (rename, delete, duplicate, move; verb), refusing one that
// an instanced or inherited scene defines.
func (s *Scene) Own(arg, verb string) (*godot.Node, error) {
	np := NormalizePath(arg)
	n, tn, err := s.Lookup(np)
	if err != nil {
		return nil, err
	}
	if tn != nil && !tn.Declared() || n != nil && !n.Declared() {
		return nil, notOwn(tn, np, verb)
	}
	if n == nil {
		return nil, NotFound(TreeHint, "No node at '%s' in %s.", np, s.Path)
	}
	return n, nil
}

// notOwn is the refusal of an edit of a node that an instanced (or
// inherited) scene defines, naming what can be done instead.
func notOwn(tn *godot.TreeNode, np, verb string) error {
	def := "the scene that defines it"
	if tn != nil && tn.Scene() != "" {
		def = tn.Scene()
	}
	hint := fmt.Sprintf("%s it in %s (godot_scene_edit_open_scene, or pass scene=%q), which changes every instance; "+
		"here you can set its properties (godot_scene_edit_set_node_property writes an override) and add children under it; "+
		"to change only this copy's structure, make the instance local in the Godot editor (Make Local)", verb, def, def)
	if tn == nil || tn.Scene() == "" {
		hint = verb + " it in the scene that defines it; here you can set its properties and add children under it"
	}
	return Invalid("node_path", hint, "'%s' belongs to the instanced scene %s and cannot be %sd here", np, def, verb)
}

func parentPath(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[:i]
	}
	return "."
}

// NodeAndClass resolves a node path to the section that sets its
// properties (an override inside an instance, see Override) and the
// node's class: its type, the instanced scene's class, or its script's
// base class.
func (s *Scene) NodeAndClass(ctx context.Context, call *sdk.Call, path string) (*godot.Node, string, error) {
	n, tn, err := s.Override(OrDot(path))
	if err != nil {
		return nil, "", err
	}
	class := n.Type()
	if tn != nil && tn.Class() != "" {
		class = tn.Class()
	}
	if class == "" {
		class = NodeClass(ctx, call, s.Doc, n)
	}
	return n, class, nil
}
