package main

import (
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// set_property with an inline resource makes one [sub_resource] that
// every matched node shares; with an editor attached it is refused before
// anything reaches the editor.
func TestSetPropertyInlineShared(t *testing.T) {
	dir := project(t)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	plugintest.Call(t, h, "set_property", map[string]any{"scene": "res://main.tscn", "type": "Sprite2D", "property": "texture",
		"value": map[string]any{"type": "GradientTexture2D", "properties": map[string]any{"width": 8, "height": 8}}})
	got := read(t, dir, "main.tscn")
	if n := strings.Count(got, `[sub_resource type="GradientTexture2D"`); n != 1 || strings.Count(got, `texture = SubResource("GradientTexture2D_`) != 2 {
		t.Fatalf("want one shared GradientTexture2D for both sprites:\n%s", got)
	}

	ed := sdktest.NewEditor()
	eh := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: project(t), Editor: ed.Serve})
	plugintest.Refused(t, eh, "set_property", map[string]any{"scene": "res://main.tscn", "type": "Sprite2D", "property": "texture",
		"value": map[string]any{"type": "GradientTexture2D"}}, sdk.CodePreconditionFailed, "res:// path")
	if n := len(ed.Calls()); n != 0 {
		t.Errorf("%d commands reached the editor", n)
	}
}
