// Command inspection is a small stand-in for the inspection toolset, which
// the host enables by default: one read-only tool. It is built by the
// host's tests, never shipped.
package main

import (
	"context"

	"github.com/godot-mcp/godot-mcp/sdk"
)

type treeIn struct {
	Scene string `json:"scene,omitempty" jsonschema:"scene path, e.g. res://main.tscn"`
}

type treeOut struct {
	Scene string   `json:"scene"`
	Nodes []string `json:"nodes"`
}

func main() {
	sdk.Serve(&sdk.Toolset{
		Name:        "inspection",
		Version:     "1.0.0",
		Description: "Test inspection toolset: read the scene tree.",
		Tools: []sdk.Tool{
			sdk.NewTool("scene_tree", "List the nodes of a scene.", sdk.ReadOnly,
				func(_ context.Context, _ *sdk.Call, in treeIn) (sdk.Result, error) {
					return sdk.JSON(treeOut{Scene: in.Scene, Nodes: []string{"Main", "Main/Player"}}), nil
				}),
		},
	})
}
