package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A value argument is listed as a string (one plain type, for the clients
// that need one) and takes, through the real host, any JSON value as well
// as its text: a client bound to the schema sends "[16, 32]" or an inline
// resource as JSON text, another sends the list and the object; both set
// the same values.
func TestValueArgumentsAsTextAndAsJSON(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			dir := copyFixture(t, "2d-pong")
			s := stdioHost(t, proto, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
			s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"scene_edit"}}, nil)

			tools, err := s.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, tl := range tools.Tools {
				if tl.Name != "godot_scene_edit_set_node_property" {
					continue
				}
				var schema struct {
					Properties map[string]map[string]any `json:"properties"`
				}
				b, _ := json.Marshal(tl.InputSchema)
				_ = json.Unmarshal(b, &schema)
				if typ := schema.Properties["value"]["type"]; typ != "string" {
					t.Fatalf("value is listed as %v, want string", typ)
				}
			}

			write := func(scene string, args map[string]any) string {
				t.Helper()
				s.ok(t, "godot_scene_edit_create_scene", map[string]any{"scene_path": scene, "root_type": "Node2D"}, nil)
				s.ok(t, "godot_scene_edit_create_node", map[string]any{"scene": scene, "node_type": "Area2D", "node_name": "Hit"}, nil)
				s.ok(t, "godot_scene_edit_create_node", map[string]any{"scene": scene, "node_type": "CollisionShape2D", "node_name": "Shape", "parent_path": "Hit"}, nil)
				for prop, v := range args {
					node := "Hit"
					if prop == "shape" {
						node = "Hit/Shape"
					}
					s.ok(t, "godot_scene_edit_set_node_property", map[string]any{"scene": scene, "node_path": node, "property": prop, "value": v}, nil)
				}
				data, err := os.ReadFile(filepath.Join(dir, strings.TrimPrefix(scene, "res://")))
				if err != nil {
					t.Fatal(err)
				}
				return string(data)
			}
			asText := write("res://text.tscn", map[string]any{
				"position":       "[16, 32]",
				"collision_mask": "5",
				"shape":          `{"type": "RectangleShape2D", "properties": {"size": "Vector2(8, 4)"}}`,
			})
			asJSON := write("res://json.tscn", map[string]any{
				"position":       []any{16, 32},
				"collision_mask": 5,
				"shape":          map[string]any{"type": "RectangleShape2D", "properties": map[string]any{"size": []any{8, 4}}},
			})
			for _, want := range []string{"position = Vector2(16, 32)", "collision_mask = 5", "size = Vector2(8, 4)", `shape = SubResource("RectangleShape2D_`} {
				if !strings.Contains(asText, want) {
					t.Errorf("sent as text, the scene lacks %q:\n%s", want, asText)
				}
			}
			if strip(asText) != strip(asJSON) {
				t.Errorf("text and JSON values wrote different scenes:\n%s\n---\n%s", asText, asJSON)
			}
		})
	}
}

// strip drops what differs between two scenes built alike: the uid,
// sub-resource and node ids are random, and the root is named after the
// file.
func strip(scene string) string {
	var out []string
	for _, l := range strings.Split(scene, "\n") {
		if strings.HasPrefix(l, "[gd_scene") || strings.Contains(l, "SubResource(") || strings.HasPrefix(l, "[sub_resource") ||
			strings.HasPrefix(l, "[node") && !strings.Contains(l, "parent=") {
			continue
		}
		out = append(out, uniqueID.ReplaceAllString(l, ""))
	}
	return strings.Join(out, "\n")
}

var uniqueID = regexp.MustCompile(` unique_id=\d+`)
