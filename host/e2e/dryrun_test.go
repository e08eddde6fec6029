package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
	"github.com/godot-mcp/godot-mcp/sdk/editorcmd"
)

// TestEveryDryRunLeavesTheEditorAlone: through the real host with every
// bundled toolset enabled and the fake addon attached, every tool that
// accepts dry_run (read from tools/list, so a new tool is covered without
// touching this test) is called with dry_run and arguments built from its
// input schema. No command that changes the editor may reach the addon,
// and most tools must answer a real preview.
func TestEveryDryRunLeavesTheEditorAlone(t *testing.T) {
	sw := newSweep(t, true)
	ed := sw.addon

	var previewed int
	var missed []string
	tools := sw.tools
	for _, tl := range tools {
		before := len(ed.Calls())
		out := sw.s.call(t, tl.Name, sw.args(tl))
		for _, c := range ed.Calls()[before:] {
			if changesEditor(c) {
				t.Errorf("%s dry run sent %s %v to the editor", tl.Name, c.Command, c.Params)
			}
		}
		if why := notAPreview(out); why != "" {
			missed = append(missed, fmt.Sprintf("%s (%s)", tl.Name, why))
			continue
		}
		previewed++
	}
	t.Logf("%d of %d dry-runnable tools answered a preview", previewed, len(tools))
	if previewed*100 < len(tools)*80 {
		t.Errorf("only %d of %d tools answered a dry-run preview; these did not:\n  %s",
			previewed, len(tools), strings.Join(missed, "\n  "))
	} else if len(missed) > 0 {
		t.Logf("no preview (arguments from the schema table did not fit, or the tool refused):\n  %s", strings.Join(missed, "\n  "))
	}
}

// sweep is a real host with every bundled toolset enabled on a copy of the
// corpus's dodge-the-creeps (plus what the sweep's arguments name), and the
// tools that accept dry_run, read from tools/list so a new tool is covered
// without touching the tests.
type sweep struct {
	s       *session
	addon   *fakeaddon.Addon // nil when the host works headless
	outside string           // the folder asset_import may copy from
	tools   []*mcp.Tool
}

