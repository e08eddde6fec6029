package main

import (
	"context"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// inline is the converter's spelling of a new resource of class with
// props: {"type": class, "properties": props}.
func inline(class string, props map[string]any) map[string]any {
	if props == nil {
		props = map[string]any{}
	}
	return map[string]any{"type": class, "properties": props}
}

// forward opens scene (if given) and sends one addon command.
func forward(ctx context.Context, ed *sdk.Editor, scene sdk.ScenePath, cmd string, params map[string]any) (sdk.Result, error) {
	if err := ed.OpenScene(ctx, string(scene)); err != nil {
		return sdk.Result{}, err
	}
	return ed.Forward(ctx, cmd, params)
}
