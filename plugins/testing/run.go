package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/godotlog"
	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
)

type testArgs struct {
	Framework      string        `json:"framework,omitempty" enum:"auto,gut,gdunit4" default:"auto" jsonschema:"test framework: gut (addons/gut), gdunit4 (addons/gdUnit4), or auto: the one the project has (gut when it has both)"`
	Engine         string        `json:"engine,omitempty" enum:"auto,native,web" default:"auto" jsonschema:"auto: a native Godot binary of the project's version, else (Godot 4) the embedded web runtime; native or web to force one"`
	Dirs           []sdk.ResPath `json:"dirs,omitempty" jsonschema:"res:// directories (or, for gdunit4, test suite files) to run; default: .gutconfig.json's for GUT, else res://test and res://tests"`
	Script         string        `json:"script,omitempty" alias:"test_script" jsonschema:"GUT: run only test scripts whose name contains this (-gselect)"`
	Test           string        `json:"test,omitempty" alias:"test_name" jsonschema:"GUT: run only tests whose name contains this (-gunit_test_name)"`
	TimeoutSeconds int           `json:"timeout_seconds,omitempty" default:"120" minimum:"1" maximum:"1800" jsonschema:"deadline in seconds (default 120, at most 1800)"`
}

// TestCase is one test's outcome.
type TestCase struct {
	Suite    string `json:"suite" jsonschema:"res:// test script (GUT: with .InnerClass), or the gdUnit4 suite"`
	Name     string `json:"name"`
	Status   string `json:"status" enum:"passed,failed,skipped,error"`
	Message  string `json:"message,omitempty" jsonschema:"the failure, pending or error text"`
	Location string `json:"location,omitempty" jsonschema:"res://file:line of the failing assert when the engine reported it, else of the test function"`
	LineOf   string `json:"line_of,omitempty" enum:"assert,function" jsonschema:"what location's line is: the failing assert, or the test function (a release build such as the web runtime reports no assert line)"`
}

// Totals counts the tests by status.
type Totals struct {
	Tests   int `json:"tests"`
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Skipped int `json:"skipped"`
	Errors  int `json:"errors"`
}

type testResult struct {
	Passed          bool             `json:"passed" jsonschema:"the runner reported its results, no test failed or errored, no script error, and the engine exited 0"`
	Framework       string           `json:"framework" enum:"gut,gdunit4"`
	Totals          Totals           `json:"totals"`
	Tests           []TestCase       `json:"tests" jsonschema:"every test the runner reported, in its order"`
	Summary         *Summary         `json:"summary,omitempty" jsonschema:"GUT's own run summary"`
	ExitCode        *int             `json:"exit_code"`
	TimedOut        bool             `json:"timed_out"`
	DurationSeconds float64          `json:"duration_seconds"`
	Errors          []godotlog.Entry `json:"errors" jsonschema:"script and engine errors printed while the tests ran"`
	Warnings        []godotlog.Entry `json:"warnings"`
	Output          string           `json:"output"`
	Command         []string         `json:"command"`
	Godot           string           `json:"godot"`
	Engine          engineInfo       `json:"engine"`
	Notes           []string         `json:"notes,omitempty"`
	Text            string           `json:"text" jsonschema:"one-line verdict"`
}

// The runners' entry points.
const (
	gutRunner    = "addons/gut/gut_cmdln.gd"
	gutCLI       = "addons/gut/cli/gut_cli.gd"
	gdunitRunner = "addons/gdUnit4/bin/GdUnitCmdTool.gd"
	gdunitCI     = "addons/gdUnit4/src/core/runners/GdUnitTestCIRunner.gd"
)

// Where a web run's launcher goes in the pack (next to the probe, in the
// engine's own folder, so it cannot clash with the project's files).
const (
	launcherScript = ".godot/godot-mcp/test_launcher.gd"
	launcherScene  = ".godot/godot-mcp/test_launcher.tscn"
)

