// Package editorcmd says what each command of the godot-mcp editor addon
// does to the user's editor and project, so the rules of a dry run can be
// enforced twice: by the SDK, which records instead of sending, and by the
// host, which refuses what a plugin sends anyway.
//
// The table is the addon's contract (docs/CONTRACTS.md; the addon's command
// tables): every command that only reads is a [Query]; a command that
// previews itself when a flag is set is a [Preview] with that flag; opening
// a scene tab is [Navigation] (it changes what the editor shows, never a
// file, and the queries of a preview need the right tab). Every other
// command, including one this table has never heard of, is [Mutating]: the
// table fails closed, so a new addon command is safe until someone classes
// it.
package editorcmd

import (
	"encoding/json"
	"fmt"
)

// Kind is what a command does.
type Kind int

// The kinds of command.
const (
	// Mutating commands change the edited scene, a project file or the
	// running game. A dry run never sends one.
	Mutating Kind = iota
	// Query commands only read. A dry run sends them.
	Query
	// Preview commands change things unless their preview flag is true,
	// when they answer what they would do. A dry run sends them with the
	// flag set.
	Preview
	// Navigation commands change which scene tab is active and nothing
	// else. A dry run sends them, since its queries act on the active tab.
	Navigation
)

func (k Kind) String() string {
	switch k {
	case Query:
		return "query"
	case Preview:
		return "preview"
	case Navigation:
		return "navigation"
	}
	return "mutating"
}

// Info is what the table knows of one command.
type Info struct {
	Kind Kind
	// Flag is a Preview command's parameter that makes it preview
	// ("dry_run" or "preview").
	Flag string
}

// Lookup returns what command does; an unknown command is Mutating.
func Lookup(command string) Info {
	if f, ok := previews[command]; ok {
		return Info{Kind: Preview, Flag: f}
	}
	if queries[command] {
		return Info{Kind: Query}
	}
	if command == "cmd_open_scene" {
		return Info{Kind: Navigation}
	}
	return Info{Kind: Mutating}
}

// queries are the addon's read-only commands.
var queries = map[string]bool{
	// handshake and liveness
	"cmd_ping": true, "cmd_get_addon_info": true,
	// inspection
	"cmd_get_project_info": true, "cmd_get_active_scene": true, "cmd_list_scenes": true,
	"cmd_get_scene_tree": true, "cmd_get_selected_node": true, "cmd_get_node_properties": true,
	"cmd_get_node_property": true, "cmd_get_node_property_list": true, "cmd_get_node_groups": true,
	"cmd_snapshot_subtree": true, "cmd_node_exists": true, "cmd_node_persistence": true,
	// scene_edit
	"cmd_list_open_scenes": true, "cmd_list_signal_connections": true,
	// core
	"cmd_list_history": true,
	// project
	"cmd_get_filesystem_tree": true, "cmd_search_files": true, "cmd_get_setting": true,
	"cmd_uid_to_path": true, "cmd_path_to_uid": true,
	// input_map
	"cmd_get_input_action_events": true,
	// tilemap
	"cmd_tilemap_get_cell": true, "cmd_tilemap_get_used_cells": true, "cmd_tilemap_layers": true,
	// scripts
	"cmd_read_script": true, "cmd_list_scripts": true, "cmd_get_script_for_node": true, "cmd_get_scan_state": true,
	// resources_edit
	"cmd_read_resource": true,
	// batch
	"cmd_find_nodes_by_type": true, "cmd_get_dependencies": true,
	// runtime (reading a running game changes nothing)
	"cmd_is_playing": true, "cmd_get_game_scene_tree": true, "cmd_get_game_output": true,
	"cmd_get_property_samples": true, "cmd_find_ui_elements": true, "cmd_read_property": true,
	"cmd_capture_game_screenshot": true, "cmd_capture_editor_screenshot": true,
	// export
	"cmd_list_export_presets": true, "cmd_get_export_info": true,
	// later toolsets (addon contract §5.12)
	"cmd_describe_class": true, "cmd_list_animations": true, "cmd_get_animation": true,
	"cmd_get_audio_bus_layout": true, "cmd_get_navigation_region": true, "cmd_get_particle_material": true,
	"cmd_get_editor_performance": true, "cmd_get_performance_monitors": true, "cmd_get_import_status": true,
	"cmd_read_shader": true, "cmd_get_shader_param": true, "cmd_read_visual_shader": true,
	"cmd_list_shader_node_types": true, "cmd_get_node_theme_overrides": true, "cmd_gridmap_get_cell": true,
	"cmd_get_stack_frames": true, "cmd_get_frame_variables": true, "cmd_get_input_stats": true,
	"cmd_get_recording": true,
}

// previews are the commands that preview themselves, with their flag.
var previews = map[string]string{
	"cmd_batch_set_property":       "dry_run",
	"cmd_cross_scene_set_property": "dry_run",
	"cmd_batch_create_nodes":       "dry_run",
	"cmd_apply_node_edits":         "dry_run",
	"cmd_undo":                     "dry_run",
	"cmd_redo":                     "dry_run",
	"cmd_extract_scene":            "preview",
	"cmd_move_resource_file":       "preview",
}

// AllowedInDryRun returns nil when command may reach the editor during a
// dry run with these params (a JSON object, or empty for none): a query, a
// navigation, or a preview command whose flag is true. Otherwise the error
// says why.
func AllowedInDryRun(command string, params []byte) error {
	info := Lookup(command)
	switch info.Kind {
	case Query, Navigation:
		return nil
	case Preview:
		var p map[string]json.RawMessage
		if len(params) > 0 && json.Unmarshal(params, &p) == nil && string(p[info.Flag]) == "true" {
			return nil
		}
		return fmt.Errorf("%s changes the editor unless %s is true, and this is a dry run", command, info.Flag)
	}
	return fmt.Errorf("%s changes the editor, and this is a dry run", command)
}
