// Command testing is the first-party "testing" toolset: it runs the
// project's GUT (github.com/bitwes/Gut) and gdUnit4 test suites headless,
// with a native Godot binary or the embedded Godot 4.6 web runtime, and
// reports every test as res://file:line; it compares screenshots, runs a
// scene under load and reports frame times and memory, and plays scripted
// scenarios (input, waits, property asserts, screenshots) against the
// running game. See docs/toolsets/testing.md.
//
// Install it as godot-mcp-toolset-testing in the plugins directory.
package main

import (
	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/sdk"
)

func main() {
	sdk.Serve(Toolset())
}

var finder = &godotrun.Finder{}

// Deadlines of a test run, in seconds.
const (
	defaultTestTimeout = 120
	maxTestTimeout     = 1800
)

// Toolset returns the testing toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "testing",
		Version: "0.1.0",
		Description: "Run the project's GUT and gdUnit4 tests headless (a Godot binary, or the embedded Godot 4.6 web runtime) and read each test's result as res://file:line; " +
			"compare screenshots; stress a scene and read frame times and memory; play scripted scenarios and assert node state in the running game.",
		Godot: ">= 3.0, < 5.0",
		Tools: []sdk.Tool{
			sdk.NewTool("run_tests",
				"Run the project's GUT (addons/gut) or gdUnit4 (addons/gdUnit4) tests headless, with a native Godot binary or, for a Godot 4 project "+
					"without one, the embedded Godot 4.6 web runtime, and return every test (suite, name, passed/failed/skipped/error, message, "+
					"location res://file:line), the totals, and the script errors the engine printed. GUT uses .gutconfig.json when there is one. "+
					"Next: fix the failing tests at their location, or read the errors when nothing ran.",
				sdk.Runtime, runTests, sdk.WithTitle("Run GUT or gdUnit4 tests"), sdk.WithOutputSchema[testResult](),
				// It runs its own headless Godot on the project files, editor or not.
				sdk.AnyMode()),
			sdk.NewTool("compare_screenshots",
				"Compare two images pixel by pixel (res:// PNG paths, screenshot files godot_runtime_capture_game_screenshot saved, or base64 PNG data) "+
					"and return the difference score (diff_pixels, diff_ratio, mean_abs_diff, the box holding the differences), match against "+
					"max_diff_ratio, and a difference image (differing pixels red). Both images must have the same size. Works without an engine.",
				sdk.ReadOnly, compareScreenshots, sdk.AnyMode(), sdk.WithTitle("Compare screenshots"), sdk.WithOutputSchema[compareResult]()),
			sdk.NewTool("run_stress_test",
				"Run a scene under load and measure it: without an editor, one run (a Godot 4 project in the embedded Godot 4.6 web runtime, "+
					"a Godot 3 project with a native Godot 3 binary) that adds instances copies "+
					"of spawn_scene, runs frames frames (sending iterations seeded random input events from actions) and returns frame time "+
					"(avg/p50/p95/max), the engine's process and physics time, memory and object/node counts from its Performance monitors, and "+
					"whether the game survived. With an editor, sends the random events to the game playing there and reports whether it survived. "+
					"Next: profile the slow frames, or fix the errors listed.",
				sdk.Runtime, runStress, sdk.EditorFunc(runStressEditor), sdk.WithTitle("Stress-test a scene"), sdk.WithOutputSchema[stressResult]()),
			sdk.NewTool("run_test_scenario",
				"Play a scripted test of the game: steps in order (wait N frames or ms; key, action, mouse, motion input events; assert a node's "+
					"property; screenshot, optionally compared with a res:// baseline), or the addon server's events + settle_ms + assertions, "+
					"with a result per step and passed overall. Without an editor the scene runs in the embedded Godot 4.6 web runtime and every "+
					"step happens at an exact frame (the same scenario gives the same result every run); with an editor it plays the scene there. "+
					"Next: fix what the first failing step names, or add assertions.",
				sdk.Runtime, runScenario, sdk.EditorFunc(runScenarioEditor), sdk.WithTitle("Run a test scenario"), sdk.WithOutputSchema[scenarioResult]()),
			sdk.NewTool("assert_node_state",
				"Check a node's property in the running game against an expected value (==, !=, <, <=, >, >=, contains, approx; vectors per "+
					"component), plus more assertions in also. With an editor: the game playing there (start it with godot_runtime_play_scene). "+
					"Without one: the game godot_runtime_play_scene runs, read now, all values at one tick (source \"running game\"); when no "+
					"game runs, the scene runs once in the embedded Godot 4.6 web runtime for frames ticks and is read then (source \"fresh run\"). "+
					"Next: drive the game with the input tools and assert again, or run_test_scenario for a scripted check.",
				sdk.ReadOnly, assertNodeState, sdk.EditorFunc(assertNodeStateEditor), sdk.WithTitle("Assert node state"), sdk.WithOutputSchema[assertResult]()),
		},
	}
}
