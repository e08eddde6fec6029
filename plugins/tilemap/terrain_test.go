package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/webgodot/loadcheck"
	"github.com/godot-mcp/godot-mcp/sdk/godot/tiledata"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// The paints of the terrain test, as cell lists.
var terrainPaints = [][][2]int{
	rectCells(0, 0, 5, 3),
	{{5, 1}, {6, 1}},
	{{1, -1}, {2, -1}, {3, -1}},
	rectCells(-4, 4, 3, 1),
}

func rectCells(x, y, w, h int) [][2]int {
	var out [][2]int
	for j := y; j < y+h; j++ {
		for i := x; i < x+w; i++ {
			out = append(out, [2]int{i, j})
		}
	}
	return out
}

// terrainGrid is a generated TileSet: its grid, mode and number of
// terrains (one when zero).
type terrainGrid struct {
	node     string
	grid     tiledata.Grid
	mode     tiledata.TerrainMode
	terrains int
}

// The generated TileSets: every non-square shape, both offset axes,
// every kind of layout and all three terrain modes; two of them with two
// terrains and edge tiles of no centre terrain.
var terrainGrids = []terrainGrid{
	{"IsoDiamondDown", tiledata.Grid{Shape: tiledata.ShapeIsometric, Layout: tiledata.LayoutDiamondDown}, tiledata.MatchCornersAndSides, 0},
	{"IsoStacked", tiledata.Grid{Shape: tiledata.ShapeIsometric}, tiledata.MatchSides, 0},
	{"IsoStairsVertical", tiledata.Grid{Shape: tiledata.ShapeIsometric, Layout: tiledata.LayoutStairsRight, Axis: tiledata.AxisVertical}, tiledata.MatchCorners, 0},
	{"HalfOffset", tiledata.Grid{Shape: tiledata.ShapeHalfOffsetSquare}, tiledata.MatchCorners, 0},
	{"HalfOffsetVertical", tiledata.Grid{Shape: tiledata.ShapeHalfOffsetSquare, Layout: tiledata.LayoutDiamondDown, Axis: tiledata.AxisVertical}, tiledata.MatchCornersAndSides, 0},
	{"Hex", tiledata.Grid{Shape: tiledata.ShapeHexagon}, tiledata.MatchSides, 0},
	{"HexOffsetVertical", tiledata.Grid{Shape: tiledata.ShapeHexagon, Layout: tiledata.LayoutStackedOffset, Axis: tiledata.AxisVertical}, tiledata.MatchSides, 0},
	{"HexDiamondVertical", tiledata.Grid{Shape: tiledata.ShapeHexagon, Layout: tiledata.LayoutDiamondRight, Axis: tiledata.AxisVertical}, tiledata.MatchCorners, 0},
	{"HexVertical", tiledata.Grid{Shape: tiledata.ShapeHexagon, Axis: tiledata.AxisVertical}, tiledata.MatchCornersAndSides, 0},
	{"HexStairs", tiledata.Grid{Shape: tiledata.ShapeHexagon, Layout: tiledata.LayoutStairsDown}, tiledata.MatchCornersAndSides, 0},
	{"HexTwoTerrains", tiledata.Grid{Shape: tiledata.ShapeHexagon}, tiledata.MatchSides, 2},
	{"IsoTwoTerrains", tiledata.Grid{Shape: tiledata.ShapeIsometric, Layout: tiledata.LayoutDiamondDown}, tiledata.MatchCorners, 2},
}

// secondPaints paint terrain 1, last, on the TileSets with two terrains:
// over the blob and over the negative patch.
var secondPaints = [][][2]int{rectCells(1, 0, 2, 2), {{-5, -4}, {-4, -4}, {-3, -4}}}

// The paints on the generated TileSets: a blob, a line, single cells next
// to painted terrain, and a patch at negative (odd) rows and columns.
var shapePaints = [][][2]int{
	rectCells(0, 0, 4, 3),
	{{5, 1}, {6, 1}, {7, 1}},
	{{2, -1}},
	rectCells(-5, -4, 2, 2),
	{{-3, -3}},
	{{4, 3}},
}

