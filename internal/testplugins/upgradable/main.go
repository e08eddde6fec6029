// Command upgradable is a test toolset with two builds, for hot-upgrade
// tests: the default build serves "which" (answering "1"); built with
// -ldflags "-X main.variant=2" it is version 2.0.0, answers "2", and serves
// one more tool, "added", so an upgrade changes its tool list. Variant 3
// is version 3.0.0 and needs Godot >= 9.0, which no test host has.
package main

import (
	"context"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// variant is set at build time.
var variant = "1"

func main() {
	tools := []sdk.Tool{
		sdk.NewTool("which", "Report which build serves.", sdk.ReadOnly,
			func(context.Context, *sdk.Call, struct{}) (sdk.Result, error) { return sdk.Text("%s", variant), nil }),
	}
	if variant == "2" {
		tools = append(tools, sdk.NewTool("added", "A tool only the second build has.", sdk.ReadOnly,
			func(context.Context, *sdk.Call, struct{}) (sdk.Result, error) { return sdk.Text("added"), nil }))
	}
	godot := ""
	if variant == "3" {
		godot = ">= 9.0"
	}
	sdk.Serve(&sdk.Toolset{
		Name:        "upgradable",
		Version:     variant + ".0.0",
		Description: "Test toolset whose second build adds a tool.",
		Godot:       godot,
		Tools:       tools,
	})
}
