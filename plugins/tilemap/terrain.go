package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/tiledata"
)

// Painting with terrains: the editor's terrain painter in "connect" mode
// (tiledata.ConnectTerrain, for every tile shape) on the scene file. The addon has no command
// for it, so it edits the scene through the workspace in both modes.

type paintTerrainArgs struct {
	layerArgs
	Cells      [][]int `json:"cells,omitempty" jsonschema:"cells to paint [[x, y], ...]"`
	Rect       []int   `json:"rect,omitempty" jsonschema:"or a rectangle to paint [x, y, w, h]"`
	TerrainSet int     `json:"terrain_set" jsonschema:"index of the TileSet's terrain set"`
	Terrain    int     `json:"terrain" jsonschema:"index of the terrain in that set"`
}

func (in paintTerrainArgs) cells() ([]tiledata.Coords, error) {
	if (in.Cells == nil) == (in.Rect == nil) {
		return nil, invalid("pass cells [[x, y], ...] or rect [x, y, w, h]", "exactly one of cells and rect is required")
	}
	var out []tiledata.Coords
	if in.Rect != nil {
		r, err := rect4(in.Rect)
		if err != nil {
			return nil, err
		}
		for y := r[1]; y < r[1]+r[3]; y++ {
			for x := r[0]; x < r[0]+r[2]; x++ {
				out = append(out, tiledata.Coords{X: int16(x), Y: int16(y)})
			}
		}
		return out, nil
	}
	if len(in.Cells) == 0 || len(in.Cells) > MaxCells {
		return nil, invalid("paint 1 to 16384 cells per call", "cells has %d entries", len(in.Cells))
	}
	for i, c := range in.Cells {
		v, err := vec2(fmt.Sprintf("cells[%d]", i), c, nil)
		if err != nil {
			return nil, err
		}
		if err := cellRange(fmt.Sprintf("cells[%d]", i), v); err != nil {
			return nil, err
		}
		out = append(out, tiledata.Coords{X: int16(v[0]), Y: int16(v[1])})
	}
	return out, nil
}

type tileID struct {
	source int
	atlas  tiledata.AtlasCoords
	alt    int
}

// terrainTiles gathers every tile of terrain set set, in source id order
// and then file order.
func (ts *tileSet) terrainTiles(set int) (tiledata.TerrainSet, map[tileID]int) {
	out := tiledata.TerrainSet{Grid: ts.grid(), Mode: tiledata.TerrainMode(ts.intKey(fmt.Sprintf("terrain_set_%d/mode", set), 0))}
	index := map[tileID]int{}
	srcs := ts.sources()
	ids := make([]int, 0, len(srcs))
	for id, sub := range srcs {
		if sub != nil && sub.Type() == "TileSetAtlasSource" {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	intOf := func(sub *godot.SubResourceDecl, key string, def int) int {
		if v, ok := sub.Get(key); ok {
			if i, ok := v.(godot.Int); ok {
				return int(i)
			}
		}
		return def
	}
	for _, id := range ids {
		sub := srcs[id]
		for _, t := range readAtlas(id, sub).tiles {
			for _, alt := range t.alts {
				prefix := tiledata.TileKey{Atlas: t.at, Alt: alt}.String() + "/"
				if intOf(sub, prefix+"terrain_set", -1) != set {
					continue
				}
				tt := tiledata.TerrainTile{SourceID: uint16(id), Atlas: t.at, Alternative: uint16(alt),
					Terrain: intOf(sub, prefix+"terrain", -1), Bits: map[tiledata.Neighbor]int{}, Probability: 1}
				if v, ok := sub.Get(prefix + "probability"); ok {
					switch p := v.(type) {
					case godot.Float:
						tt.Probability = float64(p)
					case godot.Int:
						tt.Probability = float64(p)
					}
				}
				for _, n := range out.Grid.PeeringBits(out.Mode) {
					if b := intOf(sub, prefix+"terrains_peering_bit/"+n.String(), -1); b >= 0 {
						tt.Bits[n] = b
					}
				}
				index[tileID{id, t.at, alt}] = len(out.Tiles)
				out.Tiles = append(out.Tiles, tt)
			}
		}
	}
	return out, index
}

func paintTerrain(ctx context.Context, call *sdk.Call, in paintTerrainArgs) (sdk.Result, error) {
	cells, err := in.cells()
	if err != nil {
		return sdk.Result{}, err
	}
	d, m, err := in.open(ctx, call)
	if err != nil {
		return sdk.Result{}, err
	}
	ts, err := tilesetOfNode(ctx, call, d, m.node)
	if err != nil {
		return sdk.Result{}, err
	}
	if ts == nil {
		e := invalid("give the tile map a TileSet with terrains first", "%s has no tile_set", in.NodePath)
		e.Required = "tile_set"
		return sdk.Result{}, e
	}
	if err := ts.checkTerrainSet(in.TerrainSet); err != nil {
		return sdk.Result{}, err
	}
	if n := ts.terrainCount(in.TerrainSet); in.Terrain < 0 || in.Terrain >= n {
		e := invalid(fmt.Sprintf("terrain set %d has terrains 0..%d", in.TerrainSet, n-1), "terrain %d does not exist in terrain set %d", in.Terrain, in.TerrainSet)
		e.Required = "terrain"
		return sdk.Result{}, e
	}
	set, index := ts.terrainTiles(in.TerrainSet)
	current := func(c tiledata.Coords) int {
		cell, ok := m.cells.Get(c)
		if !ok {
			return -1
		}
		if i, ok := index[tileID{int(cell.SourceID), cell.AtlasCoords, int(cell.Alternative)}]; ok {
			return i
		}
		return -1
	}
	order, chosen, err := tiledata.ConnectTerrain(set, current, cells, in.Terrain)
	if err != nil {
		return sdk.Result{}, invalid(fmt.Sprintf("give tiles terrain %d with godot_tilemap_set_tile_terrain first", in.Terrain),
			"terrain set %d has no tile whose terrain is %d", in.TerrainSet, in.Terrain)
	}
	painted := make([]cellOut, 0, len(order))
	var erased [][2]int
	for _, c := range order {
		if chosen[c] < 0 {
			m.cells.Erase(c)
			erased = append(erased, [2]int{int(c.X), int(c.Y)})
			continue
		}
		t := set.Tiles[chosen[c]]
		cell := tiledata.Cell{Coords: c, SourceID: t.SourceID, AtlasCoords: t.Atlas, Alternative: t.Alternative}
		m.cells.Set(cell)
		painted = append(painted, cellJSON(cell))
	}
	m.save()
	out := map[string]any{"node_path": in.NodePath, "layer": m.layerOut(), "terrain_set": in.TerrainSet, "terrain": in.Terrain,
		"painted": len(cells), "updated_neighbors": len(order) - len(dedup(cells)), "cells": painted}
	if len(erased) > 0 {
		out["erased"] = erased
	}
	return commit(ctx, call, fmt.Sprintf("Paint terrain %d on %d cells of %s", in.Terrain, len(cells), in.NodePath), out, d)
}

func dedup(cells []tiledata.Coords) map[tiledata.Coords]bool {
	m := make(map[tiledata.Coords]bool, len(cells))
	for _, c := range cells {
		m[c] = true
	}
	return m
}
