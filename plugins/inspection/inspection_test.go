package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/projfixture"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// project copies a project of the shared Godot 4 corpus into a temporary
// directory.
func project(t testing.TB, name string) string { return projfixture.Copy(t, name) }

// headless starts the toolset without an editor on a copy of a corpus
// project, with scene (if any) active.
func headless(t *testing.T, name, scene string) (*sdktest.Host, string) {
	t.Helper()
	dir := project(t, name)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.7"})
	if scene != "" {
		if _, err := h.Workspace().SetActiveScene(t.Context(), scene); err != nil {
			t.Fatal(err)
		}
	}
	return h, dir
}

type obj = map[string]any

func fails(t *testing.T, h *sdktest.Host, tool string, args any, code string) *sdk.Error {
	t.Helper()
	res := h.Call(t.Context(), tool, args)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if !res.IsError || res.ErrorCode != code {
		t.Fatalf("%s %v: want %s, got %s %s", tool, args, code, res.ErrorCode, res.Text())
	}
	return res.Error
}

func children(n obj) []obj {
	var out []obj
	cs, _ := n["children"].([]any)
	for _, c := range cs {
		out = append(out, c.(obj))
	}
	return out
}

func child(t *testing.T, n obj, name string) obj {
	t.Helper()
	for _, c := range children(n) {
		if c["name"] == name {
			return c
		}
	}
	t.Fatalf("%v has no child %s", n["path"], name)
	return nil
}

func count(n obj) int {
	c := 1
	for _, ch := range children(n) {
		c += count(ch)
	}
	return c
}

func keys(m obj) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestHeadlessProjectAndScenes(t *testing.T) {
	h, dir := headless(t, "2d-dodge_the_creeps", "res://main.tscn")
	info := plugintest.Call(t, h, "get_project_info", nil)
	if info["name"] != "Dodge the Creeps" || info["godot_version"] != "4.7" || info["main_scene"] != "res://main.tscn" ||
		info["project_path"] != dir+"/" || info["csharp_project"] != false || info["csharp_supported"] != false {
		t.Errorf("project info: %v", info)
	}
	actions, _ := info["input_actions"].([]any)
	if !slices.Contains(actions, any("move_left")) || !slices.Contains(actions, any("start_game")) || slices.Contains(actions, any("ui_accept")) {
		t.Errorf("input_actions (the project's own): %v", actions)
	}
	info = plugintest.Call(t, h, "get_project_info", obj{"include_builtin_actions": true})
	actions, _ = info["input_actions"].([]any)
	for _, a := range []string{"move_left", "start_game", "ui_accept"} {
		if !slices.Contains(actions, any(a)) {
			t.Errorf("input_actions with the built-in ones lacks %s: %v", a, actions)
		}
	}

	act := plugintest.Call(t, h, "get_active_scene", nil)
	if act["is_open"] != true || act["path"] != "res://main.tscn" || act["name"] != "main.tscn" {
		t.Errorf("active scene: %v", act)
	}
	ls := plugintest.Call(t, h, "list_scenes", nil)
	scenes, _ := ls["scenes"].([]any)
	var paths []string
	for _, s := range scenes {
		m := s.(obj)
		paths = append(paths, m["path"].(string))
		main := m["path"] == "res://main.tscn"
		if m["is_main"] != main || m["is_active"] != main || m["is_open"] != main {
			t.Errorf("scene entry %v", m)
		}
	}
	if strings.Join(paths, ",") != "res://hud.tscn,res://main.tscn,res://mob.tscn,res://player.tscn" || ls["main_scene"] != "res://main.tscn" {
		t.Errorf("list_scenes: %v", ls)
	}

	// get_active_scene and get_scene_tree never fail; the others need a scene.
	h2, _ := headless(t, "2d-dodge_the_creeps", "")
	if act := plugintest.Call(t, h2, "get_active_scene", nil); act["is_open"] != false || act["path"] != nil {
		t.Errorf("no active scene: %v", act)
	}
	// get_scene_tree answers a null tree, as the reference does.
	if tr := plugintest.Call(t, h2, "get_scene_tree", nil); tr["tree"] != nil || len(tr) != 2 ||
		!strings.Contains(tr["note"].(string), `godot_scene_edit_open_scene {"scene_path"`) {
		t.Errorf("no scene tree: %v", tr)
	}
	for tool, args := range map[string]obj{"get_node_properties": {"node_path": "."},
		"get_node_groups": {"node_path": "."}, "snapshot_subtree": {}, "get_node_property": {"node_path": ".", "property": "name"},
		"get_node_property_list": {"node_path": "."}} {
		e := fails(t, h2, tool, args, sdk.CodePreconditionFailed)
		if e.Required != "active_scene" || !strings.Contains(e.Hint, "godot_scene_edit_open_scene") {
			t.Errorf("%s without a scene: %+v", tool, e)
		}
	}
	// An explicit scene needs no active one.
	if tr := plugintest.Call(t, h2, "get_scene_tree", obj{"scene": "res://hud.tscn"}); tr["tree"].(obj)["type"] != "CanvasLayer" {
		t.Errorf("hud tree: %v", tr)
	}
}

