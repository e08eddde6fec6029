// Command input is the first-party "input" toolset: it plays the running
// game. It presses keys by name with modifiers, moves, clicks, drags and
// scrolls the mouse at game coordinates or on a UI control, presses input
// actions with a strength, plays timed sequences, and records what the game
// receives as a sequence that plays back to the same state. It also holds
// game time: pause, step exactly N physics or process frames, time scale.
//
// With an editor attached the input tools forward to the godot-mcp
// addon's commands (cmd_simulate_key, …) and act on the editor's game;
// without one they act on the headless game session of
// godot_runtime_play_scene, reached through internal/gamesession. Time
// control needs that session: the addon has no command for it. See
// docs/toolsets/input.md.
//
// Install it as godot-mcp-toolset-input in the plugins directory.
package main

import (
	"github.com/godot-mcp/godot-mcp/sdk"
)

func main() {
	sdk.Serve(Toolset())
}

// Toolset returns the input toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "input",
		Version: "0.1.0",
		Description: "Play the running game: keys, mouse (clicks, drags, wheel, clicks on UI controls), input actions, timed input sequences, " +
			"recording and replay; and hold game time: pause, step exactly N frames, time scale, for playtests that give the same result every run.",
		Godot: ">= 4.0, < 5.0",
		Tools: tools(),
	}
}
