// Command debugger is the first-party "debugger" toolset: breakpoints,
// stepping, stack frames, frame variables and expressions in a running
// game.
//
// With a Godot editor attached the tools forward to the editor's debugger
// through the godot-mcp addon (cmd_set_breakpoint, …; the game must be
// playing in the editor). Without one, godot_debugger_run starts the game
// with a native Godot binary (GODOT_MCP_GODOT_BIN, else godot, godot4,
// godot3 or godot3-server on PATH) and the plugin is the debug server the
// game connects to, speaking Godot's own remote debugger protocol (Godot
// 3.2+ and 4.x). The embedded web runtime is a release template without a
// script debugger and cannot be debugged. See docs/toolsets/debugger.md.
//
// Install it as godot-mcp-toolset-debugger in the plugins directory.
package main

import (
	"github.com/godot-mcp/godot-mcp/sdk"
)

func main() {
	sdk.Serve(Toolset())
}

// Toolset returns the debugger toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "debugger",
		Version: "0.1.0",
		Description: "Debug the running game's GDScript: breakpoints, break, continue, step into/over/out, stack frames, " +
			"frame variables and expressions. With an editor, through its debugger; headless, godot_debugger_run starts the game " +
			"with a native Godot binary (3.2+ or 4.x) under Godot's remote debugger protocol.",
		Godot: ">= 3.0, < 5.0",
		Tools: tools(),
	}
}
