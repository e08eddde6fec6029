package webgodot

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// requireSetup finds Chromium and the engine, or stops the test (skip
// locally, fail in CI).
func requireSetup(t testing.TB) Setup {
	t.Helper()
	s, err := Locate()
	if err != nil {
		testenv.Missing(t, "the Godot web engine (Chromium and the npm package "+RuntimePackage+")", err.Error())
	}
	return s
}

// testRunner is the browser the package's tests share: one engine start
// for all of them. TestRunner and the benchmarks, which test a Runner's
// own life, start their own.
var testRunner Shared

func TestMain(m *testing.M) {
	code := m.Run()
	testRunner.Close()
	os.Exit(code)
}

// sharedRunner returns the shared runner, started on first use.
func sharedRunner(t testing.TB) *Runner {
	t.Helper()
	r, err := testRunner.Get(requireSetup(t))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// runFiles runs a project of files in the shared runner and fails the
// test if the run cannot be made.
func runFiles(t testing.TB, files []PackFile, timeout time.Duration) *Result {
	t.Helper()
	r := sharedRunner(t)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	res, err := r.Run(ctx, files)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// descendants returns the pids of every process below pid.
func descendants(pid int) []int {
	parent := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...; comm may hold spaces, so split after ')'.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 1 {
			parent[p], _ = strconv.Atoi(f[1])
		}
	}
	var out []int
	level := []int{pid}
	for len(level) > 0 {
		var next []int
		for p, pp := range parent {
			if slices.Contains(level, pp) {
				next = append(next, p)
			}
		}
		out = append(out, next...)
		level = next
	}
	return out
}

// alive reports whether a process exists and is not a zombie.
func alive(pid int) bool {
	if pid == 0 || syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || !strings.HasPrefix(strings.TrimSpace(s[i+1:]), "Z")
}

// TestRunner drives one Runner through what it must do, in as few
// engine starts as possible: output and exit code, a second run in the
// same browser, a deadline, recovery after it, and a Close that leaves no
// process behind.
func TestRunner(t *testing.T) {
	setup := requireSetup(t)
	r, err := New(setup)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := r.Run(ctx, ScriptProject(`extends Node
func _ready():
	print("hello ", Engine.get_version_info().string)
	printerr("to stderr")
	print("two\nlines")
	get_tree().quit(7)
`))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Exited || res.ExitCode != 7 {
		t.Errorf("exit %v %d, want 7", res.Exited, res.ExitCode)
	}
	out := res.Stdout()
	if !slices.Contains(out, "hello 4.6-stable (official)") || !slices.Contains(out, "two") || !slices.Contains(out, "lines") {
		t.Errorf("stdout %q lacks the script's lines", out)
	}
	if !slices.Contains(res.Stderr(), "to stderr") {
		t.Errorf("stderr %q lacks the script's line", res.Stderr())
	}
	for _, l := range res.Stderr() {
		if strings.Contains(l, "global script cache") {
			t.Errorf("engine error on a clean start: %s", l)
		}
	}

	// An engine that dies of a trap after starting never prints its exit:
	// the run ends when the page sees the trap, with what was printed.
	res, err = r.Run(ctx, ScriptProject("extends Node\nfunc _ready():\n\tprint(\"before\")\n\tawait get_tree().process_frame\n\tawait get_tree().process_frame\n\tOS.crash(\"boom\")\n"))
	if err != nil {
		t.Fatalf("aborted run: %v", err)
	}
	if !res.Aborted || res.Exited || !slices.Contains(res.Stdout(), "before") || res.Elapsed > 15*time.Second {
		t.Errorf("aborted run: aborted %v exited %v after %s, stdout %q", res.Aborted, res.Exited, res.Elapsed, res.Stdout())
	}

	// RunUntil ends the run at the line it waits for, though the engine
	// spins on and never exits.
	untilCtx, cancelUntil := context.WithTimeout(context.Background(), time.Minute)
	defer cancelUntil()
	res, err = r.RunUntil(untilCtx, ScriptProject("extends Node\nfunc _ready():\n\tprint(\"all done\")\n\twhile true:\n\t\tpass\n"),
		func(l Line) bool { return l.Stream == Stdout && l.Text == "all done" })
	if err != nil {
		t.Fatalf("run until: %v", err)
	}
	if res.Exited || !slices.Contains(res.Stdout(), "all done") || res.Elapsed > 20*time.Second {
		t.Errorf("run until: exited %v after %s, stdout %q", res.Exited, res.Elapsed, res.Stdout())
	}

	// Every process of the browser, found by parent pid while it runs.
	pid := r.BrowserPID()
	if pid == 0 {
		t.Fatal("no browser process after a run")
	}
	procs := append([]int{pid}, descendants(pid)...)
	t.Logf("browser %d with %d processes in all", pid, len(procs))
	if len(procs) < 2 {
		t.Errorf("browser %d has no child processes; expected its renderer and helpers", pid)
	}

	// A script that spins forever hits the deadline: TIMEOUT, with what
	// it printed so far.
	// Long enough for the engine to start and print on a loaded machine.
	short, cancelShort := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancelShort()
	res, err = r.Run(short, ScriptProject("extends Node\nfunc _ready():\n\tprint(\"started\")\n\tvar i := 0\n\twhile true:\n\t\ti += 1\n"))
	var se *sdk.Error
	if !errors.As(err, &se) || se.Code != sdk.CodeTimeout || se.Hint == "" {
		t.Fatalf("never-ending run: err %v, want TIMEOUT with a hint", err)
	}
	if res == nil || !slices.Contains(res.Stdout(), "started") || res.Exited {
		t.Errorf("timed-out result %+v should hold the printed line and no exit", res)
	}

	// The runner recovers: the next run works.
	res, err = r.Run(ctx, ScriptProject("extends Node\nfunc _ready():\n\tprint(\"again\")\n\tget_tree().quit()\n"))
	if err != nil || !slices.Contains(res.Stdout(), "again") || res.ExitCode != 0 {
		t.Fatalf("run after a timeout: %v %+v", err, res)
	}
	newPID := r.BrowserPID()

	if err := r.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := r.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	// No process of either browser may be left.
	procs = append(procs, newPID)
	deadline := time.Now().Add(time.Second) // Close waits; allow for reaping by init
	for {
		var left []int
		for _, p := range procs {
			if alive(p) {
				left = append(left, p)
			}
		}
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes left after Close: %v", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := r.Run(ctx, ScriptProject("")); err == nil {
		t.Error("Run after Close succeeded")
	}
}

func TestLocateErrors(t *testing.T) {
	t.Setenv(EnvChromium, "/nonexistent/chromium")
	t.Setenv(EnvRuntime, t.TempDir())
	_, err := Locate()
	var se *sdk.Error
	if !errors.As(err, &se) || se.Code != sdk.CodePreconditionFailed || se.Hint == "" {
		t.Fatalf("Locate with bad paths = %v, want PRECONDITION_FAILED with a hint", err)
	}
	if !strings.Contains(se.Message, EnvRuntime) || !strings.Contains(se.Message, EnvChromium) {
		t.Errorf("message %q does not name %s", se.Message, EnvRuntime)
	}
	if _, err := FindChromium(); err == nil || !strings.Contains(err.Error(), EnvChromium) {
		t.Errorf("FindChromium = %v, want it to name %s", err, EnvChromium)
	}

	// A runtime folder with the wrong engine build is refused by checksum.
	dir := t.TempDir()
	for _, f := range []string{"index.wasm", "index.js"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("not the engine"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(EnvRuntime, dir)
	if _, err := FindRuntime(); err == nil || !strings.Contains(err.Error(), "npm install "+RuntimePackage+"@"+RuntimePackageVersion) {
		t.Errorf("FindRuntime on a wrong build = %v, want the pinned install hint", err)
	}
	if _, err := New(Setup{RuntimeDir: dir, Chromium: "/bin/true"}); err == nil {
		t.Error("New accepted a wrong engine build")
	}
}