func TestHeadlessSceneTree(t *testing.T) {
	h, _ := headless(t, "2d-dodge_the_creeps", "res://main.tscn")
	tree := plugintest.Call(t, h, "get_scene_tree", nil)["tree"].(obj)
	if tree["name"] != "Main" || tree["type"] != "Node" || tree["path"] != "." || tree["script"] != "res://main.gd" {
		t.Errorf("root: %v", tree)
	}
	var names []string
	for _, c := range children(tree) {
		names = append(names, c["name"].(string))
	}
	if got := strings.Join(names, ","); got != "ColorRect,Player,MobTimer,ScoreTimer,StartTimer,StartPosition,MobPath,HUD,Music,DeathSound" {
		t.Errorf("children of Main: %s", got)
	}
	// The instanced player shows its own nodes, owned by player.tscn.
	player := child(t, tree, "Player")
	if player["type"] != "Area2D" || player["script"] != "res://player.gd" || player["owner"] != nil {
		t.Errorf("Player: %v", player)
	}
	sprite := child(t, player, "AnimatedSprite2D")
	if sprite["path"] != "Player/AnimatedSprite2D" || sprite["owner"] != "res://player.tscn" || sprite["type"] != "AnimatedSprite2D" {
		t.Errorf("instance child: %v", sprite)
	}
	if len(children(player)) != 3 {
		t.Errorf("Player has %d children, want 3 (player.tscn)", len(children(player)))
	}
	if child(t, tree, "MobPath")["children"].([]any)[0].(obj)["type"] != "PathFollow2D" {
		t.Error("MobPath/MobSpawnLocation")
	}
	// main.tscn has 12 nodes, player.tscn brings 3 more, hud.tscn 4.
	if n := count(tree); n != 12+3+4 {
		t.Errorf("%d nodes in the tree", n)
	}

	root := plugintest.Call(t, h, "get_scene_tree", obj{"max_depth": 0, "lightweight": true})["tree"].(obj)
	if len(children(root)) != 0 || root["name"] != "Main" {
		t.Errorf("max_depth 0: %v", root)
	}
	if _, ok := root["script"]; ok {
		t.Error("lightweight tree has scripts")
	}
	one := plugintest.Call(t, h, "get_scene_tree", obj{"max_depth": 1})["tree"].(obj)
	if count(one) != 11 {
		t.Errorf("max_depth 1: %d nodes", count(one))
	}
}

// get_scene_tree is bounded breadth first by max_depth, max_nodes and
// maxTreeBytes; every cut says how much it left out and how to see more.
func TestHeadlessTruncation(t *testing.T) {
	h, _ := headless(t, "2d-dodge_the_creeps", "res://main.tscn")
	for _, tc := range []struct {
		name      string
		args      obj
		bytes     int
		wantNodes int
	}{
		{"node cap", obj{"max_nodes": 5}, 0, 5},
		{"depth", obj{"max_depth": 0}, 0, 1},
		{"byte cap", nil, 700, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.bytes > 0 {
				old := maxTreeBytes
				maxTreeBytes = tc.bytes
				defer func() { maxTreeBytes = old }()
			}
			out := plugintest.Call(t, h, "get_scene_tree", tc.args)
			if out["truncated"] != true || !strings.Contains(out["hint"].(string), "snapshot_subtree") || out["total_nodes"] != float64(19) {
				t.Fatalf("not truncated: %v", out)
			}
			tree := out["tree"].(obj)
			n := count(tree)
			if n != int(out["nodes"].(float64)) || (tc.wantNodes > 0 && n != tc.wantNodes) {
				t.Errorf("%d nodes in the tree, nodes says %v, want %d", n, out["nodes"], tc.wantNodes)
			}
			if tc.bytes > 0 && size(tree) > tc.bytes+200 {
				t.Errorf("truncated tree: %d bytes for a %d-byte cap", size(tree), tc.bytes)
			}
			if omitted(tree) == 0 {
				t.Error("no node carries children_omitted")
			}
		})
	}
}

