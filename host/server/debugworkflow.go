package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/gate"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// godot_debug_workflow is one call for "why does my scene fail": it runs
// the scene with godot_runtime_run_and_capture, on behalf of its caller and
// through the whole tools/call path (so the runtime toolset must be on and
// the caller's policy must allow that tool), and turns the errors Godot
// printed into places to look (res://file:line) and the calls that show
// them. It is in the runtime class because it runs the game: a read-only
// caller would be refused the run anyway.
const runTool = "godot_runtime_run_and_capture"

type debugArgs struct {
	Scene          string `json:"scene,omitempty" jsonschema:"res:// path of the scene to run; default: the project's main scene"`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" default:"10" minimum:"1" maximum:"600" jsonschema:"how long to let the scene run (default 10, at most 600); a game that is still running then is stopped, which is not an error"`
}

var debugDefs = []coreDef{
	coreTool("godot_debug_workflow", manifest.Runtime,
		"Run a scene (default the main scene) headless for a few seconds and answer what went wrong: every error and warning Godot printed, "+
			"each at its res://file:line, the end of the output, and what to look at next with the call that shows it. "+
			"Runs godot_runtime_run_and_capture, so the runtime toolset must be enabled.",
		(*Server).debugWorkflow),
}

func init() { coreDefs = append(coreDefs, debugDefs...) }

