package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// list_scenes leaves out res://addons/ unless asked, and pages: the pages
// put together are the whole list, in both modes and in one shape.
func TestListScenesPagesAndAddons(t *testing.T) {
	h, dir := headless(t, "2d-dodge_the_creeps", "res://main.tscn")
	if err := os.MkdirAll(filepath.Join(dir, "addons", "tool"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "addons", "tool", "dock.tscn"), []byte("[gd_scene format=3]\n\n[node name=\"Dock\" type=\"Control\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	paths := func(ls obj) []string {
		var out []string
		for _, s := range ls["scenes"].([]any) {
			out = append(out, s.(obj)["path"].(string))
		}
		return out
	}
	own := plugintest.Call(t, h, "list_scenes", nil)
	if got := paths(own); slices.Contains(got, "res://addons/tool/dock.tscn") || len(got) != 4 || own["total"] != 4.0 || own["truncated"] != false {
		t.Errorf("list_scenes: %v", own)
	}
	all := plugintest.Call(t, h, "list_scenes", obj{"include_addons": true})
	if got := paths(all); !slices.Contains(got, "res://addons/tool/dock.tscn") || len(got) != 5 {
		t.Errorf("list_scenes with addons: %v", got)
	}
	first := plugintest.Call(t, h, "list_scenes", obj{"limit": 3})
	if first["next_offset"] != 3.0 || first["remaining"] != 1.0 || !strings.Contains(first["hint"].(string), "offset 3") {
		t.Errorf("first page of 3: %v", first)
	}
	rest := plugintest.Call(t, h, "list_scenes", obj{"offset": 3, "limit": 3})
	if got := append(paths(first), paths(rest)...); !reflect.DeepEqual(got, paths(own)) || rest["truncated"] != false {
		t.Errorf("pages %v, whole %v", got, paths(own))
	}

	// The addon lists every scene, its plugins' too: the tool pages its
	// answer the same way.
	ed := sdktest.NewEditor().Result("cmd_list_scenes", obj{"main_scene": all["main_scene"], "scenes": all["scenes"]})
	he := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, Editor: ed.Serve})
	for _, args := range []obj{nil, {"include_addons": true}, {"limit": 3}, {"offset": 3, "limit": 3}} {
		want := plugintest.Call(t, h, "list_scenes", args)
		if got := plugintest.Call(t, he, "list_scenes", args); !reflect.DeepEqual(got, want) {
			t.Errorf("%v: editor %v\nheadless %v", args, got, want)
		}
	}
}

// The engine's ui_* actions are in the editor's answer; they are left out
// unless asked, keeping one the project redefines, as headless does.
func TestEditorProjectInfoBuiltinActions(t *testing.T) {
	_, dir := headless(t, "2d-dodge_the_creeps", "")
	pg := filepath.Join(dir, "project.godot")
	b, _ := os.ReadFile(pg)
	b = append(b, []byte("\n[input]\n\nui_cancel={\n\"deadzone\": 0.5,\n\"events\": []\n}\n")...)
	if err := os.WriteFile(pg, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ed := addon().Result("cmd_get_project_info", obj{"name": "x", "input_actions": []any{"move_left", "ui_accept", "ui_cancel"}})
	he := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, Editor: ed.Serve})
	got := plugintest.Call(t, he, "get_project_info", nil)["input_actions"]
	if !reflect.DeepEqual(got, []any{"move_left", "ui_cancel"}) {
		t.Errorf("input_actions %v", got)
	}
	got = plugintest.Call(t, he, "get_project_info", obj{"include_builtin_actions": true})["input_actions"]
	if !reflect.DeepEqual(got, []any{"move_left", "ui_accept", "ui_cancel"}) {
		t.Errorf("input_actions with the built-in ones %v", got)
	}
}

// A TileMapLayer's tile_map_data is left out of get_node_properties, by
// name, unless asked; overridden still counts it.
func TestNodePropertiesLeaveOutLargeValues(t *testing.T) {
	h, _ := headless(t, "2d-platformer", "res://level/level.tscn")
	np := plugintest.Call(t, h, "get_node_properties", obj{"node_path": "TileMapLayer"})
	b, _ := json.Marshal(np)
	left, _ := np["left_out"].([]any)
	if len(b) > 4<<10 || !slices.Contains(left, any("tile_map_data")) || !slices.Contains(np["overridden"].([]any), any("tile_map_data")) ||
		!strings.Contains(np["hint"].(string), "godot_inspection_get_node_property") {
		t.Fatalf("%d bytes, left_out %v, overridden %v", len(b), left, np["overridden"])
	}
	full := plugintest.Call(t, h, "get_node_properties", obj{"node_path": "TileMapLayer", "include_large": true})
	fb, _ := json.Marshal(full)
	if _, ok := full["left_out"]; ok || len(fb) < 8<<10 {
		t.Errorf("include_large: %d bytes, left_out %v", len(fb), full["left_out"])
	}
	t.Logf("get_node_properties of a TileMapLayer: %d bytes, %d with include_large", len(b), len(fb))
}