// omitted sums the children_omitted markers of a tree answer.
func omitted(v obj) int {
	n := 0
	if o, ok := v["children_omitted"].(float64); ok {
		n += int(o)
	}
	for _, c := range children(v) {
		n += omitted(c)
	}
	return n
}

func TestHeadlessEditableChildren(t *testing.T) {
	h, _ := headless(t, "2d-finite_state_machine", "res://Demo.tscn")
	tree := plugintest.Call(t, h, "get_scene_tree", nil)["tree"].(obj)
	player := child(t, tree, "Player")
	sm := child(t, player, "StateMachine")
	if sm["owner"] != "res://player/Player.tscn" || sm["editable_children"] != true {
		t.Errorf("StateMachine: %v", sm)
	}
	// The override in Demo.tscn wins over player.tscn's value.
	v := plugintest.Call(t, h, "get_node_property", obj{"node_path": "Player/StateMachine", "property": "start_state"})
	if v["value"] != "Idle" || v["exists"] != true {
		t.Errorf("start_state: %v", v)
	}
	if p := plugintest.Call(t, h, "get_node_property", obj{"node_path": "Player", "property": "position"}); p["value"].(obj)["x"] != float64(640) {
		t.Errorf("Player position: %v", p)
	}
	// Nodes of an instance without editable children are not marked.
	panel := child(t, child(t, tree, "Control"), "ControlsPanel")
	for _, c := range children(panel) {
		if c["editable_children"] != nil || c["owner"] == nil {
			t.Errorf("ControlsPanel child %v", c)
		}
	}
}

