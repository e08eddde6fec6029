// Command todo is a godot-mcp toolset that lists the TODO, FIXME, HACK and
// XXX comments in a Godot project's GDScript files.
//
// It is the example of a third-party toolset: it imports only the sdk module
// and can be copied out of this repository as a starting point. Build it as
// godot-mcp-toolset-todo and copy it into the host's plugins directory; see
// README.md.
package main

import "github.com/godot-mcp/godot-mcp/sdk"

func main() {
	sdk.Serve(Toolset())
}

// Toolset returns the todo toolset. Tests serve it with sdktest.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "todo",
		Version: "1.0.0",
		Description: "Lists TODO, FIXME, HACK and XXX comments in the project's GDScript files, " +
			"with their res:// path and line.",
		Tools: []sdk.Tool{
			sdk.NewTool("list", "List TODO/FIXME/HACK/XXX comments in the project's .gd files. "+
				"Skips .godot/ and addons/ unless include_addons is set.",
				sdk.ReadOnly, list,
				// It only reads the scripts on disk, so the same handler
				// serves a call with a Godot editor attached.
				sdk.AnyMode(),
				sdk.WithTitle("List TODO comments"),
				sdk.WithOutputSchema[listResult]()),
		},
	}
}
