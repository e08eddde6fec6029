package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// subScene builds res://coin.tscn with inline resources through the real
// plugin: a shape, a gradient texture with its gradient, a shader material
// with its shader, and a second collision shape sharing the first's.
func subScene(t *testing.T) (string, func(string) *godot.File, func(args map[string]any) map[string]any) {
	t.Helper()
	dir := fixture(t, "2d-pong")
	h := headless(t, dir)
	call := func(args map[string]any) map[string]any {
		t.Helper()
		return plugintest.Call(t, h, "set_node_property", args)
	}
	plugintest.Call(t, h, "create_scene", map[string]any{"scene_path": "res://coin.tscn", "root_type": "Area2D"})
	for _, n := range []string{"CollisionShape2D", "Sprite2D"} {
		plugintest.Call(t, h, "create_node", map[string]any{"node_type": n})
	}
	plugintest.Call(t, h, "create_node", map[string]any{"node_type": "CollisionShape2D", "node_name": "Second"})
	call(map[string]any{"node_path": "CollisionShape2D", "property": "shape",
		"value": map[string]any{"type": "RectangleShape2D", "properties": map[string]any{"size": []any{16, 32}}}})
	call(map[string]any{"node_path": "Sprite2D", "property": "texture",
		"value": map[string]any{"type": "GradientTexture2D", "properties": map[string]any{"width": 16, "height": 16, "fill": "FILL_RADIAL",
			"gradient": map[string]any{"type": "Gradient", "properties": map[string]any{"colors": []any{"#ffd700", "#ff8c00"}}}}}})
	call(map[string]any{"node_path": "Sprite2D", "property": "material",
		"value": map[string]any{"type": "ShaderMaterial", "properties": map[string]any{
			"shader": map[string]any{"type": "Shader", "properties": map[string]any{"code": "shader_type canvas_item;\n\nvoid fragment() {\n\tCOLOR.rgb *= 0.5;\n}\n"}}}}})
	read := func(p string) *godot.File {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, strings.TrimPrefix(p, "res://")))
		if err != nil {
			t.Fatal(err)
		}
		f, err := godot.ParseFile(p, b)
		if err != nil {
			t.Fatalf("%s does not parse: %v\n%s", p, err, b)
		}
		return f
	}
	shape, _ := read("res://coin.tscn").Node("CollisionShape2D").Get("shape")
	call(map[string]any{"node_path": "Second", "property": "shape", "value": map[string]any{"sub_resource": shape.(godot.SubResource).ID}})
	return dir, read, call
}

// Inline resources are written as the editor writes them: [sub_resource]
// sections with editor-form ids, dependencies first in the order the nodes
// use them, defaults left out; sharing is a reference by id; a replaced
// one goes with its last user; and the real engine loads it all.
func TestInlineSubResources(t *testing.T) {
	dir, read, call := subScene(t)
	f := read("res://coin.tscn")
	var types []string
	for _, s := range f.SubResources() {
		types = append(types, s.Type())
		if !strings.HasPrefix(s.ID(), s.Type()+"_") || len(s.ID()) != len(s.Type())+6 {
			t.Errorf("id %q is not in the editor's <Class>_<5 chars> form", s.ID())
		}
	}
	if got, want := strings.Join(types, " "), "RectangleShape2D Shader ShaderMaterial Gradient GradientTexture2D"; got != want {
		t.Errorf("sub_resources in order %s, want %s (the editor's: first use in property order, material before texture, nested first)", got, want)
	}
	a, _ := f.Node("CollisionShape2D").Get("shape")
	b, _ := f.Node("Second").Get("shape")
	if a != b {
		t.Errorf("Second.shape = %v, want the shared %v", b, a)
	}
	tex := f.SubResource("GradientTexture2D_" + strings.TrimPrefix(idOf(t, f, "GradientTexture2D"), "GradientTexture2D_"))
	if v, ok := tex.Get("height"); !ok || godot.FormatValue(v) != "16" {
		t.Errorf("GradientTexture2D height = %v", v)
	}
	if v, ok := tex.Get("fill"); !ok || godot.FormatValue(v) != "1" {
		t.Errorf("GradientTexture2D fill = %v, want 1 (FILL_RADIAL)", v)
	}
	roundTrips(t, "coin.tscn", string(f.Bytes()))
	scene, err := os.ReadFile(filepath.Join(dir, "coin.tscn"))
	if err != nil {
		t.Fatal(err)
	}
	rep := enginecheck.Files(t, map[string][]byte{"project.godot": mustRead(t, dir, "project.godot"), "coin.tscn": scene})
	if len(rep.Errors()) > 0 || testing.Verbose() {
		t.Logf("scene:\n%s", scene)
	}

	// Replacing one user's shape keeps the shared one for the other; the
	// last user's replacement drops it.
	rect := idOf(t, f, "RectangleShape2D")
	call(map[string]any{"node_path": "CollisionShape2D", "property": "shape", "value": map[string]any{"type": "CircleShape2D", "properties": map[string]any{"radius": 8}}})
	if read("res://coin.tscn").SubResource(rect) == nil {
		t.Fatalf("the shared RectangleShape2D went while Second still uses it")
	}
	call(map[string]any{"node_path": "Second", "property": "shape", "value": nil})
	if read("res://coin.tscn").SubResource(rect) != nil {
		t.Errorf("the RectangleShape2D stayed after its last user let it go")
	}
}

