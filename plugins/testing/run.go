package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/godotlog"
	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/sdk"
)

type testArgs struct {
	Dirs           []sdk.ResPath `json:"dirs,omitempty" jsonschema:"res:// directories holding test scripts; default: .gutconfig.json's, else res://test and res://tests"`
	Script         string        `json:"script,omitempty" jsonschema:"run only test scripts whose name contains this (GUT -gselect)"`
	Test           string        `json:"test,omitempty" jsonschema:"run only tests whose name contains this (GUT -gunit_test_name)"`
	TimeoutSeconds int           `json:"timeout_seconds,omitempty" default:"120" minimum:"1" maximum:"1800" jsonschema:"deadline in seconds (default 120, at most 1800)"`
}

type testResult struct {
	Passed          bool             `json:"passed" jsonschema:"GUT reported its totals, no test failed, no script error, and Godot exited 0"`
	Summary         Summary          `json:"summary"`
	ExitCode        *int             `json:"exit_code"`
	TimedOut        bool             `json:"timed_out"`
	DurationSeconds float64          `json:"duration_seconds"`
	Errors          []godotlog.Entry `json:"errors" jsonschema:"script and engine errors Godot printed while the tests ran"`
	Warnings        []godotlog.Entry `json:"warnings"`
	Output          string           `json:"output"`
	Command         []string         `json:"command"`
	Godot           string           `json:"godot"`
	Text            string           `json:"text" jsonschema:"one-line verdict"`
}

const gutRunner = "addons/gut/gut_cmdln.gd"

func runTests(ctx context.Context, call *sdk.Call, in testArgs) (sdk.Result, error) {
	t, err := godotrun.Prepare(ctx, call, finder)
	if err != nil {
		return sdk.Result{}, err
	}
	root := t.Project.Root()
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(gutRunner))); err != nil {
		e := sdk.Errorf(sdk.CodePreconditionFailed,
			"install GUT (github.com/bitwes/Gut) into addons/gut, matching the project's Godot version, then retry",
			"the project has no GUT: res://%s is missing", gutRunner)
		e.Required = "gut"
		return sdk.Result{}, e
	}
	args := []string{"--path", root, "-s", "res://" + gutRunner, "-gexit"}
	var dirs []string
	for _, d := range in.Dirs {
		dirs = append(dirs, string(d))
	}
	if len(dirs) == 0 {
		if _, err := os.Stat(filepath.Join(root, ".gutconfig.json")); err != nil {
			for _, d := range []string{"test", "tests"} {
				if st, err := os.Stat(filepath.Join(root, d)); err == nil && st.IsDir() {
					dirs = append(dirs, "res://"+d)
				}
			}
			if len(dirs) == 0 {
				return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument,
					"pass dirs (the res:// directories holding test_*.gd scripts) or add a .gutconfig.json",
					"no test directory: the project has no .gutconfig.json, res://test or res://tests")
			}
		}
	}
	for _, d := range dirs {
		abs, err := t.Project.Resolve(d)
		if err != nil {
			return sdk.Result{}, err
		}
		args = append(args, "-gdir="+t.Project.ResPath(abs))
	}
	if in.Script != "" {
		args = append(args, "-gselect="+in.Script)
	}
	if in.Test != "" {
		args = append(args, "-gunit_test_name="+in.Test)
	}
	timeout := time.Duration(defaultTestTimeout) * time.Second
	if in.TimeoutSeconds > 0 {
		timeout = time.Duration(in.TimeoutSeconds) * time.Second
	}
	// GUT's summary comes last, so keep most of the tail.
	o, err := godotrun.Run(ctx, godotrun.Spec{Bin: t.Bin, Args: args, Dir: root, Timeout: timeout, MaxOutput: 256 << 10,
		Tick: func(elapsed time.Duration, lines int) {
			call.Progress(elapsed.Seconds(), timeout.Seconds(), fmt.Sprintf("GUT running: %ds, %d lines of output", int(elapsed.Seconds()), lines))
		}})
	if err != nil {
		return sdk.Result{}, err
	}
	if o.Cancelled {
		return sdk.Result{}, sdk.Errorf(sdk.CodeCancelled, "", "the test run was cancelled; Godot was killed")
	}
	res := testResult{
		Summary: ParseGUT(o.Output), ExitCode: o.ExitCode, TimedOut: o.TimedOut,
		DurationSeconds: o.Duration.Round(time.Millisecond).Seconds(),
		Errors:          o.Errors, Warnings: o.Warnings, Output: o.Output, Command: o.Command, Godot: t.Bin.Version,
	}
	scriptErrs := 0
	for _, e := range o.Errors {
		if e.File != "" {
			scriptErrs++
		}
	}
	s := res.Summary
	res.Passed = s.Found && s.Failing == 0 && scriptErrs == 0 && o.ExitCode != nil && *o.ExitCode == 0
	switch {
	case o.TimedOut:
		res.Text = fmt.Sprintf("the tests did not finish within %s and were killed", timeout)
	case !s.Found:
		res.Text = "GUT printed no summary: it did not run (see errors and output)"
	default:
		res.Text = fmt.Sprintf("%d passing, %d failing, %d pending/risky tests in %d scripts; asserts %d of %d passed",
			s.Passing, s.Failing, s.Pending+s.Risky, s.Scripts, s.AssertsOK, s.AssertsTotal)
		if len(s.Failures) > 0 {
			f := s.Failures[0]
			res.Text += fmt.Sprintf("; first failure: %s %s: %s", strings.TrimSpace(f.Script), f.Test, f.Message)
		}
		if scriptErrs > 0 {
			res.Text += fmt.Sprintf("; %d script error(s)", scriptErrs)
		}
	}
	return sdk.JSON(res), nil
}
