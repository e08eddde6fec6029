// Command analysis is the first-party "analysis" toolset: whole-project
// questions answered from the project's files — structure and statistics,
// the resource dependency graph and its cycles, unused and orphaned
// resources, where something is used, signal flow, and scene integrity.
//
// It only reads files, so it works the same with or without a Godot editor
// attached (the editor addon has no analysis commands). The work is done by
// sdk/godot/deps, which parses the project in parallel and caches every
// file's summary by version across calls, so repeated questions on a big
// project cost a directory walk and the changed files only.
package main

import (
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

func main() {
	sdk.Serve(Toolset())
}

// Toolset returns the analysis toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "analysis",
		Version: "0.1.0",
		Description: "Whole-project analysis from the files: structure, statistics, the resource dependency graph " +
			"(ext_resource paths and uids, preload/load), circular dependencies, unused and orphaned resources, " +
			"cross-scene references, signal flow and scene integrity, each with file:line. Read-only.",
		Godot: ">= 4.0",
		// The class database is decoded once per process, off the
		// first call's time.
		Warm: classdb.Warm,
		Tools: []sdk.Tool{
			sdk.NewTool("project_structure",
				"Summarise the project's directories: per directory, how many scenes, resources, scripts, shaders, assets "+
					"and other files it holds and their size, down to a depth. Skips .godot/, hidden and .gdignore'd directories.",
				sdk.ReadOnly, projectStructure, sdk.WithTitle("Project structure"), sdk.WithOutputSchema[structureResult](), sdk.AnyMode()),
			sdk.NewTool("project_stats",
				"Project statistics: files and bytes per kind, nodes and the most used node types, script lines, "+
					"connections, references, main scene and autoloads, and how many integrity problems there are.",
				sdk.ReadOnly, projectStats, sdk.WithTitle("Project statistics"), sdk.WithOutputSchema[statsResult](), sdk.AnyMode()),
			sdk.NewTool("analyze_dependencies",
				"The resource dependency graph: ext_resource paths and uid:// references, Resource() values, scripts' "+
					"preload/load/extends string literals, shader #includes, class_name uses and project settings, each with "+
					"file:line. Give path for one file's dependencies and dependents; without it, every edge (paged).",
				sdk.ReadOnly, analyzeDependencies, sdk.WithTitle("Dependency graph"), sdk.WithOutputSchema[depsResult](), sdk.AnyMode()),
			sdk.NewTool("detect_circular_dependencies",
				"Find every circular dependency, each as the list of files around the cycle. By default only load-time "+
					"references count (ext_resource, Resource(), preload, extends, #include), where a cycle breaks loading.",
				sdk.ReadOnly, detectCycles, sdk.WithTitle("Circular dependencies"), sdk.WithOutputSchema[cyclesResult](), sdk.AnyMode()),
			sdk.NewTool("find_unused_resources",
				"List resources (scenes, resources, scripts, shaders, assets) that nothing reachable from the project's roots "+
					"uses. The roots are the main scene, autoloads and every other res:// project setting, and files listed in "+
					"export presets; the answer says which roots were used. Files under res://addons/ are never listed.",
				sdk.ReadOnly, findUnused, sdk.WithTitle("Unused resources"), sdk.WithOutputSchema[unusedResult](), sdk.AnyMode()),
			sdk.NewTool("find_orphaned_resources",
				"List resources that no file references at all and that are not roots: the safest candidates for deletion "+
					"(a subset of find_unused_resources, which also lists files used only by other unused files).",
				sdk.ReadOnly, findOrphaned, sdk.WithTitle("Orphaned resources"), sdk.WithOutputSchema[unusedResult](), sdk.AnyMode()),
			sdk.NewTool("cross_scene_find_refs",
				"Find where something is used, with file:line: a scene, script or resource (res:// path or uid://), "+
					"a node type (nodes of that class and scripts extending it), or a signal (scene connections and connect( calls).",
				sdk.ReadOnly, findRefs, sdk.WithTitle("Find references"), sdk.WithOutputSchema[refsResult](), sdk.AnyMode()),
			sdk.NewTool("analyze_signal_flow",
				"List signal connections: [connection] entries of scenes (signal, from, to, method) and connect( calls in "+
					"scripts, each with file:line, plus a count per signal. Filter by scene or signal.",
				sdk.ReadOnly, signalFlow, sdk.WithTitle("Signal flow"), sdk.WithOutputSchema[signalResult](), sdk.AnyMode()),
			sdk.NewTool("validate_scene_integrity",
				"Check scenes and resources: parse errors, missing sub_resources, unknown ext_resource ids, ext_resource "+
					"paths and uids that lead nowhere, bad parent paths, duplicate node names and connections to missing nodes; "+
					"each finding has file:line and a fix hint.",
				sdk.ReadOnly, validateIntegrity, sdk.WithTitle("Validate scene integrity"), sdk.WithOutputSchema[integrityResult](), sdk.AnyMode()),
		},
	}
}
