package main

import (
	"context"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/godot-mcp/godot-mcp/internal/godotrun/godottest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// fakeGUT stands in for GUT's command-line runner (GUT cannot be installed
// here): a SceneTree script that prints the arguments it got and a GUT 7
// summary with one failure, runs a real script error, and exits 1 as GUT
// does with -gexit when a test fails.
const fakeGUT = `extends SceneTree

func _init():
	print("args: ", OS.get_cmdline_args())
	print("==============================================")
	print("= Run Summary")
	print("==============================================")
	print("")
	print("res://test/test_math.gd")
	print("- test_add")
	print("    [Failed]:  [3] expected to equal [4]:  ")
	print("          at line 7")
	print("")
	print("Totals")
	print("Scripts:          1")
	print("Tests:            2")
	print("Passing tests     1")
	print("Failing tests     1")
	print("Risky tests       0")
	print("Pending:          0")
	print("Asserts:          1 of 2 passed")
	quit(1)
`

func TestRunTestsWithGUT(t *testing.T) {
	godottest.RequireGodot3(t)
	dir := godottest.Godot3Project(t, "extends Node\n", map[string]string{
		"addons/gut/gut_cmdln.gd": fakeGUT,
		"test/test_math.gd":       "extends Node\n",
	})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "3"})
	res := h.Call(context.Background(), "run_tests", map[string]any{"test": "test_add"})
	var out testResult
	if err := res.Structured(&out); err != nil {
		t.Fatalf("%v: %s", err, res.Text())
	}
	if out.Passed || out.ExitCode == nil || *out.ExitCode != 1 || !out.Summary.Found || out.Summary.Failing != 1 ||
		len(out.Summary.Failures) != 1 || out.Summary.Failures[0].Line != 7 || out.Summary.Failures[0].Test != "test_add" {
		t.Fatalf("%s", res.Text())
	}
	if !strings.Contains(out.Output, "-gdir=res://test") || !strings.Contains(out.Output, "-gunit_test_name=test_add") ||
		!strings.Contains(out.Output, "-gexit") {
		t.Errorf("GUT got the wrong arguments:\n%s", out.Output)
	}
	if !strings.Contains(out.Text, "first failure: res://test/test_math.gd test_add") {
		t.Errorf("text %q", out.Text)
	}
}

func TestRunTestsWithoutGUT(t *testing.T) {
	godottest.RequireGodot3(t)
	dir := godottest.Godot3Project(t, "extends Node\n", nil)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	res := h.Call(context.Background(), "run_tests", map[string]any{})
	if res.ErrorCode != sdk.CodePreconditionFailed || res.Error.Required != "gut" {
		t.Fatalf("%+v", res.Error)
	}
}

// On a Godot 3 project: gdUnit4 is refused with what runs there, and the
// driven tools (web runtime only without an editor) say what would work.
func TestGodot3Refusals(t *testing.T) {
	godottest.RequireGodot3(t)
	dir := godottest.Godot3Project(t, "extends Node\n", map[string]string{
		"addons/gdUnit4/bin/GdUnitCmdTool.gd": "extends SceneTree\n",
		"test/test_a.gd":                      "extends Node\n",
	})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "3"})
	res := h.Call(context.Background(), "run_tests", map[string]any{})
	if res.ErrorCode != sdk.CodePreconditionFailed || !strings.Contains(res.Text(), "gdUnit4 runs on Godot 4 only") {
		t.Errorf("%s", res.Text())
	}
	res = h.Call(context.Background(), "run_test_scenario", map[string]any{"steps": []map[string]any{{"type": "wait", "frames": 1}}})
	if res.ErrorCode != sdk.CodePreconditionFailed || res.Error.Required != "godot_bin" || !strings.Contains(res.Text(), "Godot editor with the godot-mcp addon") {
		t.Errorf("%s", res.Text())
	}
	res = h.Call(context.Background(), "run_test_scenario", map[string]any{"steps": []map[string]any{{"type": "jump"}}})
	if res.ErrorCode != sdk.CodeInvalidArgument || !strings.Contains(res.Text(), `unknown type "jump"`) {
		t.Errorf("%s", res.Text())
	}
}