func pickFramework(root, want string) (string, error) {
	has := func(rel string) bool {
		_, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
		return err == nil
	}
	switch want {
	case "", "auto":
		switch {
		case has(gutRunner):
			return "gut", nil
		case has(gdunitRunner) || has(gdunitCI):
			return "gdunit4", nil
		}
		e := sdk.Errorf(sdk.CodePreconditionFailed,
			"install GUT (github.com/bitwes/Gut) into addons/gut or gdUnit4 (github.com/MikeSchulze/gdUnit4) into addons/gdUnit4, matching the project's Godot version, then retry",
			"the project has no test framework: neither res://%s nor res://%s exists", gutRunner, gdunitRunner)
		e.Required = "gut"
		return "", e
	case "gut":
		if !has(gutRunner) {
			e := sdk.Errorf(sdk.CodePreconditionFailed,
				"install GUT (github.com/bitwes/Gut) into addons/gut, matching the project's Godot version, then retry",
				"the project has no GUT: res://%s is missing", gutRunner)
			e.Required = "gut"
			return "", e
		}
		return "gut", nil
	case "gdunit4":
		if !has(gdunitRunner) && !has(gdunitCI) {
			e := sdk.Errorf(sdk.CodePreconditionFailed,
				"install gdUnit4 (github.com/MikeSchulze/gdUnit4) into addons/gdUnit4, matching the project's Godot version, then retry",
				"the project has no gdUnit4: res://%s is missing", gdunitRunner)
			e.Required = "gdunit4"
			return "", e
		}
		return "gdunit4", nil
	}
	return "", sdk.Errorf(sdk.CodeInvalidArgument, `pass framework "auto", "gut" or "gdunit4"`, "unknown framework %q", want)
}

// testDirs returns the res:// directories to run: the given ones, else
// none when GUT has a .gutconfig.json, else res://test and res://tests.
func testDirs(t *target, framework string, given []sdk.ResPath) ([]string, error) {
	root := t.project.Root()
	var dirs []string
	for _, d := range given {
		abs, err := t.project.Resolve(string(d))
		if err != nil {
			return nil, err
		}
		dirs = append(dirs, t.project.ResPath(abs))
	}
	if len(dirs) > 0 {
		return dirs, nil
	}
	if framework == "gut" {
		if _, err := os.Stat(filepath.Join(root, ".gutconfig.json")); err == nil {
			return nil, nil
		}
	}
	for _, d := range []string{"test", "tests"} {
		if st, err := os.Stat(filepath.Join(root, d)); err == nil && st.IsDir() {
			dirs = append(dirs, "res://"+d)
		}
	}
	if len(dirs) == 0 {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument,
			"pass dirs (the res:// directories holding the test scripts) or add a .gutconfig.json",
			"no test directory: the project has no .gutconfig.json, res://test or res://tests")
	}
	return dirs, nil
}

