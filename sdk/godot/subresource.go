package godot

// Sub-resources as the editor writes them: where a new one goes, who uses
// one, copies of one, and dropping the ones an abandoned edit made.

import (
	"fmt"
	"slices"
)

// SubResourceUse is one property that refers to a sub-resource: a node's
// (Node is its path), another sub-resource's (Sub is its id) or the main
// [resource]'s (both empty).
type SubResourceUse struct {
	Node     string
	Sub      string
	Property string
}

// SubResourceUsers returns every property that refers to sub-resource id,
// directly (anywhere inside the value), in file order.
func (f *File) SubResourceUsers(id string) []SubResourceUse {
	var out []SubResourceUse
	for _, s := range f.doc.sections {
		var use SubResourceUse
		switch s.kind {
		case secNode:
			n, _ := s.wrap.(*Node)
			if n == nil {
				continue
			}
			use.Node = n.Path()
		case secSub:
			use.Sub = s.fieldString("id")
			if use.Sub == id {
				continue
			}
		case secResource:
		default:
			continue
		}
		for i := range s.entries {
			hit := false
			walkValue(s.entries[i].value, func(x Value) {
				if r, ok := x.(SubResource); ok && r.ID == id {
					hit = true
				}
			})
			if hit {
				u := use
				u.Property = s.entries[i].key
				out = append(out, u)
			}
		}
	}
	return out
}

// RemoveSubResources removes the given sub-resources that nothing in the
// file refers to any more, with the resources only they used, and returns
// the removed ids. Ones still in use stay. It is how an edit that made
// sub-resources and then failed takes them back.
func (f *File) RemoveSubResources(ids ...string) []string {
	cand := newRefSets()
	for _, id := range ids {
		cand.sub[id] = true
	}
	return f.prune(cand)
}

// CopySubResource declares a new sub-resource with the class and the
// properties of sub-resource id (the editor's "Make Unique") and returns
// it. deep copies the sub-resources it refers to as well, to any depth
// ("Make Unique (Recursive)"); otherwise the copy shares them.
func (f *File) CopySubResource(id string, deep bool) (*SubResourceDecl, error) {
	return f.copySub(id, deep, map[string]string{})
}

func (f *File) copySub(id string, deep bool, done map[string]string) (*SubResourceDecl, error) {
	src := f.SubResource(id)
	if src == nil {
		return nil, fmt.Errorf("copy sub_resource: no sub_resource %q: %w", id, ErrNotFound)
	}
	done[id] = "" // a cycle keeps referring to the original
	props := src.Properties()
	if deep {
		for i, p := range props {
			v, err := f.remapSubs(p.Value, func(ref string) (string, error) {
				if to, ok := done[ref]; ok {
					if to == "" {
						return ref, nil
					}
					return to, nil
				}
				c, err := f.copySub(ref, true, done)
				if err != nil {
					return "", err
				}
				return c.ID(), nil
			})
			if err != nil {
				return nil, err
			}
			props[i].Value = v
		}
	}
	dst, err := f.AddSubResource(src.Type())
	if err != nil {
		return nil, err
	}
	done[id] = dst.ID()
	for _, p := range props {
		dst.Set(p.Key, p.Value)
	}
	return dst, nil
}

// remapSubs returns v with each SubResource reference replaced by to(id).
func (f *File) remapSubs(v Value, to func(string) (string, error)) (Value, error) {
	switch x := v.(type) {
	case SubResource:
		id, err := to(x.ID)
		return SubResource{ID: id}, err
	case Array:
		out := x
		out.Items = make([]Value, len(x.Items))
		for i, it := range x.Items {
			nv, err := f.remapSubs(it, to)
			if err != nil {
				return nil, err
			}
			out.Items[i] = nv
		}
		return out, nil
	case Dictionary:
		out := x
		out.Entries = slices.Clone(x.Entries)
		for i := range out.Entries {
			nv, err := f.remapSubs(out.Entries[i].Value, to)
			if err != nil {
				return nil, err
			}
			out.Entries[i].Value = nv
		}
		return out, nil
	}
	return v, nil
}

// placeNewSubResources moves the sub-resources added since the file was
// parsed to where the editor's saver writes them: in the order the file
// first uses them (nodes in file order; a resource's own sub-resources
// before it), each right after the sub-resource used before it; those only
// the main resource uses go last, in the order they were added. The ones the file already had keep their
// order, so an editor-written file stays as it was.
func (f *File) placeNewSubResources() {
	if len(f.newSubs) == 0 {
		return
	}
	byID := make(map[string]*SubResourceDecl, len(f.subs))
	for _, s := range f.subs {
		byID[s.ID()] = s
	}
	var order []*SubResourceDecl
	seen := map[string]bool{}
	var visit func(id string)
	visit = func(id string) {
		s := byID[id]
		if s == nil || seen[id] {
			return
		}
		seen[id] = true
		for i := range s.entries {
			walkValue(s.entries[i].value, func(x Value) {
				if r, ok := x.(SubResource); ok {
					visit(r.ID)
				}
			})
		}
		order = append(order, s)
	}
	for _, s := range f.doc.sections {
		// Nodes only: the saver walks a main resource's property list,
		// whose order is the class's and not the file's key order (a
		// VisualShader's vertex nodes are written after its fragment
		// nodes, a TileData's navigation polygon before its occluder), so
		// what only the main resource uses keeps the order it was added in.
		if s.kind != secNode {
			continue
		}
		for i := range s.entries {
			walkValue(s.entries[i].value, func(x Value) {
				if r, ok := x.(SubResource); ok {
					visit(r.ID)
				}
			})
		}
	}
	// Existing ones in file order; each new one after its predecessor in
	// first-use order.
	var placed []*SubResourceDecl
	for _, s := range f.subs {
		if !f.newSubs[s.Section] {
			placed = append(placed, s)
		}
	}
	for k, s := range order {
		if !f.newSubs[s.Section] {
			continue
		}
		at := 0
		for j := k - 1; j >= 0; j-- {
			if i := slices.Index(placed, order[j]); i >= 0 {
				at = i + 1
				break
			}
		}
		placed = slices.Insert(placed, at, s)
	}
	for _, s := range f.subs { // new but unused: last, as added
		if !slices.Contains(placed, s) {
			placed = append(placed, s)
		}
	}
	clear(f.newSubs)
	if slices.Equal(placed, f.subs) {
		return
	}
	d := f.doc
	slots := make([]int, len(f.subs))
	pres := make([]span, len(f.subs))
	for k, s := range f.subs {
		slots[k] = d.indexOf(s.Section)
		pres[k] = s.pre
	}
	for k, s := range placed {
		s.pre = pres[k] // the layout stays with the position
		d.sections[slots[k]] = s.Section
	}
	d.edited = true
	f.reindex()
}