// logEntry is an error or warning as godot_runtime_run_and_capture reports
// it (internal/godotlog.Entry).
type logEntry struct {
	Kind     string `json:"kind"`
	Message  string `json:"message"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Function string `json:"function,omitempty"`
}

func (e logEntry) where() string {
	if e.File == "" {
		return ""
	}
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	return e.File
}

// lookAt is one place to look and the call that shows it.
type lookAt struct {
	Where string `json:"where"`
	Why   string `json:"why"`
	Call  string `json:"call,omitempty"`
}

const maxLookAt = 10

func (s *Server) debugWorkflow(ctx context.Context, req *mcp.CallToolRequest, in debugArgs) *mcp.CallToolResult {
	args := map[string]any{"timeout_seconds": in.TimeoutSeconds, "expected_timeout": true}
	scene := "the main scene"
	if in.Scene != "" {
		args["scene"] = in.Scene
		scene = in.Scene
	}
	res, se := s.innerCall(ctx, req.Session, req.Extra, req.Params.Meta, runTool, args)
	if se != nil {
		c := *se
		if c.Code == sdk.CodeToolsetDisabled {
			c.Message = "godot_debug_workflow runs the scene with " + runTool + ", and the runtime toolset is not enabled"
			c.Hint = `enable it first: godot_enable_toolset({"toolsets":["runtime"]}), then call godot_debug_workflow again`
		} else {
			c.Message = "godot_debug_workflow could not run " + scene + ": " + c.Message
		}
		if c.Toolset == "" {
			c.Toolset = gate.Core
		}
		return errorResult(&c, false)
	}
	var run struct {
		OK              bool            `json:"ok"`
		ExitCode        *int            `json:"exit_code"`
		Signal          string          `json:"signal"`
		TimedOut        bool            `json:"timed_out"`
		DurationSeconds float64         `json:"duration_seconds"`
		Errors          []logEntry      `json:"errors"`
		Warnings        []logEntry      `json:"warnings"`
		Output          string          `json:"output"`
		Engine          json.RawMessage `json:"engine"`
		Summary         string          `json:"summary"`
	}
	if err := json.Unmarshal([]byte(resultJSON(res)), &run); err != nil {
		return errorResult(&sdk.Error{Code: sdk.CodeInternalError, Toolset: gate.Core,
			Message: runTool + " answered in a shape godot_debug_workflow does not read: " + err.Error(),
			Hint:    "call " + runTool + " directly; its answer has the errors"}, false)
	}

	var look []lookAt
	var next []string
	seen := map[string]bool{}
	add := func(l lookAt) {
		if len(look) < maxLookAt && !seen[l.Where+l.Why] {
			seen[l.Where+l.Why] = true
			look = append(look, l)
		}
	}
	for _, e := range run.Errors {
		add(entryLook(e, true))
	}
	for _, e := range run.Warnings {
		add(entryLook(e, false))
	}

	var lines []string
	how := "ran until it was stopped after " + fmt.Sprint(in.TimeoutSeconds) + "s"
	switch {
	case run.Signal != "":
		how = "crashed (" + run.Signal + ")"
	case !run.TimedOut && run.ExitCode != nil:
		how = fmt.Sprintf("quit with exit code %d after %.1fs", *run.ExitCode, run.DurationSeconds)
	}
	lines = append(lines, fmt.Sprintf("%s %s: %d error(s), %d warning(s).", scene, how, len(run.Errors), len(run.Warnings)))
	for _, l := range look {
		lines = append(lines, "- "+strings.TrimPrefix(l.Where+": ", ": ")+l.Why)
	}
	switch {
	case len(run.Errors) > 0:
		next = append(next, "Fix the first error first: later ones often follow from it. Read the line it names, change it, then call godot_debug_workflow again.")
	case run.Signal != "":
		next = append(next, "Godot crashed without naming a script: look at the end of the output, and at what the scene loads: godot_analysis_analyze_dependencies {\"path\": \"res://…\"} (toolset analysis).")
	case run.ExitCode != nil && *run.ExitCode != 0 && !run.TimedOut:
		next = append(next, "The game quit with a non-zero code and no error: look for get_tree().quit(code) in the scripts and at the end of the output.")
	default:
		next = append(next, "Nothing failed in the output. If the game misbehaves, play it and watch it: godot_runtime_play_scene {\"scene\": \"res://…\"}, "+
			"then godot_runtime_get_game_scene_tree {} and godot_runtime_read_property {\"node_path\": \"/root/…\", \"property\": \"position\"}.")
	}
	if len(run.Warnings) > 0 && len(run.Errors) == 0 {
		next = append(next, "The warnings do not stop the game, but often explain odd behaviour; they are listed with their lines.")
	}
	lines = append(lines, next...)

	out := map[string]any{
		"scene":            in.Scene,
		"ok":               run.OK,
		"exit_code":        run.ExitCode,
		"signal":           run.Signal,
		"stopped_at_limit": run.TimedOut,
		"duration_seconds": run.DurationSeconds,
		"errors":           nonNil(run.Errors),
		"warnings":         nonNil(run.Warnings),
		"look_at":          nonNil(look),
		"next":             next,
		"output_tail":      tail(run.Output, 40, 4096),
		"engine":           run.Engine,
		"run_summary":      run.Summary,
	}
	return jsonResult(strings.Join(lines, "\n"), out)
}

// entryLook says where an error or warning points and which call shows
// that place.
func entryLook(e logEntry, isError bool) lookAt {
	kind := e.Kind
	if kind == "" {
		kind = "ERROR"
		if !isError {
			kind = "WARNING"
		}
	}
	why := kind + ": " + e.Message
	if e.Function != "" {
		why += " (in " + e.Function + ")"
	}
	l := lookAt{Where: e.where(), Why: why}
	switch {
	case strings.HasSuffix(e.File, ".gd") && strings.Contains(kind, "PARSE"):
		l.Call = fmt.Sprintf(`godot_scripts_get_parse_errors {"script_path": %s}`, jsonString(e.File))
	case strings.HasSuffix(e.File, ".gd"):
		l.Call = fmt.Sprintf(`godot_scripts_read {"script_path": %s}`, jsonString(e.File))
	case strings.HasSuffix(e.File, ".tscn") || strings.HasSuffix(e.File, ".scn"):
		l.Call = fmt.Sprintf(`godot_inspection_get_scene_tree {"scene": %s}`, jsonString(e.File))
	case strings.HasSuffix(e.File, ".gdshader"):
		l.Call = fmt.Sprintf(`godot_shader_validate {"shader_path": %s}`, jsonString(e.File))
	}
	return l
}

// tail keeps the last n lines of s, and at most limit bytes of them.
func tail(s string, n, limit int) string {
	s = strings.TrimRight(s, "\n")
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	out := strings.Join(lines, "\n")
	if len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out
}