func runTests(ctx context.Context, call *sdk.Call, in testArgs) (sdk.Result, error) {
	t, err := chooseEngine(ctx, call, in.Engine)
	if err != nil {
		return sdk.Result{}, err
	}
	root := t.project.Root()
	framework, err := pickFramework(root, in.Framework)
	if err != nil {
		return sdk.Result{}, err
	}
	dirs, err := testDirs(t, framework, in.Dirs)
	if err != nil {
		return sdk.Result{}, err
	}
	timeout := time.Duration(defaultTestTimeout) * time.Second
	if in.TimeoutSeconds > 0 {
		timeout = time.Duration(in.TimeoutSeconds) * time.Second
	}
	var runnerArgs []string
	switch framework {
	case "gut":
		runnerArgs = append(runnerArgs, "-gexit")
		for _, d := range dirs {
			runnerArgs = append(runnerArgs, "-gdir="+d)
		}
		if in.Script != "" {
			runnerArgs = append(runnerArgs, "-gselect="+in.Script)
		}
		if in.Test != "" {
			runnerArgs = append(runnerArgs, "-gunit_test_name="+in.Test)
		}
	case "gdunit4":
		for _, d := range dirs {
			runnerArgs = append(runnerArgs, "-a", d)
		}
		// Run every test rather than stop at the first failure.
		runnerArgs = append(runnerArgs, "-c")
	}
	res := testResult{Framework: framework, Engine: t.engine, Tests: []TestCase{}}
	var output string
	var exitCode *int
	var timedOut bool
	var errs, warns []godotlog.Entry
	if t.web != nil {
		files, err := webTestFiles(root, framework)
		if err != nil {
			return sdk.Result{}, err
		}
		o, err := runPack(ctx, call, t, files, runnerArgs, timeout, framework+" tests")
		if err != nil {
			return sdk.Result{}, err
		}
		if o.Cancelled {
			return sdk.Result{}, sdk.Errorf(sdk.CodeCancelled, "", "the test run was cancelled; the game's tab was closed")
		}
		output, exitCode, timedOut, errs, warns = o.Output, o.ExitCode, o.TimedOut, o.Errors, o.Warnings
		if framework == "gdunit4" {
			if tests, rest, ok := junitFromOutput(output); ok {
				res.Tests, output = tests, rest
			}
		}
		res.DurationSeconds = o.Duration.Round(time.Millisecond).Seconds()
		res.Command, res.Godot = o.Command, webgodot.RuntimeEngine
		res.Notes = append(res.Notes, "the web runtime is a release build: failing asserts carry no line, so location is the test function's line")
	} else {
		args := []string{"--path", root}
		reportDir := ""
		switch framework {
		case "gut":
			args = append(args, "-s", "res://"+gutRunner)
		case "gdunit4":
			if t.bin.Major < 4 {
				return sdk.Result{}, sdk.Errorf(sdk.CodePreconditionFailed,
					"gdUnit4 runs on Godot 4 only (gdUnit3 is the Godot 3 version); use GUT 7 for a Godot 3 project",
					"gdUnit4 cannot run on Godot %s", t.bin.Version)
			}
			reportDir, err = os.MkdirTemp("", "godot-mcp-gdunit-")
			if err != nil {
				return sdk.Result{}, err
			}
			defer os.RemoveAll(reportDir)
			args = append(args, "-d", "-s", "res://"+gdunitRunner, "--ignoreHeadlessMode", "-rd", reportDir)
		}
		args = append(args, runnerArgs...)
		o, err := godotrun.Run(ctx, godotrun.Spec{Bin: t.bin, Args: args, Dir: root, Timeout: timeout, MaxOutput: 256 << 10,
			Tick: func(elapsed time.Duration, lines int) {
				call.Progress(elapsed.Seconds(), timeout.Seconds(), fmt.Sprintf("%s running: %ds, %d lines of output", framework, int(elapsed.Seconds()), lines))
			}})
		if err != nil {
			return sdk.Result{}, err
		}
		if o.Cancelled {
			return sdk.Result{}, sdk.Errorf(sdk.CodeCancelled, "", "the test run was cancelled; Godot was killed")
		}
		output, exitCode, timedOut, errs, warns = o.Output, o.ExitCode, o.TimedOut, o.Errors, o.Warnings
		res.DurationSeconds = o.Duration.Round(time.Millisecond).Seconds()
		res.Command, res.Godot = o.Command, t.bin.Version
		if reportDir != "" {
			if tests, ok := readJUnitDir(reportDir); ok {
				res.Tests = tests
			}
		}
	}
	res.ExitCode, res.TimedOut, res.Output = exitCode, timedOut, output
	res.Errors, res.Warnings = nonNil(errs), nonNil(warns)
	found := false
	switch framework {
	case "gut":
		s := ParseGUT(output)
		res.Summary = &s
		res.Tests = ParseGUTTests(output)
		found = s.Found
		if len(res.Tests) == 0 {
			// Older GUTs (7, for Godot 3) print only the summary: its
			// failures are the tests there is something to say about.
			for _, f := range s.Failures {
				tc := TestCase{Suite: strings.TrimSpace(f.Script), Name: f.Test, Status: "failed", Message: f.Message}
				if f.Line > 0 {
					tc.Location, tc.LineOf = fmt.Sprintf("%s:%d", scriptFile(tc.Suite), f.Line), "assert"
				}
				res.Tests = append(res.Tests, tc)
			}
		}
	case "gdunit4":
		found = len(res.Tests) > 0
		if !found && t.web != nil {
			for _, e := range errs {
				if strings.HasPrefix(e.File, "res://addons/gdUnit4/") {
					res.Notes = append(res.Notes, "gdUnit4's runner did not compile in the web runtime (a Godot 4.6 release export template, "+
						"without editor classes; the server rewrites only what gdUnit4 6.1 needs): "+e.File+":"+strconv.Itoa(e.Line)+": "+e.Message+
						"; update gdUnit4 to 6.1, or run it with a native Godot 4 editor binary (set GODOT_MCP_GODOT_BIN, pass engine \"native\")")
					break
				}
			}
		}
	}
	locateTests(root, res.Tests)
	for _, tc := range res.Tests {
		res.Totals.Tests++
		switch tc.Status {
		case "passed":
			res.Totals.Passed++
		case "failed":
			res.Totals.Failed++
		case "skipped":
			res.Totals.Skipped++
		default:
			res.Totals.Errors++
		}
	}
	if framework == "gut" && res.Summary.Found && res.Totals.Tests < res.Summary.Tests {
		// Only the summary's counts cover every test.
		n := res.Summary
		res.Totals = Totals{Tests: n.Tests, Passed: n.Passing, Failed: n.Failing, Skipped: n.Pending}
	}
	scriptErrs := 0
	for _, e := range errs {
		if e.File != "" {
			scriptErrs++
		}
	}
	failing := res.Totals.Failed + res.Totals.Errors
	if res.Summary != nil && res.Summary.Failing > failing {
		failing = res.Summary.Failing
	}
	res.Passed = found && failing == 0 && scriptErrs == 0 && exitCode != nil && *exitCode == 0
	res.Text = verdict(res, found, timedOut, timeout, scriptErrs)
	return sdk.JSON(res), nil
}

