package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzClean checks the path rule every workspace call starts with: an
// accepted path is a res:// path whose relative part is local (no "..",
// not absolute, no backslash or NUL) and cleaning it again changes nothing.
//
//	go test -fuzz FuzzClean -fuzztime 1m ./workspace/
func FuzzClean(f *testing.F) {
	for _, s := range []string{"res://a/b.tscn", "a/../b", "../x", "/etc/passwd", "res://", "", "user://x",
		"res://a//b/./c", "a\\b", "res://..", "res:///abs", "x/", "res://a/b/../../..", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, arg string) {
		res, rel, err := clean(arg)
		if err != nil {
			return
		}
		if !strings.HasPrefix(res, "res://") || res != "res://"+rel {
			t.Fatalf("clean(%q) = %q, %q", arg, res, rel)
		}
		if rel == "" {
			return
		}
		if !filepath.IsLocal(filepath.FromSlash(rel)) || strings.ContainsAny(rel, "\\\x00") || strings.HasPrefix(rel, "/") {
			t.Fatalf("clean(%q) accepted %q, which is not local", arg, rel)
		}
		for _, part := range strings.Split(rel, "/") {
			if part == ".." || part == "." || part == "" {
				t.Fatalf("clean(%q) = %q keeps a %q element", arg, rel, part)
			}
		}
		res2, rel2, err := clean(res)
		if err != nil || res2 != res || rel2 != rel {
			t.Fatalf("clean is not idempotent on %q: %q %q %v", res, res2, rel2, err)
		}
	})
}

// FuzzJournalLog feeds arbitrary bytes to the journal log reader: it must
// never panic, and whatever it accepts must stay within the bounds.
//
//	go test -fuzz FuzzJournalLog -fuzztime 1m ./workspace/
func FuzzJournalLog(f *testing.F) {
	// A real log as the seed: a commit, an extension, an undo.
	seedDir, seedJournal := f.TempDir(), f.TempDir()
	w, err := Open(seedDir, Options{JournalDir: seedJournal, Sync: SyncNone})
	if err != nil {
		f.Fatal(err)
	}
	for _, ch := range []Change{
		{Name: "a", CallID: "c1", Ops: []Op{{Path: "a", Data: []byte("a")}}},
		{Name: "a2", CallID: "c1", Ops: []Op{{Path: "b", Data: []byte("b")}}},
	} {
		if _, err := w.Commit(bg, ch); err != nil {
			f.Fatal(err)
		}
	}
	if _, err := w.Undo(bg, 1, false); err != nil {
		f.Fatal(err)
	}
	seed, err := os.ReadFile(filepath.Join(seedJournal, logName))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte{0, 0, 0, 1, 0})
	f.Add([]byte{0, 0, 0, 5, 0, 0, 0, 1, 0})
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		// As a version 2 log, read by a process joining the project
		// (which may recover a change it names: never outside root).
		jdir := t.TempDir()
		if err := os.WriteFile(filepath.Join(jdir, logName), data, 0o600); err != nil {
			t.Fatal(err)
		}
		w, err := Open(root, Options{Sync: SyncNone, MaxActions: 5, MaxBytes: 1 << 20, JournalDir: jdir})
		if err != nil {
			t.Fatal(err)
		}
		h := w.History()
		if h.Depth+h.RedoDepth > 5 || h.JournalBytes > 1<<20 {
			t.Fatalf("replay exceeded the bounds: %+v", h)
		}
		_ = w.Close()
		// As a version 1 log.
		w, err = Open(root, Options{Sync: SyncNone, MaxActions: 5, MaxBytes: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		used := w.replayLog(data)
		if used < 0 || used > int64(len(data)) {
			t.Fatalf("replayLog used %d of %d bytes", used, len(data))
		}
		h = w.History()
		if h.Depth+h.RedoDepth > 5 || h.JournalBytes > 1<<20 {
			t.Fatalf("replay exceeded the bounds: %+v", h)
		}
	})
}
