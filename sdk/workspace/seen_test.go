package workspace

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
)

func overwrite(w *Workspace, p, data string, base sdk.FileVersion) error {
	_, err := w.Commit(bg, Change{Name: "Write " + p, Ops: []Op{{Path: p, Data: []byte(data), Base: base, BaseSeen: true}}})
	return err
}

// A whole-file write based on what the agent saw is refused, with a diff,
// when the file changed since; what the agent saw is what it read for
// itself, or what a commit, undo or redo left.
func TestOverwriteIsBasedOnWhatTheAgentSaw(t *testing.T) {
	w, dir := newWS(t, Options{})
	put(t, dir, "a.gd", "one\ntwo\nthree\n")
	if _, err := w.ReadForAgent(bg, "res://a.gd"); err != nil {
		t.Fatal(err)
	}
	put(t, dir, "a.gd", "one\nTWO\nthree\n") // the user's editor
	cur := mustRead(t, w, "res://a.gd")      // the tool's own read does not count
	e := wantCode(t, overwrite(w, "res://a.gd", "mine\n", cur.Version), sdk.CodeConflict)
	if !strings.Contains(e.Message, "since the agent last read or wrote it") || !strings.Contains(e.Message, "-two\n+TWO") {
		t.Fatalf("conflict = %s", e.Text())
	}
	// Write (not Overwrite) with the fresh base is what force does.
	if _, err := w.Commit(bg, Change{Name: "w", Ops: []Op{{Path: "res://a.gd", Data: []byte("mine\n"), Base: cur.Version}}}); err != nil {
		t.Fatal(err)
	}
	// The commit is what the agent saw last: the next overwrite goes
	// through, as does one after undo restored the user's text.
	if err := overwrite(w, "res://a.gd", "mine 2\n", cur.Version); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Undo(bg, 1, false); err != nil {
		t.Fatal(err)
	}
	if err := overwrite(w, "res://a.gd", "mine 3\n", ""); err != nil {
		t.Fatal(err)
	}
	// A file the agent never saw is based on the version passed.
	put(t, dir, "b.gd", "b\n")
	if err := overwrite(w, "res://b.gd", "b2\n", mustRead(t, w, "res://b.gd").Version); err != nil {
		t.Fatal(err)
	}
	// A file the agent deleted and the user made again is a conflict too.
	if _, err := w.Commit(bg, Change{Name: "d", Ops: []Op{{Path: "res://b.gd", Delete: true, Base: VersionOf([]byte("b2\n"))}}}); err != nil {
		t.Fatal(err)
	}
	put(t, dir, "b.gd", "user's b\n")
	e = wantCode(t, overwrite(w, "res://b.gd", "b3\n", ""), sdk.CodeConflict)
	if !strings.Contains(e.Message, "was created since the agent last saw it absent") {
		t.Fatalf("recreated = %s", e.Text())
	}
}

// Another process (a `godot-mcp call`) knows from the shared journal what
// the tools last wrote.
func TestOverwriteSeesTheJournalOfOtherProcesses(t *testing.T) {
	dir := t.TempDir()
	jd := filepath.Join(t.TempDir(), "journal")
	a, err := Open(dir, Options{JournalDir: jd})
	if err != nil {
		t.Fatal(err)
	}
	put(t, dir, "a.gd", "x\n")
	if err := overwrite(a, "res://a.gd", "one\ntwo\n", VersionOf([]byte("x\n"))); err != nil {
		t.Fatal(err)
	}
	put(t, dir, "a.gd", "one\ntwo\nthree\n")
	b, err := Open(dir, Options{JournalDir: jd})
	if err != nil {
		t.Fatal(err)
	}
	now := mustRead(t, b, "res://a.gd").Version
	e := wantCode(t, overwrite(b, "res://a.gd", "mine\n", now), sdk.CodeConflict)
	if !strings.Contains(e.Message, "+three") {
		t.Fatalf("conflict = %s", e.Text())
	}
}

func TestClipBoundsTheDiff(t *testing.T) {
	d := strings.Repeat("+line\n", 100)
	got := clip(d, 10, 1<<10)
	if strings.Count(got, "\n") != 11 || !strings.HasSuffix(got, "(90 more diff lines)\n") {
		t.Fatalf("clip = %q", got)
	}
	if clip("+a\n", 10, 100) != "+a\n" {
		t.Fatal("short diff clipped")
	}
}