func verdict(res testResult, found, timedOut bool, timeout time.Duration, scriptErrs int) string {
	switch {
	case timedOut:
		return fmt.Sprintf("the tests did not finish within %s and were killed", timeout)
	case !found:
		s := fmt.Sprintf("%s reported no test results: it did not run (see errors and output)", res.Framework)
		if scriptErrs > 0 {
			for _, e := range res.Errors {
				if e.File != "" {
					s += fmt.Sprintf("; first script error: %s:%d: %s", e.File, e.Line, e.Message)
					break
				}
			}
		}
		return s
	}
	n := res.Totals
	s := fmt.Sprintf("%d passed, %d failed, %d skipped, %d errors of %d tests", n.Passed, n.Failed, n.Skipped, n.Errors, n.Tests)
	if res.Summary != nil && res.Summary.Found {
		s += fmt.Sprintf("; asserts %d of %d passed", res.Summary.AssertsOK, res.Summary.AssertsTotal)
	}
	for _, tc := range res.Tests {
		if tc.Status == "failed" || tc.Status == "error" {
			s += fmt.Sprintf("; first failure: %s %s at %s: %s", tc.Suite, tc.Name, tc.Location, tc.Message)
			break
		}
	}
	if scriptErrs > 0 {
		s += fmt.Sprintf("; %d script error(s)", scriptErrs)
	}
	return s
}

