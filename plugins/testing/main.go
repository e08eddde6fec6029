// Command testing is the first-party "testing" toolset: it runs the
// project's GUT unit tests (github.com/bitwes/Gut) headless with a real
// Godot binary and reports the summary and every failing test. It is a
// toolset of its own so the tool is exposed as godot_testing_run_tests.
// See docs/runtime.md.
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
		Name:        "testing",
		Version:     "0.1.0",
		Description: "Run the project's GUT unit tests headless with a real Godot binary (3.2+ or 4.x) and read which failed, where.",
		Godot:       ">= 3.0, < 5.0",
		Tools: []sdk.Tool{
			sdk.NewTool("run_tests",
				"Run the project's GUT tests (addons/gut) headless and return the totals, every failing test with its message "+
					"and line, and the script errors Godot printed. Uses .gutconfig.json when the project has one.",
				sdk.Runtime, runTests, sdk.WithTitle("Run GUT tests"), sdk.WithOutputSchema[testResult](),
				// It runs its own headless Godot on the project files, editor or not.
				sdk.AnyMode()),
		},
	}
}