func TestHeadlessNodeProperties(t *testing.T) {
	h, _ := headless(t, "2d-dodge_the_creeps", "res://main.tscn")
	mt := plugintest.Call(t, h, "get_node_properties", obj{"node_path": "MobTimer"})
	if mt["node_path"] != "MobTimer" || mt["type"] != "Timer" || mt["script"] != nil || len(mt["children"].([]any)) != 0 {
		t.Errorf("MobTimer: %v", mt)
	}
	b := mt["builtin"].(obj)
	if b["wait_time"] != 0.5 || b["one_shot"] != false || b["autostart"] != false || b["process_callback"] != float64(1) {
		t.Errorf("MobTimer builtin: %v", b)
	}
	if ov := mt["overridden"].([]any); len(ov) != 1 || ov[0] != "wait_time" {
		t.Errorf("overridden: %v", ov)
	}
	main := plugintest.Call(t, h, "get_node_properties", obj{"node_path": "."})
	if main["script"] != "res://main.gd" || main["properties"].(obj)["mob_scene"] != "res://mob.tscn" || len(main["children"].([]any)) != 10 {
		t.Errorf("Main: %v", main)
	}
	cases := []struct {
		node, prop string
		want       any
	}{
		{"StartPosition", "position", obj{"x": float64(240), "y": float64(450)}},
		{"ColorRect", "color", obj{"r": 0.219608, "g": 0.372549, "b": 0.380392, "a": float64(1)}},
		{"ColorRect", "anchor_right", float64(1)},
		{"ColorRect", "offset_left", float64(0)}, // the engine default
		{"Player/AnimatedSprite2D", "scale", obj{"x": 0.5, "y": 0.5}},
		{"Player/AnimatedSprite2D", "animation", "right"},
		{"Player/CollisionShape2D", "shape", obj{"type": "CapsuleShape2D", "id": "2", "path": "res://player.tscn::2",
			"properties": obj{"radius": float64(27), "height": float64(68)}}}, // embedded: shown as itself
		{"Music", "stream", "res://art/House In a Forest Loop.ogg"},
		{"MobPath", "name", "MobPath"},
		{"Player", "script", "res://player.gd"},
	}
	for _, c := range cases {
		got := plugintest.Call(t, h, "get_node_property", obj{"node_path": c.node, "property": c.prop})
		if got["exists"] != true || !jsonEqual(got["value"], c.want) || got["node_path"] != c.node || got["property"] != c.prop {
			t.Errorf("%s.%s = %v, want %v", c.node, c.prop, got, c.want)
		}
	}
	if got := plugintest.Call(t, h, "get_node_property", obj{"node_path": "MobTimer", "property": "no_such"}); got["exists"] != false || got["value"] != nil {
		t.Errorf("unknown property: %v", got)
	}
	fails(t, h, "get_node_property", obj{"node_path": "Nope", "property": "x"}, sdk.CodeNotFound)
	// A refused path names the node that was probably meant.
	for p, want := range map[string]string{
		"MobTimr":          "did you mean 'MobTimer'?",
		"CollisionShape2D": "did you mean 'Player/CollisionShape2D'?", // the parent left out
		"Nope":             "node paths are relative",
	} {
		if e := fails(t, h, "get_node_property", obj{"node_path": p, "property": "x"}, sdk.CodeNotFound); !strings.HasPrefix(e.Hint, want) {
			t.Errorf("%s: hint %q, want it to start %q", p, e.Hint, want)
		}
	}
	// Paths as the addon normalises them.
	for _, p := range []string{"/root/MobTimer", "/MobTimer", "./MobTimer"} {
		if got := plugintest.Call(t, h, "get_node_property", obj{"node_path": p, "property": "wait_time"}); got["value"] != 0.5 {
			t.Errorf("%s: %v", p, got)
		}
	}

	pl := plugintest.Call(t, h, "get_node_property_list", obj{"node_path": "MobTimer"})
	names, _ := pl["properties"].([]any)
	if pl["type"] != "Timer" || !slices.Contains(names, any("wait_time")) || !slices.Contains(names, any("process_mode")) {
		t.Errorf("property list: %v", pl)
	}
	if pl := plugintest.Call(t, h, "get_node_property_list", obj{"node_path": "."}); !slices.Contains(pl["properties"].([]any), any("mob_scene")) {
		t.Errorf("Main's property list lacks its script variable: %v", pl)
	}

	g := plugintest.Call(t, h, "get_node_groups", obj{"scene": "res://mob.tscn", "node_path": "."})
	if gs := g["groups"].([]any); len(gs) != 1 || gs[0] != "mobs" {
		t.Errorf("mob groups: %v", g)
	}
	if g := plugintest.Call(t, h, "get_node_groups", obj{"node_path": "MobTimer"}); len(g["groups"].([]any)) != 0 {
		t.Errorf("MobTimer groups: %v", g)
	}
	sel := plugintest.Call(t, h, "get_selected_node", nil)
	if sel["selected"] != nil || !strings.Contains(sel["note"].(string), "headless") {
		t.Errorf("selection: %v", sel)
	}
}

