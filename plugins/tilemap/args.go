package main

import (
	"fmt"
	"math"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// Arguments. Coordinates are integer lists ([x, y], [x, y, w, h]): one
// plain type, which every client can render and every function-calling
// subset accepts; vec2 and rect4 check their length. scene_path is ours: the
// addon works on the editor's active tab, so in editor mode scene_path is
// opened first (sdk.Editor.OpenScene) and never forwarded.

type nodeArgs struct {
	NodePath  string        `json:"node_path" jsonschema:"path of the TileMapLayer or TileMap node, relative to the scene root (\".\" is the root)"`
	ScenePath sdk.ScenePath `json:"scene_path,omitempty" jsonschema:"the res:// scene to edit (in the editor it becomes the active tab); default the active scene"`
}

type layerArgs struct {
	nodeArgs
	Layer *int `json:"layer,omitempty" jsonschema:"legacy TileMap layer index (default 0); ignored for a TileMapLayer"`
}

type usedCellsArgs struct {
	layerArgs
	Offset int `json:"offset,omitempty" jsonschema:"skip this many cells (next_offset of the previous page)" minimum:"0"`
	Limit  int `json:"limit,omitempty" jsonschema:"the most cells in this page; without it at most 250, about 20 KB" minimum:"1" maximum:"100000"`
}

type cellArgs struct {
	layerArgs
	Coords []int `json:"coords" jsonschema:"cell coordinates [x, y]"`
}

type paintArgs struct {
	SourceID        *int  `json:"source_id,omitempty" jsonschema:"TileSet source id; -1 erases (the default, as in the reference server: pass it to paint)"`
	AtlasCoords     []int `json:"atlas_coords,omitempty" jsonschema:"tile position in the atlas [x, y] (default [0, 0])"`
	AlternativeTile int   `json:"alternative_tile,omitempty" jsonschema:"alternative tile id, transform flags included (default 0)"`
}

type setCellArgs struct {
	cellArgs
	paintArgs
}

type fillArgs struct {
	layerArgs
	paintArgs
	Rect []int `json:"rect" jsonschema:"[x, y, w, h]: the top-left cell and the size; w and h > 0, w*h <= 16384"`
}

type tilesetArgs struct {
	NodePath    string        `json:"node_path,omitempty" jsonschema:"tile map node whose tile_set to use or set"`
	TilesetPath sdk.ResPath   `json:"tileset_path,omitempty" jsonschema:"res:// path of a TileSet .tres file (instead of node_path)" godot:"ext=.tres"`
	ScenePath   sdk.ScenePath `json:"scene_path,omitempty" jsonschema:"the res:// scene holding node_path (in the editor it becomes the active tab); default the active scene"`
}

type createTilesetArgs struct {
	NodePath  string        `json:"node_path,omitempty" jsonschema:"tile map node to give the new TileSet"`
	SavePath  sdk.ResPath   `json:"save_path,omitempty" jsonschema:"res:// .tres path to save the TileSet to" godot:"ext=.tres"`
	ScenePath sdk.ScenePath `json:"scene_path,omitempty" jsonschema:"the res:// scene holding node_path (in the editor it becomes the active tab); default the active scene"`
	TileSize  []int         `json:"tile_size,omitempty" jsonschema:"tile size in pixels [w, h] (default [16, 16])"`
}

type atlasArgs struct {
	tilesetArgs
	TexturePath sdk.ResPath `json:"texture_path" jsonschema:"res:// path of an existing texture (png, webp, …)"`
	RegionSize  []int       `json:"region_size,omitempty" jsonschema:"atlas cell size in pixels [w, h] (default [16, 16])"`
	SourceID    *int        `json:"source_id,omitempty" jsonschema:"id for the new source; default the next free id"`
}

type createTileArgs struct {
	tilesetArgs
	SourceID    *int  `json:"source_id" jsonschema:"id of an atlas source of the TileSet"`
	AtlasCoords []int `json:"atlas_coords" jsonschema:"tile position in the atlas [x, y]"`
	Size        []int `json:"size,omitempty" jsonschema:"tile size in atlas cells [w, h] (default [1, 1])"`
}

func invalid(hint, format string, a ...any) *sdk.Error {
	return sdk.Errorf(sdk.CodeInvalidArgument, hint, format, a...)
}

// vec2 reads [x, y]. A missing value takes def when def is non-nil.
func vec2(field string, v []int, def *[2]int) ([2]int, error) {
	if v == nil && def != nil {
		return *def, nil
	}
	if len(v) != 2 {
		return [2]int{}, invalid(fmt.Sprintf("pass %s as [x, y] with whole numbers", field),
			"'%s' must be [x, y] integer coordinates.", field)
	}
	return [2]int{v[0], v[1]}, nil
}

// rect4 reads [x, y, w, h] and checks the size against MaxCells.
func rect4(v []int) ([4]int, error) {
	if len(v) != 4 {
		return [4]int{}, invalid("pass rect as [x, y, w, h] with whole numbers, w and h > 0", "'rect' must be [x, y, w, h] integers.")
	}
	r := [4]int(v)
	if r[2] <= 0 || r[3] <= 0 {
		return r, invalid("give a width and height of at least 1", "rect size %dx%d is empty; w and h must be > 0", r[2], r[3])
	}
	if r[2]*r[3] > MaxCells {
		return r, invalid("split the fill into rects of at most 16384 cells each",
			"rect %dx%d covers %d cells, more than the limit of %d", r[2], r[3], r[2]*r[3], MaxCells)
	}
	for _, p := range [][2]int{{r[0], r[1]}, {r[0] + r[2] - 1, r[1] + r[3] - 1}} {
		if err := cellRange("rect", p); err != nil {
			return r, err
		}
	}
	return r, nil
}

// cellRange checks that cell coordinates fit the int16 of the tile data.
func cellRange(field string, c [2]int) error {
	if c[0] < math.MinInt16 || c[0] > math.MaxInt16 || c[1] < math.MinInt16 || c[1] > math.MaxInt16 {
		return invalid("tile maps span -32768..32767 on each axis", "'%s' (%d, %d) is outside the tile map's range", field, c[0], c[1])
	}
	return nil
}

// tile is a validated paint: erase or one tile.
type tile struct {
	erase     bool
	source    int
	atlas     [2]int
	alt       int
	atlasSent [2]int // as forwarded
}

// tile validates a paint. Without source_id the cells are erased, as the
// reference server's set_cell and fill_rect default source_id to -1 (it
// used to be 0 here: the same call painted here and erased there).
func (p paintArgs) tile() (tile, error) {
	src := -1
	if p.SourceID != nil {
		src = *p.SourceID
	}
	atlas, err := vec2("atlas_coords", p.AtlasCoords, &[2]int{0, 0})
	if err != nil {
		return tile{}, err
	}
	t := tile{source: src, atlas: atlas, alt: p.AlternativeTile, atlasSent: atlas}
	// Godot erases on any of the three "invalid" markers (-1).
	if src == -1 || atlas == [2]int{-1, -1} || p.AlternativeTile == -1 {
		t.erase = true
		return t, nil
	}
	if src < 0 || src > 0xFFFF {
		return t, invalid("use a source id of the TileSet (0..65535), or -1 to erase", "source_id %d is out of range", src)
	}
	if atlas[0] < 0 || atlas[1] < 0 || atlas[0] > 0xFFFF || atlas[1] > 0xFFFF {
		return t, invalid("atlas coordinates are 0..65535", "atlas_coords (%d, %d) is out of range", atlas[0], atlas[1])
	}
	if p.AlternativeTile < 0 || p.AlternativeTile > 0xFFFF {
		return t, invalid("alternative tile ids are 0..65535 (transform flags in bits 12-14)", "alternative_tile %d is out of range", p.AlternativeTile)
	}
	return t, nil
}
