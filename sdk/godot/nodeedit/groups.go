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
// scene puts it there); no override is left behind then. n is the node's
// section.
func (s *Scene) AddToGroup(path, group string) (n *godot.Node, added bool, err error) {
	if err := CheckGroup(group); err != nil {
		return nil, false, err
	}
	n, tn, err := s.Override(path)
	if err != nil {
		return nil, false, err
	}
	if slices.Contains(n.Groups(), group) || tn != nil && slices.Contains(tn.Groups(), group) {
		s.Prune(n) // an override made for nothing
		return n, false, nil
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
