package main

import (
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
)

// The coin project of TestInstancedNodes, plus a scene that inherits
// coin.tscn (gold.tscn), overrides and instances made the way the editor
// saves them, and a level whose branch is connected to the rest.
func structureProject(t *testing.T) string {
	t.Helper()
	dir := coinProject(t)
	files := map[string]string{
		"res://gold.tscn": `[gd_scene format=3 uid="uid://bgold0000001"]

[ext_resource type="PackedScene" uid="uid://bcoin0000001" path="res://coin.tscn" id="1_c"]

[node name="GoldCoin" unique_id=1111 instance=ExtResource("1_c")]

[node name="Sprite2D" parent="." index="0" unique_id=2222]
modulate = Color(1, 0.8, 0, 1)

[node name="Sparkle" type="Node2D" parent="Sprite2D" parent_id_path=PackedInt32Array(2222) index="0" unique_id=9001]

[node name="Extra" type="Node2D" parent="." index="2" unique_id=9002]

[node name="Tail" type="Node2D" parent="." index="3" unique_id=9003]
`,
		// main.tscn with the overrides TestInstancedNodes has the tools write.
		"res://main.tscn": `[gd_scene format=3 uid="uid://bmain0000001"]

[ext_resource type="PackedScene" uid="uid://bcoins000001" path="res://coins.tscn" id="1_cs"]
[ext_resource type="PackedScene" uid="uid://bcoin0000001" path="res://coin.tscn" id="2_c"]

[node name="Main" type="Node2D" unique_id=100]

[node name="Coins" parent="." unique_id=200 instance=ExtResource("1_cs")]

[node name="Sprite2D" parent="Coins/Coin1" parent_id_path=PackedInt32Array(200, 600) index="0" unique_id=2222]
modulate = Color(1, 0, 0, 1)

[node name="Glow" type="PointLight2D" parent="Coins/Coin1/Sprite2D" parent_id_path=PackedInt32Array(200, 600, 2222) index="0" unique_id=7001]

[node name="Coin" parent="." unique_id=300 instance=ExtResource("2_c")]

[node name="Label" type="Label" parent="." unique_id=800]

[connection signal="visibility_changed" from="Coins/Coin1/Sprite2D" to="Label" method="hide"]

[editable path="Coins"]
[editable path="Coins/Coin1"]
`,
		"res://level.gd": "extends Node2D\n\nfunc _on_hit(_body: Node2D) -> void:\n\tpass\n\nfunc _on_timeout() -> void:\n\tpass\n",
		"res://level.tscn": `[gd_scene format=3 uid="uid://blevel000001"]

[ext_resource type="Script" path="res://level.gd" id="1_s"]

[node name="Level" type="Node2D" unique_id=1]
script = ExtResource("1_s")

[node name="Door" type="Area2D" parent="." unique_id=2]

[node name="Shape" type="CollisionShape2D" parent="Door" unique_id=3]

[node name="Timer" type="Timer" parent="Door" unique_id=4]

[node name="Hud" type="Label" parent="." unique_id=5]

[connection signal="body_entered" from="Door" to="." method="_on_hit"]
[connection signal="timeout" from="Door/Timer" to="." method="_on_timeout"]
[connection signal="ready" from="Hud" to="Door/Timer" method="start"]
[connection signal="timeout" from="Door/Timer" to="Door/Timer" method="stop"]
`,
	}
	for p, src := range files {
		plugintest.WriteFile(t, dir, p, src)
	}
	return dir
}