// terrainTileSet writes a TileSet of grid with one terrain set in mode.
// With one terrain, its tiles (all of terrain 0) take every combination
// of the mode's peering bits, or every seventh when there are more than
// 256, so that the painter must also choose among imperfect tiles; tiles
// maps each combination (a mask of the bits) to its atlas coordinates.
// With two terrains, tiles of either centre take every third combination
// of no terrain, terrain 0 and terrain 1 on each bit (all when there are
// fewer than 100), and edges are tiles of no centre terrain with some
// bits set.
func terrainTileSet(grid tiledata.Grid, mode tiledata.TerrainMode, terrains int) (text string, tiles map[int][2]int, edges [][2]int) {
	bits := grid.PeeringBits(mode)
	tiles = map[int][2]int{}
	var b strings.Builder
	b.WriteString("[gd_resource type=\"TileSet\" load_steps=3 format=3]\n\n" +
		"[ext_resource type=\"Texture2D\" path=\"res://level/tileset/tiles_demo.png\" id=\"1_tex\"]\n\n" +
		"[sub_resource type=\"TileSetAtlasSource\" id=\"TileSetAtlasSource_terra\"]\ntexture = ExtResource(\"1_tex\")\ntexture_region_size = Vector2i(2, 2)\n")
	n := 0
	tile := func(centre int, values []int) [2]int {
		at := [2]int{n % 128, n / 128}
		key := fmt.Sprintf("%d:%d/0", at[0], at[1])
		n++
		fmt.Fprintf(&b, "%s = 0\n%s/terrain_set = 0\n", key, key)
		if centre >= 0 {
			fmt.Fprintf(&b, "%s/terrain = %d\n", key, centre)
		}
		for i, nb := range bits {
			if values[i] >= 0 {
				fmt.Fprintf(&b, "%s/terrains_peering_bit/%s = %d\n", key, nb, values[i])
			}
		}
		return at
	}
	combos := 1
	for range bits {
		combos *= terrains + 1
	}
	for centre := -1; centre < terrains; centre++ {
		if centre < 0 && terrains == 1 {
			continue
		}
		for k := range combos {
			values, uniform, mask := make([]int, len(bits)), true, 0
			for i, r := 0, k; i < len(bits); i, r = i+1, r/(terrains+1) {
				values[i] = r%(terrains+1) - 1
				uniform = uniform && values[i] == centre
				if values[i] == 0 {
					mask |= 1 << i
				}
			}
			switch {
			case centre < 0 && (k == 0 || k%13 != 1):
				continue
			case terrains == 1 && len(bits) > 8 && k%7 != 0 && k != combos-1:
				continue
			case terrains > 1 && centre >= 0 && combos >= 100 && k%3 != 0 && !uniform:
				continue
			}
			at := tile(centre, values)
			if centre < 0 {
				edges = append(edges, at)
			} else if centre == 0 && terrains == 1 {
				tiles[mask] = at
			}
		}
	}
	fmt.Fprintf(&b, "\n[resource]\ntile_shape = %d\ntile_layout = %d\ntile_offset_axis = %d\nterrain_set_0/mode = %d\n",
		grid.Shape, grid.Layout, grid.Axis, mode)
	for t := range terrains {
		fmt.Fprintf(&b, "terrain_set_0/terrain_%d/name = \"Terrain %d\"\nterrain_set_0/terrain_%d/color = Color(0.5, 0.34375, 0.25, 1)\n", t, t, t)
	}
	b.WriteString("sources/0 = SubResource(\"TileSetAtlasSource_terra\")\n")
	return b.String(), tiles, edges
}

// seedCell is the painted cell of the last scenario on a generated
// TileSet: before it is painted, two of its neighbours get tiles (by
// set_cell) with a single peering bit of terrain next to it, so the
// painter must read the bits of existing tiles; on vertical half-offset
// grids one is the cell below with only its top left corner set, where
// Godot reads that corner for the corner it shares with the cell above.
var seedCell = [2]int{10, 10}

// terrainSeeds are the cells to set around seedCell and their atlas
// coordinates.
func terrainSeeds(grid tiledata.Grid, mode tiledata.TerrainMode, tiles map[int][2]int) [][4]int {
	bits := grid.PeeringBits(mode)
	var out [][4]int
	// Below: the corner counter-clockwise of the side facing seedCell (or
	// that side); above: the corner clockwise of it (or that side).
	for i, dirs := range [][]tiledata.Neighbor{{tiledata.BottomSide, tiledata.BottomRightSide}, {tiledata.TopSide, tiledata.TopLeftSide}} {
		d := dirs[0]
		if !grid.HasNeighbor(d) {
			d = dirs[1]
		}
		c, _ := grid.NeighborCell(tiledata.XY{X: seedCell[0], Y: seedCell[1]}, d)
		facing := (d + 8) % 16
		corner := (facing + 15) % 16
		if i == 1 {
			corner = (facing + 1) % 16
		}
		mask := 0
		for _, want := range []tiledata.Neighbor{corner, facing} {
			if j := slices.Index(bits, want); j >= 0 {
				mask = 1 << j
				break
			}
		}
		at, ok := tiles[mask]
		if !ok {
			at = tiles[0]
		}
		out = append(out, [4]int{c.X, c.Y, at[0], at[1]})
	}
	return out
}

