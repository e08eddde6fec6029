package godot

// Rendering: writing a document back, raw spans for what is untouched and
// canonical text for what was edited.

import (
	"slices"
)

// bytes returns the document text. An unedited document is its source.
func (d *document) bytes() []byte {
	if !d.edited {
		return slices.Clone(d.src)
	}
	return d.appendTo(make([]byte, 0, len(d.src)+256))
}

func (d *document) appendTo(dst []byte) []byte {
	if !d.edited {
		return append(dst, d.src...)
	}
	w := d.writer()
	for _, s := range d.sections {
		dst = append(dst, d.text(s.pre)...)
		if !s.headerless {
			if s.raw.has() {
				dst = append(dst, d.text(s.raw)...)
			} else {
				dst = s.appendHeader(dst, w)
			}
		}
		for i := range s.entries {
			e := &s.entries[i]
			dst = append(dst, d.text(e.pre)...)
			if !e.dirty {
				dst = append(dst, d.text(e.raw)...)
				continue
			}
			dst = d.appendEntry(dst, w, e)
		}
	}
	return append(dst, d.text(d.tail)...)
}

func (d *document) appendEntry(dst []byte, w writer, e *entry) []byte {
	if e.raw.has() {
		dst = append(dst, d.text(e.raw)[:e.headLen]...)
	} else {
		dst = appendKey(dst, e.key)
		if d.config {
			dst = append(dst, '=')
		} else {
			dst = append(dst, " = "...)
		}
	}
	return w.append(dst, e.value)
}

func (s *Section) appendHeader(dst []byte, w writer) []byte {
	dst = append(dst, '[')
	if s.doc.config {
		for i := 0; i < len(s.tag); i++ {
			if s.tag[i] == ']' {
				dst = append(dst, '\\')
			}
			dst = append(dst, s.tag[i])
		}
		return append(dst, ']')
	}
	dst = append(dst, s.tag...)
	for i := range s.fields {
		f := &s.fields[i]
		dst = append(dst, ' ')
		if f.raw.has() {
			dst = append(dst, s.doc.text(f.raw)...)
			continue
		}
		dst = append(dst, f.name...)
		dst = append(dst, '=')
		if s.kind == secConnection && f.name == "binds" {
			// The engine writes "binds= [...]" with a space; keep it so
			// edited connections look like saved ones.
			dst = append(dst, ' ')
		}
		dst = s.appendFieldValue(dst, w, f)
	}
	return append(dst, ']')
}

// appendFieldValue writes a header field. The engine C-escapes node names and
// paths, groups and connection fields, and writes the rest as plain values.
func (s *Section) appendFieldValue(dst []byte, w writer, f *field) []byte {
	cEscaped := false
	switch s.kind {
	case secNode:
		cEscaped = f.name == "name" || f.name == "parent" || f.name == "owner"
		if arr, ok := f.value.(Array); ok && f.name == "groups" && arr.Type == nil {
			dst = append(dst, '[')
			for i, it := range arr.Items {
				if i > 0 {
					dst = append(dst, ", "...)
				}
				if str, ok := it.(String); ok {
					dst = appendQuotedC(dst, string(str))
				} else {
					dst = w.append(dst, it)
				}
			}
			return append(dst, ']')
		}
	case secConnection:
		cEscaped = f.name == "signal" || f.name == "from" || f.name == "to" || f.name == "method"
	case secEditable:
		cEscaped = f.name == "path"
	}
	if str, ok := f.value.(String); ok && cEscaped {
		return appendQuotedC(dst, string(str))
	}
	return w.append(dst, f.value)
}
