package godot

// Trivia bookkeeping for edits: where whitespace and comments go when
// statements are inserted or removed.

import (
	"bytes"
	"slices"
)

// splitPre splits statement trivia into the part that finishes the previous
// line (up to and including the first newline, e.g. a trailing comment) and
// the part that belongs to this statement (blank lines, comment lines).
func splitPre(pre []byte) (lineTail, own []byte) {
	i := bytes.IndexByte(pre, '\n')
	if i < 0 {
		return pre, nil
	}
	return pre[:i+1], pre[i+1:]
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c > ' ' {
			return false
		}
	}
	return true
}

// joinPre computes the trivia of the statement following a removed one.
// A trailing comment on the line before the removed statement stays; the
// removed statement's own comments go with it; the wider blank-line gap of
// the two is kept so section grouping survives (removing the first
// [ext_resource] keeps the blank line after the file header).
func joinPre(removed, next []byte, nextIsTail bool) []byte {
	rt, ro := splitPre(removed)
	_, no := splitPre(next)
	keep := no
	if !nextIsTail && isBlank(ro) && isBlank(no) && bytes.Count(ro, []byte{'\n'}) > bytes.Count(no, []byte{'\n'}) {
		keep = ro
	}
	out := make([]byte, 0, len(rt)+len(keep))
	return append(append(out, rt...), keep...)
}

// insertPre returns the trivia for a statement inserted right before a
// statement whose trivia is *next, and fixes *next up: if *next starts with a
// trailing comment of the previous line, that comment stays on that line.
func (d *document) insertPre(defaultPre string, next *span) span {
	lt, own := splitPre(d.text(*next))
	if len(lt) == 0 || string(lt) == d.nl || string(lt) == "\n" {
		return d.own([]byte(defaultPre))
	}
	if lt[len(lt)-1] != '\n' {
		// The trivia has no line break at all (say, a final comment without a
		// newline): the new statement must start on a line of its own.
		pre := append(slices.Clone(lt), defaultPre...)
		*next = span{}
		return d.own(pre)
	}
	// *next starts with a trailing comment of the previous line; it stays on
	// that line, ahead of the new statement.
	pre := append(slices.Clone(lt), defaultPre[len(d.nl):]...)
	*next = d.own(append([]byte(d.nl), own...))
	return d.own(pre)
}

// followingPre returns the trivia slot of the statement after entry ei of
// section si (ei == -1 means after the header), and whether it is the file's
// tail.
func (d *document) followingPre(si, ei int) (*span, bool) {
	s := d.sections[si]
	if ei+1 < len(s.entries) {
		return &s.entries[ei+1].pre, false
	}
	if si+1 < len(d.sections) {
		n := d.sections[si+1]
		if n.headerless && len(n.entries) > 0 {
			return &n.entries[0].pre, false
		}
		return &n.pre, false
	}
	return &d.tail, true
}

func (d *document) indexOf(s *Section) int {
	for i, x := range d.sections {
		if x == s {
			return i
		}
	}
	return -1
}

// removeSection drops a section and its properties.
func (d *document) removeSection(s *Section) {
	si := d.indexOf(s)
	if si < 0 {
		return
	}
	next, tail := d.followingPre(si, len(s.entries)-1)
	if s.headerless {
		if len(s.entries) > 0 {
			*next = d.own(joinPre(d.text(s.entries[0].pre), d.text(*next), tail))
		}
	} else {
		*next = d.own(joinPre(d.text(s.pre), d.text(*next), tail))
	}
	d.sections = slices.Delete(d.sections, si, si+1)
	d.edited = true
}

// insertSection inserts s before index si (len(d.sections) appends).
// defaultPre is the trivia it should get in a well-formed file.
func (d *document) insertSection(si int, s *Section, defaultPre string) {
	var next *span
	if si < len(d.sections) {
		n := d.sections[si]
		if n.headerless && len(n.entries) > 0 {
			next = &n.entries[0].pre
		} else {
			next = &n.pre
		}
	} else {
		next = &d.tail
	}
	if si == 0 {
		// Nothing precedes the new statement: the trivia that led the file
		// (typically its comment block) stays at the top, ahead of it, and
		// must end with a line break so it cannot swallow the statement.
		s.pre = *next
		if lead := d.text(*next); len(lead) > 0 && lead[len(lead)-1] != '\n' {
			s.pre = d.own(append(slices.Clone(lead), d.nl...))
		}
		if len(d.sections) > 0 {
			*next = d.own([]byte(defaultPre))
		} else {
			*next = d.own([]byte(d.nl)) // the new statement is the whole file
		}
	} else {
		s.pre = d.insertPre(defaultPre, next)
	}
	s.doc = d
	d.sections = slices.Insert(d.sections, si, s)
	d.edited = true
}
