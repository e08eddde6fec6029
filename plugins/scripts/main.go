// Command scripts is the first-party "scripts" toolset: list, read, write and
// patch a project's GDScript (and C#) files, find the script of a scene
// node, and check scripts for parse errors.
//
// With a Godot editor attached (their sdk.EditorFunc paths) the file tools forward
// to the godot-mcp addon's cmd_*_script commands with exactly the addon's
// params; headless they work on the project files through the workspace
// (atomic, compare-and-swap, one undoable action per call, dry_run
// previews).
//
// Parse errors come from Godot itself when a Godot 4 binary is present
// (godot --check-only, as the runtime toolset runs it); otherwise from the
// built-in GDScript syntax checker (sdk/godot/gdscript), which reports
// syntax errors with line and column but not unknown names or types. Every
// result says which checker ran. write and patch check the new text of a
// .gd file with the built-in checker and say when the change introduced a
// syntax error. See docs/toolsets/scripts.md.
//
// Install it as godot-mcp-toolset-scripts in the plugins directory.
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

// Toolset returns the scripts toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "scripts",
		Version: "0.1.0",
		Description: "List, read, write and patch GDScript and C# files, find a node's script, and check scripts for parse errors " +
			"(with Godot when a binary is present, else with a built-in GDScript syntax checker).",
		Godot: ">= 4.0, < 5.0",
		Tools: []sdk.Tool{
			sdk.NewTool("list",
				"List the .gd (or .cs) scripts under a directory, recursively, as sorted res:// paths.",
				sdk.ReadOnly, list, sdk.EditorFunc(listEditor), sdk.WithTitle("List scripts")),
			sdk.NewTool("read",
				"Read a .gd or .cs script's text.",
				sdk.ReadOnly, read, sdk.EditorCommand("cmd_read_script", readCommand), sdk.WithTitle("Read a script")),
			sdk.NewTool("write",
				"Create or overwrite a .gd or .cs script (directories are created); replacing an existing script needs confirm=true, a new one does not. A new script in a Godot 4.4+ project gets its .uid file, as the editor makes it. A .gd file is syntax-checked and the result says if the write introduced a syntax error; a .cs file is not checked (that needs a .NET toolchain), and the result says so.",
				sdk.Mutating, write, sdk.EditorFunc(writeEditor), sdk.WithTitle("Write a script"),
				// Creating a script is not destructive; replacing one is.
				sdk.ConfirmOverwrite("script_path")),
			sdk.NewTool("patch",
				"Replace every occurrence of find with replace in a .gd or .cs script; refused when find does not occur. The result counts the replacements and says if the patch introduced a GDScript syntax error (C# is not checked).",
				sdk.Mutating, patch, sdk.EditorFunc(patchEditor), sdk.WithTitle("Patch a script")),
			sdk.NewTool("get_for_node",
				"Return the script attached to a scene node (path and text), or null when it has none.",
				sdk.ReadOnly, getForNode, sdk.EditorFunc(getForNodeEditor), sdk.WithTitle("Get a node's script")),
			sdk.NewTool("get_parse_errors",
				"Check one .gd script, or all of them, for parse errors with line numbers. Uses Godot's compiler when a Godot 4 binary is present, else the built-in syntax checker; the result names the checker.",
				sdk.ReadOnly, getParseErrors, sdk.EditorFunc(getParseErrorsEditor), sdk.WithTitle("Check scripts for parse errors")),
		},
	}
}
