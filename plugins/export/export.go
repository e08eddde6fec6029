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
	Preset         string      `json:"preset" jsonschema:"name of the export preset, as list_presets shows it"`
	Output         sdk.ResPath `json:"output,omitempty" alias:"output_path" jsonschema:"file to write, a new res:// path in the export folder res://build/ (created, with a .gdignore); default: res://build/ and the file name of the preset's export_path (with .pck for mode pack)"`
	Overwrite      bool        `json:"overwrite,omitempty" jsonschema:"replace files an earlier godot_export_project wrote (recorded in res://build/.godot-mcp-exports.json); other existing files are never overwritten"`
	Mode           string      `json:"mode,omitempty" jsonschema:"release (default), debug, or pack: only the .pck (or .zip), which needs no export templates"`
	Debug          bool        `json:"debug,omitempty" jsonschema:"true is the same as mode debug (the spelling other Godot MCP servers use)"`
	TimeoutSeconds int         `json:"timeout_seconds,omitempty" default:"300" minimum:"1" maximum:"1800" jsonschema:"deadline in seconds (default 300, at most 1800)"`
}

type exportResult struct {
	DryRun          bool             `json:"dry_run"`
	Exported        bool             `json:"exported" jsonschema:"Godot exited 0, printed no error and the output file exists"`
	Preset          string           `json:"preset"`
	Mode            string           `json:"mode"`
	OutputFile      string           `json:"output_file" jsonschema:"res:// path of the exported file"`
	Files           []string         `json:"files,omitempty" jsonschema:"res:// paths of every file the export placed (a desktop export writes the binary and its .pck)"`
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

func exportProject(ctx context.Context, call *sdk.Call, in exportArgs) (sdk.Result, error) {
	if in.Debug {
		if in.Mode != "" && in.Mode != "debug" {
			return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass mode or debug, not both", "debug=true contradicts mode %q", in.Mode)
		}
		in.Mode = "debug"
	}
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
	output := string(in.Output)
	if output == "" {
		if pr.ExportPath == "" {
			return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass output, such as res://"+exportDir+"/game.pck",
				"preset %q has no export_path", pr.Name)
		}
		// The export folder is the one place an export writes: a preset
		// path elsewhere keeps only its file name.
		output = path.Clean(strings.TrimPrefix(strings.ReplaceAll(pr.ExportPath, "\\", "/"), "res://"))
		if !strings.HasPrefix(output, exportDir+"/") {
			output = exportDir + "/" + path.Base(output)
		}
		if mode == "pack" {
			output = strings.TrimSuffix(output, path.Ext(output)) + ".pck"
		}
		output = "res://" + output
	}
	out, err := planOutput(t.Project, output)
	if err != nil {
		return sdk.Result{}, err
	}
	m, err := readManifest(t.Project.Root())
	if err != nil {
		return sdk.Result{}, err
	}
	if err := checkTarget(m, out.abs, out.res, in.Overwrite); err != nil {
		return sdk.Result{}, err
	}
	res := exportResult{
		DryRun: call.DryRun, Preset: pr.Name, Mode: mode, OutputFile: out.res,
		Errors: []godotlog.Entry{}, Warnings: []godotlog.Entry{}, Godot: t.Bin.Version,
	}
	if call.DryRun {
		args := []string{"--path", t.Project.Root(), flag, pr.Name, out.abs}
		res.Command = append([]string{t.Bin.Path}, append(t.Bin.HeadlessArgs(), args...)...)
		res.Summary = fmt.Sprintf("would export preset %q (%s) to %s with Godot %s", pr.Name, mode, res.OutputFile, t.Bin.Version)
		return sdk.JSON(res), nil
	}
	if err := prepareFolder(out); err != nil {
		return sdk.Result{}, err
	}
	stageDir, err := stage(out)
	if err != nil {
		return sdk.Result{}, err
	}
	defer os.RemoveAll(stageDir)
	staged := filepath.Join(stageDir, filepath.Base(out.abs))
	args := []string{"--path", t.Project.Root(), flag, pr.Name, staged}
	timeout := time.Duration(defaultExportTimeout) * time.Second
	if in.TimeoutSeconds > 0 {
		timeout = time.Duration(in.TimeoutSeconds) * time.Second
	}
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
	st, statErr := os.Lstat(staged)
	res.Exported = o.ExitCode != nil && *o.ExitCode == 0 && len(o.Errors) == 0 && statErr == nil && st.Mode().IsRegular()
	if res.Exported {
		// Only a successful export is placed: a failed one leaves the
		// earlier export, if any, as it was.
		if res.Files, err = publish(out, m, stageDir, in.Overwrite); err != nil {
			return sdk.Result{}, err
		}
		res.OutputSize = st.Size()
	}
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
