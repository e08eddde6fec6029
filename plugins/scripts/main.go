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
// Scripts are checked by Godot's own compiler when an engine can run: a
// native Godot 4 binary (godot --check-only, as the runtime toolset runs
// it), else the Godot 4.6 web runtime in headless Chromium, kept warm in
// this process with the project's files so a script compiles in its
// project's context (engine.go). Without either, the built-in checker
// (sdk/godot/gdscript) reports syntax errors and the unknown names it is
// certain of. Every result says which checker ran. write and patch check
// the new text of a .gd file the same way (the engine within a time bound,
// never blocking the write) and say when the change introduced an error.
// See docs/toolsets/scripts.md.
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
		Description: "List, read, write and patch GDScript and C# files, find a node's script, and check scripts " +
			"(with Godot's compiler when an engine can run, else with a built-in GDScript checker).",
		Godot: ">= 4.0, < 5.0",
		Tools: []sdk.Tool{
			sdk.NewTool("list",
				"List the .gd (or .cs) scripts under a directory, recursively, as sorted res:// paths.",
				sdk.ReadOnly, list, sdk.EditorFunc(listEditor), sdk.WithTitle("List scripts")),
			sdk.NewTool("read",
				"Read a .gd or .cs script's text.",
				sdk.ReadOnly, read, sdk.EditorCommand("cmd_read_script", readCommand), sdk.WithTitle("Read a script")),
			sdk.NewTool("write",
				"Create or overwrite a .gd or .cs script (directories are created); replacing an existing script needs confirm=true, a new one does not. A new script in a Godot 4.4+ project gets its .uid file, as the editor makes it. A .gd file is checked (by Godot's compiler in the project's context when an engine can run, else by the built-in checker; syntax.checker says which) and the result lists the errors the write introduced, with their lines; the write happens either way. A .cs file is not checked (that needs a .NET toolchain), and the result says so.",
				sdk.Mutating, write, sdk.EditorFunc(writeEditor), sdk.WithTitle("Write a script"),
				// Creating a script is not destructive; replacing one is.
				sdk.ConfirmOverwrite("script_path")),
			sdk.NewTool("patch",
				"Replace every occurrence of find with replace in a .gd or .cs script; refused when find does not occur. The result counts the replacements and lists the GDScript errors the patch introduced, checked as write checks (C# is not checked).",
				sdk.Mutating, patch, sdk.EditorFunc(patchEditor), sdk.WithTitle("Patch a script")),
			sdk.NewTool("get_for_node",
				"Return the script attached to a scene node (path and text), or null when it has none.",
				sdk.ReadOnly, getForNode, sdk.EditorFunc(getForNodeEditor), sdk.WithTitle("Get a node's script")),
			sdk.NewTool("get_parse_errors",
				"Check one .gd script, or all of them, for errors with file and line: syntax, unknown identifiers and members, wrong argument counts, type errors. Uses Godot's compiler when an engine can run (a Godot 4 binary, else the embedded web runtime, kept warm), each script in its project's context; else the built-in checker (syntax, and the unknown names it is certain of). The result names the checker (checker, checker_detail) and, when it fell back, why. Fix an error with godot_scripts_patch, then check again.",
				sdk.ReadOnly, getParseErrors, sdk.EditorFunc(getParseErrorsEditor), sdk.WithTitle("Check scripts for parse errors")),
		},
	}
}