// newSweep starts the host; withEditor attaches the fake addon, answering
// every command the toolsets name.
func newSweep(t *testing.T, withEditor bool) *sweep {
	t.Helper()
	url := bridgeURL(t)
	dir := corpusProject(t, "2d-dodge_the_creeps")
	// A folder the operator lets asset_import copy from, and a texture in
	// the project, each a real PNG.
	outside := t.TempDir()
	var img bytes.Buffer
	if err := png.Encode(&img, image.NewNRGBA(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(outside, "art.png"), filepath.Join(dir, "wall.png")} {
		if err := os.WriteFile(p, img.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A TileSet with one tile and one layer of each kind, for the tools
	// that edit tiles and layers.
	if err := os.WriteFile(filepath.Join(dir, "tiles.tres"), []byte(sweepTileSet), 0o644); err != nil {
		t.Fatal(err)
	}
	s := stdioHostEnv(t, sessionless, []string{"GODOT_MCP_BRIDGE_URL=" + url, "GODOT_MCP_ASSET_IMPORT_FROM=" + outside},
		"--plugins-dir", projectPluginsDir, "--project", dir, "--log-level", "warn")
	all := append([]string{"inspection"}, firstParty...)
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": all}, nil)
	sw := &sweep{s: s, outside: outside}
	if withEditor {
		sw.addon = attachAddon(t, s, fakeaddon.Options{URL: url, GodotVersion: "4.6.1-stable", Handlers: addonAnswers(t)})
	} else {
		// The scene the fake addon says is active (cmd_get_active_scene),
		// so that both modes edit the same scene.
		s.ok(t, "godot_scene_edit_open_scene", map[string]any{"scene_path": "res://main.tscn"}, nil)
	}
	res, err := s.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range res.Tools {
		if hasProperty(tl.InputSchema, "dry_run") {
			sw.tools = append(sw.tools, tl)
		}
	}
	sort.Slice(sw.tools, func(i, j int) bool { return sw.tools[i].Name < sw.tools[j].Name })
	if len(sw.tools) < 20 {
		t.Fatalf("only %d tools accept dry_run; are the toolsets enabled?", len(sw.tools))
	}
	return sw
}

// args are a dry run's arguments for tl, built from its input schema.
func (sw *sweep) args(tl *mcp.Tool) map[string]any {
	args := argsFor(tl.InputSchema)
	for k, v := range overrides[tl.Name] {
		args[k] = v
	}
	if tl.Name == "godot_asset_import_asset" {
		args["source"] = filepath.Join(sw.outside, "art.png")
	}
	args["dry_run"] = true
	if hasProperty(tl.InputSchema, "confirm") {
		args["confirm"] = true
	}
	return args
}

// changesEditor reports whether a command the addon received would have
// changed the editor: a mutating command, or a preview command without its
// preview flag. The host's own protocol commands are not tool calls.
func changesEditor(c fakeaddon.Call) bool {
	switch c.Command {
	case "cmd_server_hello", "cmd_toolsets_update":
		return false
	}
	info := editorcmd.Lookup(c.Command)
	switch info.Kind {
	case editorcmd.Mutating:
		return true
	case editorcmd.Preview:
		return c.Params[info.Flag] != true
	}
	return false
}

// notAPreview says why a result is not a dry-run answer ("" when it is):
// dry_run true, and a toolset's preview in editor mode (the host's own
// undo and redo answer what they would step over, without a preview).
func notAPreview(res *mcp.CallToolResult) string {
	if res.IsError {
		msg := text(res)
		if i := strings.IndexByte(msg, '\n'); i > 0 {
			msg = msg[:i]
		}
		return msg
	}
	var out struct {
		DryRun  bool `json:"dry_run"`
		Preview *struct {
			Mode string `json:"mode"`
		} `json:"preview"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil || !out.DryRun {
		return "no dry_run: true in " + string(b)
	}
	if out.Preview != nil && out.Preview.Mode != "editor" {
		return "preview mode " + out.Preview.Mode + ", want editor"
	}
	return ""
}

// addonAnswers answers every addon command the toolsets name (found in
// their sources, so the fake knows the commands of a new tool too): the
// host only forwards commands the addon lists, and a mutating command must
// be able to arrive for the test to catch it. Queries a dry run needs get
// plausible answers; the rest answer an empty object.
func addonAnswers(t *testing.T) map[string]fakeaddon.Handler {
	t.Helper()
	cmdRE := regexp.MustCompile(`"(cmd_[a-z0-9_]+)"`)
	names := map[string]bool{}
	root := filepath.Join("..", "..", "plugins")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range cmdRE.FindAllSubmatch(b, -1) {
			names[string(m[1])] = true
		}
		return nil
	})
	if err != nil || len(names) == 0 {
		t.Fatalf("finding the toolsets' addon commands under %s: %v", root, err)
	}
	empty := func(map[string]any) fakeaddon.Reply { return fakeaddon.OK(map[string]any{}) }
	h := map[string]fakeaddon.Handler{}
	for n := range names {
		h[n] = empty
	}
	h["cmd_get_active_scene"] = func(map[string]any) fakeaddon.Reply {
		return fakeaddon.OK(map[string]any{"is_open": true, "path": "res://main.tscn", "name": "main.tscn"})
	}
	h["cmd_read_script"] = func(p map[string]any) fakeaddon.Reply {
		return fakeaddon.OK(map[string]any{"script_path": p["script_path"], "content": "extends Node\n"})
	}
	h["cmd_node_persistence"] = func(map[string]any) fakeaddon.Reply { return fakeaddon.OK(map[string]any{"persisted": true}) }
	h["cmd_get_scan_state"] = func(map[string]any) fakeaddon.Reply { return fakeaddon.OK(map[string]any{"scanning": false}) }
	h["cmd_node_exists"] = func(map[string]any) fakeaddon.Reply { return fakeaddon.OK(map[string]any{"exists": true}) }
	h["cmd_open_scene"] = func(p map[string]any) fakeaddon.Reply {
		return fakeaddon.OK(map[string]any{"scene_path": p["scene_path"], "opened": true})
	}
	return h
}

// plausible are argument values by name, for arguments that must fit the
// project (the corpus's dodge-the-creeps) or the tool's checks.
var plausible = map[string]any{
	"node_path": ".", "node_paths": []any{"."}, "parent_path": ".", "new_parent_path": ".", "parent": ".",
	"scene": "res://main.tscn", "scene_path": "res://main.tscn", "scenes": []any{"res://main.tscn"},
	"path": "res://main.tscn", "new_path": "res://moved/main.tscn", "script_path": "res://player.gd",
	"save_path": "res://tiles.tres", "tileset_path": "res://tiles.tres", "texture_path": "res://icon.webp",
	"name": "Example", "new_name": "Renamed", "type": "Node2D", "node_type": "Node2D", "class_name": "Node2D",
	"property": "visible", "value": true, "action": "ui_accept", "content": "extends Node\n",
	"find": "extends", "replace": "extends", "coords": []any{0, 0}, "rect": []any{0, 0, 1, 1},
	"atlas_coords": []any{0, 0}, "source_id": 0, "uid": "uid://cecaux1sm7mo0", "preset": "Linux",
	"signal": "ready", "method": "_on_ready", "from_node": ".", "to_node": ".", "event_type": "key",
	"key": "Space", "group": "enemies", "root_type": "Node2D",
}

// alwaysFilled are optional arguments given whenever a tool has them: most
// tools that take them need one of them.
var alwaysFilled = []string{"node_path", "node_paths", "tileset_path"}

// sweepTileSet is res://tiles.tres of the sweep: an atlas source 0 with
// tile 0:0, and a physics, terrain, custom data, navigation and occlusion
// layer.
const sweepTileSet = `[gd_resource type="TileSet" load_steps=3 format=3]

[ext_resource type="Texture2D" path="res://wall.png" id="1_wall"]

[sub_resource type="TileSetAtlasSource" id="TileSetAtlasSource_a"]
texture = ExtResource("1_wall")
texture_region_size = Vector2i(2, 2)
0:0/0 = 0

[resource]
tile_size = Vector2i(2, 2)
physics_layer_0/collision_layer = 1
terrain_set_0/mode = 0
terrain_set_0/terrain_0/name = "Ground"
terrain_set_0/terrain_0/color = Color(0.5, 0.34375, 0.25, 1)
navigation_layer_0/layers = 1
occlusion_layer_0/light_mask = 1
custom_data_layer_0/name = "damage"
custom_data_layer_0/type = 2
sources/0 = SubResource("TileSetAtlasSource_a")
`

// overrides are the few values the by-name table cannot get right, because
// the same name means different things to different tools.
var overrides = map[string]map[string]any{
	"godot_input_map_add_event":                        {"type": "key", "key": "Space"},
	"godot_resources_edit_create_resource":             {"type": "Gradient", "path": "res://gradient.tres"},
	"godot_project_set_setting":                        {"name": "application/config/name", "value": "Renamed"},
	"godot_project_delete_resource_file":               {"path": "res://mob.tscn", "force": true},
	"godot_scene_edit_create_scene":                    {"scene_path": "res://new_scene.tscn"},
	"godot_shader_create":                              {"shader_path": "res://new.gdshader"},
	"godot_shader_assign_material":                     {"shader_path": "res://new.gdshader"},
	"godot_shader_set_param":                           {"name": "amount", "value": 1},
	"godot_visual_shader_create":                       {"name": "water"},
	"godot_visual_shader_add_node":                     {"shader_path": "res://water.tres", "node_type": "VisualShaderNodeColorConstant", "node_id": 2},
	"godot_visual_shader_connect_nodes":                {"shader_path": "res://water.tres", "from_node": 2, "from_port": 0, "to_node": 0, "to_port": 0},
	"godot_visual_shader_set_node_param":               {"shader_path": "res://water.tres", "node_id": 2, "property": "constant", "value": "#ff0000"},
	"godot_asset_import_asset":                         {"target_path": "res://art/imported.png"},
	"godot_batch_cross_scene_set_property":             {"node_type": "Node2D"},
	"godot_tilemap_add_custom_data_layer":              {"type": "int"},
	"godot_tilemap_create_atlas_from_image":            {"texture_path": "res://wall.png"},
	"godot_tilemap_set_tile_custom_data":               {"layer": "damage", "value": 3},
	"godot_tilemap_set_tile_terrain":                   {"terrain_set": 0, "terrain": 0},
	"godot_tilemap_add_terrain":                        {"terrain_set": 0},
	"godot_asset_import_create_material_from_textures": {"albedo": "res://wall.png"},
	"godot_asset_import_create_placeholder_image":      {"path": "res://art/placeholder.png"},
	"godot_asset_import_create_placeholder_texture":    {"path": "res://art/placeholder.tres"},
	"godot_animation_add_track":                        {"animation": "walk", "track_path": "ColorRect:color"},
	"godot_animation_insert_keyframe":                  {"animation": "walk", "track": 0, "time": 0.5},
	"godot_animation_create_tree":                      {"root_type": "AnimationNodeStateMachine"},
	"godot_animation_add_state_machine_state":          {"tree_path": "AnimationTree", "state_name": "idle"},
	"godot_animation_add_state_machine_transition":     {"tree_path": "AnimationTree", "from": "Start", "to": "idle"},
	"godot_animation_set_blend_tree_node":              {"tree_path": "AnimationTree", "node_name": "mix", "node_type": "AnimationNodeBlend2"},
	"godot_physics_setup_collision":                    {"shape_type": "RectangleShape2D"},
	"godot_navigation_set_layers":                      {"layers": []any{1}},
	"godot_scene_3d_gridmap_set_cell":                  {"position": []any{0, 0, 0}, "item": 0},
	"godot_scene_3d_add_mesh_library_item":             {"mesh_type": "BoxMesh"},
	"godot_particles_set_color_gradient":               {"colors": []any{"#ffffff", "#000000"}},
	"godot_particles_apply_preset":                     {"preset": "fire"},
	"godot_audio_add_bus_effect":                       {"bus": "Master", "effect_type": "AudioEffectReverb"},
	"godot_audio_remove_bus":                           {"bus": "Music"},
	"godot_audio_remove_bus_effect":                    {"bus": "Master", "effect_index": 0},
	"godot_theme_ui_create":                            {"save_path": "res://theme.tres"},
	"godot_theme_ui_set_color":                         {"name": "font_color", "color": "#ff0000"},
	"godot_theme_ui_set_font_size":                     {"name": "font_size", "size": 16},
	"godot_theme_ui_set_stylebox":                      {"name": "panel"},
}

// argsFor builds arguments for a tool from its input schema: every required
// argument, from the table by name or else a value of its type.
func argsFor(schema any) map[string]any {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	b, _ := json.Marshal(schema)
	_ = json.Unmarshal(b, &s)
	args := map[string]any{}
	for _, name := range alwaysFilled {
		if _, ok := s.Properties[name]; ok {
			args[name] = plausible[name]
		}
	}
	// Tools that edit either a node's TileSet or a TileSet file take one
	// of the two: the file, when the node is not required.
	if _, ok := args["tileset_path"]; ok && !slices.Contains(s.Required, "node_path") {
		delete(args, "node_path")
	}
	for _, name := range s.Required {
		if v, ok := plausible[name]; ok {
			args[name] = v
			continue
		}
		args[name] = valueOf(s.Properties[name])
	}
	return args
}

// valueOf is a generic value for a property schema: its default, its first
// enum value, or a value of its type.
func valueOf(raw json.RawMessage) any {
	var p struct {
		Type    any   `json:"type"`
		Enum    []any `json:"enum"`
		Default any   `json:"default"`
	}
	_ = json.Unmarshal(raw, &p)
	if p.Default != nil {
		return p.Default
	}
	if len(p.Enum) > 0 {
		return p.Enum[0]
	}
	typ, _ := p.Type.(string)
	if list, ok := p.Type.([]any); ok {
		for _, t := range list {
			if t != "null" {
				typ, _ = t.(string)
				break
			}
		}
	}
	switch typ {
	case "string":
		return "x"
	case "integer", "number":
		return 1
	case "boolean":
		return false
	case "array":
		return []any{}
	case "object":
		return map[string]any{}
	}
	return "x"
}

func hasProperty(schema any, name string) bool {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	b, _ := json.Marshal(schema)
	_ = json.Unmarshal(b, &s)
	_, ok := s.Properties[name]
	return ok
}

// TestDryRunSameShapeInBothModes: every tool's dry run answers the same
// top-level fields headless and with an editor attached, apart from the
// fields only one mode can know (modeOnlyFields) and the tools excepted in
// dryRunShapeExceptions, each with its reason. Both hosts run on their own
// copy of the same project with the same arguments; a tool that refuses
// its arguments in either mode is not compared (the sweep's arguments come
// from the schema and cannot fit every tool), but most tools that can run
// on the project's main scene must be (45 of 110 when this was written;
// plugins/scene_edit compares its tools with arguments that fit).
func TestDryRunSameShapeInBothModes(t *testing.T) {
	headless := newSweep(t, false)
	editor := newSweep(t, true)
	var compared int
	var skipped []string
	for _, tl := range editor.tools {
		h := headless.s.call(t, tl.Name, headless.args(tl))
		e := editor.s.call(t, tl.Name, editor.args(tl))
		if h.IsError || e.IsError {
			skipped = append(skipped, fmt.Sprintf("%s (headless: %s; editor: %s)", tl.Name, firstLine(h), firstLine(e)))
			continue
		}
		compared++
		hk, ek := topKeys(h), topKeys(e)
		var differ []string
		for _, k := range hk {
			if !slices.Contains(ek, k) {
				differ = append(differ, k+" (headless only)")
			}
		}
		for _, k := range ek {
			if !slices.Contains(hk, k) {
				differ = append(differ, k+" (editor only)")
			}
		}
		ex := dryRunShapeExceptions[tl.Name]
		for _, d := range differ {
			if !slices.Contains(ex.fields, strings.Fields(d)[0]) {
				t.Errorf("%s dry run: %s; headless answers %v, the editor %v", tl.Name, d, hk, ek)
			}
		}
		for _, f := range ex.fields {
			if slices.Contains(hk, f) == slices.Contains(ek, f) {
				t.Errorf("%s: %s is excepted (%s) but both modes answer it alike; drop it from the exceptions", tl.Name, f, ex.why)
			}
		}
	}
	t.Logf("%d of %d dry runs compared; refused in a mode (not compared):\n  %s", compared, len(editor.tools), strings.Join(skipped, "\n  "))
	if compared < 45 {
		t.Errorf("only %d of %d dry runs could be compared, want 45 or more", compared, len(editor.tools))
	}
}

// modeOnlyFields are the dry-run fields only one mode answers: the
// preview itself (its mode, the commands or the files, the same key in
// both), the file diff that a headless edit made in memory shows, and
// the addon's persistence verdict, which only an editor can give when
// the change would not survive a save (headless, the change is in the
// file, so persisted is always true and reason and hint never appear).
//
// commit, changes and files are the workspace's commit result and file
// changes of a headless edit (the files it would write, the journal
// action), which preview.files holds too; in the editor the change goes
// to the editor's own undo history and preview.commands lists it.
var modeOnlyFields = map[string]bool{"diff": true, "reason": true, "hint": true, "commit": true, "changes": true, "files": true}

// dryRunShapeExceptions are the fields a tool's dry run answers in one
// mode only, each tool's with the reason.
var dryRunShapeExceptions = map[string]struct {
	fields []string
	why    string
}{
	"godot_scene_edit_save_scene": {[]string{"pending_changes", "note"},
		"headless has nothing to save and says so; the editor's tab may hold unsaved changes, which a dry run does not ask"},
	"godot_scene_edit_save_all_scenes": {[]string{"count", "pending_changes", "note"},
		"headless has nothing to save and says so; the editor's tabs may hold unsaved changes, which a dry run does not ask"},
	"godot_scene_edit_duplicate_node": {[]string{"node_path"},
		"the copy's name (Box2, Box3, ...) is settled by the editor when it copies; an editor dry run names source_path"},
	"godot_asset_import_create_material_from_textures": {[]string{"uid"},
		"headless writes the new .tres with a uid it makes; the editor makes its own when it saves"},
	"godot_resources_edit_create_resource": {[]string{"uid"},
		"headless writes the new .tres with a uid it makes; the editor makes its own when it saves"},
	"godot_audio_add_bus": {[]string{"index", "layout_path"},
		"headless appends to the bus layout file it writes; the editor's AudioServer places the bus and saves its layout when it applies"},
	"godot_audio_add_bus_effect": {[]string{"bus_index", "effect_index", "layout_path"},
		"headless appends to the bus layout file it writes; the editor's AudioServer places the effect and saves its layout when it applies"},
	"godot_project_set_setting": {[]string{"text"},
		"the value as headless writes it in project.godot; the editor's ProjectSettings writes its own text when it saves"},
	"godot_project_delete_resource_file": {[]string{"had_uid", "removed"},
		"the files headless removes itself, sidecars included; the editor's file system removes them when it applies"},
	"godot_project_move_file": {[]string{"uid", "updated_refs"},
		"headless rewrites every reference itself and lists them; the editor's file system updates them when it moves the file"},
	"godot_resources_edit_register_autoload": {[]string{"order"},
		"the load order headless writes in project.godot; the editor's ProjectSettings orders the autoloads when it applies"},
	"godot_scripts_write": {[]string{"version", "uid"},
		"the version the file would have in the workspace and the .uid sidecar headless writes; the editor's write makes its own"},
	"godot_batch_set_property": {[]string{"skipped_count"},
		"answered only when nodes are skipped: headless skips the root (a Node has no visible), the fake addon's preview skips none"},
}

// firstLine is the first line of an error answer ("ok" for an answer).
func firstLine(res *mcp.CallToolResult) string {
	if !res.IsError {
		return "ok"
	}
	msg := text(res)
	if i := strings.IndexByte(msg, '\n'); i > 0 {
		msg = msg[:i]
	}
	return msg
}

// topKeys are the top-level fields of a tool's structured answer, without
// the mode-only ones, sorted.
func topKeys(res *mcp.CallToolResult) []string {
	var out map[string]json.RawMessage
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &out)
	var keys []string
	for k := range out {
		if !modeOnlyFields[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}
