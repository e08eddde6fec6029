package server

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/exposure"
)

// promptDef is one workflow prompt: a recipe that names the tools to call
// and in what order. Prompts act on nothing; the tools they name pass the
// policy and the gate when the agent calls them. The names and arguments
// are those of the reference Godot MCP server's prompts, so a client's
// slash commands written for it work here; the text is this server's.
type promptDef struct {
	name, title, description string
	args                     []promptArg
	render                   func(s *Server, caller exposure.Caller, a map[string]string) string
}

type promptArg struct {
	name, description, def string
}

// toolMentionRE finds the exposed tool names a prompt's text mentions.
var toolMentionRE = regexp.MustCompile(`\bgodot_[a-z0-9_]*[a-z0-9]\b`)

// jsonString quotes a prompt argument for the JSON calls a prompt shows,
// so a value with quotes or backslashes never breaks the example.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// jsonValue renders a value argument as JSON: JSON already (a number, an
// object, true) as it is, anything else as a string.
func jsonValue(s string) string {
	s = strings.TrimSpace(s)
	if json.Valid([]byte(s)) {
		return s
	}
	return jsonString(s)
}

const safetyReminder = "\n\nSafety: mutating tools take \"dry_run\": true to report what they would change; " +
	"destructive ones (overwriting a file, deleting a node) need \"confirm\": true once the user agreed. " +
	"godot_undo {\"count\": 1} takes back the last change."

