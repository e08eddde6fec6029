// Command tilemap is the first-party "tilemap" toolset: it reads and paints
// the cells of TileMapLayer nodes (Godot 4.3+, tile_map_data bytes) and of
// legacy TileMap layers (layer_N/tile_data), and builds TileSets: a new
// TileSet, an atlas source over a texture, a tile in that atlas.
//
// Every tool works in two modes with the same arguments:
//
//   - With a Godot editor attached (the tools' onScene editor paths) it forwards to the
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
				sdk.ReadOnly, layers, onScene("cmd_tilemap_layers", layersParams), sdk.WithTitle("List tile map layers")),
			sdk.NewTool("get_cell",
				"Read one cell of a TileMapLayer or TileMap layer: source_id, atlas_coords and alternative_tile; empty:true and source_id -1 when no tile is there.",
				sdk.ReadOnly, getCell, onScene("cmd_tilemap_get_cell", getCellParams), sdk.WithTitle("Read a tile map cell")),
			sdk.NewTool("get_used_cells",
				"List the painted cells of a TileMapLayer or TileMap layer with their tiles, in the order Godot stores them, a page at a time: "+
					"count is every cell, cells this page (offset, limit; by default about 20 KB), and a cut page says next_offset, remaining and how to read on.",
				sdk.ReadOnly, getUsedCells, sdk.EditorFunc(getUsedCellsEditor), sdk.WithTitle("List painted tile map cells")),
			sdk.NewTool("set_cell",
				"Paint one cell with a tile (source_id, atlas_coords, alternative_tile), or erase it with source_id -1 (the default: without source_id the cell is erased). "+
					"A tile the tile map's TileSet does not have is refused, naming the sources, tiles or alternatives it has (with an editor attached, checked against the saved TileSet).",
				sdk.Mutating, setCell, paintOnScene("cmd_tilemap_set_cell", setCellParams, setCellTile), sdk.WithTitle("Paint a tile map cell")),
			sdk.NewTool("fill_rect",
				"Paint every cell of rect [x, y, w, h] (w and h > 0, w*h <= 16384) with one tile, or erase them with source_id -1 (the default), as one undoable action. "+
					"A tile the TileSet does not have is refused, as for set_cell.",
				sdk.Mutating, fillRect, paintOnScene("cmd_tilemap_fill_rect", fillRectParams, fillRectTile), sdk.WithTitle("Fill a rectangle of tiles")),
			sdk.NewTool("clear",
				"Erase every cell of a TileMapLayer or TileMap layer (at most 16384 cells).",
				sdk.Mutating, clearLayer, onScene("cmd_tilemap_clear", layerParams), sdk.WithTitle("Clear a tile map layer")),
			sdk.NewTool("create_tileset",
				"Create a TileSet with tile_size: saved as save_path (.tres) and/or assigned to the tile map at node_path (embedded in the scene when there is no save_path).",
				sdk.Mutating, createTileset, onScene("cmd_create_tileset", createTilesetParams), sdk.WithTitle("Create a TileSet")),
			sdk.NewTool("add_tileset_atlas_source",
				"Add a TileSetAtlasSource over an existing texture to the TileSet of node_path or the TileSet file tileset_path, with region_size and a source_id (default: the next free id).",
				sdk.Mutating, addAtlasSource, onScene("cmd_add_tileset_atlas_source", addAtlasSourceParams), sdk.WithTitle("Add a TileSet atlas source")),
			sdk.NewTool("create_tile",
				"Create a tile at atlas_coords (size in atlas cells, default [1, 1]) in an atlas source of the TileSet of node_path or tileset_path.",
				sdk.Mutating, createTile, onScene("cmd_create_tile", createTileParams), sdk.WithTitle("Create a tile in an atlas")),
			sdk.NewTool("create_atlas_from_image",
				"Add a TileSetAtlasSource over an image of the project (PNG, JPEG or GIF) to a TileSet and create its tiles, as the editor's \"create tiles automatically\" does: "+
					"the grid is the image less margins in steps of region_size (default the TileSet's tile_size) plus separation, and tiles non_transparent (default) makes a tile of every cell with a visible pixel, all of every cell. "+
					tilesetFileNote, sdk.Mutating, createAtlasFromImage, sdk.AnyMode(), sdk.WithTitle("Make an atlas from an image")),
			sdk.NewTool("paint_terrain",
				"Paint cells (a list, or rect [x, y, w, h]) of a TileMapLayer or TileMap layer with a terrain, as the editor's terrain painter does in connect mode: "+
					"each cell gets the tile of that terrain whose peering bits best match its neighbours, and neighbours are re-chosen to connect. Square, isometric, half-offset and hexagonal tiles, every layout and offset axis. "+
					"Edits the scene file in both modes (the addon has no terrain command); one undoable action.",
				sdk.Mutating, paintTerrain, sdk.AnyMode(), sdk.WithTitle("Paint with a terrain")),
			sdk.NewTool("get_tileset",
				"Read a TileSet (of node_path or the file tileset_path): tile shape and size, its physics, terrain, custom data, navigation and occlusion layers, and each source with its tiles and their alternatives. "+
					"Reads the files in both modes (with an editor attached, the TileSet as saved).",
				sdk.ReadOnly, getTileset, sdk.AnyMode(), sdk.WithTitle("Read a TileSet")),
			sdk.NewTool("get_tile",
				"Read one tile of an atlas source (source_id, atlas_coords, alternative_tile): its collision polygons per physics layer, terrain set, terrain and peering bits, custom data by layer name, navigation polygons and occluders. "+
					"Reads the files in both modes.",
				sdk.ReadOnly, getTile, sdk.AnyMode(), sdk.WithTitle("Read a tile's data")),
			sdk.NewTool("add_physics_layer",
				"Add a physics layer (collision_layer, collision_mask bitmasks, default 1) to a TileSet so its tiles can get collision polygons; answers the layer's index. "+
					tilesetFileNote, sdk.Mutating, addPhysicsLayer, sdk.AnyMode(), sdk.WithTitle("Add a TileSet physics layer")),
			sdk.NewTool("add_terrain_set",
				"Add a terrain set (mode match_corners_and_sides, match_corners or match_sides) to a TileSet; answers its index. Add its terrains with add_terrain. "+
					tilesetFileNote, sdk.Mutating, addTerrainSet, sdk.AnyMode(), sdk.WithTitle("Add a TileSet terrain set")),
			sdk.NewTool("add_terrain",
				"Add a terrain (name, color) to a terrain set of a TileSet; answers its index. "+
					tilesetFileNote, sdk.Mutating, addTerrain, sdk.AnyMode(), sdk.WithTitle("Add a terrain")),
			sdk.NewTool("add_custom_data_layer",
				"Add a custom data layer (name and Godot type: bool, int, float, String, Vector2, Color, ...) to a TileSet; tiles' values are read in game with TileData.get_custom_data(name). "+
					tilesetFileNote, sdk.Mutating, addCustomDataLayer, sdk.AnyMode(), sdk.WithTitle("Add a TileSet custom data layer")),
			sdk.NewTool("add_navigation_layer",
				"Add a navigation layer (layers bitmask, default 1) to a TileSet so its tiles can get navigation polygons. "+
					tilesetFileNote, sdk.Mutating, addNavigationLayer, sdk.AnyMode(), sdk.WithTitle("Add a TileSet navigation layer")),
			sdk.NewTool("add_occlusion_layer",
				"Add an occlusion layer (light_mask bitmask, default 1; sdf_collision) to a TileSet so its tiles can get light occluders. "+
					tilesetFileNote, sdk.Mutating, addOcclusionLayer, sdk.AnyMode(), sdk.WithTitle("Add a TileSet occlusion layer")),
			sdk.NewTool("set_tile_collision",
				"Set a tile's collision polygons on a physics layer (points in pixels from the tile's centre; one_way for platforms), replacing the ones it had; [] removes them. "+
					tilesetFileNote, sdk.Mutating, setTileCollision, sdk.AnyMode(), sdk.WithTitle("Set a tile's collision")),
			sdk.NewTool("set_tile_terrain",
				"Set a tile's terrain set, centre terrain and peering bits (replacing its bits), so the terrain painter (paint_terrain) can choose it. "+
					tilesetFileNote, sdk.Mutating, setTileTerrain, sdk.AnyMode(), sdk.WithTitle("Set a tile's terrain")),
			sdk.NewTool("set_tile_custom_data",
				"Set a tile's value on a custom data layer (by name), converted to the layer's type; null resets it. "+
					tilesetFileNote, sdk.Mutating, setTileCustomData, sdk.AnyMode(), sdk.WithTitle("Set a tile's custom data")),
			sdk.NewTool("set_tile_navigation",
				"Set a tile's navigation polygon on a navigation layer (a convex polygon in pixels from the tile's centre); [] removes it. "+
					tilesetFileNote, sdk.Mutating, setTileNavigation, sdk.AnyMode(), sdk.WithTitle("Set a tile's navigation polygon")),
			sdk.NewTool("set_tile_occluder",
				"Set a tile's light occluder polygons on an occlusion layer, replacing the ones it had; [] removes them. "+
					tilesetFileNote, sdk.Mutating, setTileOccluder, sdk.AnyMode(), sdk.WithTitle("Set a tile's light occluders")),
		},
	}
}

// tilesetFileNote says how the TileSet tools without an addon command work.
const tilesetFileNote = "Edits the TileSet's file (its .tres, or the scene embedding it) in both modes; with an editor attached the workspace keeps it in sync. One undoable action."
