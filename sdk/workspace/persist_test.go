package workspace

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

func TestJournalLogIsCompactedAndSurvivesDamage(t *testing.T) {
	dir, jdir := t.TempDir(), t.TempDir()
	logPath := filepath.Join(jdir, logName)
	w, err := Open(dir, Options{JournalDir: jdir, MaxActions: 2, MaxBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	// 8 commits of 300 KB: the journal keeps 2 actions (~600 KB of
	// content); the log is rewritten before it passes 2x that plus 1 MiB.
	big := make([]byte, 300<<10)
	for i := range 8 {
		big[0] = byte(i)
		if _, err := w.Commit(bg, Change{Name: "big", Ops: []Op{{Path: fmt.Sprintf("f%d", i), Data: big}}}); err != nil {
			t.Fatal(err)
		}
	}
	fi, err := os.Stat(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > 2*(600<<10)+(1<<20)+(400<<10) {
		t.Fatalf("log is %d bytes: not compacted", fi.Size())
	}
	if _, err := w.Undo(bg, 1, false); err != nil {
		t.Fatal(err)
	}
	// Another process reads the compacted log: same state.
	w2, err := Open(dir, Options{JournalDir: jdir, MaxActions: 2, MaxBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if h := w2.History(); h.Depth != 1 || h.RedoDepth != 1 {
		t.Fatalf("after compaction: %+v", h)
	}

	// A torn last entry (a crash mid-append) is cut off; the rest stands.
	// Here the torn entry is the commit's done entry: its intent is whole
	// and the file holds the new content, so the commit is rolled forward.
	if _, err := w2.Commit(bg, Change{Name: "small", Ops: []Op{{Path: "s", Data: []byte("s")}}}); err != nil {
		t.Fatal(err)
	}
	fi, _ = os.Stat(logPath)
	if err := os.Truncate(logPath, fi.Size()-3); err != nil {
		t.Fatal(err)
	}
	w3, _ := Open(dir, Options{JournalDir: jdir, MaxActions: 2, MaxBytes: 1 << 20})
	if h := w3.History(); h.CurrentAction != "small" || h.Depth != 2 {
		t.Fatalf("after a torn tail: %+v", h)
	}
	// A torn intent: the change never started; it is dropped.
	put(t, dir, "torn.txt", "x")
	if err := os.WriteFile(logPath, append(mustReadFile(t, logPath), 0, 0, 1, 0, 9), 0o600); err != nil {
		t.Fatal(err)
	}
	w3, _ = Open(dir, Options{JournalDir: jdir, MaxActions: 2, MaxBytes: 1 << 20})
	if h := w3.History(); h.CurrentAction != "small" || h.Depth != 2 {
		t.Fatalf("after a torn intent: %+v", h)
	}
	if _, err := w3.Commit(bg, Change{Name: "after", Ops: []Op{{Path: "t", Data: []byte("t")}}}); err != nil {
		t.Fatal(err)
	}
	w4, _ := Open(dir, Options{JournalDir: jdir, MaxActions: 2, MaxBytes: 1 << 20})
	if h := w4.History(); h.CurrentAction != "after" || h.Depth != 2 {
		t.Fatalf("an append after a torn tail: %+v", h)
	}

	// Garbage reads as an empty journal and is replaced by the next change.
	if err := os.WriteFile(logPath, []byte("\x00\x00\x00\x05garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	w5, _ := Open(dir, Options{JournalDir: jdir})
	if h := w5.History(); h.Depth != 0 {
		t.Fatalf("garbage log: %+v", h)
	}
	if _, err := w5.Commit(bg, Change{Name: "fresh", Ops: []Op{{Path: "u", Data: []byte("u")}}}); err != nil {
		t.Fatal(err)
	}
	w6, _ := Open(dir, Options{JournalDir: jdir})
	if h := w6.History(); h.Depth != 1 || h.CurrentAction != "fresh" {
		t.Fatalf("after garbage: %+v", h)
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

// With a journal directory, the headless open and active scenes are shared
// too: `godot-mcp call open_scene` then another call's edit of "the active
// scene" must mean the same scene.
func TestScenesSharedAcrossProcesses(t *testing.T) {
	dir, jdir := t.TempDir(), t.TempDir()
	put(t, dir, "a.tscn", "a")
	put(t, dir, "b.tscn", "b")
	a, _ := Open(dir, Options{JournalDir: jdir})
	if _, err := a.SetActiveScene(bg, "res://a.tscn"); err != nil {
		t.Fatal(err)
	}
	b, _ := Open(dir, Options{JournalDir: jdir})
	if sc := b.Scenes(); sc.Active != "res://a.tscn" {
		t.Fatalf("B sees %+v", sc)
	}
	if _, err := b.SetActiveScene(bg, "res://b.tscn"); err != nil {
		t.Fatal(err)
	}
	f := mustRead(t, b, "a.tscn")
	if _, err := b.Commit(bg, Change{Name: "rm", Ops: []Op{{Path: "a.tscn", Delete: true, Base: f.Version}}}); err != nil {
		t.Fatal(err)
	}
	if sc := a.Scenes(); sc.Active != "res://b.tscn" || len(sc.Open) != 1 {
		t.Fatalf("A sees %+v after B opened b and deleted a", sc)
	}
}

func mustReadFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLegacyJournalIsMigrated: a journal written by version 1 (contents
// inline, journal.log) is read, rewritten as version 2 and removed, and
// its history stays undoable.
func TestLegacyJournalIsMigrated(t *testing.T) {
	dir, jdir := t.TempDir(), t.TempDir()
	put(t, dir, "a.txt", "a1")
	root, _ := filepath.EvalSymlinks(dir)
	var buf bytes.Buffer
	for _, e := range []entry{
		{Kind: entryAction, Version: 1, Action: &record{ID: 1, Name: "old edit", At: time.Now(), Files: []fileRecord{{
			Res: "res://a.txt", Abs: filepath.Join(root, "a.txt"),
			Before: contentRecord{Exists: true, Data: []byte("a0"), Mode: 0o644},
			After:  contentRecord{Exists: true, Data: []byte("a1"), Mode: 0o644}}}}},
	} {
		start := buf.Len()
		buf.Write([]byte{0, 0, 0, 0})
		if err := gob.NewEncoder(&buf).Encode(e); err != nil {
			t.Fatal(err)
		}
		binary.BigEndian.PutUint32(buf.Bytes()[start:], uint32(buf.Len()-start-4))
	}
	if err := os.WriteFile(filepath.Join(jdir, legacyLogName), buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	w, err := Open(dir, Options{JournalDir: jdir})
	if err != nil {
		t.Fatal(err)
	}
	if h := w.History(); h.Depth != 1 || h.CurrentAction != "old edit" {
		t.Fatalf("migrated history: %+v", h)
	}
	if _, err := os.Stat(filepath.Join(jdir, legacyLogName)); !os.IsNotExist(err) {
		t.Fatalf("the version 1 log is still there: %v", err)
	}
	// Another process reads the version 2 log and undoes the old action.
	w2, err := Open(dir, Options{JournalDir: jdir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w2.Undo(bg, 1, false); err != nil {
		t.Fatal(err)
	}
	if s, _ := get(t, dir, "a.txt"); s != "a0" {
		t.Fatalf("a.txt = %q", s)
	}
}

// TestReplayedContentIsReadFromTheLog: a process that joins reads no file
// content until an undo needs it, and a damaged copy in the log refuses the
// undo instead of writing wrong bytes.
func TestReplayedContentIsReadFromTheLog(t *testing.T) {
	dir, jdir := t.TempDir(), t.TempDir()
	w, err := Open(dir, Options{JournalDir: jdir})
	if err != nil {
		t.Fatal(err)
	}
	put(t, dir, "a.txt", "AAAAoriginal")
	f := mustRead(t, w, "a.txt")
	if _, err := w.Commit(bg, Change{Name: "Edit", Ops: []Op{{Path: "a.txt", Data: []byte("BBBBedited"), Base: f.Version}}}); err != nil {
		t.Fatal(err)
	}
	w2, _ := Open(dir, Options{JournalDir: jdir})
	w2.History()
	for _, a := range w2.undo {
		for _, f := range a.files {
			if f.before.data != nil || f.after.data != nil {
				t.Fatal("replay kept file content in memory")
			}
		}
	}
	// Damage the saved before-bytes in the log.
	logPath := filepath.Join(jdir, logName)
	raw := mustReadFile(t, logPath)
	i := bytes.Index(raw, []byte("AAAAoriginal"))
	if i < 0 {
		t.Fatal("the log does not hold the content raw")
	}
	raw[i] = 'X'
	if err := os.WriteFile(logPath+".new", raw, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := w2.Undo(bg, 1, false); err != nil {
		t.Fatal(err) // w2 reads its open log, not the damaged copy
	}
	if s, _ := get(t, dir, "a.txt"); s != "AAAAoriginal" {
		t.Fatalf("a.txt = %q", s)
	}
	if _, err := w2.Redo(bg, 1, false); err != nil {
		t.Fatal(err)
	}
	// The damaged log replaces the real one: a new process must refuse.
	if err := os.Rename(logPath+".new", logPath); err != nil {
		t.Fatal(err)
	}
	w3, _ := Open(dir, Options{JournalDir: jdir})
	_, err = w3.Undo(bg, 1, false)
	if err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("undo from a damaged log: %v", err)
	}
	if s, _ := get(t, dir, "a.txt"); s != "BBBBedited" {
		t.Fatalf("a.txt = %q", s)
	}
}