var promptDefs = []promptDef{
	{
		name: "toolset_discovery", title: "Discover and enable toolsets",
		description: "How this server's toolsets work: which are enabled, how to enable the ones a task needs, and the safety rules. Use it first in a session.",
		render: func(s *Server, caller exposure.Caller, _ map[string]string) string {
			return "Before you edit, run or inspect anything, learn which tools exist.\n\n" +
				"1. Tools come in toolsets, and only the tools of enabled toolsets are listed. " +
				"godot_list_toolsets {} shows every toolset, whether it is on and how many tools it has.\n" +
				"2. Enable what the task needs: godot_enable_toolset {\"toolsets\": [\"scene_edit\", \"scripts\"]}. " +
				"The result lists the new tools with their input schemas, so you can call them at once.\n" +
				"3. A tool of a toolset that is off answers TOOLSET_DISABLED with the exact enable call in its hint: make that call and retry.\n" +
				"4. godot_list_tools_by_safety_class {} lists what you may use by class, including toolsets not yet enabled.\n" +
				"5. Context without a tool call: the resources godot://project/info, godot://scene/current, godot://scene/tree and godot://node/selected, " +
				"or godot_read_resource {\"uri\": \"godot://project/info\"} if your client does not read resources.\n" +
				"6. When a call is refused, godot_get_server_info {} shows the recent events (what was refused and why); godot_health_check {} checks the plugins.\n" +
				"7. Look up an engine class before you use it: godot_describe_class {\"class_name\": \"CharacterBody2D\"}.\n\n" +
				"What this server says about itself now:\n" + s.instructions(caller) + safetyReminder
		},
	},
	{
		name: "build_scene", title: "Build a scene",
		description: "Create a scene step by step: the root, child nodes, their properties, a script and collision, then save and check it (toolsets scene_edit and scripts).",
		args: []promptArg{
			{"scene_path", "res:// path of the new scene", "res://scenes/main.tscn"},
			{"root_type", "class of the root node", "Node2D"},
		},
		render: func(_ *Server, _ exposure.Caller, a map[string]string) string {
			scene, root := jsonString(a["scene_path"]), jsonString(a["root_type"])
			return fmt.Sprintf("Build the scene %s with a %s root.\n\n", a["scene_path"], a["root_type"]) +
				"1. Enable the toolsets: godot_enable_toolset {\"toolsets\": [\"scene_edit\", \"scripts\"]}.\n" +
				"2. Create the scene (it becomes the active scene): godot_scene_edit_create_scene {\"scene_path\": " + scene + ", \"root_type\": " + root + "}. " +
				"If it exists already, open it instead: godot_scene_edit_open_scene {\"scene_path\": " + scene + "}.\n" +
				"3. Add nodes; \".\" is the root and paths are relative to it: godot_scene_edit_create_node {\"parent_path\": \".\", \"node_type\": \"Sprite2D\", \"node_name\": \"Sprite\"}. " +
				"Check a class's properties first with godot_describe_class {\"class_name\": \"Sprite2D\"}.\n" +
				"4. Set properties: godot_scene_edit_set_node_property {\"node_path\": \"Sprite\", \"property\": \"position\", \"value\": {\"x\": 64, \"y\": 64}}.\n" +
				"5. Write a script and attach it: godot_scripts_write {\"script_path\": \"res://scripts/main.gd\", \"content\": \"extends " + strings.Trim(root, `"`) + "\\n\"}, " +
				"then godot_scene_edit_attach_script {\"node_path\": \".\", \"script_path\": \"res://scripts/main.gd\"}.\n" +
				"6. Collision (a physics body needs one): create a CollisionShape2D child with godot_scene_edit_create_node and give it a shape with godot_scene_edit_set_node_property.\n" +
				"7. Save and check: godot_scene_edit_save_scene {\"scene\": " + scene + "}, godot_inspection_get_scene_tree {\"scene\": " + scene + ", \"max_depth\": 3}, " +
				"godot_scripts_get_parse_errors {\"script_path\": \"res://scripts/main.gd\"}." + safetyReminder
		},
	},
	{
		name: "play_test", title: "Play-test a scene",
		description: "Play a scene and watch it run: the live scene tree, property values over time, UI elements, output and a screenshot, then stop it (toolset runtime; an attached editor, or the embedded web runtime for a Godot 4 project).",
		args:        []promptArg{{"scene_path", "res:// path of the scene to play", "res://scenes/main.tscn"}},
		render: func(_ *Server, _ exposure.Caller, a map[string]string) string {
			scene := jsonString(a["scene_path"])
			return fmt.Sprintf("Play-test %s.\n\n", a["scene_path"]) +
				"1. Enable the toolset: godot_enable_toolset {\"toolsets\": [\"runtime\"]}. With a Godot editor attached the game plays there; " +
				"without one, a Godot 4 project plays in the embedded web runtime (the result's engine says what it cannot do).\n" +
				"2. Play: godot_runtime_play_scene {\"scene\": " + scene + "}; godot_runtime_is_playing {} confirms it runs.\n" +
				"3. Look at the running game: godot_runtime_get_game_scene_tree {}, " +
				"godot_runtime_read_property {\"node_path\": \"/root/Main/Player\", \"property\": \"position\"}.\n" +
				"4. Watch a value change: godot_runtime_monitor_property {\"node_path\": \"/root/Main/Player\", \"property\": \"position\", \"samples\": 30}, " +
				"then godot_runtime_get_property_samples {}.\n" +
				"5. Find UI: godot_runtime_find_ui_elements {\"name_contains\": \"Score\"}; see it: godot_runtime_capture_game_screenshot {}.\n" +
				"6. Read what the game printed, errors included: godot_runtime_get_game_output {}.\n" +
				"7. Stop: godot_runtime_stop_scene {}.\n\n" +
				"For a run that only collects errors, with no live session, use godot_runtime_run_and_capture {\"scene\": " + scene + "} " +
				"or godot_debug_workflow {\"scene\": " + scene + "}. Automated tests (GUT): enable testing, then godot_testing_run_tests {}."
		},
	},
	{
		name: "script_edit", title: "Edit a script",
		description: "Write or change a GDScript, check it compiles, and attach it to a node (toolsets scripts and scene_edit).",
		args: []promptArg{
			{"script_path", "res:// path of the script", "res://scripts/my_script.gd"},
			{"node_path", "node to attach it to, relative to the scene root", "./MyNode"},
		},
		render: func(_ *Server, _ exposure.Caller, a map[string]string) string {
			script, node := jsonString(a["script_path"]), jsonString(a["node_path"])
			return fmt.Sprintf("Edit the script %s and attach it to %s.\n\n", a["script_path"], a["node_path"]) +
				"1. Enable the toolsets: godot_enable_toolset {\"toolsets\": [\"scripts\", \"scene_edit\"]}.\n" +
				"2. Read it first if it exists: godot_scripts_read {\"script_path\": " + script + "}.\n" +
				"3. Change a part of it: godot_scripts_patch {\"script_path\": " + script + ", \"find\": \"old text\", \"replace\": \"new text\"}. " +
				"Write a new file whole: godot_scripts_write {\"script_path\": " + script + ", \"content\": \"extends Node\\n\"} " +
				"(replacing an existing file needs \"confirm\": true).\n" +
				"4. Check it: godot_scripts_get_parse_errors {\"script_path\": " + script + "}; fix each error at its line and check again. " +
				"Use Godot 4 names (@export, @onready, await, CharacterBody2D); godot_describe_class {\"class_name\": \"Node\"} lists a class's members.\n" +
				"5. Attach it: godot_scene_edit_attach_script {\"node_path\": " + node + ", \"script_path\": " + script + "}.\n" +
				"6. Confirm: godot_scripts_get_for_node {\"node_path\": " + node + "}." + safetyReminder
		},
	},
	{
		name: "debug_scene", title: "Debug a scene",
		description: "Find why a scene or script fails: run it and read its errors (godot_debug_workflow), check scripts, the scene's structure and its signals (toolsets runtime, scripts, analysis).",
		args: []promptArg{
			{"scene_path", "res:// path of the failing scene; empty: the main scene", ""},
			{"script_path", "res:// path of a script under suspicion", ""},
		},
		render: func(_ *Server, _ exposure.Caller, a map[string]string) string {
			sceneArg := ""
			what := "the main scene"
			if a["scene_path"] != "" {
				sceneArg = "\"scene\": " + jsonString(a["scene_path"])
				what = a["scene_path"]
			}
			script := a["script_path"]
			if script == "" {
				script = "res://scripts/my_script.gd"
			}
			scene := a["scene_path"]
			if scene == "" {
				scene = "res://main.tscn"
			}
			return fmt.Sprintf("Debug %s.\n\n", what) +
				"1. Enable the toolsets: godot_enable_toolset {\"toolsets\": [\"runtime\", \"scripts\", \"analysis\"]}.\n" +
				"2. Run it and read the errors in one call: godot_debug_workflow {" + sceneArg + "}. " +
				"It lists each error at its res://file:line and says what to look at next.\n" +
				"3. Check the scripts it names: godot_scripts_get_parse_errors {\"script_path\": " + jsonString(script) + "}, " +
				"and read the lines: godot_scripts_read {\"script_path\": " + jsonString(script) + "}.\n" +
				"4. Check the structure: godot_inspection_get_scene_tree {\"scene\": " + jsonString(scene) + ", \"max_depth\": 3}, " +
				"godot_inspection_get_node_properties {\"scene\": " + jsonString(scene) + ", \"node_path\": \".\"}, " +
				"godot_analysis_validate_scene_integrity {\"scene\": " + jsonString(scene) + "}.\n" +
				"5. Check the signals: godot_analysis_analyze_signal_flow {\"scene\": " + jsonString(scene) + "}.\n" +
				"6. If it runs but misbehaves, watch it live: godot_runtime_play_scene {\"scene\": " + jsonString(scene) + "}, " +
				"godot_runtime_get_game_scene_tree {}, godot_runtime_get_game_output {}, godot_runtime_stop_scene {}.\n" +
				"7. Project-wide causes: godot_analysis_detect_circular_dependencies {}, godot_analysis_find_orphaned_resources {}.\n\n" +
				"What the usual messages mean:\n" +
				"- \"Invalid get index\" / \"on a null instance\": a node path that no longer matches the tree, or a node freed too early.\n" +
				"- \"Method not found\" / \"Nonexistent function\": a signal target or a call to a method that was renamed, or a Godot 3 name.\n" +
				"- \"Cannot load resource\" / \"Failed loading resource\": a moved or deleted file; godot_analysis_analyze_dependencies {\"path\": " + jsonString(scene) + "} lists what the scene loads.\n" +
				"- \"Parse Error\": fix the line godot_scripts_get_parse_errors names."
		},
	},
	{
		name: "troubleshoot", title: "Troubleshoot the server",
		description: "A checklist for when calls fail: health, refusals and their codes, toolsets, the editor link, the Godot binary.",
		render: func(_ *Server, _ exposure.Caller, _ map[string]string) string {
			return "A call failed. Work through this in order.\n\n" +
				"1. godot_health_check {}: every enabled toolset's plugin runs, the Godot version is known, no plugin was refused.\n" +
				"2. godot_get_server_info {}: the editor link (editor.connected), the enabled set, and the recent events, which say what was refused and why.\n" +
				"3. Read the error's code, the first word of the error:\n" +
				"- TOOLSET_DISABLED: the hint is the exact godot_enable_toolset call; make it and retry.\n" +
				"- TOOL_NOT_EXPOSED: the operator's policy withholds the tool from you, naming the layer; no call changes that, ask the user.\n" +
				"- PRECONDITION_FAILED: \"Required\" says what is missing: confirm (add \"confirm\": true once the user agreed, or preview with \"dry_run\": true), " +
				"active_scene (open one: godot_scene_edit_open_scene {\"scene_path\": \"res://main.tscn\"}), godot_version, godot_bin (install Godot or set GODOT_MCP_GODOT_BIN), " +
				"main_scene (pass a scene), play_session (godot_runtime_play_scene first), addon_command (update the editor addon).\n" +
				"- INVALID_ARGUMENT: the message names the argument and what it takes; the tool's schema lists them.\n" +
				"- NOT_FOUND: the hint names the closest existing path, node or name.\n" +
				"- CONFLICT: the file changed since you read it; read it again and redo the change.\n" +
				"4. No editor attached: editor-only tools say so; open the project in Godot with the godot-mcp addon enabled. " +
				"Everything else works headless on the project files.\n" +
				"5. A tool you expected is missing: godot_list_toolsets {} shows every toolset and the refused plugins.\n" +
				"6. A script or a scene fails when run: godot_debug_workflow {} runs it and names each error's res://file:line."
		},
	},
	{
		name: "author_resource", title: "Author a resource",
		description: "Create a resource file with the toolset for its kind: resource_kind is tileset (tilemap), shader (shader) or custom (any Resource class as .tres, resources_edit).",
		args: []promptArg{
			{"resource_kind", "tileset, shader or custom", "tileset"},
			{"save_path", "res:// path to save it to", "res://resources/new_resource.tres"},
		},
		render: func(_ *Server, _ exposure.Caller, a map[string]string) string {
			p := jsonString(a["save_path"])
			switch strings.ToLower(strings.TrimSpace(a["resource_kind"])) {
			case "tileset":
				return "Author a TileSet at " + a["save_path"] + ".\n\n" +
					"1. Enable the toolset: godot_enable_toolset {\"toolsets\": [\"tilemap\"]}.\n" +
					"2. Create it: godot_tilemap_create_tileset {\"save_path\": " + p + ", \"tile_size\": [16, 16]}.\n" +
					"3. Add an atlas over an imported texture: godot_tilemap_add_tileset_atlas_source {\"tileset_path\": " + p + ", \"texture_path\": \"res://art/tiles.png\", \"region_size\": [16, 16]}; the result has its source_id.\n" +
					"4. Create the tiles: godot_tilemap_create_tile {\"tileset_path\": " + p + ", \"source_id\": 0, \"atlas_coords\": [0, 0]} " +
					"(or all at once: godot_tilemap_create_atlas_from_image).\n" +
					"5. Check it: godot_tilemap_get_tileset {\"tileset_path\": " + p + "}.\n" +
					"6. Paint with it on a TileMapLayer: godot_tilemap_set_cell {\"node_path\": \"TileMapLayer\", \"coords\": [0, 0], \"source_id\": 0, \"atlas_coords\": [0, 0]}." + safetyReminder
			case "shader":
				return "Author a shader at " + a["save_path"] + " (a .gdshader path).\n\n" +
					"1. Enable the toolset: godot_enable_toolset {\"toolsets\": [\"shader\"]}.\n" +
					"2. Create it: godot_shader_create {\"shader_path\": " + p + ", \"shader_type\": \"canvas_item\"} writes the template; pass code for your own source.\n" +
					"3. Check it compiles: godot_shader_validate {\"shader_path\": " + p + "}; see it: godot_shader_preview {\"shader_path\": " + p + "}.\n" +
					"4. Apply it to a node: godot_shader_assign_material {\"node_path\": \"Sprite2D\", \"shader_path\": " + p + "}.\n" +
					"5. Set a uniform: godot_shader_set_param {\"node_path\": \"Sprite2D\", \"name\": \"intensity\", \"value\": 0.5}." + safetyReminder
			case "custom":
				return "Author a resource at " + a["save_path"] + ".\n\n" +
					"1. Enable the toolset: godot_enable_toolset {\"toolsets\": [\"resources_edit\"]}.\n" +
					"2. Look the class up: godot_describe_class {\"class_name\": \"Gradient\"} lists its properties and whether it can be instanced.\n" +
					"3. Create it: godot_resources_edit_create_resource {\"type\": \"Gradient\", \"path\": " + p + ", \"properties\": {}}.\n" +
					"4. Change a property: godot_resources_edit_set_resource_property {\"path\": " + p + ", \"property\": \"interpolation_mode\", \"value\": 1}.\n" +
					"5. Read it back: godot_resources_edit_read_resource_file {\"path\": " + p + "}." + safetyReminder
			}
			return fmt.Sprintf("resource_kind %q is not one this prompt knows: choose tileset, shader or custom, and get the prompt again.", a["resource_kind"])
		},
	},
	{
		name: "export_build", title: "Export a build",
		description: "Export the project with one of its presets: list the presets, check the templates, export, read the result (toolset export).",
		args: []promptArg{
			{"preset", "export preset name, as export_presets.cfg has it", ""},
			{"output_path", "res:// file to write, in res://build/", "res://build/game"},
		},
		render: func(_ *Server, _ exposure.Caller, a map[string]string) string {
			preset := a["preset"]
			if preset == "" {
				preset = "Linux"
			}
			return "Export a build to " + a["output_path"] + ".\n\n" +
				"1. Enable the toolset: godot_enable_toolset {\"toolsets\": [\"export\"]}.\n" +
				"2. List the presets: godot_export_list_presets {}; use a name exactly as listed.\n" +
				"3. Check the preset and the templates it needs: godot_export_get_info {\"preset\": " + jsonString(preset) + "}. " +
				"Without export templates, mode \"pack\" still writes the .pck.\n" +
				"4. Preview, then export: godot_export_project {\"preset\": " + jsonString(preset) + ", \"output\": " + jsonString(a["output_path"]) + ", \"dry_run\": true}, " +
				"then the same call without dry_run. It runs a real Godot binary and can take minutes.\n" +
				"5. Read the result: the exit code, the errors Godot printed and the files written. " +
				"Exporting again over the same files needs \"overwrite\": true."
		},
	},
	{
		name: "batch_refactor", title: "Change many nodes at once",
		description: "Set one property on every node of a type, in one scene or across scenes: find the nodes, preview with dry_run, apply, verify (toolset batch).",
		args: []promptArg{
			{"node_type", "class of the nodes to change", "Node"},
			{"property", "property to set", "modulate"},
			{"value", "the value, as JSON (a number, [x, y], {\"r\": 1, …}) or a string", ""},
		},
		render: func(_ *Server, _ exposure.Caller, a map[string]string) string {
			typ, prop := jsonString(a["node_type"]), jsonString(a["property"])
			val := "\"<value>\""
			if strings.TrimSpace(a["value"]) != "" {
				val = jsonValue(a["value"])
			}
			return fmt.Sprintf("Set %s on every %s, safely.\n\n", a["property"], a["node_type"]) +
				"1. Enable the toolset: godot_enable_toolset {\"toolsets\": [\"batch\"]}.\n" +
				"2. Find the nodes first, to know what changes: godot_batch_find_nodes_by_type {\"node_type\": " + typ + ", \"all_scenes\": true}.\n" +
				"3. Preview in one scene: godot_batch_set_property {\"node_type\": " + typ + ", \"property\": " + prop + ", \"value\": " + val + ", \"scene\": \"res://main.tscn\", \"dry_run\": true}; " +
				"nodes without the property are listed as skipped.\n" +
				"4. Apply: the same call without dry_run; it is one undoable action.\n" +
				"5. Across scene files: godot_batch_cross_scene_set_property {\"scenes\": [\"res://main.tscn\"], \"node_type\": " + typ + ", \"property\": " + prop + ", \"value\": " + val + ", \"dry_run\": true}, then without dry_run.\n" +
				"6. Verify: godot_batch_find_nodes_by_type again, or godot_inspection_get_node_property {\"scene\": \"res://main.tscn\", \"node_path\": \".\", \"property\": " + prop + "}. " +
				"godot_undo {} takes the change back.\n\n" +
				"Values: vectors as [x, y] or {\"x\": 1, \"y\": 2}, colours as {\"r\": 1, \"g\": 0, \"b\": 0, \"a\": 1} or \"#ff0000\", numbers and booleans as they are."
		},
	},
}