func TestHeadlessSnapshotDiff(t *testing.T) {
	h, dir := headless(t, "2d-dodge_the_creeps", "res://main.tscn")
	s := plugintest.Call(t, h, "snapshot_subtree", obj{"properties": []string{"wait_time"}})
	snap := s["snapshot"].(obj)
	id := s["snapshot_id"].(string)
	if s["node_path"] != "." || snap["name"] != "Main" || count(snap) != 19 {
		t.Fatalf("snapshot: %v nodes %d", keys(s), count(snap))
	}
	sp := child(t, snap, "StartPosition")
	if !jsonEqual(sp["properties"].(obj)["position"], obj{"x": 240, "y": 450}) {
		t.Errorf("StartPosition snapshot: %v", sp)
	}
	if child(t, snap, "MobTimer")["properties"].(obj)["wait_time"] != 0.5 {
		t.Errorf("requested property missing: %v", child(t, snap, "MobTimer"))
	}
	same := plugintest.Call(t, h, "diff_snapshots", obj{"before": id})
	if same["unchanged"] != true {
		t.Fatalf("nothing changed, yet: %v", same)
	}

	// The user edits the scene in their own editor.
	p := filepath.Join(dir, "main.tscn")
	src, _ := os.ReadFile(p)
	edited := strings.Replace(string(src), "position = Vector2(240, 450)", "position = Vector2(100, 450)", 1)
	edited = strings.Replace(edited, "[node name=\"ScoreTimer\" type=\"Timer\" parent=\".\" unique_id=451982858]\n", "", 1)
	edited += "\n[node name=\"Extra\" type=\"Node2D\" parent=\"MobPath\"]\n"
	if err := os.WriteFile(p, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	d := plugintest.Call(t, h, "diff_snapshots", obj{"before": id})
	if d["unchanged"] != false || !jsonEqual(d["added"], []any{"MobPath/Extra"}) || !jsonEqual(d["removed"], []any{"ScoreTimer"}) {
		t.Errorf("diff: %v", d)
	}
	ch := d["changed"].([]any)
	if len(ch) != 1 || ch[0].(obj)["node_path"] != "StartPosition" || ch[0].(obj)["field"] != "properties.position" ||
		!jsonEqual(ch[0].(obj)["after"], obj{"x": 100, "y": 450}) {
		t.Errorf("changed: %v", ch)
	}
	// Two stored snapshots compare the same way.
	after := d["after"].(string)
	if d2 := plugintest.Call(t, h, "diff_snapshots", obj{"before": id, "after": after}); !jsonEqual(d2["changed"], d["changed"]) {
		t.Errorf("stored diff: %v", d2)
	}
	fails(t, h, "diff_snapshots", obj{"before": "snap-999999"}, sdk.CodeNotFound)
	// A subtree with a depth limit.
	sub := plugintest.Call(t, h, "snapshot_subtree", obj{"node_path": "Player", "max_depth": 0})["snapshot"].(obj)
	if sub["path"] != "Player" || len(children(sub)) != 0 {
		t.Errorf("subtree: %v", sub)
	}
}

// TestHeadlessBrokenScene: a scene that does not parse or instances a
// missing file is a clear error, not a crash.
func TestHeadlessBrokenScene(t *testing.T) {
	h, dir := headless(t, "2d-dodge_the_creeps", "")
	if err := os.WriteFile(filepath.Join(dir, "bad.tscn"), []byte("[gd_scene format=3]\n[node name=\"A\" type=\"Node\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fails(t, h, "get_scene_tree", obj{"scene": "res://bad.tscn"}, sdk.CodeInvalidArgument)
	if err := os.Remove(filepath.Join(dir, "player.tscn")); err != nil {
		t.Fatal(err)
	}
	e := fails(t, h, "get_scene_tree", obj{"scene": "res://main.tscn"}, sdk.CodeNotFound)
	if !strings.Contains(e.Message, "res://player.tscn") {
		t.Errorf("missing instance: %+v", e)
	}
	fails(t, h, "get_scene_tree", obj{"scene": "res://none.tscn"}, sdk.CodeNotFound)
	fails(t, h, "get_scene_tree", obj{"scene": "res://project.godot"}, sdk.CodeInvalidArgument)
	fails(t, h, "get_scene_tree", obj{"scene": "res://../outside.tscn"}, sdk.CodeInvalidArgument)
	if err := os.WriteFile(filepath.Join(dir, "bin.scn"), []byte("RSCC\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	if e := fails(t, h, "get_scene_tree", obj{"scene": "res://bin.scn"}, sdk.CodeInvalidArgument); !strings.Contains(e.Message, "binary") {
		t.Errorf("binary scene: %+v", e)
	}
	// A scene that instances itself.
	self := "[gd_scene format=3]\n\n[ext_resource type=\"PackedScene\" path=\"res://loop.tscn\" id=\"1\"]\n\n[node name=\"L\" type=\"Node\"]\n\n[node name=\"Again\" parent=\".\" instance=ExtResource(\"1\")]\n"
	if err := os.WriteFile(filepath.Join(dir, "loop.tscn"), []byte(self), 0o644); err != nil {
		t.Fatal(err)
	}
	fails(t, h, "get_scene_tree", obj{"scene": "res://loop.tscn"}, sdk.CodeInvalidArgument)
}

var _ = context.Background

// TestHeadlessNestedAndInherited: a scene instancing main.tscn (which
// instances player.tscn) marks each node with the scene that defines it,
// and an inherited scene shows its base's nodes as its own.
func TestHeadlessNestedAndInherited(t *testing.T) {
	h, dir := headless(t, "2d-dodge_the_creeps", "")
	write := func(name, src string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("outer.tscn", `[gd_scene format=3]

[ext_resource type="PackedScene" path="res://main.tscn" id="1"]

[node name="Outer" type="Node2D"]

[node name="Game" parent="." instance=ExtResource("1")]

[node name="Mine" type="Node" parent="Game/Player" groups=["b", "_internal", "a"]]
`)
	tree := plugintest.Call(t, h, "get_scene_tree", obj{"scene": "res://outer.tscn"})["tree"].(obj)
	game := child(t, tree, "Game")
	if game["owner"] != nil || game["type"] != "Node" || game["script"] != "res://main.gd" {
		t.Errorf("Game: %v", game)
	}
	player := child(t, game, "Player")
	if player["owner"] != "res://main.tscn" || player["path"] != "Game/Player" {
		t.Errorf("Game/Player: %v", player)
	}
	if s := child(t, player, "AnimatedSprite2D"); s["owner"] != "res://player.tscn" || s["path"] != "Game/Player/AnimatedSprite2D" {
		t.Errorf("nested instance child: %v", s)
	}
	// A node outer.tscn adds inside the instance is its own.
	if m := child(t, player, "Mine"); m["owner"] != nil {
		t.Errorf("Mine: %v", m)
	}
	if g := plugintest.Call(t, h, "get_node_groups", obj{"scene": "res://outer.tscn", "node_path": "Game/Player/Mine"}); !jsonEqual(g["groups"], []any{"a", "b"}) {
		t.Errorf("groups: %v", g)
	}

	write("inherited.tscn", `[gd_scene format=3]

[ext_resource type="PackedScene" path="res://player.tscn" id="1"]

[node name="Hero" instance=ExtResource("1")]
z_index = 3

[node name="AnimatedSprite2D" parent="." index="0"]
scale = Vector2(2, 2)

[node name="Hat" type="Sprite2D" parent="AnimatedSprite2D"]
`)
	tree = plugintest.Call(t, h, "get_scene_tree", obj{"scene": "res://inherited.tscn"})["tree"].(obj)
	if tree["name"] != "Hero" || tree["type"] != "Area2D" || tree["script"] != "res://player.gd" || len(children(tree)) != 3 {
		t.Fatalf("inherited root: %v", tree)
	}
	sprite := child(t, tree, "AnimatedSprite2D")
	if sprite["owner"] != nil || child(t, sprite, "Hat")["type"] != "Sprite2D" {
		t.Errorf("inherited nodes are the scene's own: %v", sprite)
	}
	for prop, want := range map[string]any{"scale": obj{"x": 2, "y": 2}, "animation": "right"} {
		got := plugintest.Call(t, h, "get_node_property", obj{"scene": "res://inherited.tscn", "node_path": "AnimatedSprite2D", "property": prop})
		if !jsonEqual(got["value"], want) {
			t.Errorf("%s = %v, want %v", prop, got["value"], want)
		}
	}
	if z := plugintest.Call(t, h, "get_node_property", obj{"scene": "res://inherited.tscn", "node_path": ".", "property": "z_index"}); z["value"] != float64(3) {
		t.Errorf("z_index: %v", z)
	}
}

// A uid:// main scene (what Godot 4.4+ writes) reads as the path of the
// scene that has the uid, in both tools that report it.
func TestHeadlessMainSceneUID(t *testing.T) {
	h, _ := headless(t, "3d-ragdoll_physics", "")
	const want = "res://ragdoll_physics.tscn"
	if info := plugintest.Call(t, h, "get_project_info", nil); info["main_scene"] != want {
		t.Errorf("get_project_info main_scene: %v", info["main_scene"])
	}
	ls := plugintest.Call(t, h, "list_scenes", nil)
	if ls["main_scene"] != want {
		t.Errorf("list_scenes main_scene: %v", ls["main_scene"])
	}
	for _, s := range ls["scenes"].([]any) {
		if m := s.(obj); m["is_main"] != (m["path"] == want) {
			t.Errorf("scene entry %v", m)
		}
	}
}

// One scene whose file name is not valid UTF-8 used to fail list_scenes
// for the whole project; it is listed escaped, with a warning.
func TestListScenesWithInvalidUTF8Name(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"project.godot": "config_version=5\n",
		"main.tscn":     "[gd_scene format=3]\n\n[node name=\"Main\" type=\"Node2D\"]\n",
		"caf\xe9.tscn":  "[gd_scene format=3]\n\n[node name=\"Cafe\" type=\"Node2D\"]\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Skipf("cannot create %q: %v", name, err)
		}
	}
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.7"})
	ls := plugintest.Call(t, h, "list_scenes", nil)
	scenes, _ := ls["scenes"].([]any)
	if len(scenes) != 2 {
		t.Fatalf("list_scenes: %v", ls)
	}
	bad, good := scenes[0].(obj), scenes[1].(obj)
	if bad["path"] != "res://caf\uFFFDe9.tscn" || !strings.Contains(fmt.Sprint(bad["warning"]), "not valid UTF-8") {
		t.Errorf("escaped entry: %v", bad)
	}
	if good["path"] != "res://main.tscn" || good["warning"] != nil {
		t.Errorf("plain entry: %v", good)
	}
	// The escaped path names the file for the other tools.
	tree := plugintest.Call(t, h, "get_scene_tree", obj{"scene": "res://caf\uFFFDe9.tscn"})
	if !strings.Contains(fmt.Sprint(tree), "Cafe") {
		t.Errorf("get_scene_tree of the escaped path: %v", tree)
	}
}

// A scene that instances an imported model (.glb) reads headless: the
// node shows with its instance and class, the overrides the scene makes
// inside the model and the nodes it adds there are listed under it, and
// get_node_properties gives their values. It used to fail whole, as the
// model is not a text scene.
func TestImportedSceneInstance(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"project.godot":    "config_version=5\n",
		"enemy.glb":        "glTF\x02\x00\x00\x00binary",
		"enemy.glb.import": "[remap]\n\nimporter=\"scene\"\ntype=\"PackedScene\"\n\n[params]\n\nnodes/root_type=\"CharacterBody3D\"\n",
		"enemy.tscn": `[gd_scene format=3 uid="uid://benemy000001"]

[ext_resource type="PackedScene" path="res://enemy.glb" id="1_m"]

[node name="Enemy" type="RigidBody3D" unique_id=1]

[node name="Model" parent="." unique_id=2 instance=ExtResource("1_m")]

[node name="Skeleton3D" parent="Model/Skeleton" parent_id_path=PackedInt32Array(2, 3) index="0" unique_id=4]
bones/0/position = Vector3(0, 1, 0)

[node name="RayFloor" type="RayCast3D" parent="Model/Skeleton" parent_id_path=PackedInt32Array(2, 3) index="1" unique_id=5]

[node name="Box" type="CollisionShape3D" parent="." unique_id=6]

[editable path="Model"]
`,
	}
	for p, src := range files {
		plugintest.WriteFile(t, dir, "res://"+p, src)
	}
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	tree := plugintest.Call(t, h, "get_scene_tree", obj{"scene": "res://enemy.tscn"})["tree"].(obj)
	kids := tree["children"].([]any)
	if len(kids) != 2 {
		t.Fatalf("root children: %v", kids)
	}
	model := kids[0].(obj)
	if model["name"] != "Model" || model["type"] != "CharacterBody3D" || model["instance"] != "res://enemy.glb" || model["children_unknown"] != true {
		t.Errorf("the model's node: %v", model)
	}
	skel := model["children"].([]any)[0].(obj)
	if skel["path"] != "Model/Skeleton" || skel["owner"] != "res://enemy.glb" {
		t.Errorf("the model's Skeleton: %v", skel)
	}
	var names []string
	for _, c := range skel["children"].([]any) {
		names = append(names, c.(obj)["name"].(string)+":"+c.(obj)["type"].(string))
	}
	if strings.Join(names, ",") != "Skeleton3D:,RayFloor:RayCast3D" {
		t.Errorf("under the Skeleton: %v", names)
	}
	props := plugintest.Call(t, h, "get_node_properties", obj{"scene": "res://enemy.tscn", "node_path": "Model/Skeleton/Skeleton3D"})
	if !strings.Contains(fmt.Sprint(props), "bones/0/position") {
		t.Errorf("the override's values: %v", props)
	}
}
