package godot

// Writing resource and scene files, with the file-wide rules of the editor's
// saver applied after edits.

import (
	"io"
	"slices"
)

// Bytes returns the file text. Before any edit it is exactly the parsed
// input. After edits, the file-wide rules of the editor's saver are applied
// first: format becomes 4 when the values now need it (a PackedVector4Array or
// a PackedByteArray over 64 bytes) or 3 when they no longer do, every byte
// array is then spelled to match, and a pre-4.6 load_steps field follows the
// number of resources.
func (f *File) Bytes() []byte {
	if f.doc.edited {
		f.applyFileRules()
	}
	return f.doc.bytes()
}

// WriteTo writes Bytes to w.
func (f *File) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(f.Bytes())
	return int64(n), err
}

func (f *File) byteMode() byteMode {
	switch f.Format() {
	case 3:
		return bytesAsInts
	case 4:
		return bytesAsBase64
	}
	return bytesAsRecorded
}

func (f *File) headerOrder() []string {
	if f.scene {
		return sceneHeaderOrder
	}
	return resourceHeaderOrder
}

func (f *File) applyFileRules() {
	f.placeNewSubResources()
	f.orderSubResources()
	need4 := false
	f.eachValue(func(s *Section, v Value) {
		if need4 {
			return
		}
		walkValue(v, func(x Value) {
			switch b := x.(type) {
			case PackedVector4Array:
				need4 = true
			case PackedByteArray:
				if len(b.Data) > 64 {
					need4 = true
				}
			}
		})
	})
	if need4 != f.format4 {
		f.format4 = need4
		if cur := f.Format(); cur == 3 || cur == 4 {
			want := 3
			if need4 {
				want = 4
			}
			if want != cur {
				f.header.setField("format", Int(want), f.headerOrder())
				for _, s := range f.doc.sections {
					s.markDirty(func(x Value) bool {
						b, ok := x.(PackedByteArray)
						return ok && len(b.Data) > 0 && b.Base64 != need4
					})
				}
			}
		}
	}
	if n := len(f.exts) + len(f.subs); n != f.resCount {
		f.resCount = n
		if _, ok := f.header.Field("load_steps"); ok {
			if n+1 > 1 {
				f.header.setField("load_steps", Int(n+1), f.headerOrder())
			} else {
				f.header.removeField("load_steps")
			}
		}
	}
}

// orderSubResources restores the rule that a sub resource is declared before
// anything that refers to it, which an edit can break (an existing sub
// resource given a reference to a newly added one). The editor's saver
// writes dependencies first; the same stable depth-first order is applied
// here, and only when some reference points forward, so files that are
// already in order are not touched. Cycles, which the engine cannot load
// either, keep their order.
func (f *File) orderSubResources() {
	subs := f.subs
	idx := make(map[string]int, len(subs))
	for i, s := range subs {
		idx[s.ID()] = i
	}
	deps := make([][]int, len(subs))
	forward := false
	for i, s := range subs {
		refs := newRefSets()
		for k := range s.entries {
			refs.add(s.entries[k].value)
		}
		for id := range refs.sub {
			if j, ok := idx[id]; ok && j != i {
				deps[i] = append(deps[i], j)
				forward = forward || j > i
			}
		}
		slices.Sort(deps[i])
	}
	if !forward {
		return
	}
	state := make([]uint8, len(subs)) // 0 new, 1 visiting, 2 placed
	order := make([]int, 0, len(subs))
	var visit func(i int)
	visit = func(i int) {
		if state[i] != 0 {
			return
		}
		state[i] = 1
		for _, j := range deps[i] {
			visit(j)
		}
		state[i] = 2
		order = append(order, i)
	}
	for i := range subs {
		visit(i)
	}
	d := f.doc
	slots := make([]int, len(subs))
	pres := make([]span, len(subs))
	for k, s := range subs {
		slots[k] = d.indexOf(s.Section)
		pres[k] = s.pre
	}
	for k, i := range order {
		sec := subs[i].Section
		sec.pre = pres[k] // the layout stays with the position
		d.sections[slots[k]] = sec
	}
	d.edited = true
	f.reindex()
}

// eachValue calls fn for every header field value and property value.
func (f *File) eachValue(fn func(s *Section, v Value)) {
	for _, s := range f.doc.sections {
		for i := range s.fields {
			fn(s, s.fields[i].value)
		}
		for i := range s.entries {
			fn(s, s.entries[i].value)
		}
	}
}
