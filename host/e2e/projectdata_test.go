package e2e

import (
	"bytes"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/projfixture"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// The project data toolsets through the real host on a copy of a real
// project: the host demands confirm for destructive tools, dry_run
// previews, and godot_undo reverts each call (a move of a file and every
// reference to it is one action).
func TestProjectDataToolsets(t *testing.T) {
	dir := projfixture.Copy(t, "2d-platformer")
	origProject := projfixture.Read(t, dir, "project.godot")
	origMenu := projfixture.Read(t, dir, "gui/pause_menu.tscn")
	s := stdioHost(t, legacy, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"project", "input_map", "resources_edit"}}, nil)

	te := toolError(t, s.call(t, "godot_input_map_remove_action", map[string]any{"name": "jump"}))
	if te.Required != sdk.RequiredConfirm {
		t.Fatalf("remove_action without confirm: %+v", te)
	}
	var preview map[string]any
	s.ok(t, "godot_input_map_remove_action", map[string]any{"name": "jump", "confirm": true, "dry_run": true}, &preview)
	if !bytes.Equal(origProject, projfixture.Read(t, dir, "project.godot")) {
		t.Fatal("dry run changed project.godot")
	}
	s.ok(t, "godot_input_map_remove_action", map[string]any{"name": "jump", "confirm": true}, nil)
	if strings.Contains(string(projfixture.Read(t, dir, "project.godot")), "\njump={") {
		t.Fatal("jump is still there")
	}
	var moved struct {
		UpdatedRefs []struct {
			File  string `json:"file"`
			Count int    `json:"count"`
		} `json:"updated_refs"`
	}
	s.ok(t, "godot_project_move_resource_file", map[string]any{"path": "res://gui/theme.tres", "new_path": "res://ui/theme.tres"}, &moved)
	if len(moved.UpdatedRefs) != 2 || !strings.Contains(string(projfixture.Read(t, dir, "gui/pause_menu.tscn")), `path="res://ui/theme.tres"`) {
		t.Fatalf("move: %+v", moved)
	}
	s.ok(t, "godot_undo", map[string]any{"count": 2}, nil)
	if !bytes.Equal(origProject, projfixture.Read(t, dir, "project.godot")) || !bytes.Equal(origMenu, projfixture.Read(t, dir, "gui/pause_menu.tscn")) {
		t.Fatal("godot_undo did not restore the files")
	}
	var setting map[string]any
	s.ok(t, "godot_project_get_setting", map[string]any{"name": "application/run/main_scene"}, &setting)
	if setting["value"] != "res://game_singleplayer.tscn" {
		t.Fatalf("get_setting: %v", setting)
	}
}
