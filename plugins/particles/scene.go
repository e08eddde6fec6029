package main

import (
	"context"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

// commit writes the scene as one undoable action and answers out with
// dry_run and the files changed.
func commit(s *nodeedit.Scene, name string, out map[string]any) (sdk.Result, error) {
	res, err := s.Commit(name)
	if err != nil {
		return sdk.Result{}, err
	}
	out["scene_path"] = s.Path
	out["dry_run"] = res.DryRun
	if len(res.Warnings) > 0 {
		out["warnings"] = res.Warnings
	}
	return sdk.JSON(out), nil
}

// setProps sets props on the node n (of class), each checked against the
// class database and converted as the editor saves it.
func setProps(s *nodeedit.Scene, n *godot.Node, class string, props map[string]any) error {
	props, err := nodeedit.WithTransform(class, props)
	if err != nil {
		return err
	}
	for _, k := range nodeedit.SortedKeys(class, props) {
		if _, err := s.Set(n, k, props[k]); err != nil {
			return err
		}
	}
	return nil
}

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