// terrainScene is a scene with the demo's TileSet on Ground and one layer
// per generated TileSet.
func terrainScene() string {
	var b strings.Builder
	fmt.Fprintf(&b, "[gd_scene load_steps=%d format=3]\n\n[ext_resource type=\"TileSet\" path=\"res://level/tileset/tileset.tres\" id=\"1\"]\n", len(terrainGrids)+2)
	for i, g := range terrainGrids {
		fmt.Fprintf(&b, "[ext_resource type=\"TileSet\" path=\"res://shapes/%s.tres\" id=\"%d\"]\n", g.node, i+2)
	}
	b.WriteString("\n[node name=\"Root\" type=\"Node2D\"]\n\n[node name=\"Ground\" type=\"TileMapLayer\" parent=\".\"]\ntile_set = ExtResource(\"1\")\n")
	for i, g := range terrainGrids {
		fmt.Fprintf(&b, "\n[node name=\"%s\" type=\"TileMapLayer\" parent=\".\"]\ntile_set = ExtResource(\"%d\")\n", g.node, i+2)
	}
	return b.String()
}

func gdCells(p [][2]int) string {
	var cells []string
	for _, c := range p {
		cells = append(cells, fmt.Sprintf("Vector2i(%d, %d)", c[0], c[1]))
	}
	return "[" + strings.Join(cells, ", ") + "]"
}

// terrainEngine loads the scene we painted and, for each of its layers,
// paints the same cells on a fresh layer of the same TileSet with Godot's
// own terrain painter (set_cells_terrain_connect), then prints each
// cell's terrain pattern of both: the centre terrain and the peering bits.
// Godot picks at random among the tiles of one pattern (weighted by
// probability), so patterns are what must agree. Every layer is checked
// in this one engine run.
func terrainEngine(seeds map[string][][4]int) string {
	var b strings.Builder
	b.WriteString(`extends RefCounted

static func pattern(layer: TileMapLayer) -> String:
	var out := []
	for c in layer.get_used_cells():
		var td := layer.get_cell_tile_data(c)
		var bits := [td.terrain]
		for n in 16:
			if td.is_valid_terrain_peering_bit(n):
				bits.append(td.get_terrain_peering_bit(n))
		out.append("%d,%d=%s" % [c.x, c.y, ",".join(bits.map(func(x): return str(x)))])
	out.sort()
	return " ".join(out)

static func check(ours: TileMapLayer, paints: Array, seeds: Array = [], second: Array = []) -> void:
	var layer := TileMapLayer.new()
	layer.tile_set = ours.tile_set
	for p in paints:
		layer.set_cells_terrain_connect(p, 0, 0)
	if seeds:
		for c in seeds:
			layer.set_cell(Vector2i(c[0], c[1]), 0, Vector2i(c[2], c[3]))
		layer.set_cells_terrain_connect([Vector2i(%d, %d)], 0, 0)
	for p in second:
		layer.set_cells_terrain_connect(p, 0, 1)
	print("TERRAIN ", ours.name, " ", pattern(layer))
	print("OURS ", ours.name, " ", pattern(ours))
	layer.free()

static func _static_init() -> void:
	var scene: Node = load("res://terrain.tscn").instantiate()
`)
	text := strings.Replace(b.String(), "%d, %d)], 0, 0)", fmt.Sprintf("%d, %d)], 0, 0)", seedCell[0], seedCell[1]), 1)
	b.Reset()
	b.WriteString(text)
	var paints []string
	for _, p := range terrainPaints {
		paints = append(paints, gdCells(p))
	}
	fmt.Fprintf(&b, "\tcheck(scene.get_node(\"Ground\"), [%s])\n", strings.Join(paints, ", "))
	paints = paints[:0]
	for _, p := range shapePaints {
		paints = append(paints, gdCells(p))
	}
	for _, g := range terrainGrids {
		var sd []string
		for _, c := range seeds[g.node] {
			sd = append(sd, fmt.Sprintf("[%d, %d, %d, %d]", c[0], c[1], c[2], c[3]))
		}
		var second []string
		if g.terrains > 1 {
			for _, p := range secondPaints {
				second = append(second, gdCells(p))
			}
		}
		fmt.Fprintf(&b, "\tcheck(scene.get_node(\"%s\"), [%s], [%s], [%s])\n", g.node, strings.Join(paints, ", "), strings.Join(sd, ", "), strings.Join(second, ", "))
	}
	b.WriteString("\tscene.free()\n")
	return b.String()
}

