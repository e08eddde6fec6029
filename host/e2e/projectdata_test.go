package e2e

import (
	"bytes"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
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
	s.ok(t, "godot_project_move_file", map[string]any{"path": "res://gui/theme.tres", "new_path": "res://ui/theme.tres"}, &moved)
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

// Editor mode through the real bridge: with the fake addon attached over a
// real socket, the project data tools send the addon's commands with its
// parameter names, and the files are left to the editor.
func TestProjectDataToolsetsEditorMode(t *testing.T) {
	dir := projfixture.Copy(t, "2d-platformer")
	origProject := projfixture.Read(t, dir, "project.godot")
	url := bridgeURL(t)
	s := stdioHostEnv(t, legacy, []string{"GODOT_MCP_BRIDGE_URL=" + url}, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	ed := attachAddon(t, s, fakeaddon.Options{URL: url, ProjectPath: dir + "/", GodotVersion: "4.5.1-stable",
		Handlers: map[string]fakeaddon.Handler{
			"cmd_add_input_event": func(p map[string]any) fakeaddon.Reply {
				return fakeaddon.OK(map[string]any{"action": p["action"], "event_index": 0, "added": true})
			},
			"cmd_register_autoload": func(p map[string]any) fakeaddon.Reply {
				return fakeaddon.OK(map[string]any{"name": p["name"], "path": p["path"], "registered": true})
			},
			"cmd_get_setting": func(p map[string]any) fakeaddon.Reply {
				return fakeaddon.Fail("VALIDATION_ERROR", "Setting name is required.", "name")
			},
		}})
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"project", "input_map", "resources_edit"}}, nil)

	s.ok(t, "godot_input_map_add_event", map[string]any{"action": "jump", "type": "key", "key": "Space", "ctrl": true}, nil)
	s.ok(t, "godot_resources_edit_register_autoload", map[string]any{"name": "Music", "path": "music.gd"}, nil)
	te := toolError(t, s.call(t, "godot_project_get_setting", map[string]any{"name": "application/config/name"}))
	// The addon's VALIDATION_ERROR is the SDK's INVALID_ARGUMENT, as
	// headless (sdk/addonerr), with its words and required kept.
	if te.Code != sdk.CodeInvalidArgument || te.Required != "name" || !strings.Contains(te.Message, "Setting name is required.") {
		t.Errorf("the addon's failure came back as %+v", te)
	}

	ev := ed.Calls("cmd_add_input_event")
	if len(ev) != 1 || ev[0].Params["event_type"] != "key" || ev[0].Params["keycode"] != "Space" || ev[0].Params["ctrl"] != true ||
		ev[0].Params["physical_keycode"] != "" || ev[0].Params["joy_button_index"] != -1.0 || ev[0].Params["device"] != -1.0 {
		t.Errorf("cmd_add_input_event: %+v", ev)
	}
	al := ed.Calls("cmd_register_autoload")
	if len(al) != 1 || al[0].Params["name"] != "Music" || al[0].Params["path"] != "res://music.gd" {
		t.Errorf("cmd_register_autoload: %+v", al)
	}
	if !bytes.Equal(origProject, projfixture.Read(t, dir, "project.godot")) {
		t.Error("editor mode wrote project.godot itself")
	}
}
