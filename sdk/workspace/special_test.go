//go:build unix

package workspace

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// within runs f and fails the test if it has not returned after a generous
// bound: the operations under test used to block forever, and a test that
// hangs reports nothing.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s blocked", what)
	}
}

// specialFiles makes a named pipe, a socket and (when allowed) a character
// device in dir and returns their res:// paths with what they are.
func specialFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.tscn"), 0o644); err != nil {
		t.Fatal(err)
	}
	out["res://pipe.tscn"] = "named pipe"
	// Unix socket paths are limited to about 100 bytes; t.TempDir's are
	// short enough on the systems the tests run on, else it is skipped.
	ln, err := net.Listen("unix", filepath.Join(dir, "s.sock"))
	if err == nil {
		t.Cleanup(func() { ln.Close() })
		out["res://s.sock"] = "socket"
	}
	if syscall.Mknod(filepath.Join(dir, "null.tres"), syscall.S_IFCHR|0o666, int(mkdev(1, 3))) == nil {
		out["res://null.tres"] = "character device"
	}
	return out
}

func mkdev(major, minor uint64) uint64 { return major<<8 | minor }

// TestSpecialFilesAreRefused: reads, stats and commits of a named pipe, a
// socket or a device are refused at once with INVALID_ARGUMENT naming the
// path, and the workspace goes on working (it used to block forever on a
// FIFO, holding the workspace and journal locks).
func TestSpecialFilesAreRefused(t *testing.T) {
	w, dir := newWS(t, Options{JournalDir: t.TempDir()})
	put(t, dir, "ok.txt", "ok")
	for res, kind := range specialFiles(t, dir) {
		t.Run(kind, func(t *testing.T) {
			check := func(op string, err error) {
				t.Helper()
				e := wantCode(t, err, sdk.CodeInvalidArgument)
				if !strings.Contains(e.Message, res) || !strings.Contains(e.Message, kind) || !strings.Contains(e.Hint, "regular files only") {
					t.Fatalf("%s: %v (hint %q): want the path, what it is and the fix", op, e, e.Hint)
				}
			}
			within(t, "read", func() { _, err := w.Read(bg, res); check("read", err) })
			within(t, "stat", func() { _, err := w.Stat(bg, res); check("stat", err) })
			within(t, "create over it", func() {
				_, err := w.Commit(bg, Change{Name: "Create", Ops: []Op{{Path: res, Data: []byte("x")}}})
				check("create", err)
			})
			within(t, "delete", func() {
				_, err := w.Commit(bg, Change{Name: "Delete", Ops: []Op{{Path: res, Delete: true, Base: "sha256:00"}}})
				check("delete", err)
			})
			if strings.HasSuffix(res, ".tscn") {
				within(t, "open scene", func() { _, err := w.SetActiveScene(bg, res); check("open scene", err) })
			}
			// Nothing is stuck: the next commit goes through.
			within(t, "a commit after", func() {
				f := mustRead(t, w, "ok.txt")
				if _, err := w.Commit(bg, Change{Name: "After", Ops: []Op{{Path: "ok.txt", Data: []byte(kind), Base: f.Version}}}); err != nil {
					t.Error(err)
				}
			})
		})
	}
	if fi, err := os.Lstat(filepath.Join(dir, "pipe.tscn")); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the pipe was replaced: %v %v", fi, err)
	}
}

// TestLockWaitsEndWithTheContext: a call waiting for the workspace lock or
// for the journal's file lock (held by a stuck process) gives up with
// CANCELLED when its context ends, writing nothing, and works once the
// lock is free.
func TestLockWaitsEndWithTheContext(t *testing.T) {
	jdir := t.TempDir()
	w, dir := newWS(t, Options{JournalDir: jdir})
	put(t, dir, "a.txt", "a")
	f := mustRead(t, w, "a.txt")
	w.History() // creates the journal directory and its lock file
	commit := func(ctx context.Context) error {
		_, err := w.Commit(ctx, Change{Name: "Edit", Ops: []Op{{Path: "a.txt", Data: []byte("b"), Base: f.Version}}})
		return err
	}
	short := func() context.Context {
		ctx, cancel := context.WithTimeout(bg, 50*time.Millisecond)
		t.Cleanup(cancel)
		return ctx
	}

	// Another process holds the journal lock.
	other, err := os.OpenFile(filepath.Join(jdir, "lock"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	within(t, "commit while another process holds the journal lock", func() {
		e := wantCode(t, commit(short()), sdk.CodeCancelled)
		if !strings.Contains(e.Message, "journal lock") || !strings.Contains(e.Message, "nothing was written") {
			t.Errorf("message: %v", e)
		}
	})
	within(t, "history while locked", func() {
		if _, err := w.HistoryContext(short()); code(err) != sdk.CodeCancelled {
			t.Errorf("history: %v", err)
		}
	})
	within(t, "undo while locked", func() {
		if _, err := w.Undo(short(), 1, false); code(err) != sdk.CodeCancelled {
			t.Errorf("undo: %v", err)
		}
	})
	if s, _ := get(t, dir, "a.txt"); s != "a" {
		t.Fatalf("a.txt = %q", s)
	}
	_ = syscall.Flock(int(other.Fd()), syscall.LOCK_UN)

	// Another call of this process holds the workspace lock.
	w.sem <- struct{}{}
	within(t, "commit while another call holds the workspace lock", func() {
		wantCode(t, commit(short()), sdk.CodeCancelled)
	})
	<-w.sem
	within(t, "commit once free", func() {
		if err := commit(bg); err != nil {
			t.Error(err)
		}
	})
	if s, _ := get(t, dir, "a.txt"); s != "b" {
		t.Fatalf("a.txt = %q", s)
	}
}
