package nodeedit_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

const bodyScene = `[gd_scene format=3 uid="uid://c1k5dq3v2m8xa"]

[node name="Main" type="Node2D"]

[node name="Body" type="StaticBody2D" parent="."]

[node name="Shape" type="CollisionShape2D" parent="Body"]

[node name="Sprite" type="Sprite2D" parent="."]
`

func parse(t *testing.T, src string) *godot.File {
	t.Helper()
	f, err := godot.ParseFile("res://main.tscn", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func js(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// set converts value for node.prop with the file's resources and sets it,
// as the tools do.
func set(t *testing.T, f *godot.File, node, prop, value string) error {
	t.Helper()
	n := f.Node(node)
	res := &nodeedit.FileResources{Doc: f, Path: "res://main.tscn"}
	v, err := nodeedit.Coerce(n.Type(), prop, js(t, value), res)
	if err != nil {
		res.Discard()
		return err
	}
	n.Set(prop, v)
	return nil
}

// Inline resources become [sub_resource] sections with editor-form ids,
// placed where the editor writes them (nested ones first, in the order the
// nodes use them), defaults left out; replacing one drops the old one.
func TestInlineResources(t *testing.T) {
	f := parse(t, bodyScene)
	if err := set(t, f, "Sprite", "texture", `{"type":"GradientTexture2D","properties":{"width":32,"height":64,"gradient":{"type":"Gradient","properties":{"colors":["#ff0000","#0000ff"]}}}}`); err != nil {
		t.Fatal(err)
	}
	if err := set(t, f, "Body/Shape", "shape", `{"type":"RectangleShape2D","properties":{"size":[16,32]}}`); err != nil {
		t.Fatal(err)
	}
	got := string(f.Bytes())
	t.Log(got)
	shape := strings.Index(got, `[sub_resource type="RectangleShape2D"`)
	grad := strings.Index(got, `[sub_resource type="Gradient"`)
	tex := strings.Index(got, `[sub_resource type="GradientTexture2D"`)
	if shape < 0 || grad < 0 || tex < 0 || !(shape < grad && grad < tex) {
		t.Fatalf("sub_resources not in the editor's order (shape, gradient, texture):\n%s", got)
	}
	if _, err := godot.ParseFile("x", []byte(got)); err != nil {
		t.Fatalf("written scene does not parse: %v", err)
	}
	// Replace the shape: the old one goes.
	old := f.Node("Body/Shape").Section
	oldRef, _ := old.Get("shape")
	if err := set(t, f, "Body/Shape", "shape", `{"type":"CircleShape2D","properties":{"radius":4}}`); err != nil {
		t.Fatal(err)
	}
	if f.SubResource(oldRef.(godot.SubResource).ID) != nil {
		t.Errorf("the replaced RectangleShape2D stayed:\n%s", f.Bytes())
	}
	// Share it with a reference by id.
	ref, _ := old.Get("shape")
	if err := set(t, f, "Sprite", "material", `{"sub_resource":"`+ref.(godot.SubResource).ID+`"}`); err == nil {
		t.Error("a CircleShape2D was accepted as a Material")
	}
}

func TestInlineRefusals(t *testing.T) {
	for _, tc := range []struct{ name, node, prop, value, want string }{
		{"unknown property", "Body/Shape", "shape", `{"type":"RectangleShape2D","properties":{"siz":[1,2]}}`, `did you mean`},
		{"wrong class", "Body/Shape", "shape", `{"type":"BoxShape3D"}`, "not a Shape2D"},
		{"abstract", "Body/Shape", "shape", `{"type":"Shape2D"}`, "abstract"},
		{"not a class", "Body/Shape", "shape", `{"type":"RectangleShape"}`, "not a Godot class"},
		{"bad nested value", "Sprite", "texture", `{"type":"GradientTexture2D","properties":{"gradient":{"type":"Gradient","properties":{"offsets":"x"}}}}`, `gradient.offsets`},
		{"unknown sub", "Sprite", "texture", `{"sub_resource":"Nope_1"}`, "no sub-resource"},
		{"stray key", "Body/Shape", "shape", `{"type":"RectangleShape2D","size":[1,2]}`, `no key "size"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := parse(t, bodyScene)
			err := set(t, f, tc.node, tc.prop, tc.value)
			if err == nil {
				t.Fatalf("accepted %s", tc.value)
			}
			msg := err.Error()
			if se, ok := errors.AsType[*sdk.Error](err); ok {
				msg += " " + se.Hint
			}
			if !strings.Contains(strings.ToLower(msg), strings.ToLower(tc.want)) {
				t.Errorf("error %q does not say %q", msg, tc.want)
			}
			if string(f.Bytes()) != bodyScene {
				t.Errorf("a refused value changed the scene:\n%s", f.Bytes())
			}
		})
	}
}
