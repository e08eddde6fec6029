package main

import (
	"context"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// In editor mode each tool is one addon command (cmd_tilemap_*,
// cmd_create_tileset, …) with exactly the contract's params, built after
// the same argument checks as headless. The addon acts on the editor's
// active tab, so scene_path, when given, is opened first.

// sceneArgs are arguments that may name the scene to act on.
type sceneArgs interface{ scene() sdk.ScenePath }

func (a nodeArgs) scene() sdk.ScenePath          { return a.ScenePath }
func (a tilesetArgs) scene() sdk.ScenePath       { return a.ScenePath }
func (a createTilesetArgs) scene() sdk.ScenePath { return a.ScenePath }

// onScene makes command, with params built from the arguments, a tool's
// editor path, on scene_path's tab.
func onScene[In sceneArgs](command string, params func(In) (map[string]any, error)) sdk.ToolOption {
	return sdk.EditorFunc[In](func(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in In) (sdk.Result, error) {
		p, err := params(in)
		if err != nil {
			return sdk.Result{}, err
		}
		if err := ed.OpenScene(ctx, string(in.scene())); err != nil {
			return sdk.Result{}, err
		}
		return ed.Forward(ctx, command, p)
	})
}

// paintOnScene is onScene for the painting commands, which the addon
// carries out whatever the tile: the tile is checked first against the
// TileSet as saved (the scene file and its TileSet on disk), and refused
// when it has no such tile. A scene or node that is not saved yet is not
// checked.
func paintOnScene[In sceneArgs](command string, params func(In) (map[string]any, error), check func(In) (layerArgs, tile, error)) sdk.ToolOption {
	return sdk.EditorFunc[In](func(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in In) (sdk.Result, error) {
		p, err := params(in)
		if err != nil {
			return sdk.Result{}, err
		}
		la, t, err := check(in)
		if err != nil {
			return sdk.Result{}, err
		}
		if d, m, err := la.open(ctx, call); err == nil {
			if err := m.checkPaint(ctx, call, d, la.NodePath, t); err != nil {
				return sdk.Result{}, err
			}
		}
		if err := ed.OpenScene(ctx, string(in.scene())); err != nil {
			return sdk.Result{}, err
		}
		return ed.Forward(ctx, command, p)
	})
}

func setCellTile(in setCellArgs) (layerArgs, tile, error) {
	t, err := in.tile()
	return in.layerArgs, t, err
}

func fillRectTile(in fillArgs) (layerArgs, tile, error) {
	t, err := in.tile()
	return in.layerArgs, t, err
}

func layersParams(in nodeArgs) (map[string]any, error) {
	return map[string]any{"node_path": in.NodePath}, nil
}

func getCellParams(in cellArgs) (map[string]any, error) {
	c, err := vec2("coords", in.Coords, nil)
	if err != nil {
		return nil, err
	}
	return map[string]any{"node_path": in.NodePath, "coords": c[:], "layer": in.layerIndex()}, nil
}

func layerParams(in layerArgs) (map[string]any, error) {
	return map[string]any{"node_path": in.NodePath, "layer": in.layerIndex()}, nil
}

func setCellParams(in setCellArgs) (map[string]any, error) {
	c, err := vec2("coords", in.Coords, nil)
	if err != nil {
		return nil, err
	}
	t, err := in.tile()
	if err != nil {
		return nil, err
	}
	return t.params(map[string]any{"node_path": in.NodePath, "coords": c[:]}, in.layerIndex()), nil
}

func fillRectParams(in fillArgs) (map[string]any, error) {
	r, err := rect4(in.Rect)
	if err != nil {
		return nil, err
	}
	t, err := in.tile()
	if err != nil {
		return nil, err
	}
	return t.params(map[string]any{"node_path": in.NodePath, "rect": r[:]}, in.layerIndex()), nil
}

func createTilesetParams(in createTilesetArgs) (map[string]any, error) {
	size, err := in.check()
	if err != nil {
		return nil, err
	}
	p := map[string]any{"tile_size": size[:]}
	if in.NodePath != "" {
		p["node_path"] = in.NodePath
	}
	if in.SavePath != "" {
		p["save_path"] = in.SavePath
	}
	return p, nil
}

// tilesetTarget adds the TileSet's node_path or tileset_path to p.
func tilesetTarget(p map[string]any, in tilesetArgs) map[string]any {
	if in.NodePath != "" {
		p["node_path"] = in.NodePath
	}
	if in.TilesetPath != "" {
		p["tileset_path"] = in.TilesetPath
	}
	return p
}

func addAtlasSourceParams(in atlasArgs) (map[string]any, error) {
	region, err := in.check()
	if err != nil {
		return nil, err
	}
	p := tilesetTarget(map[string]any{"texture_path": in.TexturePath, "region_size": region[:]}, in.tilesetArgs)
	if in.SourceID != nil {
		p["source_id"] = *in.SourceID
	}
	return p, nil
}

func createTileParams(in createTileArgs) (map[string]any, error) {
	at, size, err := in.check()
	if err != nil {
		return nil, err
	}
	return tilesetTarget(map[string]any{"source_id": *in.SourceID, "atlas_coords": at[:], "size": size[:]}, in.tilesetArgs), nil
}
