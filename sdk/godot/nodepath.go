package godot

import "strings"

// Node paths inside a scene file are relative to the root and exclude the
// root's name: "." is the root, "A" a child of the root, "A/B" a grandchild.

// cleanPath normalises a caller-supplied scene path to that form.
func cleanPath(p string) string {
	p = strings.TrimSuffix(p, "/")
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	if p == "" {
		return "."
	}
	return p
}

// JoinNodePath returns the path of a child called name under parent
// ("." or "" for the root).
func JoinNodePath(parent, name string) string {
	if parent == "" || parent == "." {
		return name
	}
	return parent + "/" + name
}

// parentOf returns the parent path of a non-root node path.
func parentOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return "."
}

// inSubtree reports whether p is root or lies below it.
func inSubtree(p, root string) bool {
	return root == "." || p == root || strings.HasPrefix(p, root+"/")
}

// rebase maps a path in the subtree of from to the same place under to.
func rebase(p, from, to string) string {
	if p == from {
		return to
	}
	if strings.HasPrefix(p, from+"/") {
		return JoinNodePath(to, p[len(from)+1:])
	}
	return p
}

func splitComponents(p string) []string {
	if p == "." || p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// resolvePath resolves a relative NodePath (node part only) against the path
// of the node holding it. It fails for paths that climb above the root.
func resolvePath(holder, rel string) (string, bool) {
	comps := splitComponents(holder)
	for _, c := range strings.Split(rel, "/") {
		switch c {
		case "", ".":
		case "..":
			if len(comps) == 0 {
				return "", false
			}
			comps = comps[:len(comps)-1]
		default:
			comps = append(comps, c)
		}
	}
	if len(comps) == 0 {
		return ".", true
	}
	return strings.Join(comps, "/"), true
}

// relativePath is the shortest relative NodePath from one node to another,
// the form Node::get_path_to produces.
func relativePath(from, to string) string {
	a, b := splitComponents(from), splitComponents(to)
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	parts := make([]string, 0, len(a)-n+len(b)-n)
	for range a[n:] {
		parts = append(parts, "..")
	}
	parts = append(parts, b[n:]...)
	if len(parts) == 0 {
		return "."
	}
	return strings.Join(parts, "/")
}

// remapNodePath rewrites one NodePath property value held by the node at
// holder, after nodes were renamed or moved as described by mapFn. Absolute
// paths, %UniqueName paths and paths that climb above the root are left
// alone. The rewrite changes as little text as possible: a path that still
// reaches its target is kept; otherwise the same walk with renamed
// components is tried; only then the shortest relative path is used.
func remapNodePath(p, holder string, mapFn func(string) string) (string, bool) {
	if p == "" || p[0] == '/' {
		return p, false
	}
	nodePart, sub := p, ""
	if i := strings.IndexByte(p, ':'); i >= 0 {
		nodePart, sub = p[:i], p[i:]
	}
	if strings.Contains(nodePart, "%") {
		return p, false
	}
	target, ok := resolvePath(holder, nodePart)
	if !ok {
		return p, false
	}
	newHolder, newTarget := mapFn(holder), mapFn(target)
	if got, ok := resolvePath(newHolder, nodePart); ok && got == newTarget {
		return p, false
	}
	// Same walk, each named step replaced by that node's new name.
	cur := holder
	comps := strings.Split(nodePart, "/")
	out := make([]string, len(comps))
	for i, c := range comps {
		switch c {
		case "", ".":
		case "..":
			cur = parentOf(cur)
		default:
			cur = JoinNodePath(cur, c)
			np := mapFn(cur)
			c = np[strings.LastIndexByte(np, '/')+1:]
		}
		out[i] = c
	}
	if cand := strings.Join(out, "/"); cand != nodePart {
		if got, ok := resolvePath(newHolder, cand); ok && got == newTarget {
			return cand + sub, true
		}
	}
	rel := relativePath(newHolder, newTarget)
	if rel == nodePart {
		return p, false
	}
	return rel + sub, true
}

// rewriteNodePathsIn returns v with every NodePath (also inside arrays and
// dictionaries) rewritten by fn, and whether anything changed.
func rewriteNodePathsIn(v Value, fn func(string) (string, bool)) (Value, bool) {
	switch x := v.(type) {
	case NodePath:
		if np, ok := fn(string(x)); ok {
			return NodePath(np), true
		}
	case Array:
		var out []Value
		for i, it := range x.Items {
			if nv, ok := rewriteNodePathsIn(it, fn); ok {
				if out == nil {
					out = append([]Value(nil), x.Items...)
				}
				out[i] = nv
			}
		}
		if out != nil {
			return Array{Type: x.Type, Items: out}, true
		}
	case Dictionary:
		var out []DictEntry
		for i, e := range x.Entries {
			if nv, ok := rewriteNodePathsIn(e.Value, fn); ok {
				if out == nil {
					out = append([]DictEntry(nil), x.Entries...)
				}
				out[i].Value = nv
			}
		}
		if out != nil {
			return Dictionary{KeyType: x.KeyType, ValueType: x.ValueType, Entries: out}, true
		}
	}
	return v, false
}

// NormalizeNodePath applies the addon's rules for a node path an agent
// passes (Inspect.normalize_node_path): surrounding spaces, one leading
// "/", then a leading "root/" go, "root" alone and "" are the scene root
// ("."), and "./" prefixes and a trailing "/" go too.
func NormalizeNodePath(p string) string {
	p = strings.TrimPrefix(strings.TrimSpace(p), "/")
	p = strings.TrimPrefix(p, "root/")
	p = strings.TrimSuffix(p, "/")
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	if p == "" || p == "root" {
		return "."
	}
	return p
}
