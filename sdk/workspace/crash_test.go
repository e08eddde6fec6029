//go:build unix

package workspace

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestCrashHelper is not a test: TestKilledChangeIsRecoveredWhole runs the
// test binary again with it, to make a change and die by SIGKILL at a
// given step.
func TestCrashHelper(t *testing.T) {
	stage := os.Getenv("WS_CRASH_STAGE")
	if stage == "" {
		t.Skip("run by TestKilledChangeIsRecoveredWhole")
	}
	n, _ := strconv.Atoi(os.Getenv("WS_CRASH_N"))
	w, err := Open(os.Getenv("WS_DIR"), Options{JournalDir: os.Getenv("WS_JDIR")})
	if err != nil {
		t.Fatal(err)
	}
	arm := func() {
		seen := 0
		crashPoint = func(s string) {
			if s == stage {
				if seen++; seen == n {
					_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
					select {}
				}
			}
		}
	}
	if os.Getenv("WS_CRASH_OP") == "commit" {
		arm()
	}
	if _, err := w.Commit(bg, threeFiles(t, w)); err != nil {
		t.Fatal(err)
	}
	arm()
	if _, err := w.Undo(bg, 1, false); err != nil {
		t.Fatal(err)
	}
}

// threeFiles is one change of three files: a modify, a create in a new
// directory, a delete.
func threeFiles(t *testing.T, w *Workspace) Change {
	t.Helper()
	a, b := mustRead(t, w, "a.txt"), mustRead(t, w, "b.txt")
	return Change{Name: "Three files", Ops: []Op{
		{Path: "a.txt", Data: []byte("a1"), Base: a.Version},
		{Path: "new/c.txt", Data: []byte("c1")},
		{Path: "b.txt", Delete: true, Base: b.Version},
	}}
}

// TestKilledChangeIsRecoveredWhole kills a process in the middle of a
// three-file commit (or undo) at every step, and checks that the next
// process to open the workspace finds the change applied whole (with its
// undo step) or not at all, and no temporary file left. It used to land
// half applied with no undo step.
func TestKilledChangeIsRecoveredWhole(t *testing.T) {
	type state struct {
		a, b, c string // "" = absent
		depth   int
		redo    int
	}
	before := state{a: "a0", b: "b0"}
	after := state{a: "a1", c: "c1", depth: 1}
	undone := state{a: "a0", b: "b0", redo: 1}
	for _, tc := range []struct {
		name   string
		op     string
		stage  string
		n      int
		meddle func(dir string) // a change on disk before the recovery
		want   state
	}{
		{"commit killed after its intent", "commit", "prepared", 1, nil, before},
		{"commit killed writing its temporary files", "commit", "temp", 1, nil, before},
		{"commit killed before its first rename", "commit", "temp", 2, nil, after},
		{"commit killed after one rename", "commit", "rename", 1, nil, after},
		{"commit killed after two renames", "commit", "rename", 2, nil, after},
		{"commit killed before its done entry", "commit", "applied", 1, nil, after},
		{"file changed before the recovery", "commit", "rename", 1,
			func(dir string) { _ = os.WriteFile(filepath.Join(dir, "b.txt"), []byte("user"), 0o644) },
			state{a: "a0", b: "user"}},
		{"undo killed after one rename", "undo", "rename", 1, nil, undone},
		{"undo killed after its intent", "undo", "prepared", 1, nil, after},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, jdir := t.TempDir(), t.TempDir()
			put(t, dir, "a.txt", "a0")
			put(t, dir, "b.txt", "b0")
			cmd := exec.Command(os.Args[0], "-test.run=^TestCrashHelper$", "-test.count=1")
			cmd.Env = append(os.Environ(), "WS_CRASH_STAGE="+tc.stage, "WS_CRASH_N="+strconv.Itoa(tc.n),
				"WS_CRASH_OP="+tc.op, "WS_DIR="+dir, "WS_JDIR="+jdir)
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("the helper was not killed: %v\n%s", err, out)
			}
			if tc.meddle != nil {
				tc.meddle(dir)
			}
			w, err := Open(dir, Options{JournalDir: jdir})
			if err != nil {
				t.Fatal(err)
			}
			h := w.History()
			got := state{depth: h.Depth, redo: h.RedoDepth}
			got.a, _ = get(t, dir, "a.txt")
			got.b, _ = get(t, dir, "b.txt")
			got.c, _ = get(t, dir, "new/c.txt")
			if got != tc.want {
				t.Fatalf("after recovery: %+v, want %+v", got, tc.want)
			}
			if left := tempLeft(t, dir); len(left) > 0 {
				t.Fatalf("temporary files left: %v", left)
			}
			if got.c == "" {
				if _, err := os.Stat(filepath.Join(dir, "new")); !errors.Is(err, os.ErrNotExist) {
					t.Fatalf("the created directory was left: %v", err)
				}
			}
			// The recovered history is usable: undo (or redo) the change.
			if got.depth == 1 {
				if _, err := w.Undo(bg, 1, false); err != nil {
					t.Fatal(err)
				}
				if a, _ := get(t, dir, "a.txt"); a != "a0" {
					t.Fatalf("undo after recovery: a.txt = %q", a)
				}
				if b, _ := get(t, dir, "b.txt"); b != "b0" {
					t.Fatalf("undo after recovery: b.txt = %q", b)
				}
			}
		})
	}
}

