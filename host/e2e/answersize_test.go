package e2e

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxAnswerBytes bounds the text of any answer given its default
// arguments: near 20 KB, what an agent reads without losing its context
// window to one call (list-like answers page at sdk.PageBytes).
const maxAnswerBytes = 24 << 10

// fileToolsets are the toolsets that work on the project files alone (no
// engine runs), whose every read-only tool is measured.
var fileToolsets = []string{"analysis", "batch", "project", "tilemap", "scripts", "input_map", "resources_edit", "scene_edit", "composite"}

// TestAnswerSizes calls every read-only tool that needs no argument, and
// the list-like tools that do (a scene tree of every scene, the cells and
// properties of tile maps), on real projects, and fails when an answer's
// text passes maxAnswerBytes. It logs every size, and the size of the
// whole data the pages and omissions keep out (the *_all rows).
func TestAnswerSizes(t *testing.T) {
	for _, c := range []struct {
		project string
		maps    []sizedCall // tile map layers: node paths in a scene
	}{
		{"2d-dynamic_tilemap_layers", []sizedCall{{"res://world.tscn", "Ground"}}},
		{"2d-platformer", []sizedCall{{"res://level/level.tscn", "TileMapLayer"}}},
		{"2d-isometric", nil},
		{"gui-control_gallery", nil},
		{"3d-squash_the_creeps", nil},
	} {
		t.Run(c.project, func(t *testing.T) {
			dir := corpusProject(t, c.project)
			s := stdioHost(t, legacy, "--plugins-dir", projectPluginsDir, "--project", dir, "--log-level", "warn")
			s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": fileToolsets}, nil)
			var sizes []string
			measure := func(name string, args map[string]any, bounded bool) *mcp.CallToolResult {
				t.Helper()
				res := s.call(t, name, args)
				n := len(text(res))
				label := name
				if len(args) > 0 {
					b, _ := json.Marshal(args)
					label += " " + string(b)
				}
				if !bounded {
					label += " (all)"
				}
				sizes = append(sizes, fmt.Sprintf("%7d %s", n, label))
				if bounded && n > maxAnswerBytes {
					t.Errorf("%s answered %d bytes of text, over %d", label, n, maxAnswerBytes)
				}
				return res
			}

			res, err := s.ListTools(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, tl := range res.Tools {
				if tl.Annotations == nil || !tl.Annotations.ReadOnlyHint || !noRequired(tl.InputSchema) || skipSized(tl.Name) {
					continue
				}
				measure(tl.Name, nil, true)
			}

			var scenes struct {
				Scenes []struct{ Path string } `json:"scenes"`
			}
			s.ok(t, "godot_inspection_list_scenes", map[string]any{"limit": 5000, "include_addons": true}, &scenes)
			for _, sc := range scenes.Scenes {
				measure("godot_inspection_get_scene_tree", map[string]any{"scene": sc.Path}, true)
			}
			for _, m := range c.maps {
				at := map[string]any{"node_path": m.node, "scene_path": m.scene}
				measure("godot_tilemap_get_used_cells", at, true)
				measure("godot_tilemap_get_used_cells", with(at, "limit", 100000), false)
				props := map[string]any{"node_path": m.node, "scene": m.scene}
				measure("godot_inspection_get_node_properties", props, true)
				measure("godot_inspection_get_node_properties", with(props, "include_large", true), false)
			}
			measure("godot_inspection_get_project_info", map[string]any{"include_builtin_actions": true}, false)
			sort.Sort(sort.Reverse(sort.StringSlice(sizes)))
			t.Logf("answer sizes (bytes of text), largest first:\n%s", strings.Join(sizes, "\n"))
		})
	}
}

type sizedCall struct{ scene, node string }

func with(m map[string]any, k string, v any) map[string]any {
	out := map[string]any{k: v}
	for a, b := range m {
		out[a] = b
	}
	return out
}

// noRequired reports whether a tool's input schema requires no argument.
func noRequired(schema any) bool {
	b, _ := json.Marshal(schema)
	var s struct{ Required []string }
	_ = json.Unmarshal(b, &s)
	return len(s.Required) == 0
}

// skipSized names the read-only tools whose answer is not the project's
// data: the selection (none headless) and one-off reads of the host.
func skipSized(name string) bool {
	return slices.Contains([]string{"godot_inspection_get_selected_node"}, name)
}
