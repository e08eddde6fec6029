package nodeedit

import (
	pathpkg "path"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// CheckGroup refuses an empty group name (Required "group").
func CheckGroup(g string) error {
	if strings.TrimSpace(g) == "" {
		return Invalid("group", "pass a group name", "group must not be empty")
	}
	return nil
}

// AddToGroup adds the node at path to group, as the editor saves it: a
// node of an instanced scene joins through an override section. added is
// false when the node is in the group already (also when its instanced
// scene puts it there); the scene is left as it was then (no override,
// no [editable] entry). n is the node's section, nil when the node is in
// the group already and this scene has no section for it.
func (s *Scene) AddToGroup(path, group string) (n *godot.Node, added bool, err error) {
	if err := CheckGroup(group); err != nil {
		return nil, false, err
	}
	// Whether the node is in the group is read before any override is
	// made: making one can also make the instance's children editable.
	if n, tn, err := s.Lookup(path); err != nil {
		return nil, false, err
	} else if n != nil && slices.Contains(n.Groups(), group) || tn != nil && slices.Contains(tn.Groups(), group) {
		return n, false, nil
	}
	n, _, err = s.Override(path)
	if err != nil {
		return nil, false, err
	}
	if err := n.AddGroup(group); err != nil {
		return nil, false, EditError(err, "group")
	}
	s.Edited = true
	return n, true, nil
}

// RemoveFromGroup removes the node at path from group. Groups an
// instanced scene gives the node are that scene's to remove: removed is
// false for them, as for a group the node is not in. n is the node's
// section, nil when the scene does not mention the node.
func (s *Scene) RemoveFromGroup(path, group string) (n *godot.Node, removed bool, err error) {
	n, _, err = s.Lookup(path)
	if err != nil {
		return nil, false, err
	}
	if n == nil || !n.RemoveGroup(group) {
		return n, false, nil
	}
	s.Prune(n)
	s.Edited = true
	return n, true, nil
}

// SetEditable turns "Editable Children" of the instance at path on or
// off; name is the node's name, for the action. An instance that an
// instanced scene declares is reached through the outer instance, which
// becomes editable too.
func (s *Scene) SetEditable(path string, editable bool) (name string, err error) {
	np := NormalizePath(path)
	n, tn, err := s.Lookup(np)
	if err != nil {
		return "", err
	}
	name = pathpkg.Base("/" + np)
	if tn != nil {
		_, err = s.Built().SetEditable(tn.Path(), editable)
	} else {
		_, err = s.Doc.SetEditable(n.Path(), editable)
		name = n.Name()
	}
	if err != nil {
		return "", EditError(err, "node_path")
	}
	s.Edited = true
	return name, nil
}

// InGroup tells whether the node at path is in group, from this scene or
// a scene it instances (false when there is no such node).
func (s *Scene) InGroup(path, group string) bool {
	n, tn, err := s.Lookup(path)
	if err != nil {
		return false
	}
	return n != nil && slices.Contains(n.Groups(), group) || tn != nil && slices.Contains(tn.Groups(), group)
}

// GroupResult is the answer of add_to_group and remove_from_group in both
// modes, the reference server's GroupResult: node_path, group, in_group
// (whether the node is in the group now) and changed (whether the call
// changed that). op is "added" or "removed", kept with changed's value for
// callers that read it.
func GroupResult(path, group, op string, inGroup, changed bool) map[string]any {
	return map[string]any{"node_path": path, "group": group, "in_group": inGroup, "changed": changed, op: changed}
}
