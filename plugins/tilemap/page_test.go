package main

import (
	"encoding/json"
	"maps"
	"reflect"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// get_used_cells answers a page of about 20 KB by default, and the pages
// put together are every cell, in both modes and in the same shape.
func TestUsedCellsPages(t *testing.T) {
	dir := project(t, "2d-dynamic_tilemap_layers")
	args := map[string]any{"node_path": "Ground", "scene_path": "res://world.tscn"}
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	all := readAllCells(t, h, args)
	first := plugintest.Call(t, h, "get_used_cells", args)
	b, _ := json.Marshal(first)
	if len(b) > 24<<10 || first["truncated"] != true || first["hint"] == nil {
		t.Fatalf("default page is %d bytes (truncated %v, hint %v)", len(b), first["truncated"], first["hint"])
	}
	if n := int(first["count"].(float64)); n != len(all) || n <= 250 {
		t.Fatalf("count %d, pages hold %d cells", n, len(all))
	}

	// The editor answers every cell at once; the tool pages them the same.
	ed := sdktest.NewEditor()
	ed.Result("cmd_open_scene", map[string]any{"opened": true})
	ed.Result("cmd_tilemap_get_used_cells", map[string]any{"node_path": "Ground", "layer": nil, "count": len(all), "cells": all})
	he := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6", Editor: ed.Serve})
	if got := plugintest.Call(t, he, "get_used_cells", args); !reflect.DeepEqual(got, first) {
		t.Errorf("editor page differs from headless:\n%v\n%v", got, first)
	}
	if got := readAllCells(t, he, args); !reflect.DeepEqual(got, all) {
		t.Errorf("editor pages differ from headless ones")
	}
}

// readAllCells follows next_offset through every page, 100 cells at a time.
func readAllCells(t *testing.T, h *sdktest.Host, args map[string]any) []any {
	t.Helper()
	var all []any
	for off := 0; ; {
		a := map[string]any{"offset": off, "limit": 100}
		maps.Copy(a, args)
		p := plugintest.Call(t, h, "get_used_cells", a)
		all = append(all, p["cells"].([]any)...)
		next, ok := p["next_offset"].(float64)
		if !ok {
			return all
		}
		off = int(next)
	}
}
