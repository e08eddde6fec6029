package e2e

import (
	"path/filepath"
	"testing"
)

// TestHexagonTerrainThroughTheHost drives the real tilemap plugin through
// the real host over MCP, headless, on a copy of the hexagonal map demo
// (vertical offset axis): a terrain set and terrain added, tiles given the
// grid's side bits (a side it has not refused), a paint whose cells
// connect by their top and bottom sides, and godot_undo restoring both
// files.
func TestHexagonTerrainThroughTheHost(t *testing.T) {
	dir := hexagonalMap(t)
	origMap, _ := readFile(t, filepath.Join(dir, "map.tscn"))
	origSet, _ := readFile(t, filepath.Join(dir, "tileset.tres"))
	s := stdioHostEnv(t, legacy, []string{"GODOT_MCP_GODOT_BIN=" + filepath.Join(dir, "no-godot"), "GODOT_MCP_WEB_RUNTIME=" + filepath.Join(dir, "no-runtime")},
		"--plugins-dir", projectPluginsDir, "--project", dir)
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"tilemap"}}, nil)

	s.ok(t, "godot_tilemap_add_terrain_set", map[string]any{"tileset_path": "res://tileset.tres", "mode": "match_sides"}, nil)
	s.ok(t, "godot_tilemap_add_terrain", map[string]any{"tileset_path": "res://tileset.tres", "terrain_set": 0, "name": "Grass"}, nil)
	tile := func(source int, bits map[string]int) map[string]any {
		args := map[string]any{"tileset_path": "res://tileset.tres", "source_id": source, "atlas_coords": []int{0, 0}, "terrain_set": 0, "terrain": 0}
		if bits != nil {
			args["peering_bits"] = bits
		}
		return args
	}
	s.ok(t, "godot_tilemap_set_tile_terrain", tile(0, nil), nil)
	s.ok(t, "godot_tilemap_set_tile_terrain", tile(1, map[string]int{"bottom_side": 0}), nil)
	s.ok(t, "godot_tilemap_set_tile_terrain", tile(2, map[string]int{"top_side": 0}), nil)
	if res := s.call(t, "godot_tilemap_set_tile_terrain", tile(1, map[string]int{"right_side": 0})); !res.IsError {
		t.Fatal("right_side, which vertical hexagons have not, was accepted")
	}

	// Two cells, one above the other, away from the map's tiles: they
	// connect by their bottom and top sides; a third, alone, has none.
	var paint map[string]any
	s.ok(t, "godot_tilemap_paint_terrain", map[string]any{"scene_path": "res://map.tscn", "node_path": "TileMapLayer",
		"terrain_set": 0, "terrain": 0, "cells": [][]int{{300, 300}, {300, 301}, {310, 300}}}, &paint)
	if paint["painted"] != float64(3) {
		t.Fatalf("paint_terrain = %v", paint)
	}
	for _, c := range []struct {
		at     []int
		source float64
	}{{[]int{300, 300}, 1}, {[]int{300, 301}, 2}, {[]int{310, 300}, 0}} {
		var cell map[string]any
		s.ok(t, "godot_tilemap_get_cell", map[string]any{"scene_path": "res://map.tscn", "node_path": "TileMapLayer", "coords": c.at}, &cell)
		if cell["source_id"] != c.source {
			t.Errorf("cell %v = %v, want source %v", c.at, cell, c.source)
		}
	}

	s.ok(t, "godot_undo", map[string]any{"count": 6}, nil)
	if now, _ := readFile(t, filepath.Join(dir, "map.tscn")); now != origMap {
		t.Error("undo did not restore map.tscn")
	}
	if now, _ := readFile(t, filepath.Join(dir, "tileset.tres")); now != origSet {
		t.Error("undo did not restore tileset.tres")
	}
}
