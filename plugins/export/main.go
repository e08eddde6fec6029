// Command export is the first-party "export" toolset: it reads the
// project's export presets (export_presets.cfg) without Godot, and exports
// the project with a real Godot binary (--export-release/--export-debug/
// --export-pack in Godot 4, --export/--export-debug/--export-pack in Godot
// 3). See docs/runtime.md.
//
// It is a toolset of its own, rather than part of runtime, so that its
// tools are exposed as godot_export_list_presets, godot_export_get_info
// and godot_export_project, the names prompts written for the addon's own
// server use.
//
// Install it as godot-mcp-toolset-export in the plugins directory.
package main

import (
	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/sdk"
)

func main() {
	sdk.Serve(Toolset())
}

var finder = &godotrun.Finder{}

// Deadlines of an export, in seconds.
const (
	defaultExportTimeout = 300
	maxExportTimeout     = 1800
)

// Toolset returns the export toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "export",
		Version: "0.1.0",
		Description: "Read the project's export presets and export the game (a binary with export templates, " +
			"or just the .pck) with a real Godot binary (3.2+ or 4.x).",
		Godot: ">= 3.0, < 5.0",
		Tools: []sdk.Tool{
			sdk.NewTool("list_presets", "List the export presets of export_presets.cfg: name, platform, runnable, export path. Needs no Godot binary.",
				sdk.ReadOnly, listPresets, sdk.WithTitle("List export presets"), sdk.WithOutputSchema[listResult](), sdk.AnyMode()),
			sdk.NewTool("get_info", "Everything export_presets.cfg says about one preset (its options included), and whether "+
				"the export templates it needs are installed for the Godot binary that would export it.",
				sdk.ReadOnly, getExportInfo, sdk.WithTitle("Export preset details"), sdk.WithOutputSchema[infoResult](), sdk.AnyMode()),
			sdk.NewTool("project", "Export the project with a preset using a real Godot binary: mode release (default), debug, "+
				"or pack (only the .pck/.zip; needs no export templates). Writes only new files in the export folder res://build/ "+
				"(which gets a .gdignore), or replaces an earlier export with overwrite=true; never project files, never through a "+
				"symbolic link. Export files are outside godot_undo. dry_run reports the command without running it.",
				sdk.Mutating, exportProject, sdk.WithTitle("Export the project"), sdk.WithOutputSchema[exportResult](),
				// A headless Godot of its own exports from the files, editor or not.
				sdk.AnyMode()),
		},
	}
}
