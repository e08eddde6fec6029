package main

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/godotlog"
	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/sdk"
)

type exportArgs struct {
	Preset         string `json:"preset" jsonschema:"name of the export preset, as list_presets shows it"`
	Output         string `json:"output,omitempty" jsonschema:"file to write, a res:// or project-relative path whose directory exists; default: the preset's export_path (with .pck for mode pack)"`
	Mode           string `json:"mode,omitempty" jsonschema:"release (default), debug, or pack: only the .pck (or .zip), which needs no export templates"`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" default:"300" minimum:"1" maximum:"1800" jsonschema:"deadline in seconds (default 300, at most 1800)"`
}

type exportResult struct {
	DryRun          bool             `json:"dry_run"`
	Exported        bool             `json:"exported" jsonschema:"Godot exited 0, printed no error and the output file exists"`
	Preset          string           `json:"preset"`
	Mode            string           `json:"mode"`
	OutputFile      string           `json:"output_file" jsonschema:"res:// path of the exported file"`
	OutputSize      int64            `json:"output_size,omitempty"`
	ExitCode        *int             `json:"exit_code,omitempty"`
	TimedOut        bool             `json:"timed_out,omitempty"`
	DurationSeconds float64          `json:"duration_seconds,omitempty"`
	Errors          []godotlog.Entry `json:"errors"`
	Warnings        []godotlog.Entry `json:"warnings"`
	Output          string           `json:"output,omitempty"`
	Command         []string         `json:"command"`
	Godot           string           `json:"godot"`
	Summary         string           `json:"summary"`
}

// exportFlag is the command-line flag for a mode and Godot major version.
func exportFlag(mode string, major int) (string, error) {
	switch mode {
	case "", "release":
		if major >= 4 {
			return "--export-release", nil
		}
		return "--export", nil
	case "debug":
		return "--export-debug", nil
	case "pack":
		return "--export-pack", nil
	}
	return "", sdk.Errorf(sdk.CodeInvalidArgument, "use release, debug or pack", "unknown mode %q", mode)
}

// outputPath confines the output file to the project: its directory must
// exist inside it.
func outputPath(p *sdk.Project, arg string) (string, error) {
	rel := strings.TrimPrefix(arg, "res://")
	rel = path.Clean(strings.ReplaceAll(rel, "\\", "/"))
	if rel == "." || rel == "" || strings.HasSuffix(arg, "/") {
		return "", sdk.Errorf(sdk.CodeInvalidArgument, "name a file, such as res://build/game.pck", "output %q is not a file name", arg)
	}
	dir, err := p.Resolve(path.Dir(rel))
	if err != nil {
		if e, ok := err.(*sdk.Error); ok && e.Code == sdk.CodeNotFound {
			e.Hint = "create the directory " + path.Dir(rel) + " in the project first, or choose another output"
		}
		return "", err
	}
	abs := filepath.Join(dir, path.Base(rel))
	if st, err := os.Stat(abs); err == nil && st.IsDir() {
		return "", sdk.Errorf(sdk.CodeInvalidArgument, "name a file, such as res://build/game.pck", "output %q is a directory", arg)
	}
	return abs, nil
}

func exportProject(ctx context.Context, call *sdk.Call, in exportArgs) (sdk.Result, error) {
	t, err := godotrun.Prepare(ctx, call, finder)
	if err != nil {
		return sdk.Result{}, err
	}
	flag, err := exportFlag(in.Mode, t.Bin.Major)
	if err != nil {
		return sdk.Result{}, err
	}
	mode := in.Mode
	if mode == "" {
		mode = "release"
	}
	_, pr, err := findPreset(t.Project.Root(), in.Preset)
	if err != nil {
		return sdk.Result{}, err
	}
	output := in.Output
	if output == "" {
		output = pr.ExportPath
		if output == "" {
			return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass output, such as res://build/game.pck",
				"preset %q has no export_path", pr.Name)
		}
		if mode == "pack" {
			output = strings.TrimSuffix(output, path.Ext(output)) + ".pck"
		}
	}
	abs, err := outputPath(t.Project, output)
	if err != nil {
		return sdk.Result{}, err
	}
	res := exportResult{
		DryRun: call.DryRun, Preset: pr.Name, Mode: mode, OutputFile: t.Project.ResPath(abs),
		Errors: []godotlog.Entry{}, Warnings: []godotlog.Entry{}, Godot: t.Bin.Version,
	}
	args := []string{"--path", t.Project.Root(), flag, pr.Name, abs}
	if call.DryRun {
		res.Command = append([]string{t.Bin.Path}, append(t.Bin.HeadlessArgs(), args...)...)
		res.Summary = fmt.Sprintf("would export preset %q (%s) to %s with Godot %s", pr.Name, mode, res.OutputFile, t.Bin.Version)
		return sdk.JSON(res), nil
	}
	timeout := time.Duration(defaultExportTimeout) * time.Second
	if in.TimeoutSeconds > 0 {
		timeout = time.Duration(in.TimeoutSeconds) * time.Second
	}
	before, _ := os.Stat(abs)
	o, err := godotrun.Run(ctx, godotrun.Spec{Bin: t.Bin, Args: args, Dir: t.Project.Root(), Timeout: timeout,
		Tick: func(elapsed time.Duration, lines int) {
			call.Progress(elapsed.Seconds(), timeout.Seconds(), fmt.Sprintf("exporting %q: %ds, %d lines of output", pr.Name, int(elapsed.Seconds()), lines))
		}})
	if err != nil {
		return sdk.Result{}, err
	}
	if o.Cancelled {
		return sdk.Result{}, sdk.Errorf(sdk.CodeCancelled, "", "the export was cancelled; Godot was killed")
	}
	res.Command, res.ExitCode, res.TimedOut = o.Command, o.ExitCode, o.TimedOut
	res.DurationSeconds = o.Duration.Round(time.Millisecond).Seconds()
	res.Errors, res.Warnings, res.Output = o.Errors, o.Warnings, o.Output
	after, statErr := os.Stat(abs)
	fresh := statErr == nil && (before == nil || !after.ModTime().Equal(before.ModTime()) || after.Size() != before.Size())
	if statErr == nil {
		res.OutputSize = after.Size()
	}
	res.Exported = o.ExitCode != nil && *o.ExitCode == 0 && len(o.Errors) == 0 && fresh
	switch {
	case res.Exported:
		res.Summary = fmt.Sprintf("exported preset %q (%s) to %s, %d bytes", pr.Name, mode, res.OutputFile, res.OutputSize)
	case o.TimedOut:
		res.Summary = fmt.Sprintf("the export did not finish within %s and was killed", timeout)
	default:
		res.Summary = fmt.Sprintf("the export of preset %q failed", pr.Name)
		if len(o.Errors) > 0 {
			res.Summary += ": " + o.Errors[0].Message
		}
		if mode != "pack" && strings.Contains(strings.ToLower(o.Output), "template") {
			res.Summary += " (export templates are missing: install them for this Godot version, or export with mode pack)"
		}
	}
	return sdk.JSON(res), nil
}
