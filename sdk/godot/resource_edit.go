package godot

// Adding resources: generated ids and their placement.

import (
	"fmt"
	"hash/fnv"
	"strings"
)

// idAlphabet is the 34-character alphabet of Godot's generated ids and UIDs
// (a..y, 0..8; never z or 9).
const idAlphabet = "abcdefghijklmnopqrstuvwxy012345678"

// idSuffix derives the 5-character random-looking part of a generated id.
// It is a hash of seed rather than random so that the same edit always
// produces the same file, which keeps diffs and tests reproducible.
func idSuffix(seed string, attempt int) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%d", seed, attempt)
	v := h.Sum64()
	var b [5]byte
	for i := range b {
		b[i] = idAlphabet[v%34]
		v /= 34
	}
	return string(b[:])
}

// naturalLess compares like String::naturalnocasecmp_to, the order of
// [ext_resource] ids: digit runs compare as numbers, letters ignore case.
func naturalLess(a, b string) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ca, cb := a[i], b[j]
		if isDigit(ca) && isDigit(cb) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			na := strings.TrimLeft(a[si:i], "0")
			nb := strings.TrimLeft(b[sj:j], "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			continue
		}
		la, lb := lower(ca), lower(cb)
		if la != lb {
			return la < lb
		}
		i++
		j++
	}
	return len(a)-i < len(b)-j
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// AddExtResource declares an external resource and returns the reference to
// use in properties. If the path is already declared, its existing id is
// returned and nothing changes (the editor also keeps one id per path). New
// ids follow the editor's "<n>_<5 chars>" style, and the line is placed in
// natural id order. uid may be empty.
func (f *File) AddExtResource(typ, path, uid string) (ExtResource, error) {
	if path == "" || typ == "" {
		return ExtResource{}, fmt.Errorf("add ext_resource: type and path are required: %w", ErrInvalid)
	}
	if e := f.ExtResourceByPath(path); e != nil {
		return e.Ref(), nil
	}
	var id string
	for n, attempt := len(f.exts)+1, 0; ; attempt++ {
		id = itoa(n) + "_" + idSuffix(path, attempt)
		if f.ExtResource(id) == nil {
			break
		}
		n++
	}
	s := &Section{doc: f.doc, kind: secExt, tag: "ext_resource"}
	s.fields = append(s.fields, field{name: "type", value: String(typ)})
	if uid != "" {
		s.fields = append(s.fields, field{name: "uid", value: String(uid)})
	}
	s.fields = append(s.fields, field{name: "path", value: String(path)}, field{name: "id", value: String(id)})

	d := f.doc
	nl := d.nl
	at := d.indexOf(f.header) + 1
	var before *Section
	for _, e := range f.exts {
		if naturalLess(id, e.ID()) {
			before = e.s
			break
		}
		at = d.indexOf(e.s) + 1
	}
	switch {
	case before != nil && len(f.exts) > 0 && before == f.exts[0].s && isBlank(d.text(before.pre)):
		// New first line of the group: it takes over the blank line after
		// the header.
		at = d.indexOf(before)
		d.insertSection(at, s, nl)
		s.pre, before.pre = before.pre, d.own([]byte(nl))
	case len(f.exts) == 0:
		d.insertSection(at, s, nl+nl)
	default:
		if before != nil {
			at = d.indexOf(before)
		}
		d.insertSection(at, s, nl)
	}
	f.reindex()
	return ExtResource{ID: id}, nil
}

// AddSubResource declares a new, empty sub resource of the given class after
// the existing ones and returns it; set its properties with Set. Its id
// follows the editor's "<Class>_<5 chars>" style. A sub resource must be
// declared before anything that refers to it: Bytes moves new ones to
// where the editor's saver writes them (in the order the file first uses
// them, each resource's own sub resources first), and existing ones into
// dependency order if other sub resources come to refer to new ones.
func (f *File) AddSubResource(typ string) (*SubResourceDecl, error) {
	if typ == "" {
		return nil, fmt.Errorf("add sub_resource: type is required: %w", ErrInvalid)
	}
	var id string
	for attempt := len(f.subs); ; attempt++ {
		id = typ + "_" + idSuffix(typ+f.doc.name, attempt)
		if f.SubResource(id) == nil {
			break
		}
	}
	s := &Section{doc: f.doc, kind: secSub, tag: "sub_resource"}
	s.fields = []field{{name: "type", value: String(typ)}, {name: "id", value: String(id)}}
	d := f.doc
	at := d.indexOf(f.header) + 1
	if len(f.exts) > 0 {
		at = d.indexOf(f.exts[len(f.exts)-1].s) + 1
	}
	if len(f.subs) > 0 {
		at = d.indexOf(f.subs[len(f.subs)-1].Section) + 1
	}
	d.insertSection(at, s, d.nl+d.nl)
	if f.newSubs == nil {
		f.newSubs = map[*Section]bool{}
	}
	f.newSubs[s] = true
	f.reindex()
	return s.wrap.(*SubResourceDecl), nil
}
