// Command project_scaffold is the first-party "project_scaffold" toolset:
// it turns an empty project folder into a Godot 4 project, for a chosen
// Godot version (4.0 to 4.7) and renderer, with a main scene from a
// template, so an agent can start a game from nothing.
//
// The files are the ones sdk/godot/scaffold builds (the same as
// `godot-mcp new`), written through the host's workspace: atomic,
// journaled (godot_undo removes them again) and previewed by dry_run.
//
// It is built exactly like a third-party toolset: it imports only the sdk.
// Install it as godot-mcp-toolset-project_scaffold in the plugins directory.
package main

import "github.com/godot-mcp/godot-mcp/sdk"

func main() {
	sdk.Serve(Toolset())
}

// Toolset returns the project_scaffold toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "project_scaffold",
		Version: "0.1.0",
		Description: "Create a new Godot 4 project in the (empty) project folder: project.godot for a Godot version and renderer, " +
			"an icon, .gitignore/.gitattributes and a main scene from a template (empty, 2d, 3d, ui).",
		// No Godot constraint: the toolset is for a folder that has no
		// project, hence no Godot version, yet.
		Tools: []sdk.Tool{
			sdk.NewTool("project_scaffold",
				"Create a new Godot project in the project folder, as the Godot editor's project manager does: project.godot "+
					"(config/features for godot_version and renderer), icon.svg, .gitignore, .gitattributes and, unless template is "+
					"\"empty\", a main scene res://scenes/main.tscn with its script res://scripts/main.gd set as run/main_scene. "+
					"Refuses a folder that is not empty unless overwrite is true (then the files it writes replace existing ones). "+
					"type (2d_platformer, top_down_rpg, visual_novel, 3d_fps) picks template and renderer for a kind of game. "+
					"With a Godot editor attached the editor's project exists already: the addon adds the type's skeleton to it "+
					"(folders, settings, a GameState autoload, res://scenes/MAIN_SCENE.tscn as the main scene), and type is required. "+
					"Undo with godot_undo.",
				sdk.Destructive, scaffoldProject,
				sdk.WithTitle("Scaffold a new Godot project"),
				sdk.EditorFunc(scaffoldEditor)),
		},
	}
}
