package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	_ "image/gif" // the image formats Go reads
	_ "image/jpeg"
	_ "image/png"
	"path"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// An atlas source made from an image in the project, with its tiles, as
// the editor's "create tiles automatically" does when a texture is added:
// the grid is the texture's size less the margins, in steps of the region
// size plus the separation, and a tile is made for every cell with a
// visible pixel (or every cell). The addon has no command for the tiles, so
// the tool edits the TileSet's file in both modes.

type atlasImageArgs struct {
	tilesetArgs
	TexturePath sdk.ResPath `json:"texture_path" jsonschema:"res:// path of a PNG, JPEG or GIF image in the project" godot:"ext=.png|.jpg|.jpeg|.gif"`
	RegionSize  []int       `json:"region_size,omitempty" jsonschema:"tile size in pixels [w, h] (default the TileSet's tile_size)"`
	Margins     []int       `json:"margins,omitempty" jsonschema:"pixels to skip at the image's left and top [x, y] (default [0, 0])"`
	Separation  []int       `json:"separation,omitempty" jsonschema:"pixels between tiles [x, y] (default [0, 0])"`
	SourceID    *int        `json:"source_id,omitempty" jsonschema:"id for the new source; default the next free id"`
	Tiles       string      `json:"tiles,omitempty" jsonschema:"which grid cells become tiles: non_transparent (default: cells with a visible pixel, as the editor offers), all, or none"`
}

func nonNegative(field string, v []int) ([2]int, error) {
	r, err := vec2(field, v, &[2]int{0, 0})
	if err == nil && (r[0] < 0 || r[1] < 0) {
		err = invalid("give [x, y] with whole numbers >= 0", "'%s' (%d, %d) must not be negative", field, r[0], r[1])
	}
	return r, err
}

func createAtlasFromImage(ctx context.Context, call *sdk.Call, in atlasImageArgs) (sdk.Result, error) {
	if err := in.tilesetArgs.check(); err != nil {
		return sdk.Result{}, err
	}
	margins, err := nonNegative("margins", in.Margins)
	if err != nil {
		return sdk.Result{}, err
	}
	sep, err := nonNegative("separation", in.Separation)
	if err != nil {
		return sdk.Result{}, err
	}
	mode := in.Tiles
	if mode == "" {
		mode = "non_transparent"
	}
	if mode != "non_transparent" && mode != "all" && mode != "none" {
		return sdk.Result{}, invalid("tiles is non_transparent, all or none", "tiles %q is not a choice", in.Tiles)
	}
	if in.SourceID != nil && (*in.SourceID < 0 || *in.SourceID > 0xFFFF) {
		e := invalid("omit source_id to take the next free one", "source_id %d must be between 0 and 65535", *in.SourceID)
		e.Required = "source_id"
		return sdk.Result{}, e
	}
	f, err := call.Workspace().Read(ctx, string(in.TexturePath))
	if err != nil {
		return sdk.Result{}, err
	}
	img, format, err := image.Decode(bytes.NewReader(f.Data))
	if err != nil {
		return sdk.Result{}, invalid("pass a PNG, JPEG or GIF image (save others as PNG first)",
			"%s cannot be read as an image (%s): %v", in.TexturePath, strings.TrimPrefix(path.Ext(string(in.TexturePath)), "."), err)
	}
	ts, err := locateTileset(ctx, call, in.tilesetArgs)
	if err != nil {
		return sdk.Result{}, err
	}
	tileSize := [2]int{16, 16}
	if v, ok := ts.sec.Get("tile_size"); ok {
		if s, ok := v.(godot.Vector2i); ok {
			tileSize = [2]int{int(s.X), int(s.Y)}
		}
	}
	region, err := vec2("region_size", in.RegionSize, &tileSize)
	if err != nil {
		return sdk.Result{}, err
	}
	if region[0] <= 0 || region[1] <= 0 {
		return sdk.Result{}, invalid("give a positive region size such as [16, 16]", "region_size (%d, %d) must be positive", region[0], region[1])
	}
	b := img.Bounds()
	grid := atlasGrid([2]int{b.Dx(), b.Dy()}, margins, sep, region)
	if grid[0] == 0 || grid[1] == 0 {
		return sdk.Result{}, invalid("use a smaller region_size or margins", "a %dx%d image has no room for a %dx%d tile after margins (%d, %d)",
			b.Dx(), b.Dy(), region[0], region[1], margins[0], margins[1])
	}
	id, sub, err := ts.addAtlas(ctx, call, in.TexturePath, region, in.SourceID, margins, sep)
	if err != nil {
		return sdk.Result{}, err
	}
	created := 0
	if mode != "none" {
		// Row by row, the order the editor creates them in (and so the
		// order they are saved in).
		for y := range grid[1] {
			if err := sdk.Stopped(ctx); err != nil {
				return sdk.Result{}, err
			}
			for x := range grid[0] {
				at := image.Pt(margins[0]+x*(region[0]+sep[0]), margins[1]+y*(region[1]+sep[1]))
				r := image.Rectangle{Min: at, Max: at.Add(image.Pt(region[0], region[1]))}
				if mode == "all" || visible(img, r.Add(b.Min)) {
					sub.Set(fmt.Sprintf("%d:%d/0", x, y), godot.Int(0))
					created++
				}
			}
		}
	}
	out := map[string]any{"node_path": nilIfEmpty(in.NodePath), "tileset_path": ts.pathOut(), "source_id": id,
		"texture_path": in.TexturePath, "image_size": []int{b.Dx(), b.Dy()}, "format": format, "region_size": region[:],
		"grid_size": grid[:], "tiles_created": created}
	return commit(ctx, call, fmt.Sprintf("Create atlas source %d from %s", id, path.Base(string(in.TexturePath))), out, ts.docs...)
}

// atlasGrid is TileSetAtlasSource.get_atlas_grid_size: how many tiles fit
// the texture after the margins, each region plus separation (the last
// one needs no separation).
func atlasGrid(size, margins, sep, region [2]int) [2]int {
	var g [2]int
	for i := range 2 {
		valid := size[i] - margins[i]
		if valid >= region[i] {
			g[i] = 1 + (valid-region[i])/(region[i]+sep[i])
		}
	}
	if g[0] == 0 || g[1] == 0 {
		return [2]int{}
	}
	return g
}

// visible reports whether any pixel of r has a non-zero alpha.
func visible(img image.Image, r image.Rectangle) bool {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if _, _, _, a := img.At(x, y).RGBA(); a != 0 {
				return true
			}
		}
	}
	return false
}