func TestPaintTerrainAsTheEditor(t *testing.T) {
	dir := plugintest.AssetProject(t, "2d-skeleton")
	seeds := map[string][][4]int{}
	for _, g := range terrainGrids {
		text, tiles, edges := terrainTileSet(g.grid, g.mode, max(g.terrains, 1))
		plugintest.WriteFile(t, dir, "res://shapes/"+g.node+".tres", text)
		seeds[g.node] = terrainSeeds(g.grid, g.mode, tiles)
		if len(edges) > 1 {
			// Edge tiles (no centre terrain) next to the cell: Godot keeps,
			// changes or erases them.
			for i := range seeds[g.node] {
				seeds[g.node][i][2], seeds[g.node][i][3] = edges[i*len(edges)/2][0], edges[i*len(edges)/2][1]
			}
		}
	}
	plugintest.WriteFile(t, dir, "res://terrain.tscn", terrainScene())
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	paint := func(node string, p [][2]int, terrain ...int) map[string]any {
		t.Helper()
		args := map[string]any{"scene_path": "res://terrain.tscn", "node_path": node, "terrain_set": 0, "terrain": append(terrain, 0)[0], "cells": p}
		out := plugintest.Call(t, h, "paint_terrain", args)
		if int(out["painted"].(float64)) != len(p) {
			t.Fatalf("paint %s %v = %v", node, p, out)
		}
		return out
	}
	for _, p := range terrainPaints {
		paint("Ground", p)
	}
	for _, c := range layerData(t, filepath.Join(dir, "terrain.tscn"), "Ground") {
		if c.SourceID != 1 {
			t.Fatalf("cell %+v is not of the TileSet's source 1", c)
		}
	}
	neighbours := 0
	for _, g := range terrainGrids {
		for _, p := range shapePaints {
			neighbours += int(paint(g.node, p)["updated_neighbors"].(float64))
		}
		for _, c := range seeds[g.node] {
			plugintest.Call(t, h, "set_cell", map[string]any{"scene_path": "res://terrain.tscn", "node_path": g.node,
				"coords": []int{c[0], c[1]}, "source_id": 0, "atlas_coords": []int{c[2], c[3]}})
		}
		paint(g.node, [][2]int{seedCell})
		if g.terrains > 1 {
			for _, p := range secondPaints {
				paint(g.node, p, 1)
			}
		}
	}
	if neighbours == 0 {
		t.Error("no paint re-chose a neighbour")
	}

	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"terrain_set": 1, "cells": [][]int{{0, 0}}}, "terrain set 1 does not exist"},
		{map[string]any{"terrain": 4, "cells": [][]int{{0, 0}}}, "terrain 4 does not exist"},
		{map[string]any{"cells": [][]int{{0}}}, "must be [x, y]"},
		{map[string]any{}, "exactly one of cells and rect"},
	} {
		a := map[string]any{"scene_path": "res://terrain.tscn", "node_path": "Ground", "terrain_set": 0, "terrain": 0}
		for k, v := range c.args {
			a[k] = v
		}
		if got := plugintest.CallErr(t, h, "paint_terrain", a); !strings.Contains(got, c.want) {
			t.Errorf("paint_terrain %v: %s, want %q", c.args, got, c.want)
		}
	}

	plugintest.WriteFile(t, dir, "res://terrain_check.gd", terrainEngine(seeds))
	files, err := loadcheck.ReadProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	rep := enginecheck.Run(t, files, loadcheck.Options{AllowMissing: true})
	for _, p := range rep.Problems {
		if (p.File == "terrain.tscn" || p.File == "terrain_check.gd" || strings.HasPrefix(p.File, "shapes/")) && !p.IsWarning() {
			t.Errorf("engine: %s", p)
		}
	}
	engine, got := map[string]string{}, map[string]string{}
	for _, l := range rep.Log {
		for prefix, m := range map[string]map[string]string{"TERRAIN ": engine, "OURS ": got} {
			if s, ok := strings.CutPrefix(l.Text, prefix); ok {
				node, cells, _ := strings.Cut(s, " ")
				m[node] = cells
			}
		}
	}
	nodes := []string{"Ground"}
	for _, g := range terrainGrids {
		nodes = append(nodes, g.node)
	}
	for _, node := range nodes {
		if engine[node] == "" || got[node] == "" {
			t.Errorf("%s: the engine's terrain painter did not run", node)
			continue
		}
		if got[node] == engine[node] {
			continue
		}
		eng, ours := strings.Fields(engine[node]), strings.Fields(got[node])
		for _, c := range ours {
			if !slices.Contains(eng, c) {
				t.Errorf("%s: ours only:   %s", node, c)
			}
		}
		for _, c := range eng {
			if !slices.Contains(ours, c) {
				t.Errorf("%s: engine only: %s", node, c)
			}
		}
	}
	os.Remove(filepath.Join(dir, "terrain_check.gd"))
}