func nonNil(e []godotlog.Entry) []godotlog.Entry {
	if e == nil {
		return []godotlog.Entry{}
	}
	return e
}

// webTestFiles packs the project with a launcher scene as the main scene:
// the web runtime runs no -s script, so the launcher starts the runner's
// command-line node itself, as the runner's own SceneTree script would.
func webTestFiles(root, framework string) ([]webgodot.PackFile, error) {
	var src string
	switch framework {
	case "gut":
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(gutCLI))); err != nil {
			e := sdk.Errorf(sdk.CodePreconditionFailed,
				"update GUT to 9.4 or later (its runner lives in addons/gut/cli/), or run with a native Godot 4 binary (engine \"native\")",
				"this GUT has no res://%s, which the web runtime's launcher starts", gutCLI)
			e.Required = "gut"
			return nil, e
		}
		src = gutLauncher
	case "gdunit4":
		src = gdunitLauncher
	}
	files, err := webgodot.ReadGameFiles(root, "res://"+launcherScene)
	if err != nil {
		return nil, err
	}
	// Hidden files are not packed; GUT reads its .gutconfig.json.
	if b, err := os.ReadFile(filepath.Join(root, ".gutconfig.json")); err == nil && framework == "gut" {
		files = append(files, webgodot.PackFile{Path: ".gutconfig.json", Data: b})
	}
	if framework == "gdunit4" {
		files = append(patchGdUnitForWeb(files), webgodot.PackFile{Path: gdunitWebRunnerPath, Data: []byte(gdunitWebRunner)})
	}
	files = append(files,
		webgodot.PackFile{Path: launcherScript, Data: []byte(src)},
		webgodot.PackFile{Path: launcherScene, Data: []byte(launcherTSCN)})
	return files, nil
}

const launcherTSCN = `[gd_scene load_steps=2 format=3]

[ext_resource type="Script" path="res://` + launcherScript + `" id="1"]

[node name="TestLauncher" type="Node"]
script = ExtResource("1")
`

// gutLauncher does what GUT's gut_cmdln.gd does from a scene.
const gutLauncher = `extends Node

func _ready() -> void:
	load("res://addons/gut/gut_loader.gd")
	var conv = load("res://addons/gut/version_conversion.gd")
	if conv != null and conv.error_if_not_all_classes_imported():
		get_tree().quit(2)
		return
	var cli: Node = load("res://` + gutCLI + `").new()
	get_tree().root.add_child.call_deferred(cli)
	cli.main.call_deferred()
`

// gdunitLauncher does what gdUnit4's GdUnitCmdTool.gd does from a scene,
// with the runner of gdunitWebRunner.
const gdunitLauncher = `extends Node

func _ready() -> void:
	var runner_script = load("res://` + gdunitWebRunnerPath + `")
	if runner_script == null:
		printerr("godot-mcp: gdUnit4's runner res://` + gdunitCI + ` did not load")
		get_tree().quit(3)
		return
	_drop_html_report()
	var runner = runner_script.new()
	# Its argument parser reads what follows the tool's name, as in
	# "godot -s GdUnitCmdTool.gd -a ...": a web build runs no -s script.
	runner._debug_cmd_args = PackedStringArray(["GdUnitCmdTool.gd"]) + OS.get_cmdline_args()
	# One report, always report_1: the browser's file system is new every run.
	runner.max_report_history = 1
	get_tree().root.add_child.call_deferred(runner)


# The HTML report (which nobody can open here) is switched off: the 4.6
# web build dies writing it ("memory access out of bounds").
func _drop_html_report() -> void:
	for c in ProjectSettings.get_global_class_list():
		if c["class"] == &"GdUnitTestSessionHookService":
			var service = load(c["path"]).instance()
			for hook in service.enigne_hooks:
				if String(hook.get_script().resource_path).ends_with("/GdUnitHtmlReporterTestSessionHook.gd"):
					hook.set_meta("enabled", false)
`
