package editorcmd

import "sort"

// The addon's command for each tool: a tool that does one addon command's
// work with an editor attached is named here by its exposed name, so that
// an operation list (godot_composite_run_commands) can name it either way
// and reach the addon under the command the addon registers. The names
// are the addon's (its handlers' register() blocks; ADDON-PROTOCOL.md
// §5); a tool that runs several commands, or none (a headless run, an
// export, a check), is not here, and naming it in an operation list is
// refused with the advice to call it directly.
var toolCommands = map[string]string{
	// analysis, asset_import
	"godot_asset_import_asset":                         "cmd_import_asset",
	"godot_asset_import_create_material_from_textures": "cmd_create_material_from_textures",
	"godot_asset_import_get_status":                    "cmd_get_import_status",
	// animation
	"godot_animation_add_state_machine_state": "cmd_add_state_machine_state",
	"godot_animation_add_track":               "cmd_add_animation_track",
	"godot_animation_create":                  "cmd_create_animation",
	"godot_animation_create_tree":             "cmd_create_animation_tree",
	"godot_animation_get":                     "cmd_get_animation",
	"godot_animation_insert_keyframe":         "cmd_insert_keyframe",
	"godot_animation_list_animations":         "cmd_list_animations",
	"godot_animation_set_blend_tree_node":     "cmd_set_blend_tree_node",
	// audio
	"godot_audio_add_bus":           "cmd_add_audio_bus",
	"godot_audio_add_bus_effect":    "cmd_add_audio_bus_effect",
	"godot_audio_add_player":        "cmd_add_audio_player",
	"godot_audio_get_bus_layout":    "cmd_get_audio_bus_layout",
	"godot_audio_remove_bus":        "cmd_remove_audio_bus",
	"godot_audio_remove_bus_effect": "cmd_remove_audio_bus_effect",
	// batch
	"godot_batch_cross_scene_set_property": "cmd_cross_scene_set_property",
	"godot_batch_find_nodes_by_type":       "cmd_find_nodes_by_type",
	"godot_batch_get_dependencies":         "cmd_get_dependencies",
	"godot_batch_set_property":             "cmd_batch_set_property",
	// composite
	"godot_composite_apply_node_edits":   "cmd_apply_node_edits",
	"godot_composite_batch_create_nodes": "cmd_batch_create_nodes",
	"godot_composite_compose_node":       "cmd_compose_node",
	// debugger
	"godot_debugger_clear_breakpoints":   "cmd_clear_breakpoints",
	"godot_debugger_continue_execution":  "cmd_continue_execution",
	"godot_debugger_evaluate_expression": "cmd_evaluate_expression",
	"godot_debugger_force_break":         "cmd_force_break",
	"godot_debugger_get_frame_variables": "cmd_get_frame_variables",
	"godot_debugger_get_stack_frames":    "cmd_get_stack_frames",
	"godot_debugger_remove_breakpoint":   "cmd_remove_breakpoint",
	"godot_debugger_set_breakpoint":      "cmd_set_breakpoint",
	"godot_debugger_step_into":           "cmd_step_into",
	"godot_debugger_step_out":            "cmd_step_out",
	"godot_debugger_step_over":           "cmd_step_over",
	"godot_editor_capture_screenshot":    "cmd_capture_editor_screenshot",
	"godot_export_get_info":              "cmd_get_export_info",
	"godot_export_list_presets":          "cmd_list_export_presets",
	// input, input_map
	"godot_input_get_stats":               "cmd_get_input_stats",
	"godot_input_play_sequence":           "cmd_play_input_sequence",
	"godot_input_record":                  "cmd_record_input",
	"godot_input_simulate_action":         "cmd_simulate_action",
	"godot_input_simulate_key":            "cmd_simulate_key",
	"godot_input_simulate_mouse":          "cmd_simulate_mouse",
	"godot_input_stop_recording":          "cmd_stop_recording",
	"godot_input_map_add_action":          "cmd_add_input_action",
	"godot_input_map_add_event":           "cmd_add_input_event",
	"godot_input_map_clear_action_events": "cmd_clear_input_action_events",
	"godot_input_map_get_action_events":   "cmd_get_input_action_events",
	"godot_input_map_remove_action":       "cmd_remove_input_action",
	// inspection
	"godot_inspection_get_active_scene":       "cmd_get_active_scene",
	"godot_inspection_get_node_groups":        "cmd_get_node_groups",
	"godot_inspection_get_node_properties":    "cmd_get_node_properties",
	"godot_inspection_get_node_property":      "cmd_get_node_property",
	"godot_inspection_get_node_property_list": "cmd_get_node_property_list",
	"godot_inspection_get_project_info":       "cmd_get_project_info",
	"godot_inspection_get_scene_tree":         "cmd_get_scene_tree",
	"godot_inspection_get_selected_node":      "cmd_get_selected_node",
	"godot_inspection_list_scenes":            "cmd_list_scenes",
	"godot_inspection_snapshot_subtree":       "cmd_snapshot_subtree",
	// navigation, particles, physics, profiling
	"godot_navigation_bake_mesh":               "cmd_bake_navigation_mesh",
	"godot_navigation_get_region":              "cmd_get_navigation_region",
	"godot_navigation_set_layers":              "cmd_set_navigation_layers",
	"godot_navigation_setup_agent":             "cmd_setup_navigation_agent",
	"godot_navigation_setup_region":            "cmd_setup_navigation_region",
	"godot_particles_apply_preset":             "cmd_apply_particle_preset",
	"godot_particles_create":                   "cmd_create_particles",
	"godot_particles_get_material":             "cmd_get_particle_material",
	"godot_particles_set_color_gradient":       "cmd_set_particle_color_gradient",
	"godot_particles_set_material":             "cmd_set_particle_material",
	"godot_physics_add_raycast":                "cmd_add_raycast",
	"godot_physics_set_layers":                 "cmd_set_physics_layers",
	"godot_physics_setup_body":                 "cmd_setup_physics_body",
	"godot_physics_setup_collision":            "cmd_setup_collision",
	"godot_profiling_get_editor_performance":   "cmd_get_editor_performance",
	"godot_profiling_get_performance_monitors": "cmd_get_performance_monitors",
	// project, project_scaffold, resources_edit
	"godot_project_delete_resource_file":         "cmd_delete_resource_file",
	"godot_project_get_filesystem_tree":          "cmd_get_filesystem_tree",
	"godot_project_get_setting":                  "cmd_get_setting",
	"godot_project_move_file":                    "cmd_move_resource_file",
	"godot_project_path_to_uid":                  "cmd_path_to_uid",
	"godot_project_resolve_uid":                  "cmd_uid_to_path",
	"godot_project_search_files":                 "cmd_search_files",
	"godot_project_set_setting":                  "cmd_set_setting",
	"godot_project_scaffold":                     "cmd_scaffold_project",
	"godot_resources_edit_create_resource":       "cmd_create_resource",
	"godot_resources_edit_read_resource_file":    "cmd_read_resource",
	"godot_resources_edit_register_autoload":     "cmd_register_autoload",
	"godot_resources_edit_set_resource_property": "cmd_set_resource_property",
	"godot_resources_edit_unregister_autoload":   "cmd_unregister_autoload",
	// runtime
	"godot_runtime_capture_game_screenshot": "cmd_capture_game_screenshot",
	"godot_runtime_find_ui_elements":        "cmd_find_ui_elements",
	"godot_runtime_get_game_output":         "cmd_get_game_output",
	"godot_runtime_get_game_scene_tree":     "cmd_get_game_scene_tree",
	"godot_runtime_get_property_samples":    "cmd_get_property_samples",
	"godot_runtime_is_playing":              "cmd_is_playing",
	"godot_runtime_monitor_property":        "cmd_monitor_property",
	"godot_runtime_play_scene":              "cmd_play_scene",
	"godot_runtime_read_property":           "cmd_read_property",
	"godot_runtime_stop_scene":              "cmd_stop_scene",
	// scene_3d
	"godot_scene_3d_add_mesh_instance":     "cmd_add_mesh_instance",
	"godot_scene_3d_add_mesh_library_item": "cmd_add_mesh_library_item",
	"godot_scene_3d_create_mesh_library":   "cmd_create_mesh_library",
	"godot_scene_3d_gridmap_get_cell":      "cmd_gridmap_get_cell",
	"godot_scene_3d_gridmap_set_cell":      "cmd_gridmap_set_cell",
	"godot_scene_3d_setup_camera":          "cmd_setup_camera",
	"godot_scene_3d_setup_environment":     "cmd_setup_environment",
	"godot_scene_3d_setup_lighting":        "cmd_setup_lighting",
	// scene_edit
	"godot_scene_edit_add_to_group":            "cmd_add_to_group",
	"godot_scene_edit_attach_script":           "cmd_attach_script",
	"godot_scene_edit_close_scene":             "cmd_close_scene",
	"godot_scene_edit_connect_signal":          "cmd_connect_signal",
	"godot_scene_edit_create_node":             "cmd_create_node",
	"godot_scene_edit_create_scene":            "cmd_create_scene",
	"godot_scene_edit_delete_node":             "cmd_delete_node",
	"godot_scene_edit_disconnect_signal":       "cmd_disconnect_signal",
	"godot_scene_edit_duplicate_node":          "cmd_duplicate_node",
	"godot_scene_edit_extract_scene":           "cmd_extract_scene",
	"godot_scene_edit_instance_scene":          "cmd_instance_scene",
	"godot_scene_edit_list_open_scenes":        "cmd_list_open_scenes",
	"godot_scene_edit_list_signal_connections": "cmd_list_signal_connections",
	"godot_scene_edit_move_node":               "cmd_move_node",
	"godot_scene_edit_open_scene":              "cmd_open_scene",
	"godot_scene_edit_reload_scene":            "cmd_reload_scene",
	"godot_scene_edit_remove_from_group":       "cmd_remove_from_group",
	"godot_scene_edit_rename_node":             "cmd_rename_node",
	"godot_scene_edit_rescan_filesystem":       "cmd_rescan_filesystem",
	"godot_scene_edit_save_all_scenes":         "cmd_save_all_scenes",
	"godot_scene_edit_save_scene":              "cmd_save_scene",
	"godot_scene_edit_select_nodes":            "cmd_select_nodes",
	"godot_scene_edit_set_editable_children":   "cmd_set_editable_children",
	"godot_scene_edit_set_node_property":       "cmd_set_node_property",
	// scripts, shader, theme_ui
	"godot_scripts_get_for_node":        "cmd_get_script_for_node",
	"godot_scripts_list":                "cmd_list_scripts",
	"godot_scripts_patch":               "cmd_patch_script",
	"godot_scripts_read":                "cmd_read_script",
	"godot_scripts_write":               "cmd_write_script",
	"godot_shader_assign_material":      "cmd_assign_shader_material",
	"godot_shader_create":               "cmd_create_shader",
	"godot_shader_get_param":            "cmd_get_shader_param",
	"godot_shader_read":                 "cmd_read_shader",
	"godot_shader_set_param":            "cmd_set_shader_param",
	"godot_theme_ui_create":             "cmd_create_theme",
	"godot_theme_ui_get_node_overrides": "cmd_get_node_theme_overrides",
	"godot_theme_ui_set_color":          "cmd_set_theme_color",
	"godot_theme_ui_set_font_size":      "cmd_set_theme_font_size",
	"godot_theme_ui_set_stylebox":       "cmd_set_theme_stylebox",
	// tilemap, visual_shader
	"godot_tilemap_add_tileset_atlas_source": "cmd_add_tileset_atlas_source",
	"godot_tilemap_clear":                    "cmd_tilemap_clear",
	"godot_tilemap_create_tile":              "cmd_create_tile",
	"godot_tilemap_create_tileset":           "cmd_create_tileset",
	"godot_tilemap_fill_rect":                "cmd_tilemap_fill_rect",
	"godot_tilemap_get_cell":                 "cmd_tilemap_get_cell",
	"godot_tilemap_get_used_cells":           "cmd_tilemap_get_used_cells",
	"godot_tilemap_layers":                   "cmd_tilemap_layers",
	"godot_tilemap_set_cell":                 "cmd_tilemap_set_cell",
	"godot_visual_shader_add_node":           "cmd_add_shader_node",
	"godot_visual_shader_connect_nodes":      "cmd_connect_shader_nodes",
	"godot_visual_shader_create":             "cmd_create_visual_shader",
	"godot_visual_shader_list_node_types":    "cmd_list_shader_node_types",
	"godot_visual_shader_read":               "cmd_read_visual_shader",
	"godot_visual_shader_set_node_param":     "cmd_set_shader_node_param",
}

// ToolCommand returns the addon command that does the work of the tool
// with this exposed name, and whether there is one.
func ToolCommand(exposed string) (string, bool) {
	c, ok := toolCommands[exposed]
	return c, ok
}

// Known reports whether the addon is known to have command: a tool's
// command, or one of the queries and previews this package classes.
func Known(command string) bool {
	if queries[command] || command == "cmd_open_scene" {
		return true
	}
	if _, ok := previews[command]; ok {
		return true
	}
	for _, c := range toolCommands {
		if c == command {
			return true
		}
	}
	return false
}

// Tools returns the exposed names of every tool with an addon command,
// sorted.
func Tools() []string {
	out := make([]string, 0, len(toolCommands))
	for tool := range toolCommands {
		out = append(out, tool)
	}
	sort.Strings(out)
	return out
}

// CommandTools returns the exposed names of the tools that do command's
// work, sorted: one for every command but a few shared by two names.
func CommandTools(command string) []string {
	var out []string
	for tool, c := range toolCommands {
		if c == command {
			out = append(out, tool)
		}
	}
	sort.Strings(out)
	return out
}