// Headless, on a vertical hexagonal TileSet: set_tile_terrain takes the
// grid's peering bits and names them when refusing one; paint_terrain
// changes only the layer's tile_map_data (and the format the data
// needs); undo restores both files byte
// for byte.
func TestPaintTerrainHexagonsUndo(t *testing.T) {
	g := terrainGrids[slices.IndexFunc(terrainGrids, func(x terrainGrid) bool { return x.node == "HexVertical" })]
	tileset, _, _ := terrainTileSet(g.grid, g.mode, 1)
	scene := "[gd_scene load_steps=2 format=3]\n\n[ext_resource type=\"TileSet\" path=\"res://hex.tres\" id=\"1\"]\n\n[node name=\"Root\" type=\"Node2D\"]\n\n" +
		"[node name=\"Map\" type=\"TileMapLayer\" parent=\".\"]\nposition = Vector2(3, 4)\ntile_set = ExtResource(\"1\")\n\n[node name=\"After\" type=\"Node2D\" parent=\".\"]\n"
	dir := plugintest.Project(t, map[string]string{"project.godot": "config_version=5\n", "res://hex.tres": tileset, "res://map.tscn": scene})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})

	tile := map[string]any{"tileset_path": "res://hex.tres", "source_id": 0, "atlas_coords": []int{0, 0}, "terrain_set": 0, "terrain": 0}
	tile["peering_bits"] = map[string]int{"right_side": 0}
	got := plugintest.CallErr(t, h, "set_tile_terrain", tile)
	if !strings.Contains(got, `"right_side" is not a peering bit`) || !strings.Contains(got, "right_corner, bottom_right_side") {
		t.Errorf("set_tile_terrain right_side on vertical hexagons: %s", got)
	}
	tile["peering_bits"] = map[string]int{"top_side": 0, "left_corner": 0}
	if out := plugintest.Call(t, h, "set_tile_terrain", tile); out["peering_bits"] != float64(2) {
		t.Errorf("set_tile_terrain = %v", out)
	}
	ts, _ := os.ReadFile(filepath.Join(dir, "hex.tres"))
	if !strings.Contains(string(ts), "0:0/0/terrains_peering_bit/left_corner = 0\n0:0/0/terrains_peering_bit/top_side = 0\n") {
		t.Errorf("the tile's bits are not in Godot's order:\n%s", ts[:400])
	}

	out := plugintest.Call(t, h, "paint_terrain", map[string]any{"scene_path": "res://map.tscn", "node_path": "Map", "terrain_set": 0, "terrain": 0, "rect": []int{0, 0, 3, 2}})
	if out["painted"] != float64(6) || len(out["cells"].([]any)) != 6 {
		t.Errorf("paint_terrain = %v", out)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "map.tscn"))
	var rest []string
	for _, l := range strings.Split(string(after), "\n") {
		if !strings.HasPrefix(l, "tile_map_data = ") {
			rest = append(rest, l)
		}
	}
	// A base64 PackedByteArray needs format 4, as the editor writes it.
	if strings.Join(rest, "\n") != strings.Replace(scene, "format=3", "format=4", 1) {
		t.Errorf("paint_terrain changed more than tile_map_data:\n%q\nwas\n%q", strings.Join(rest, "\n"), scene)
	}
	if len(layerData(t, filepath.Join(dir, "map.tscn"), "Map")) != 6 {
		t.Error("the layer does not hold the six painted cells")
	}

	if _, err := h.Workspace().Undo(context.Background(), h.Workspace().History().Depth, false); err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]string{"hex.tres": tileset, "map.tscn": scene} {
		if b, _ := os.ReadFile(filepath.Join(dir, file)); string(b) != want {
			t.Errorf("undo left %s changed", file)
		}
	}
}