// addPrompts registers the prompts on the go-sdk server, which lists
// them; getPrompt renders them.
func (s *Server) addPrompts() {
	for i := range promptDefs {
		d := &promptDefs[i]
		p := &mcp.Prompt{Name: d.name, Title: d.title, Description: d.description}
		for _, a := range d.args {
			desc := a.description
			if a.def != "" {
				desc += fmt.Sprintf(" (default %s)", a.def)
			}
			p.Arguments = append(p.Arguments, &mcp.PromptArgument{Name: a.name, Description: desc})
		}
		s.mcp.AddPrompt(p, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return s.getPrompt(d, req)
		})
	}
}

// getPrompt renders a prompt for its caller. Unknown arguments are
// refused, as a tool's are; missing ones take their defaults. The text
// ends with the tools it names that this caller's policy withholds, so a
// recipe never sends an agent to a refusal it could have known about.
func (s *Server) getPrompt(d *promptDef, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	a := map[string]string{}
	for _, pa := range d.args {
		a[pa.name] = pa.def
	}
	for k, v := range req.Params.Arguments {
		if !slices.ContainsFunc(d.args, func(pa promptArg) bool { return pa.name == k }) {
			names := make([]string, len(d.args))
			for i, pa := range d.args {
				names[i] = pa.name
			}
			takes := "takes no arguments"
			if len(names) > 0 {
				takes = "takes " + strings.Join(names, ", ")
			}
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
				Message: fmt.Sprintf("prompt %q has no argument %q; it %s", d.name, k, takes)}
		}
		if v != "" {
			a[k] = v
		}
	}
	caller := s.caller(req)
	text := d.render(s, caller, a)
	var withheld []string
	for _, name := range toolMentionRE.FindAllString(text, -1) {
		e, ok := s.reg.lookup(name)
		if !ok || slices.Contains(withheld, name) {
			continue
		}
		if s.policy.Authorize(caller, e.ref) != nil {
			withheld = append(withheld, name)
		}
	}
	if len(withheld) > 0 {
		text += "\n\nThe operator's policy withholds from you: " + strings.Join(withheld, ", ") +
			". Calls to them are refused; skip those steps or ask the user."
	}
	return &mcp.GetPromptResult{
		Description: d.description,
		Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}},
	}, nil
}
