package godot

// Resource references: which ext and sub resources are used, and dropping
// the ones nobody uses.

import (
	"slices"
)

// refSets collects the resource ids referenced by values.
type refSets struct{ ext, sub map[string]bool }

func newRefSets() refSets { return refSets{ext: map[string]bool{}, sub: map[string]bool{}} }

func (r refSets) add(v Value) {
	walkValue(v, func(x Value) {
		switch ref := x.(type) {
		case ExtResource:
			r.ext[ref.ID] = true
		case SubResource:
			r.sub[ref.ID] = true
		}
	})
}

func (r refSets) empty() bool { return len(r.ext) == 0 && len(r.sub) == 0 }

// used returns every id referenced anywhere in the file. A sub resource's
// references to itself do not keep it alive.
func (f *File) used() refSets {
	r := newRefSets()
	for _, s := range f.doc.sections {
		if s.kind == secExt {
			continue
		}
		var self string
		if s.kind == secSub {
			self = s.fieldString("id")
		}
		for i := range s.fields {
			if s.kind != secSub {
				r.add(s.fields[i].value)
			}
		}
		for i := range s.entries {
			walkValue(s.entries[i].value, func(x Value) {
				switch ref := x.(type) {
				case ExtResource:
					r.ext[ref.ID] = true
				case SubResource:
					if ref.ID != self {
						r.sub[ref.ID] = true
					}
				}
			})
		}
	}
	return r
}

// valuesRemoved drops resources whose last reference an edit removed, the
// way the editor's saver only writes resources that are still reachable.
// Resources that were already unreferenced before the edit are left alone.
func (f *File) valuesRemoved(vals []Value) {
	cand := newRefSets()
	for _, v := range vals {
		cand.add(v)
	}
	f.prune(cand)
}

func (f *File) prune(cand refSets) []string {
	var removed []string
	for !cand.empty() {
		used := f.used()
		next := newRefSets()
		for id := range cand.sub {
			if used.sub[id] {
				continue
			}
			if s := f.SubResource(id); s != nil {
				for i := range s.entries {
					next.add(s.entries[i].value)
				}
				f.doc.removeSection(s.Section)
				removed = append(removed, id)
			}
		}
		for id := range cand.ext {
			if used.ext[id] {
				continue
			}
			if e := f.ExtResource(id); e != nil {
				f.doc.removeSection(e.s)
			}
		}
		f.reindex()
		cand = next
	}
	slices.Sort(removed)
	return removed
}

// RemoveUnusedSubResources removes every [sub_resource] that nothing in the
// file references, directly or through other sub resources, and returns
// their ids.
func (f *File) RemoveUnusedSubResources() []string {
	cand := newRefSets()
	for _, s := range f.subs {
		cand.sub[s.ID()] = true
	}
	return f.prune(cand)
}
