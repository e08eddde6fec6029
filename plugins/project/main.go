// Command project is the first-party "project" toolset: the Godot project's
// files and settings. It lists and searches files (as res:// paths, never
// outside the project), reads and writes project settings (checked against
// the engine's own list, coerced to each setting's type), resolves UIDs,
// and deletes or moves resource files without breaking the references to
// them.
//
// Every tool works in both modes: with a Godot editor attached it forwards
// to the godot-mcp addon; headless it works on the files through the
// host's workspace, so each write is atomic, journaled (godot_undo reverts
// it) and honours dry_run.
//
// It is built exactly like a third-party toolset: it imports only the sdk.
// Install it as godot-mcp-toolset-project in the plugins directory.
package main

import (
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

func main() {
	sdk.Serve(Toolset())
}

// Toolset returns the project toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "project",
		Version: "0.2.0",
		Description: "The Godot project's files and settings: a directory tree, file search by name or content, " +
			"project settings, UIDs, and deleting or moving resource files with their references rewritten.",
		Godot: ">= 4.0",
		// The class database is decoded once per process, off the
		// first call's time.
		Warm: classdb.Warm,
		Tools: []sdk.Tool{
			sdk.NewTool("get_filesystem_tree",
				"List the project's directories and files as a tree with file sizes, starting at a res:// directory. "+
					"Skips .godot/ and hidden entries; depth and limit keep the answer small.",
				sdk.ReadOnly, getFilesystemTree, sdk.EditorFunc(getFilesystemTreeEditor),
				sdk.WithTitle("Project file tree"),
				sdk.WithOutputSchema[treeResult]()),
			sdk.NewTool("search_files",
				"Find project files by glob pattern (\"*.tscn\", \"scenes/**/*.gd\"), by a substring of the file name, "+
					"and/or by text they contain. Returns res:// paths.",
				// On the files in both modes: the addon's search reads files
				// from disk too, but with fewer options (no case-insensitive
				// name match, size limit or hidden entries) and no lines.
				sdk.ReadOnly, searchFiles, sdk.AnyMode(),
				sdk.WithTitle("Search project files"),
				sdk.WithOutputSchema[searchResult]()),
			sdk.NewTool("get_setting",
				"Read a project setting (\"display/window/size/viewport_width\"): its value in project.godot or the engine default, and its type.",
				sdk.ReadOnly, getSetting, sdk.EditorCommand("cmd_get_setting", getSettingCommand), sdk.WithTitle("Get project setting")),
			sdk.NewTool("set_setting",
				"Set a project setting in project.godot, converted to the setting's type. An unknown key under an engine section "+
					"(application, display, rendering, physics, …) is refused with the closest real key; other sections are the project's own. "+
					"A value equal to the engine default removes the key, as the editor does.",
				sdk.Mutating, setSetting, sdk.EditorCommand("cmd_set_setting", setSettingCommand),
				sdk.DryRunAnswer(func(in setSettingArgs) map[string]any { return map[string]any{"name": in.Name, "value": in.Value} }, "set"), sdk.WithTitle("Set project setting")),
			sdk.NewTool("resolve_uid",
				"Find the res:// path of a resource UID (\"uid://…\") from the project's .uid files, resource headers and .import files; "+
					"given a res:// path instead, find its UID.",
				sdk.ReadOnly, resolveUID, sdk.EditorFunc(resolveUIDEditor), sdk.WithTitle("Resolve UID")),
			sdk.NewTool("path_to_uid",
				"Get the UID (\"uid://…\") Godot 4.4+ recorded for a file, and which file records it.",
				sdk.ReadOnly, pathToUID, sdk.EditorCommand("cmd_path_to_uid", pathToUIDCommand), sdk.WithTitle("Path to UID")),
			sdk.NewTool("delete_resource_file",
				"Delete a project file with its .uid and .import sidecars. Refuses a file that other files still refer to "+
					"(by path or uid://) and names them, unless force is set.",
				sdk.Destructive, deleteResourceFile, sdk.EditorFunc(deleteResourceFileEditor),
				sdk.DryRunAnswer(func(in deleteArgs) map[string]any { return map[string]any{"path": string(in.Path)} }, "deleted"), sdk.WithTitle("Delete resource file")),
			sdk.NewTool("move_file",
				"Move or rename a project file with its sidecars and rewrite every reference to it: ext_resource paths in scenes "+
					"and resources, quoted res:// paths in scripts and project.godot. uid:// references stay valid. "+
					"dry_run lists each file that would change and how many references.",
				sdk.Mutating, moveResourceFile, sdk.EditorFunc(moveResourceFileEditor),
				sdk.DryRunAnswer(func(in moveArgs) map[string]any {
					return map[string]any{"old_path": string(in.Path), "new_path": string(in.NewPath)}
				}, "moved"), sdk.WithTitle("Move resource file")),
		},
	}
}
