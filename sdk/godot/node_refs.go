package godot

import "slices"

// Exported script variables typed as a Node class (@export var target:
// Node2D, or Array[Node]) hold node references. The editor saves them as
// NodePaths relative to the node and lists the properties in the node's
// node_paths header field, which tells the loader to resolve the paths
// into nodes; a NodePath without that entry stays a NodePath, and the
// engine drops it from a Node-typed variable.

// NodeReferences returns the properties the node's node_paths header field
// lists, in its order.
func (n *Node) NodeReferences() []string {
	v, ok := n.Field("node_paths")
	if !ok {
		return nil
	}
	switch x := v.(type) {
	case PackedStringArray:
		return slices.Clone([]string(x))
	case Array:
		var out []string
		for _, it := range x.Items {
			if s, ok := stringOf(it); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// ResolveNodePath returns the scene path of the node a NodePath held by n
// names ("../Player" from "Enemy" is "Player"), or false when it climbs
// above the root or is absolute.
func (n *Node) ResolveNodePath(rel string) (string, bool) {
	if rel == "" || rel[0] == '/' {
		return "", false
	}
	return resolvePath(n.path, rel)
}

// MarkNodeReference lists prop in the node's node_paths header field (on)
// or takes it out (off), as the editor writes the field: the listed
// properties in the order the node's properties appear, the field left
// out when none is listed. Only properties the node sets are listed.
func (n *Node) MarkNodeReference(prop string, on bool) {
	old := n.NodeReferences()
	want := map[string]bool{}
	for _, p := range old {
		want[p] = true
	}
	want[prop] = on
	var list []string
	for _, k := range n.Keys() {
		if want[k] && !slices.Contains(list, k) {
			list = append(list, k)
		}
	}
	if slices.Equal(list, old) {
		return
	}
	if len(list) == 0 {
		n.removeField("node_paths")
		return
	}
	n.setField("node_paths", PackedStringArray(list), nodeOrder)
}
