// Command scene_3d is the first-party "scene_3d" toolset: it builds 3D
// scenes — mesh instances (primitive meshes with their parameters, or a
// mesh resource; a material inline or by path), cameras, lights, a
// WorldEnvironment with its Environment and sky — and edits GridMaps and
// their MeshLibraries.
//
// Every tool works in two modes with the same arguments, the reference
// server's:
//
//   - With a Godot editor attached it sends the godot-mcp addon's command
//     (cmd_add_mesh_instance, cmd_setup_camera, cmd_gridmap_set_cell, …)
//     with exactly the addon's params, on scene_path's tab, so the edit
//     lands in the open scene and its undo history.
//   - Headless it edits the scene (scene_path, else the workspace's active
//     scene) and MeshLibrary .tres files through the workspace: atomic,
//     compare-and-swap, one undoable action per call, dry_run previews.
//     Nodes and properties go through sdk/godot/nodeedit, checked against
//     the class database; meshes, materials, environments and skies are
//     written as [sub_resource] sections the way Godot's ResourceSaver
//     writes them. GridMap cells are read and written in the GridMap's
//     own `data` encoding (see cells.go).
//
// See docs/toolsets/scene_3d.md. Install it as godot-mcp-toolset-scene_3d
// in the plugins directory.
package main

import "github.com/godot-mcp/godot-mcp/sdk"

func main() {
	sdk.Serve(Toolset())
}

// Toolset returns the scene_3d toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "scene_3d",
		Version: "0.1.0",
		Description: "Build 3D scenes: mesh instances with primitive or imported meshes and materials, cameras, lights, " +
			"a WorldEnvironment with sky, fog and glow, GridMap cells and MeshLibraries; in the attached Godot editor or headless on the files.",
		Godot: ">= 4.4, < 5.0",
		Tools: []sdk.Tool{
			sdk.NewTool("add_mesh_instance",
				"Add a MeshInstance3D under parent_path holding a new primitive mesh mesh_type (BoxMesh, SphereMesh, CylinderMesh, CapsuleMesh, PlaneMesh, PrismMesh, TorusMesh, QuadMesh, …) "+
					"configured with properties (size, radius, height, …), or the Mesh resource mesh_path. "+
					"material_path (a .tres/.material) or material (StandardMaterial3D properties, e.g. {\"albedo_color\": \"#ff0000\", \"metallic\": 0.5}) becomes its material_override; "+
					"node_properties (position, rotation_degrees, scale, cast_shadow, …) are set on the node. Answers node_path. "+
					"Next: setup_lighting and setup_camera so the mesh can be seen.",
				sdk.Mutating, addMeshInstance, sdk.EditorFunc(addMeshInstanceEditor), sdk.DryRunAnswer(func(meshInstanceArgs) map[string]any { return map[string]any{"scene_path": sdk.EditedScene} }, "created"), sdk.WithTitle("Add a 3D mesh")),
			sdk.NewTool("setup_camera",
				"Add a Camera3D under parent_path, the scene's current camera unless make_current is false, with properties such as fov, near, far, position, rotation_degrees, projection. Answers node_path.",
				sdk.Mutating, setupCamera, sdk.EditorFunc(setupCameraEditor), sdk.DryRunAnswer(cameraDryRun, "created"), sdk.WithTitle("Add a 3D camera")),
			sdk.NewTool("setup_lighting",
				"Add a 3D light under parent_path: light_type DirectionalLight3D (the default), OmniLight3D or SpotLight3D (directional, omni, spot also work), "+
					"with properties such as light_color, light_energy, rotation_degrees, omni_range, spot_range, spot_angle; shadows true sets shadow_enabled. Answers node_path.",
				sdk.Mutating, setupLighting, sdk.EditorFunc(setupLightingEditor), sdk.DryRunAnswer(lightingDryRun, "created"), sdk.WithTitle("Add a 3D light")),
			sdk.NewTool("setup_environment",
				"Add a WorldEnvironment under parent_path with a new Environment configured by properties: background_mode (BG_CLEAR_COLOR, BG_COLOR, BG_SKY, …), background_color, "+
					"ambient_light_source/color/energy, tonemap_mode (TONE_MAPPER_FILMIC, TONE_MAPPER_ACES, …), glow_enabled, fog_enabled, fog_density, ssao_enabled, …; "+
					"sky (ProceduralSkyMaterial properties such as sky_top_color, ground_bottom_color; {} for its defaults) gives it a Sky and background_mode BG_SKY. "+
					"Enum values take their names or numbers. Answers node_path.",
				sdk.Mutating, setupEnvironment, sdk.EditorFunc(setupEnvironmentEditor), sdk.DryRunAnswer(environmentDryRun, "created"), sdk.WithTitle("Add a WorldEnvironment")),
			sdk.NewTool("gridmap_set_cell",
				"Set the GridMap cell at position [x, y, z] to MeshLibrary item (a negative item clears the cell) with orientation 0-23 (Godot's 24 cell rotations, the index GridMap.get_orthogonal_index_from_basis returns). "+
					"The GridMap needs a mesh_library (create_mesh_library, then add_mesh_library_item). Read a cell back with gridmap_get_cell.",
				sdk.Mutating, gridmapSetCell, onScene("cmd_gridmap_set_cell", setCellParams), sdk.WithTitle("Set a GridMap cell")),
			sdk.NewTool("gridmap_get_cell",
				"Read the GridMap cell at position [x, y, z]: item (its MeshLibrary item, -1 when empty), orientation (0-23) and empty. Snapshot a cell before changing it with gridmap_set_cell.",
				sdk.ReadOnly, gridmapGetCell, onScene("cmd_gridmap_get_cell", getCellParams), sdk.WithTitle("Read a GridMap cell")),
			sdk.NewTool("create_mesh_library",
				"Create an empty MeshLibrary — what a GridMap paints with: assigned to the GridMap at node_path (kept in the scene, or referencing save_path) and/or saved as the .tres save_path; pass at least one. "+
					"Next: add_mesh_library_item, then gridmap_set_cell.",
				sdk.Mutating, createMeshLibrary, onScene("cmd_create_mesh_library", createLibraryParams), sdk.WithTitle("Create a MeshLibrary")),
			sdk.NewTool("add_mesh_library_item",
				"Add an item to a MeshLibrary — the one of the GridMap at node_path, or the .tres library_path (exactly one) — with the mesh of a new primitive mesh_type configured with properties, "+
					"or the Mesh resource mesh_path from the project (exactly one), and an optional name. item_id defaults to one past the highest id. Answers item_id, the item gridmap_set_cell places.",
				sdk.Mutating, addMeshLibraryItem, sdk.EditorFunc(addMeshLibraryItemEditor), sdk.WithTitle("Add a MeshLibrary item")),
		},
	}
}
