package workspace

import (
	"fmt"
	"strings"

	"github.com/aymanbagabas/go-udiff"
)

// Undo and redo as revert. An action's files are expected to hold what the
// action left (for undo: its after bytes). When one holds something else,
// because the user or another tool edited it since, the step is applied the
// way `git revert` applies a commit: as a three-way merge of lines, with
// base the content the action left, ours the content on disk, and theirs
// the content the step restores. Edits on both sides that touch different
// lines merge; edits that overlap (or an insertion inside the other side's
// changed lines) refuse the step, naming the lines of the file on disk.
//
// The line diffs are go-udiff's (the Go tools' own Myers diff); its Merge
// would also accept an insertion inside a range the other side rewrote, so
// the overlap test is stricter here and runs first.

// overlap is a region of the file on disk where both sides changed lines.
type overlap struct {
	from, to int // 1-based lines of the file on disk; to < from for a point between lines
}

func (o overlap) String() string {
	switch {
	case o.to < o.from:
		return fmt.Sprintf("before line %d", o.from)
	case o.to == o.from:
		return fmt.Sprintf("line %d", o.from)
	default:
		return fmt.Sprintf("lines %d-%d", o.from, o.to)
	}
}

// revert merges theirs into ours over base. It returns the merged content,
// or the overlapping regions (in ours' lines) when the two sides' edits
// collide.
func revert(base, ours, theirs []byte) ([]byte, []overlap) {
	b, o, t := string(base), string(ours), string(theirs)
	x := udiff.Lines(b, o) // base → ours: what changed since the action
	y := udiff.Lines(b, t) // base → theirs: the step itself
	var clash []overlap
	for _, ex := range x {
		for _, ey := range y {
			if collide(ex, ey) {
				clash = append(clash, oursLines(o, x, ex))
				break
			}
		}
	}
	if len(clash) > 0 {
		return nil, clash
	}
	// Edits that do not overlap merge; should the library still refuse
	// them, the whole file counts as the overlap.
	merged, ok := udiff.Merge(x, y)
	var out string
	var err error
	if ok {
		out, err = udiff.Apply(b, merged)
	}
	if !ok || err != nil {
		return nil, []overlap{{from: 1, to: strings.Count(o, "\n")}}
	}
	return []byte(out), nil
}

// collide reports whether two edits of the same base cannot both apply:
// identical edits can (both sides made the same change); otherwise their
// replaced ranges intersect, or one inserts strictly inside the other's
// range, or both insert different text at the same point.
func collide(a, b udiff.Edit) bool {
	if a == b {
		return false
	}
	switch {
	case a.Start == a.End && b.Start == b.End:
		return a.Start == b.Start
	case a.Start == a.End:
		return b.Start < a.Start && a.Start < b.End
	case b.Start == b.End:
		return a.Start < b.Start && b.Start < a.End
	default:
		return a.Start < b.End && b.Start < a.End
	}
}

// oursLines locates edit e of x (base → ours) in ours' lines.
func oursLines(ours string, x []udiff.Edit, e udiff.Edit) overlap {
	shift := 0
	for _, p := range x {
		if p == e {
			break
		}
		shift += len(p.New) - (p.End - p.Start)
	}
	start := e.Start + shift
	from := strings.Count(ours[:min(start, len(ours))], "\n") + 1
	n := strings.Count(e.New, "\n")
	if e.New != "" && !strings.HasSuffix(e.New, "\n") {
		n++
	}
	return overlap{from: from, to: from + n - 1}
}

func overlapList(os []overlap) string {
	s := make([]string, len(os))
	for i, o := range os {
		s[i] = o.String()
	}
	return strings.Join(s, ", ")
}
