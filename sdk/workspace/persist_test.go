package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestJournalSharedAcrossProcessesAndRestarts(t *testing.T) {
	dir, jdir := t.TempDir(), t.TempDir()
	open := func() *Workspace {
		w, err := Open(dir, Options{JournalDir: jdir})
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	put(t, dir, "main.tscn", "original\r\n")
	a, b := open(), open() // a server and a one-shot call on one project
	m := mustRead(t, a, "main.tscn")
	if _, err := a.Commit(bg, Change{Name: "Edit in A", CallID: "c1", Ops: []Op{
		{Path: "main.tscn", Data: []byte("edited"), Base: m.Version},
		{Path: "new/x.gd", Data: []byte("x")},
	}}); err != nil {
		t.Fatal(err)
	}
	if h := b.History(); h.CurrentAction != "Edit in A" || h.Depth != 1 {
		t.Fatalf("B does not see A's action: %+v", h)
	}
	if _, err := b.Undo(bg, 1, false); err != nil {
		t.Fatal(err)
	}
	if s, _ := get(t, dir, "main.tscn"); s != "original\r\n" {
		t.Fatalf("undo in B: %q", s)
	}
	if h := a.History(); h.Depth != 0 || !h.HasRedo {
		t.Fatalf("A does not see B's undo: %+v", h)
	}
	c := open() // a restart
	if r, err := c.Redo(bg, 1, false); err != nil || r.Done != 1 {
		t.Fatalf("redo after restart: %+v %v", r, err)
	}
	if s, _ := get(t, dir, "new/x.gd"); s != "x" {
		t.Fatal("redo after restart did not recreate the file")
	}
	// Call ids are per process: B's call "c1" is not A's call "c1".
	res, err := b.Commit(bg, Change{Name: "Second", CallID: "c1", Ops: []Op{{Path: "y.txt", Data: []byte("y")}}})
	if err != nil {
		t.Fatal(err)
	}
	h := a.History()
	if h.Depth != 2 || h.Recent[1].ID != res.ActionID || h.Recent[0].ID == res.ActionID {
		t.Fatalf("history after commits from three processes: %+v", h)
	}
	if _, err := a.Undo(bg, 2, false); err != nil {
		t.Fatal(err)
	}
	if s, _ := get(t, dir, "main.tscn"); s != "original\r\n" {
		t.Fatal("undo of two actions across processes")
	}
}

func TestJournalFilesAreBoundedAndCorruptionIsSurvived(t *testing.T) {
	dir, jdir := t.TempDir(), t.TempDir()
	w, err := Open(dir, Options{JournalDir: jdir, MaxActions: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a", "b", "c", "d"} {
		if _, err := w.Commit(bg, Change{Name: n, Ops: []Op{{Path: n, Data: []byte(n)}}}); err != nil {
			t.Fatal(err)
		}
	}
	ents, _ := os.ReadDir(jdir)
	var actions []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "a-") {
			actions = append(actions, e.Name())
		}
	}
	if len(actions) != 2 {
		t.Fatalf("journal files %v, want the 2 kept actions", actions)
	}
	if err := os.WriteFile(filepath.Join(jdir, "index.json"), []byte("{garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	w2, err := Open(dir, Options{JournalDir: jdir})
	if err != nil {
		t.Fatal(err)
	}
	if h := w2.History(); h.Depth != 0 {
		t.Fatalf("a corrupt journal should read as empty: %+v", h)
	}
	if _, err := w2.Commit(bg, Change{Name: "after", Ops: []Op{{Path: "e", Data: []byte("e")}}}); err != nil {
		t.Fatal(err)
	}
	if h := w.History(); h.Depth != 1 || h.CurrentAction != "after" {
		t.Fatalf("the rewritten journal: %+v", h)
	}
}

func TestUnusableJournalDirFallsBackToMemory(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(t.TempDir(), "file")
	put(t, filepath.Dir(blocker), "file", "not a directory")
	w, err := Open(dir, Options{JournalDir: filepath.Join(blocker, "journal")})
	if err != nil {
		t.Fatal(err)
	}
	res, err := w.Commit(bg, Change{Name: "x", Ops: []Op{{Path: "x", Data: []byte("x")}}})
	if err != nil || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "lives in this process only") {
		t.Fatalf("%+v %v", res, err)
	}
	if _, err := w.Undo(bg, 1, false); err != nil {
		t.Fatal(err)
	}
	if _, ok := get(t, dir, "x"); ok {
		t.Fatal("in-memory undo after the fallback failed")
	}
}
