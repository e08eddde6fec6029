package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/webgodot/loadcheck"
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

// terrainEngine paints the same cells with Godot's own terrain painter
// (set_cells_terrain_connect) and prints, for its layer and for a layer
// holding the cells we chose, each cell's terrain pattern: the centre
// terrain and the peering bits. Godot picks at random among the tiles of
// one pattern (weighted by probability), so patterns are what must agree.
func terrainEngine(ours [][5]int) string {
	var b strings.Builder
	b.WriteString(`extends RefCounted

static func pattern(layer: TileMapLayer) -> String:
	var out := []
	for c in layer.get_used_cells():
		var td := layer.get_cell_tile_data(c)
		var bits := [td.terrain]
		for n in [0, 3, 4, 7, 8, 11, 12, 15]:
			bits.append(td.get_terrain_peering_bit(n))
		out.append("%d,%d=%s" % [c.x, c.y, ",".join(bits.map(func(x): return str(x)))])
	out.sort()
	return " ".join(out)

static func _static_init() -> void:
	var ts: TileSet = load("res://level/tileset/tileset.tres")
	var layer := TileMapLayer.new()
	layer.tile_set = ts
	var ours := TileMapLayer.new()
	ours.tile_set = ts
`)
	for _, p := range terrainPaints {
		var cells []string
		for _, c := range p {
			cells = append(cells, fmt.Sprintf("Vector2i(%d, %d)", c[0], c[1]))
		}
		fmt.Fprintf(&b, "\tlayer.set_cells_terrain_connect([%s], 0, 0)\n", strings.Join(cells, ", "))
	}
	for _, c := range ours {
		fmt.Fprintf(&b, "\tours.set_cell(Vector2i(%d, %d), 1, Vector2i(%d, %d), %d)\n", c[0], c[1], c[2], c[3], c[4])
	}
	b.WriteString("\tprint(\"TERRAIN \", pattern(layer))\n\tprint(\"OURS \", pattern(ours))\n")
	return b.String()
}

func TestPaintTerrainAsTheEditor(t *testing.T) {
	dir := assetProject(t, "2d-skeleton")
	plugintest.WriteFile(t, dir, "res://terrain.tscn", "[gd_scene load_steps=2 format=3]\n\n[ext_resource type=\"TileSet\" path=\"res://level/tileset/tileset.tres\" id=\"1\"]\n\n[node name=\"Root\" type=\"Node2D\"]\n\n[node name=\"Ground\" type=\"TileMapLayer\" parent=\".\"]\ntile_set = ExtResource(\"1\")\n")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	for i, p := range terrainPaints {
		args := map[string]any{"scene_path": "res://terrain.tscn", "node_path": "Ground", "terrain_set": 0, "terrain": 0, "cells": p}
		out := plugintest.Call(t, h, "paint_terrain", args)
		if int(out["painted"].(float64)) != len(p) {
			t.Fatalf("paint %d = %v", i, out)
		}
	}
	var cells [][5]int
	for _, c := range layerData(t, filepath.Join(dir, "terrain.tscn"), "Ground") {
		cells = append(cells, [5]int{int(c.Coords.X), int(c.Coords.Y), int(c.AtlasCoords.X), int(c.AtlasCoords.Y), int(c.Alternative)})
		if c.SourceID != 1 {
			t.Fatalf("cell %+v is not of the TileSet's source 1", c)
		}
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

	plugintest.WriteFile(t, dir, "res://terrain_check.gd", terrainEngine(cells))
	files, err := loadcheck.ReadProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	rep := enginecheck.Run(t, files, loadcheck.Options{AllowMissing: true})
	for _, p := range rep.Problems {
		if (p.File == "terrain.tscn" || p.File == "terrain_check.gd") && !p.IsWarning() {
			t.Errorf("engine: %s", p)
		}
	}
	var engine, got string
	for _, l := range rep.Log {
		if s, ok := strings.CutPrefix(l.Text, "TERRAIN "); ok {
			engine = s
		}
		if s, ok := strings.CutPrefix(l.Text, "OURS "); ok {
			got = s
		}
	}
	if engine == "" || got == "" {
		t.Fatal("the engine's terrain painter did not run")
	}
	if got != engine {
		eng, ours := strings.Fields(engine), strings.Fields(got)
		for _, c := range ours {
			if !slices.Contains(eng, c) {
				t.Errorf("ours only:   %s", c)
			}
		}
		for _, c := range eng {
			if !slices.Contains(ours, c) {
				t.Errorf("engine only: %s", c)
			}
		}
	}
	os.Remove(filepath.Join(dir, "terrain_check.gd"))
}