// TestSceneStructureDefects covers what edits on real projects lost: the
// connections of an extracted branch, the place of a duplicated node of
// an inherited scene, and the scenes that build on a renamed node. The
// engine loads every result with the values in place.
func TestSceneStructureDefects(t *testing.T) {
	dir := structureProject(t)
	h := headless(t, dir)

	// extract_scene with replace keeps the connections between the branch
	// and the rest of the scene, by their path through the instance.
	out := plugintest.Call(t, h, "extract_scene", map[string]any{"scene": "res://level.tscn", "node_path": "Door",
		"scene_path": "res://door.tscn", "replace_with_instance": true})
	if out["connections_kept"] != 3.0 {
		t.Errorf("extract answer: %v", out)
	}
	level := read(t, dir, "res://level.tscn")
	for _, want := range []string{
		`[connection signal="body_entered" from="Door" to="." method="_on_hit"]`,
		`[connection signal="timeout" from="Door/Timer" to="." method="_on_timeout"]`,
		`[connection signal="ready" from="Hud" to="Door/Timer" method="start"]`,
		`[editable path="Door"]`,
	} {
		if !strings.Contains(level, want) {
			t.Errorf("level.tscn lacks %s:\n%s", want, level)
		}
	}
	if door := read(t, dir, "res://door.tscn"); !strings.Contains(door, `[connection signal="timeout" from="Timer" to="Timer" method="stop"]`) {
		t.Errorf("the connection inside the branch did not move with it:\n%s", door)
	}

	// duplicate_node of a node added in an inherited scene: the copy goes
	// right after it, and the later siblings move up one.
	plugintest.Call(t, h, "duplicate_node", map[string]any{"scene": "res://gold.tscn", "node_path": "Extra"})
	gold := read(t, dir, "res://gold.tscn")
	for _, want := range []string{
		`[node name="Extra2" type="Node2D" parent="." index="3" unique_id=`,
		`[node name="Tail" type="Node2D" parent="." index="4" unique_id=9003]`,
	} {
		if !strings.Contains(gold, want) {
			t.Errorf("gold.tscn lacks %s:\n%s", want, gold)
		}
	}

	// rename_node in a scene others inherit and instance: they follow, in
	// the same action.
	depth := h.Workspace().History().Depth
	before := map[string]string{}
	for _, p := range []string{"res://coin.tscn", "res://gold.tscn", "res://main.tscn", "res://coins.tscn"} {
		before[p] = read(t, dir, p)
	}
	out = plugintest.Call(t, h, "rename_node", map[string]any{"scene": "res://coin.tscn", "node_path": "Sprite2D", "new_name": "Icon"})
	if got, _ := out["updated_scenes"].([]any); len(got) != 2 {
		t.Errorf("updated_scenes = %v, want gold.tscn and main.tscn", out["updated_scenes"])
	}
	if d := h.Workspace().History().Depth - depth; d != 1 {
		t.Errorf("the rename made %d actions, want one", d)
	}
	for p, wants := range map[string][]string{
		"res://gold.tscn": {
			`[node name="Icon" parent="." index="0" unique_id=2222]`,
			`[node name="Sparkle" type="Node2D" parent="Icon" parent_id_path=PackedInt32Array(2222) index="0" unique_id=9001]`,
		},
		"res://main.tscn": {
			`[node name="Icon" parent="Coins/Coin1" parent_id_path=PackedInt32Array(200, 600) index="0" unique_id=2222]`,
			`[node name="Glow" type="PointLight2D" parent="Coins/Coin1/Icon" parent_id_path=`,
			`[connection signal="visibility_changed" from="Coins/Coin1/Icon" to="Label" method="hide"]`,
		},
	} {
		got := read(t, dir, p)
		roundTrips(t, p, got)
		for _, w := range wants {
			if !strings.Contains(got, w) {
				t.Errorf("%s lacks %s:\n%s", p, w, got)
			}
		}
	}
	if read(t, dir, "res://coins.tscn") != before["res://coins.tscn"] {
		t.Error("coins.tscn names nothing under the renamed node, yet it changed")
	}

	engineLoadsCoins(t, dir, `
	print("main=", root.get_node("Coins/Coin1/Icon").modulate, " ", root.get_node("Coins/Coin1/Icon/Glow").get_class())
	var gold = load("res://gold.tscn").instantiate()
	print("gold=", gold.get_node("Icon").modulate, " ", gold.get_node("Icon/Sparkle").name)
	var order = []
	for c in gold.get_children():
		order.append(String(c.name))
	print("order=", ",".join(order))
	var lv = load("res://level.tscn").instantiate()
	var n = 0
	for c in lv.get_node("Door/Timer").get_signal_connection_list("timeout"):
		n += 1
	print("level=", lv.get_node("Door").get_signal_connection_list("body_entered").size(), " ", n)
`, []string{
		"main=(1.0, 0.0, 0.0, 1.0) PointLight2D",
		"gold=(1.0, 0.8, 0.0, 1.0) Sparkle",
		"order=Icon,Shape,Extra,Extra2,Tail",
		"level=1 2",
	}, "gold.tscn", "level.gd", "level.tscn", "door.tscn")
}
