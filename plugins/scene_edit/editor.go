package main

import (
	"context"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// Editor mode: every tool forwards to the godot-mcp addon command of the
// same name (ADDON-PROTOCOL §5.2) with the addon's params, and returns the
// addon's result unchanged (persisted/reason/hint, already_connected,
// added:false … pass through).
//
// The addon edits the active scene tab only, so a tool given a scene
// argument first opens that scene (cmd_open_scene), which makes it active.
//
// The addon does not honour dry_run for single edits, so a dry run never
// sends the edit: like the reference server it asks cmd_node_persistence
// for the verdict the real run would get (probe), and reports the command
// it would have sent.

// forward runs cmd in the editor, or previews it in a dry run.
func forward(ctx context.Context, call *sdk.Call, scene, cmd string, params, probe map[string]any) (sdk.Result, error) {
	if err := openFirst(ctx, call, scene); err != nil {
		return sdk.Result{}, err
	}
	if call.DryRun {
		out := map[string]any{"dry_run": true, "command": cmd, "params": params}
		if probe != nil {
			verdict, err := send(ctx, call, "cmd_node_persistence", probe)
			if err != nil {
				return sdk.Result{}, err
			}
			for _, k := range []string{"persisted", "reason", "hint"} {
				if v, ok := verdict[k]; ok {
					out[k] = v
				}
			}
		}
		return sdk.JSON(out), nil
	}
	out, err := send(ctx, call, cmd, params)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(out), nil
}

// openFirst makes scene (a res:// path argument; "" for none) the editor's
// active tab, the one the addon's commands act on.
func openFirst(ctx context.Context, call *sdk.Call, scene string) error {
	if scene == "" {
		return nil
	}
	p, err := checkResPath(scene, "scene", ".tscn", ".scn")
	if err != nil {
		return err
	}
	return call.Editor(ctx, "cmd_open_scene", map[string]any{"scene_path": p}, nil)
}

// send runs cmd in the editor and returns its result object ({} when the
// addon answers none).
func send(ctx context.Context, call *sdk.Call, cmd string, params map[string]any) (map[string]any, error) {
	var out map[string]any
	if err := call.Editor(ctx, cmd, params, &out); err != nil {
		return nil, err
	}
	if out == nil {
		out = map[string]any{}
	}
	return out, nil
}
