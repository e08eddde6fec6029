package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// BenchmarkFillRect16384 is a whole headless fill_rect call of the largest
// allowed rect (128x128) on the real hexagonal map: argument checks, the
// workspace read, scene parse, tile data decode, the fill, encode, scene
// write and the journaled atomic commit. BenchmarkGetUsedCells reads the
// same map back for comparison.
func BenchmarkFillRect16384(b *testing.B) {
	dir := project(b, "2d-hexagonal_map")
	h := sdktest.New(b, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	orig, _ := os.ReadFile(filepath.Join(dir, "map.tscn"))
	src := 0
	for b.Loop() {
		src ^= 1 // alternate the tile so every call changes the file
		res := h.Call(context.Background(), "fill_rect", map[string]any{"node_path": "TileMapLayer", "scene_path": "res://map.tscn",
			"rect": []int{-64, -64, 128, 128}, "source_id": src})
		if res.IsError {
			b.Fatal(res.Text())
		}
	}
	b.StopTimer()
	os.WriteFile(filepath.Join(dir, "map.tscn"), orig, 0o644)
}

func BenchmarkGetUsedCells16384(b *testing.B) {
	dir := project(b, "2d-hexagonal_map")
	h := sdktest.New(b, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	res := h.Call(context.Background(), "fill_rect", map[string]any{"node_path": "TileMapLayer", "scene_path": "res://map.tscn",
		"rect": []int{-64, -64, 128, 128}, "source_id": 0})
	if res.IsError {
		b.Fatal(res.Text())
	}
	for b.Loop() {
		res := h.Call(context.Background(), "get_used_cells", map[string]any{"node_path": "TileMapLayer", "scene_path": "res://map.tscn"})
		if res.IsError {
			b.Fatal(res.Text())
		}
	}
}
