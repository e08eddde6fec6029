package godotrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/godotlog"
	"github.com/godot-mcp/godot-mcp/internal/godotrun/godottest"
	"github.com/godot-mcp/godot-mcp/internal/testplugins"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// helperEnv makes the test binary act as a plugin that runs Godot (see
// TestMain), for the test that kills such a plugin.
const helperEnv = "GODOTRUN_TEST_HELPER"

func TestMain(m *testing.M) {
	if dir := os.Getenv(helperEnv); dir != "" {
		helperMain(dir)
		return
	}
	os.Exit(m.Run())
}

// helperMain runs the project in dir with a long deadline and prints
// "started" once Godot runs; the test then SIGKILLs this process.
func helperMain(dir string) {
	b, err := (&Finder{}).Find(context.Background(), 3)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	_, err = Run(context.Background(), Spec{Bin: b, Dir: dir, Args: []string{"--path", dir}, Timeout: time.Minute,
		Tick: func(time.Duration, int) { fmt.Println("started") }})
	fmt.Fprintln(os.Stderr, "run returned:", err)
	os.Exit(1)
}

func godot3(t *testing.T) *Binary {
	t.Helper()
	godottest.RequireGodot3(t)
	b, err := (&Finder{}).Find(context.Background(), 3)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func run(t *testing.T, ctx context.Context, b *Binary, dir string, timeout time.Duration, maxOut int) *Outcome {
	t.Helper()
	o, err := Run(ctx, Spec{Bin: b, Dir: dir, Args: []string{"--path", dir}, Timeout: timeout, MaxOutput: maxOut})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestFindGodot3(t *testing.T) {
	b := godot3(t)
	if b.Major != 3 || b.Minor < 2 || !b.Server || len(b.HeadlessArgs()) != 0 {
		t.Fatalf("got %+v", b)
	}
	if !strings.HasPrefix(b.Version, "3.") {
		t.Fatalf("version %q", b.Version)
	}
}

func TestFindMissing(t *testing.T) {
	f := &Finder{Getenv: func(string) string { return "" },
		LookPath: func(string) (string, error) { return "", exec.ErrNotFound }}
	_, err := f.Find(context.Background(), 0)
	var e *sdk.Error
	if !errors.As(err, &e) || e.Code != sdk.CodePreconditionFailed || e.Required != RequiredBin ||
		!strings.Contains(e.Hint, EnvBin) {
		t.Fatalf("got %#v", err)
	}
	// An explicit binary that does not exist is reported as such, not
	// replaced by one from PATH.
	f = &Finder{Getenv: func(k string) string {
		if k == EnvBin {
			return "/nonexistent/godot"
		}
		return ""
	}}
	_, err = f.Find(context.Background(), 0)
	if !errors.As(err, &e) || e.Required != RequiredBin || !strings.Contains(e.Message, "/nonexistent/godot") {
		t.Fatalf("got %#v", err)
	}
}

func TestFindWrongMajor(t *testing.T) {
	godot3(t)
	f := &Finder{Getenv: func(string) string { return "" }}
	_, err := f.Find(context.Background(), 4)
	var e *sdk.Error
	if !errors.As(err, &e) || e.Required != RequiredBin || !strings.Contains(e.Message, "Godot 4") {
		t.Fatalf("got %#v", err)
	}
}

func TestParseVersion(t *testing.T) {
	for in, want := range map[string][2]int{
		"3.2.3.stable.custom_build\n":            {3, 2},
		"4.4.1.stable.official.49a5bc7b6\n":      {4, 4},
		"Godot Engine v4.3.stable\n4.3.stable\n": {4, 3},
		"4.5.beta1.official.abc\n":               {4, 5},
	} {
		_, ma, mi, ok := ParseVersion(in)
		if !ok || ma != want[0] || mi != want[1] {
			t.Errorf("%q: %d.%d %v", in, ma, mi, ok)
		}
	}
	if _, _, _, ok := ParseVersion("usage: something\n"); ok {
		t.Error("no version accepted")
	}
}

func TestCleanRunWithScriptError(t *testing.T) {
	b := godot3(t)
	dir := godottest.Godot3Project(t, "extends Node\n\nfunc _ready():\n\tprint(\"hello from the game\")\n\thelper({})\n\tget_tree().quit(3)\n\nfunc helper(d):\n\tvar x = d.missing_thing\n\tprint(x)\n", nil)
	o := run(t, context.Background(), b, dir, 30*time.Second, 0)
	if o.ExitCode == nil || *o.ExitCode != 3 || o.TimedOut {
		t.Fatalf("exit %v, timed out %v\n%s", o.ExitCode, o.TimedOut, o.Output)
	}
	if !strings.Contains(o.Output, "hello from the game") {
		t.Errorf("output lacks the print:\n%s", o.Output)
	}
	// Godot 3.2 prints an engine error of its own the first time it
	// creates a project's user:// directory; only script errors count.
	scripts := scriptErrors(o)
	if len(scripts) != 1 {
		t.Fatalf("errors %+v\n%s", o.Errors, o.Output)
	}
	e := scripts[0]
	if e.File != "res://main.gd" || e.Line != 9 || e.Function != "helper" || !strings.Contains(e.Message, "missing_thing") {
		t.Fatalf("error %+v", e)
	}
	if strings.Contains(o.Output, "locale") {
		t.Errorf("locale noise in the output:\n%s", o.Output)
	}
}

// pids reads the pids a test game wrote to pids.txt: its own and a child's.
func pids(t *testing.T, dir string, within time.Duration) []int {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		data, err := os.ReadFile(filepath.Join(dir, "pids.txt"))
		if err == nil && strings.HasSuffix(string(data), "\n") {
			var out []int
			for _, f := range strings.Fields(string(data)) {
				n, _ := strconv.Atoi(f)
				out = append(out, n)
			}
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("the game wrote no pids.txt within %s", within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// loopingGame starts a child process (sleep) and then never returns from
// _ready, after writing both pids to res://pids.txt.
const loopingGame = `extends Node

func _ready():
	var child = OS.execute("sleep", ["300"], false)
	var f = File.new()
	f.open("res://pids.txt", File.WRITE)
	f.store_string(str(OS.get_process_id()) + " " + str(child) + "\n")
	f.close()
	print("looping")
	var n = 0
	while true:
		n += 1
`

func assertGone(t *testing.T, ps []int) {
	t.Helper()
	for _, p := range ps {
		if !testplugins.WaitDead(p, 5*time.Second) {
			t.Errorf("process %d survived", p)
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
	}
}

func TestInfiniteLoopKilledAtDeadline(t *testing.T) {
	b := godot3(t)
	dir := godottest.Godot3Project(t, loopingGame, nil)
	o := run(t, context.Background(), b, dir, 2*time.Second, 0)
	if !o.TimedOut || o.ExitCode != nil || o.Signal != "" {
		t.Fatalf("timed out %v, exit %v, signal %q", o.TimedOut, o.ExitCode, o.Signal)
	}
	if o.Duration < 2*time.Second {
		t.Errorf("ended after %s, before its deadline", o.Duration)
	}
	if !strings.Contains(o.Output, "looping") {
		t.Errorf("output before the kill lost:\n%s", o.Output)
	}
	assertGone(t, pids(t, dir, time.Second))
}

func TestCancellationKillsTheGroup(t *testing.T) {
	b := godot3(t)
	dir := godottest.Godot3Project(t, loopingGame, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan *Outcome)
	go func() {
		o, err := Run(ctx, Spec{Bin: b, Dir: dir, Args: []string{"--path", dir}, Timeout: time.Minute})
		if err != nil {
			t.Error(err)
		}
		done <- o
	}()
	ps := pids(t, dir, 20*time.Second)
	cancel()
	select {
	case o := <-done:
		if o == nil {
			return
		}
		if !o.Cancelled || o.TimedOut || o.ExitCode != nil {
			t.Fatalf("cancelled %v, timed out %v, exit %v", o.Cancelled, o.TimedOut, o.ExitCode)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after cancellation")
	}
	assertGone(t, ps)
}

func TestHugeOutputIsCapped(t *testing.T) {
	b := godot3(t)
	dir := godottest.Godot3Project(t, "extends Node\n\nfunc _ready():\n\tfor i in range(20000):\n\t\tprint(\"line \", i, \" of a lot of output\")\n\tpush_error(\"the last word\")\n\tget_tree().quit()\n", nil)
	o := run(t, context.Background(), b, dir, 60*time.Second, 8<<10)
	if o.ExitCode == nil || *o.ExitCode != 0 {
		t.Fatalf("exit %v\n%s", o.ExitCode, o.Output)
	}
	if o.OutputBytes < 400_000 || o.DroppedBytes == 0 || len(o.Output) > 9<<10 {
		t.Fatalf("total %d, dropped %d, kept %d", o.OutputBytes, o.DroppedBytes, len(o.Output))
	}
	if !strings.Contains(o.Output, "line 0 of") || !strings.Contains(o.Output, "line 19999 of") ||
		!strings.Contains(o.Output, "bytes of output dropped here") {
		t.Fatalf("head, tail or the note missing:\n%s", o.Output)
	}
	if o.Lines < 20000 {
		t.Errorf("counted %d lines", o.Lines)
	}
	if len(o.Errors) == 0 || o.Errors[len(o.Errors)-1].Message != "the last word" {
		t.Errorf("errors %+v", o.Errors)
	}
}

// TestKilledPluginTakesGodotAlong runs Godot from a helper process (this
// test binary, standing in for a plugin), SIGKILLs the helper, and checks
// that the guard took Godot and Godot's own child down with it.
func TestKilledPluginTakesGodotAlong(t *testing.T) {
	godot3(t)
	dir := godottest.Godot3Project(t, loopingGame, nil)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ps := pids(t, dir, 20*time.Second)
	buf := make([]byte, 7)
	_, _ = stdout.Read(buf) // "started": Godot runs under Run
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	// Godot dies with the plugin, and so does its sleep child, although it
	// is in a session of its own (Godot 3's OS.execute calls setsid): the
	// guard finds it by parent pid.
	assertGone(t, ps)
	if t.Failed() {
		t.Logf("helper stderr: %s", stderr.String())
	}
}

func scriptErrors(o *Outcome) []godotlog.Entry {
	var out []godotlog.Entry
	for _, e := range o.Errors {
		if e.File != "" {
			out = append(out, e)
		}
	}
	return out
}

func TestOutcomeJSON(t *testing.T) {
	// The toolsets marshal entries as they are; keep the names stable.
	b, _ := json.Marshal(Outcome{}.Errors)
	if string(b) != "null" {
		t.Fatal(string(b))
	}
}

// TestDoubleForkedDaemonDiesWithTheRun runs a fake Godot that double-forks
// a daemon (a setsid sleep whose parent exits at once) and then exits or
// hangs until the deadline: in both cases nothing it started survives the
// run, although the daemon is in neither Godot's group nor its tree.
func TestDoubleForkedDaemonDiesWithTheRun(t *testing.T) {
	fake := godottest.DaemonizingGodot(t)
	b, err := (&Finder{Getenv: func(k string) string {
		if k == EnvBin {
			return fake
		}
		return ""
	}}).Find(context.Background(), 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		hang    bool
		timeout time.Duration
	}{
		{"godot exits", false, 30 * time.Second},
		{"deadline passes", true, 500 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := godottest.Godot3Project(t, "extends Node\n", nil)
			if tc.hang {
				if err := os.WriteFile(filepath.Join(dir, "hang"), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			o := run(t, context.Background(), b, dir, tc.timeout, 0)
			if o.TimedOut != tc.hang || !strings.Contains(o.Output, "started a daemon") {
				t.Fatalf("timed out %v, exit %v\n%s", o.TimedOut, o.ExitCode, o.Output)
			}
			pid := godottest.DaemonPID(t, dir, time.Second)
			if !testplugins.WaitDead(pid, 2*time.Second) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("the daemon %d outlived the run", pid)
			}
		})
	}
}

// TestKilledPluginTakesTheDaemonAlong SIGKILLs a plugin stand-in while its
// fake Godot hangs after double-forking a daemon: the daemon is in neither
// the run's group nor anyone's tree by then, and the guard still finds it
// by the run's marker.
func TestKilledPluginTakesTheDaemonAlong(t *testing.T) {
	dir := godottest.Godot3Project(t, "extends Node\n", map[string]string{"hang": ""})
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+dir, EnvBin+"="+godottest.DaemonizingGodot(t))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := godottest.DaemonPID(t, dir, 20*time.Second)
	buf := make([]byte, 7)
	_, _ = stdout.Read(buf) // "started": the fake runs under Run
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if !testplugins.WaitDead(pid, 5*time.Second) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("the daemon %d outlived the killed plugin; helper stderr: %s", pid, stderr.String())
	}
}
