// Command tilemap is the first-party "tilemap" toolset: it reads and paints
// the cells of TileMapLayer nodes (Godot 4.3+, tile_map_data bytes) and of
// legacy TileMap layers (layer_N/tile_data), and builds TileSets: a new
// TileSet, an atlas source over a texture, a tile in that atlas.
//
// Every tool works in two modes with the same arguments:
//
//   - With a Godot editor attached (call.EditorAttached) it forwards to the
//     godot-mcp addon's cmd_tilemap_* and tileset commands with exactly the
//     addon's params, so the edit lands in the open scene and its undo
//     history.
//   - Headless it edits the scene file (scene_path, else the workspace's
//     active scene) through the workspace: atomic, compare-and-swap, one
//     undoable action per call, dry_run previews. Cell data goes through
//     sdk/godot/tiledata, which keeps the record order Godot saves, so cells
//     that did not change keep their exact bytes.
//
// Coordinates are [x, y] integer arrays; missing or short
// ones are refused, never defaulted. fill_rect and clear handle at most
// 16,384 cells. See docs/toolsets/tilemap.md.
//
// Install it as godot-mcp-toolset-tilemap in the plugins directory.
package main

import "github.com/godot-mcp/godot-mcp/sdk"

func main() {
	sdk.Serve(Toolset())
}

// MaxCells bounds fill_rect and clear, as the addon does.
const MaxCells = 16384

// Toolset returns the tilemap toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "tilemap",
		Version: "0.1.0",
		Description: "Read and paint tile map cells (TileMapLayer and legacy TileMap layers) and build TileSets, " +
			"in the attached Godot editor or headless on the scene files.",
		Godot: ">= 4.4, < 5.0",
		Tools: []sdk.Tool{
			sdk.NewTool("layers",
				"List a tile map node's layers: one for a TileMapLayer, layer_N of a legacy TileMap, each with index, name and enabled.",
				sdk.ReadOnly, layers, sdk.WithTitle("List tile map layers")),
			sdk.NewTool("get_cell",
				"Read one cell of a TileMapLayer or TileMap layer: source_id, atlas_coords and alternative_tile; empty:true and source_id -1 when no tile is there.",
				sdk.ReadOnly, getCell, sdk.WithTitle("Read a tile map cell")),
			sdk.NewTool("get_used_cells",
				"List every painted cell of a TileMapLayer or TileMap layer with its tile, in the order Godot stores them.",
				sdk.ReadOnly, getUsedCells, sdk.WithTitle("List painted tile map cells")),
			sdk.NewTool("set_cell",
				"Paint one cell with a tile (source_id, atlas_coords, alternative_tile), or erase it with source_id -1.",
				sdk.Mutating, setCell, sdk.WithTitle("Paint a tile map cell")),
			sdk.NewTool("fill_rect",
				"Paint every cell of rect [x, y, w, h] (w and h > 0, w*h <= 16384) with one tile, or erase them with source_id -1, as one undoable action.",
				sdk.Mutating, fillRect, sdk.WithTitle("Fill a rectangle of tiles")),
			sdk.NewTool("clear",
				"Erase every cell of a TileMapLayer or TileMap layer (at most 16384 cells).",
				sdk.Destructive, clearLayer, sdk.WithTitle("Clear a tile map layer")),
			sdk.NewTool("create_tileset",
				"Create a TileSet with tile_size: saved as save_path (.tres) and/or assigned to the tile map at node_path (embedded in the scene when there is no save_path).",
				sdk.Mutating, createTileset, sdk.WithTitle("Create a TileSet")),
			sdk.NewTool("add_tileset_atlas_source",
				"Add a TileSetAtlasSource over an existing texture to the TileSet of node_path or the TileSet file tileset_path, with region_size and a source_id (default: the next free id).",
				sdk.Mutating, addAtlasSource, sdk.WithTitle("Add a TileSet atlas source")),
			sdk.NewTool("create_tile",
				"Create a tile at atlas_coords (size in atlas cells, default [1, 1]) in an atlas source of the TileSet of node_path or tileset_path.",
				sdk.Mutating, createTile, sdk.WithTitle("Create a tile in an atlas")),
		},
	}
}
