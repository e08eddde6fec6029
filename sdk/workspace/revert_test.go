package workspace

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
)

func TestRevertMergesLinesAndNamesOverlaps(t *testing.T) {
	base := "a1\nb\nc\nd\ne\n"  // what the action left (it changed line 1)
	theirs := "a\nb\nc\nd\ne\n" // what undo restores
	for _, tc := range []struct {
		name, ours, want, clash string
	}{
		{"untouched", base, theirs, ""},
		{"other line", "a1\nb\nc\nd\nE\n", "a\nb\nc\nd\nE\n", ""},
		{"adjacent line", "a1\nB\nc\nd\ne\n", "a\nB\nc\nd\ne\n", ""},
		{"lines added after", "a1\nb\nc\nd\ne\nf\ng\n", "a\nb\nc\nd\ne\nf\ng\n", ""},
		{"lines added before", "x\ny\na1\nb\nc\nd\ne\n", "x\ny\na\nb\nc\nd\ne\n", ""},
		{"same change", theirs, theirs, ""},
		{"same line", "A1\nb\nc\nd\ne\n", "", "line 1"},
		{"line deleted", "b\nc\nd\ne\n", "", "before line 1"},
		{"block rewritten", "x\ny\nz\nd\ne\n", "", "lines 1-3"},
	} {
		got, clash := revert([]byte(base), []byte(tc.ours), []byte(theirs))
		if tc.clash != "" {
			if overlapList(clash) != tc.clash {
				t.Errorf("%s: overlaps %q, want %q", tc.name, overlapList(clash), tc.clash)
			}
			continue
		}
		if clash != nil || string(got) != tc.want {
			t.Errorf("%s: got %q (overlaps %v), want %q", tc.name, got, clash, tc.want)
		}
	}
}

func TestRevertInsertionInsideARewrite(t *testing.T) {
	// The action deleted line c (undo re-inserts it); the user rewrote the
	// lines around where it was: that is an overlap, not a silent merge.
	base, theirs := "a\nb\nd\ne\n", "a\nb\nc\nd\ne\n"
	if _, clash := revert([]byte(base), []byte("a\nX\nY\ne\n"), []byte(theirs)); overlapList(clash) != "lines 2-3" {
		t.Fatalf("overlaps = %v", clash)
	}
}

func lines10(first, tenth string) string {
	s := first + "\n"
	for i := 2; i <= 9; i++ {
		s += "line " + string(rune('0'+i)) + "\n"
	}
	return s + tenth + "\n"
}

// A tool edits line 1, the user edits line 10 on disk: undo restores line
// 1 and keeps the user's line 10, redo applies line 1 again, and the user's
// edit is still there. Overlapping edits are refused naming the lines.
func TestUndoRevertsOntoTheUsersEdit(t *testing.T) {
	for _, journal := range []bool{false, true} {
		opts := Options{}
		if journal {
			opts.JournalDir = filepath.Join(t.TempDir(), "journal")
		}
		w, dir := newWS(t, opts)
		put(t, dir, "a.gd", lines10("line 1", "line 10"))
		a := mustRead(t, w, "res://a.gd")
		if _, err := w.Commit(bg, Change{Name: "Edit line 1", Ops: []Op{{Path: "res://a.gd", Data: []byte(lines10("tool 1", "line 10")), Base: a.Version}}}); err != nil {
			t.Fatal(err)
		}
		put(t, dir, "a.gd", lines10("tool 1", "user 10"))
		if journal { // another process undoes it: the journal holds the contents
			var err error
			if w, err = Open(dir, opts); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := w.Undo(bg, 1, true); err != nil {
			t.Fatalf("dry run: %v", err)
		}
		if _, err := w.Undo(bg, 1, false); err != nil {
			t.Fatalf("undo: %v", err)
		}
		if s, _ := get(t, dir, "a.gd"); s != lines10("line 1", "user 10") {
			t.Fatalf("after undo: %q", s)
		}
		if _, err := w.Redo(bg, 1, false); err != nil {
			t.Fatalf("redo: %v", err)
		}
		if s, _ := get(t, dir, "a.gd"); s != lines10("tool 1", "user 10") {
			t.Fatalf("after redo: %q", s)
		}
		// The user now rewrites line 1 too: undo would lose it.
		put(t, dir, "a.gd", lines10("user 1", "user 10"))
		_, err := w.Undo(bg, 1, false)
		e := wantCode(t, err, sdk.CodeConflict)
		if !strings.Contains(e.Message, "res://a.gd (both changed line 1)") {
			t.Fatalf("overlap: %s", e.Text())
		}
		if s, _ := get(t, dir, "a.gd"); s != lines10("user 1", "user 10") {
			t.Fatalf("refused undo changed the file: %q", s)
		}
	}
}
