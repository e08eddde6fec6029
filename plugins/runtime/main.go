// Command runtime is the first-party "runtime" toolset: it runs the game and
// reports what broke as res://file:line, checks scripts for parse errors,
// drives a running game (play, stop, scene tree, output, property reads and
// monitors, UI controls, screenshots) and renders scenes and resources
// without their scripts, from their camera or a given view.
//
// Two engines: a Godot binary (GODOT_MCP_GODOT_BIN, else godot, godot4,
// godot3 or godot3-server on PATH), and for Godot 4 projects the embedded
// Godot 4.6 web runtime in headless Chromium (internal/webgodot). With an
// editor attached the game tools drive the editor's game through the
// addon; without one, a game session in the web runtime. See
// docs/runtime.md and docs/toolsets/runtime.md.
//
// Install it as godot-mcp-toolset-runtime in the plugins directory.
package main

import (
	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/sdk"
)

func main() {
	sdk.Serve(Toolset())
}

// finder is shared by every call, so a binary's version is probed once.
var finder = &godotrun.Finder{}

// Limits of the run tools, in the schema the agent sees.
const (
	defaultTimeout    = 30  // seconds
	maxTimeout        = 600 // seconds
	maxOutputLimit    = 1 << 20
	defaultEditorWait = 10 // seconds, for editor polls
	maxEditorWait     = 60
)

// Toolset returns the runtime toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "runtime",
		Version: "0.1.0",
		Description: "Run the game with a real Godot binary (3.2+ or 4.x), or for a Godot 4 project the embedded Godot 4.6 web runtime, " +
			"and read what broke as res://file:line; check scripts for parse errors; drive the running game, in the editor or headless; " +
			"render a scene without running its scripts.",
		// Godot 3 projects (config_version=4 carry no minor version, so the
		// host reports them as "3") and every Godot 4 release. The binary
		// itself must be 3.2 or later; the runner checks that.
		Godot: ">= 3.0, < 5.0",
		Tools: append([]sdk.Tool{
			sdk.NewTool("run_and_capture",
				"Run the project headless with a real Godot binary until it quits or the deadline passes, then return its exit code, "+
					"the errors and warnings it printed (each with res:// file, line and function when Godot named them) and its output. "+
					"The whole process tree is killed at the deadline; pass expected_timeout for a game that never quits on its own.",
				// Its own headless Godot runs the files, editor or not.
				sdk.Runtime, runAndCapture, sdk.AnyMode(),
				sdk.WithTitle("Run the game and capture errors"),
				sdk.WithOutputSchema[runResult]()),
			sdk.NewTool("get_parse_errors",
				"Check one GDScript file, or every .gd file of the project, for parse errors with Godot's --check-only, "+
					"and return them with res:// file and line. Needs a Godot binary, not an editor.",
				sdk.ReadOnly, getParseErrors, sdk.EditorFunc(getParseErrorsEditor),
				sdk.WithTitle("Check scripts for parse errors"),
				sdk.WithOutputSchema[parseResult]()),
			sdk.NewTool("render_scene",
				"Render a scene as it is saved, without running any of its scripts (_ready, _process, autoloads), or a resource "+
					"(Texture2D, Gradient, Mesh, Material, Shader, StyleBox, Theme; a sub-resource as res://file.tscn::id) in a small preview scene, "+
					"and return a PNG (an image and a file) at the project's window size or scaled to width/height: the agent sees what it just built. "+
					"It looks through the scene's own camera, or from view (2D center+zoom or rect; 3D position, look_at, fov). "+
					"Runs in the embedded Godot 4.6 web runtime (Compatibility renderer) with or without an editor; it reads the saved files, "+
					"so save the scene first. To see the running game instead, use capture_game_screenshot.",
				sdk.ReadOnly, renderScene, sdk.AnyMode(),
				sdk.WithTitle("Render a scene or resource")),
			sdk.NewTool("check_project",
				"Load every scene, resource, script and project.godot of the project in the real Godot 4.6 engine and list what it refuses "+
					"or drops silently (scripts that do not compile, unknown properties and types, nodes whose parent is missing, "+
					"connections to missing nodes, broken references) as res:// file:line, a page at a time; editor-only scripts "+
					"(editor plugins; the runtime has no editor classes) are listed under skipped, not as errors. "+
					"The same check as `godot-mcp check --engine`; it reads the saved files, so it runs with or without an editor.",
				sdk.ReadOnly, checkProject, sdk.AnyMode(),
				sdk.WithTitle("Check the project in the engine"),
				sdk.WithOutputSchema[checkResult]()),
		}, editorTools()...),
	}
}