// TestStrayTempFilesAreSwept: temporary files a killed process left in
// the project (this version's names and earlier ones') are removed by the
// next process to take the journal lock, when older than it; fresh ones,
// look-alikes and anything under .git stay.
func TestStrayTempFilesAreSwept(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-2 * tempGrace)
	stale := []string{"scenes/.main.tscn.godot-mcp-1234567", ".a.txt.godot-mcp-0123456789abcdef-3.tmp"}
	kept := []string{"scenes/.main.tscn.godot-mcp-notes", "main.tscn.godot-mcp-1", ".git/.x.godot-mcp-99", ".godot/.y.godot-mcp-98"}
	for _, p := range append(append([]string{}, stale...), kept...) {
		put(t, dir, p, "partial")
		if err := os.Chtimes(filepath.Join(dir, p), old, old); err != nil {
			t.Fatal(err)
		}
	}
	fresh := "scenes/.level.tscn.godot-mcp-0123456789abcdef-1.tmp" // a commit in flight elsewhere
	put(t, dir, fresh, "partial")
	kept = append(kept, fresh)
	jdir := t.TempDir()
	put(t, jdir, ".journal.v2.log.godot-mcp-4242", "a rewrite killed midway")
	if err := os.Chtimes(filepath.Join(jdir, ".journal.v2.log.godot-mcp-4242"), old, old); err != nil {
		t.Fatal(err)
	}
	w, err := Open(dir, Options{JournalDir: jdir})
	if err != nil {
		t.Fatal(err)
	}
	w.History()
	if _, ok := get(t, jdir, ".journal.v2.log.godot-mcp-4242"); ok {
		t.Error("the journal directory was not swept")
	}
	for _, p := range stale {
		if _, ok := get(t, dir, p); ok {
			t.Errorf("%s was not swept", p)
		}
	}
	for _, p := range kept {
		if _, ok := get(t, dir, p); !ok {
			t.Errorf("%s was removed", p)
		}
	}

	// Once swept, a process joining the project does not walk it again
	// (intents name every temporary file from then on) unless it had to
	// recover a killed change.
	put(t, dir, stale[0], "partial")
	if err := os.Chtimes(filepath.Join(dir, stale[0]), old, old); err != nil {
		t.Fatal(err)
	}
	w2, _ := Open(dir, Options{JournalDir: jdir})
	w2.History()
	if _, ok := get(t, dir, stale[0]); !ok {
		t.Error("a second process walked the project again")
	}
}
