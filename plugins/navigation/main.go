// Command navigation is the first-party "navigation" toolset: it adds
// navigation regions (NavigationRegion2D/3D with an inline
// NavigationPolygon or NavigationMesh and its bake parameters) and
// navigation agents, sets navigation layers (by 1-based index or by the
// project's layer names), reads a region's navigation mesh, and bakes it.
//
// Every tool works in both modes with the reference server's names and
// arguments: with a Godot editor attached it sends the godot-mcp addon's
// cmd_setup_navigation_region, cmd_setup_navigation_agent,
// cmd_set_navigation_layers, cmd_get_navigation_region and
// cmd_bake_navigation_mesh; headless it edits the scene file through the
// workspace (one undoable action per call, dry runs). Baking headless runs
// the real engine (Godot 4.6's NavigationServer in the web runtime): the
// scene is instantiated with its scripts taken off, the region baked
// from its source geometry, and the baked vertices, polygons and outlines
// written into the scene (or the region's .tres) as the engine's
// ResourceSaver writes them. See docs/toolsets/navigation.md.
//
// Install it as godot-mcp-toolset-navigation in the plugins directory.
package main

import (
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

func main() {
	sdk.Serve(Toolset())
}

// Toolset returns the navigation toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "navigation",
		Version: "0.1.0",
		Description: "Navigation in 2D and 3D: add navigation regions (with their NavigationPolygon or NavigationMesh) and agents, " +
			"set navigation layers, read a region's mesh, and bake it (headless with the real Godot engine). " +
			"Works in the Godot editor when one is attached, and on the scene files (undoable with godot_undo) when none is.",
		Godot: ">= 4.0, < 5.0",
		Warm:  classdb.Warm,
		Tools: []sdk.Tool{
			sdk.NewTool("setup_region",
				"Add a NavigationRegion2D or NavigationRegion3D (region_type; default NavigationRegion2D, or 3D under a 3D parent when that can be read) "+
					"named name under parent_path, with an empty NavigationPolygon (2D) or NavigationMesh (3D) ready to bake, and properties (enabled, navigation_layers, ...). "+
					"mesh_properties sets the mesh's bake parameters (agent_radius, cell_size, parsed_geometry_type / geometry_parsed_geometry_type, ...) "+
					"and outlines a 2D polygon's traversable outlines (with an editor attached, these are written to the saved scene file, which the editor reloads). Next: add its source geometry (meshes, static bodies) under it and call godot_navigation_bake_mesh.",
				sdk.Mutating, setupRegion, sdk.EditorFunc(setupRegionEditor), sdk.DryRunAnswer(func(setupRegionArgs) map[string]any { return map[string]any{"scene_path": sdk.EditedScene} }, "created"), sdk.WithTitle("Add a navigation region")),
			sdk.NewTool("setup_agent",
				"Add a NavigationAgent2D or NavigationAgent3D (agent_type; default NavigationAgent2D, or 3D under a 3D parent when that can be read) named name under parent_path, "+
					"with properties such as radius, path_desired_distance, target_desired_distance, max_speed, avoidance_enabled.",
				sdk.Mutating, setupAgent, sdk.EditorFunc(setupAgentEditor), sdk.DryRunAnswer(func(setupAgentArgs) map[string]any { return map[string]any{"scene_path": sdk.EditedScene} }, "created"), sdk.WithTitle("Add a navigation agent")),
			sdk.NewTool("set_layers",
				"Set navigation_layers of the region, agent or link at node_path from 1-based indices (layers=[1,3] is bitmask 5) "+
					"or the project's layer names (layer_names, as in Project Settings > Layer Names > 2D/3D Navigation).",
				sdk.Mutating, setLayers, sdk.EditorFunc(setLayersEditor), sdk.WithTitle("Set navigation layers")),
			sdk.NewTool("get_region",
				"Read the NavigationRegion2D/3D at node_path: whether it has a navigation polygon or mesh, and its outline, vertex and polygon counts "+
					"(0 polygons: not baked yet, see godot_navigation_bake_mesh). Headless also: region_type, the resource (inline id or file) and its bake parameters.",
				sdk.ReadOnly, getRegion, sdk.EditorFunc(getRegionEditor), sdk.WithTitle("Read a navigation region")),
			sdk.NewTool("bake_mesh",
				"Bake the navigation polygon or mesh of the NavigationRegion2D/3D at node_path from its source geometry, in one undoable step. "+
					"Headless this runs the real Godot engine (about 3-10 s) and writes the baked vertices and polygons into the scene, or into the region's .tres; "+
					"path_from and path_to ask the engine for a path over the baked mesh as a check. A bake with no polygons is refused (no source geometry was found).",
				sdk.Mutating, bakeMesh, sdk.EditorFunc(bakeMeshEditor), sdk.WithTitle("Bake a navigation mesh")),
		},
	}
}