func idOf(t *testing.T, f *godot.File, class string) string {
	t.Helper()
	for _, s := range f.SubResources() {
		if s.Type() == class {
			return s.ID()
		}
	}
	t.Fatalf("no %s sub_resource", class)
	return ""
}

func mustRead(t *testing.T, dir, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, p))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A value that is refused leaves the scene byte for byte as it was, and
// undo takes an inline set back to the bytes before it.
func TestInlineRefusedAndUndone(t *testing.T) {
	dir := fixture(t, "2d-pong")
	plugintest.WriteFile(t, dir, "res://grad.tres", "[gd_resource type=\"GradientTexture2D\" format=3 uid=\"uid://cgradtex0001\"]\n\n[resource]\n")
	h := headless(t, dir)
	plugintest.Call(t, h, "open_scene", map[string]any{"scene_path": pong})
	before := mustRead(t, dir, "pong.tscn")
	for _, tc := range []struct {
		value any
		want  string
	}{
		{map[string]any{"type": "RectangleShape2D", "properties": map[string]any{"siz": []any{1, 2}}}, "size"},
		{map[string]any{"type": "BoxShape3D"}, "Shape2D"},
		{map[string]any{"type": "CapsuleShape2D", "properties": map[string]any{"radius": "wide"}}, "radius"},
		{map[string]any{"sub_resource": "Nope_12345"}, "no sub-resource"},
	} {
		msg := plugintest.CallErr(t, h, "set_node_property", map[string]any{"node_path": "Left/Collision", "property": "shape", "value": tc.value})
		if !strings.Contains(msg, tc.want) {
			t.Errorf("refusal %q does not mention %q", msg, tc.want)
		}
	}
	if got := mustRead(t, dir, "pong.tscn"); string(got) != string(before) {
		t.Fatalf("a refused value changed pong.tscn")
	}
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Left/Collision", "property": "shape",
		"value": map[string]any{"type": "CapsuleShape2D", "properties": map[string]any{"radius": 4, "height": 30}}})
	after := string(mustRead(t, dir, "pong.tscn"))
	if !strings.Contains(after, `[sub_resource type="CapsuleShape2D" id="CapsuleShape2D_`) {
		t.Fatalf("no CapsuleShape2D sub_resource:\n%s", after)
	}
	// A uid:// inside an inline resource is the file it names, an ext_resource.
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Separator", "property": "texture",
		"value": map[string]any{"type": "AtlasTexture", "properties": map[string]any{"atlas": "uid://cgradtex0001", "region": []any{0, 0, 4, 4}}}})
	after = string(mustRead(t, dir, "pong.tscn"))
	if !strings.Contains(after, `[sub_resource type="AtlasTexture" id="AtlasTexture_`) || !strings.Contains(after, `path="res://grad.tres"`) {
		t.Fatalf("AtlasTexture with a uid:// atlas:\n%s", after)
	}
	if _, err := h.Workspace().Undo(context.Background(), 2, false); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, dir, "pong.tscn"); string(got) != string(before) {
		t.Errorf("undo did not restore pong.tscn")
	}
}
