package nodeedit_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

const scene = `[gd_scene format=3]

[node name="Main" type="Node2D"]

[node name="Sprite" type="Sprite2D" parent="."]
`

func write(t *testing.T, dir, name, data string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Node edits convert values with the one converter and report its errors
// as INVALID_ARGUMENT naming the property and the shapes; resources are
// declared as ext_resources by res:// or uid:// path.
func TestSetProperty(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "project.godot", "config_version=5\n")
	write(t, dir, "main.tscn", scene)
	write(t, dir, "icon.svg", `<svg xmlns="http://www.w3.org/2000/svg"/>`)
	write(t, dir, "icon.svg.import", "[remap]\n\nimporter=\"texture\"\ntype=\"CompressedTexture2D\"\nuid=\"uid://b8u7dkcqq4ert\"\n")
	type in struct {
		Prop  string `json:"prop" jsonschema:"property"`
		Value any    `json:"value" jsonschema:"value"`
	}
	ts := &sdk.Toolset{Name: "t", Version: "0.0.1", Description: "Tests node editing.", Tools: []sdk.Tool{
		sdk.NewTool("set", "Set a property of Sprite.", sdk.Mutating, func(ctx context.Context, call *sdk.Call, a in) (sdk.Result, error) {
			s, err := nodeedit.Open(ctx, call, "res://main.tscn")
			if err != nil {
				return sdk.Result{}, err
			}
			n, err := s.Node("/root/Sprite")
			if err != nil {
				return sdk.Result{}, err
			}
			if _, err := s.SetProperty(n, a.Prop, a.Value); err != nil {
				if nodeedit.UnknownProperty(err) {
					return sdk.Text("unknown"), nil
				}
				return sdk.Result{}, err
			}
			if _, err := s.Commit("Set " + a.Prop); err != nil {
				return sdk.Result{}, err
			}
			return sdk.Text("ok"), nil
		}),
	}}
	h := sdktest.New(t, ts, sdktest.Options{ProjectDir: dir})
	call := func(prop string, v any) *sdktest.Result {
		t.Helper()
		r := h.Call(context.Background(), "set", map[string]any{"prop": prop, "value": v})
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		return r
	}
	read := func() string {
		b, _ := os.ReadFile(filepath.Join(dir, "main.tscn"))
		return string(b)
	}
	for _, c := range []struct {
		prop  string
		value any
		want  string
	}{
		{"modulate", "#ff0000", "modulate = Color(1, 0, 0, 1)"},
		{"self_modulate", "cornflower_blue", "self_modulate = Color(0.39215687, 0.58431375, 0.92941177, 1)"},
		{"position", []any{1, 2}, "position = Vector2(1, 2)"},
		{"texture", "res://icon.svg", `texture = ExtResource(`},
		{"process_mode", "always", "process_mode = 3"},
	} {
		if r := call(c.prop, c.value); r.IsError || !strings.Contains(read(), c.want) {
			t.Errorf("%s = %v: %s\n%s", c.prop, c.value, r.Text(), read())
		}
	}
	// Declared with its uid, as the editor declares it.
	if !strings.Contains(read(), `[ext_resource type="Texture2D" uid="uid://b8u7dkcqq4ert" path="res://icon.svg"`) {
		t.Errorf("texture not declared:\n%s", read())
	}
	// Properties in the order Godot saves them, whatever the order set.
	if i, j := strings.Index(read(), "process_mode = 3"), strings.Index(read(), "\nmodulate = "); i < 0 || j < i {
		t.Errorf("process_mode is saved before modulate:\n%s", read())
	}

	// The uid:// of the same file names it too: no second declaration.
	if r := call("texture", "uid://b8u7dkcqq4ert"); r.IsError || strings.Count(read(), "[ext_resource") != 1 {
		t.Errorf("texture by uid: %s\n%s", r.Text(), read())
	}

	before := read()
	r := call("position", []any{1, 2, 3})
	if !r.IsError || r.Error == nil || r.Error.Code != sdk.CodeInvalidArgument || r.Error.Required != "value" ||
		r.Error.Message != `Setting 'position' failed: [1,2,3] is not a Vector2 (3 numbers; a Vector2 has 2)` ||
		r.Error.Hint != `pass {"x":…,"y":…}, [x, y] or "Vector2(x, y)"` {
		t.Errorf("three numbers: %+v", r.Error)
	}
	if r := call("postion", 1); r.Text() != "unknown" {
		t.Errorf("unknown property: %s", r.Text())
	}
	if r := call("texture", "uid://nosuchuid"); !r.IsError || r.Error == nil || r.Error.Code != sdk.CodeNotFound {
		t.Errorf("unknown uid: %s", r.Text())
	}
	if r := call("texture", "res://main.tscn"); !r.IsError || r.Error == nil || !strings.Contains(r.Error.Message, "is a PackedScene, not a Texture2D") {
		t.Errorf("a scene as a texture: %s", r.Text())
	}
	if read() != before {
		t.Errorf("refused edits changed the scene:\n%s", read())
	}

	// The class default (or null) is no value to save: the property goes.
	for _, c := range []struct {
		prop  string
		value any
	}{{"position", []any{0, 0}}, {"modulate", nil}, {"texture", nil}} {
		if r := call(c.prop, c.value); r.IsError || strings.Contains(read(), "\n"+c.prop+" = ") {
			t.Errorf("%s = %v is the default: %s\n%s", c.prop, c.value, r.Text(), read())
		}
	}
	// "script" attaches a script (as AttachScript), null detaches it.
	write(t, dir, "s.gd", "extends Sprite2D\n")
	if r := call("script", "res://s.gd"); r.IsError || !strings.Contains(read(), `[ext_resource type="Script" path="res://s.gd"`) || !strings.Contains(read(), "script = ExtResource(") {
		t.Errorf("script: %s\n%s", r.Text(), read())
	}
	if r := call("script", nil); r.IsError || strings.Contains(read(), "script = ") {
		t.Errorf("script = null: %s\n%s", r.Text(), read())
	}
	// Metadata takes any value.
	if r := call("metadata/hp", 3); r.IsError || !strings.Contains(read(), "metadata/hp = 3") {
		t.Errorf("metadata: %s\n%s", r.Text(), read())
	}
}

func TestErr(t *testing.T) {
	plain := errors.New("boom")
	if nodeedit.Err(plain) != plain || nodeedit.Err(nil) != nil {
		t.Error("other errors are not passed through")
	}
	_, err := nodeedit.Coerce("Node2D", "rotation", "fast", nil)
	var e *sdk.Error
	if !errors.As(err, &e) || e.Code != sdk.CodeInvalidArgument || e.Hint != "pass a number" || e.Message != `Setting 'rotation' failed: "fast" is not a float` {
		t.Errorf("Coerce error: %v", err)
	}
	_, err = nodeedit.Coerce("Node2D", "rotaton", 1.0, nil)
	if !errors.As(err, &e) || e.Required != "property" || e.Hint != `did you mean "rotation"?` {
		t.Errorf("unknown property: %v", err)
	}
	// A Godot 3 name gets its Godot 4 spelling.
	_, err = nodeedit.Coerce("Node2D", "pause_mode", 1.0, nil)
	if !errors.As(err, &e) || e.Required != "property" || !strings.Contains(e.Hint, "in Godot 4 it is process_mode") {
		t.Errorf("Godot 3 property: %v", err)
	}
}
