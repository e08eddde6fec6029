package main

import (
	"context"
	"fmt"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/godotlog"
	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/sdk"
)

type runArgs struct {
	Scene           sdk.ScenePath `json:"scene,omitempty" alias:"scene_path" godot:"exists" jsonschema:"res:// path of the .tscn/.scn scene to run; default: the project's main scene"`
	TimeoutSeconds  int           `json:"timeout_seconds,omitempty" default:"30" minimum:"1" maximum:"600" jsonschema:"deadline in seconds (default 30, at most 600); the whole process tree is killed when it passes"`
	ExpectedTimeout bool          `json:"expected_timeout,omitempty" jsonschema:"the game is not expected to quit on its own: reaching the deadline counts as a clean run"`
	MaxOutputBytes  int           `json:"max_output_bytes,omitempty" default:"65536" minimum:"1024" maximum:"1048576" jsonschema:"how much of the output to return (default 65536, at most 1048576); the start and the end are kept, errors are found in all of it"`
}

type runResult struct {
	Ran             bool             `json:"ran" jsonschema:"Godot started"`
	OK              bool             `json:"ok" jsonschema:"no errors, and Godot exited 0 (or reached the deadline with expected_timeout)"`
	ExitCode        *int             `json:"exit_code" jsonschema:"Godot's exit status; null when it was killed at the deadline or died of a signal"`
	Signal          string           `json:"signal,omitempty" jsonschema:"the signal Godot died of, when it crashed"`
	TimedOut        bool             `json:"timed_out" jsonschema:"the deadline passed and the process tree was killed"`
	ExpectedTimeout bool             `json:"expected_timeout" jsonschema:"the caller expected the deadline to end the run"`
	DurationSeconds float64          `json:"duration_seconds"`
	Errors          []godotlog.Entry `json:"errors" jsonschema:"errors Godot printed, in order"`
	Warnings        []godotlog.Entry `json:"warnings" jsonschema:"warnings Godot printed, in order"`
	EntriesDropped  int              `json:"entries_dropped,omitempty" jsonschema:"errors and warnings beyond the first 200, not listed"`
	Output          string           `json:"output" jsonschema:"stdout and stderr as Godot wrote them, cut in the middle when too long"`
	OutputBytes     int64            `json:"output_bytes" jsonschema:"size of the whole output"`
	OutputDropped   int64            `json:"output_dropped_bytes" jsonschema:"bytes left out of output (a note in output marks the place)"`
	Command         []string         `json:"command" jsonschema:"the command line that ran"`
	Godot           string           `json:"godot" jsonschema:"version of the Godot that ran"`
	Engine          engineInfo       `json:"engine" jsonschema:"which engine ran (native binary or the embedded web runtime), its version and what it cannot do"`
	Summary         string           `json:"summary"`
}

func runAndCapture(ctx context.Context, call *sdk.Call, in runArgs) (sdk.Result, error) {
	ch, err := chooseEngine(ctx, call, false)
	if err != nil {
		return sdk.Result{}, err
	}
	if ch.web != nil {
		return runWeb(ctx, call, ch, in)
	}
	t := &godotrun.Target{Project: ch.project, Settings: ch.settings, Bin: ch.bin}
	args := []string{"--path", t.Project.Root()}
	// The SDK checked scene (a .tscn/.scn inside the project that exists).
	if scene := string(in.Scene); scene != "" {
		args = append(args, scene)
	} else if t.Settings.MainScene == "" {
		e := sdk.Errorf(sdk.CodePreconditionFailed,
			"pass scene (a res:// .tscn path), or set application/run/main_scene in project.godot",
			"the project has no main scene and no scene was given")
		e.Required = "main_scene"
		return sdk.Result{}, e
	}
	timeout := time.Duration(cmp(in.TimeoutSeconds, defaultTimeout)) * time.Second
	o, err := godotrun.Run(ctx, godotrun.Spec{
		Bin: t.Bin, Args: args, Dir: t.Project.Root(), Timeout: timeout, MaxOutput: in.MaxOutputBytes,
		Tick: func(elapsed time.Duration, lines int) {
			call.Progress(elapsed.Seconds(), timeout.Seconds(),
				fmt.Sprintf("Godot %s running: %ds of %ds, %d lines of output", t.Bin.Version, int(elapsed.Seconds()), int(timeout.Seconds()), lines))
		},
	})
	if err != nil {
		return sdk.Result{}, err
	}
	if o.Cancelled {
		return sdk.Result{}, sdk.Errorf(sdk.CodeCancelled, "", "the run was cancelled after %.1fs; Godot and everything it started were killed", o.Duration.Seconds())
	}
	res := runResult{
		Ran: true, ExitCode: o.ExitCode, Signal: o.Signal, TimedOut: o.TimedOut, ExpectedTimeout: in.ExpectedTimeout,
		DurationSeconds: o.Duration.Round(time.Millisecond).Seconds(),
		Errors:          o.Errors, Warnings: o.Warnings, EntriesDropped: o.DroppedEntries,
		Output: o.Output, OutputBytes: o.OutputBytes, OutputDropped: o.DroppedBytes,
		Command: o.Command, Godot: t.Bin.Version, Engine: ch.engine,
	}
	clean := (o.ExitCode != nil && *o.ExitCode == 0) || (o.TimedOut && in.ExpectedTimeout)
	res.OK = clean && len(o.Errors) == 0
	res.Summary = summarize(o, in.ExpectedTimeout, timeout)
	return sdk.JSON(res), nil
}

func summarize(o *godotrun.Outcome, expected bool, timeout time.Duration) string {
	var how string
	switch {
	case o.TimedOut && expected:
		how = fmt.Sprintf("ran until the deadline (%s) as expected and was stopped", timeout)
	case o.TimedOut:
		how = fmt.Sprintf("did not quit within %s and was killed (pass expected_timeout if the game never quits on its own)", timeout)
	case o.Signal != "":
		how = "crashed (" + o.Signal + ")"
	case o.ExitCode != nil:
		how = fmt.Sprintf("exited with code %d after %.1fs", *o.ExitCode, o.Duration.Seconds())
	}
	s := fmt.Sprintf("Godot %s; %d error(s), %d warning(s)", how, len(o.Errors), len(o.Warnings))
	for _, e := range o.Errors {
		if e.File != "" {
			s += fmt.Sprintf("; first in a script: %s:%d: %s", e.File, e.Line, e.Message)
			break
		}
	}
	if o.DroppedBytes > 0 {
		s += fmt.Sprintf("; %d bytes of output left out of the middle", o.DroppedBytes)
	}
	return s
}

// cmp returns v, or def when v is zero.
func cmp(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}
