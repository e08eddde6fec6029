package e2e

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/projfixture"

	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// corpusProject copies a project of the shared Godot 4 corpus into a temporary
// directory.
func corpusProject(t testing.TB, name string) string { return projfixture.Copy(t, name) }

type treeNode struct {
	Name     string     `json:"name"`
	Type     string     `json:"type"`
	Path     string     `json:"path"`
	Owner    string     `json:"owner"`
	Children []treeNode `json:"children"`
}

func (n treeNode) count() int {
	c := 1
	for _, ch := range n.Children {
		c += ch.count()
	}
	return c
}

// TestInspectionHeadless: the real host starts the inspection toolset by
// default, and an agent reads a real project with no Godot at all.
func TestInspectionHeadless(t *testing.T) {
	dir := corpusProject(t, "2d-dodge_the_creeps")
	s := stdioHost(t, sessionless, "--plugins-dir", projectPluginsDir, "--project", dir, "--log-level", "warn")
	if !slices.Contains(s.names(t), "godot_inspection_get_scene_tree") {
		t.Fatalf("inspection is not on by default: %v", s.names(t))
	}
	var info struct {
		Name       string `json:"name"`
		MainScene  string `json:"main_scene"`
		ProjectDir string `json:"project_path"`
	}
	s.ok(t, "godot_inspection_get_project_info", nil, &info)
	if info.Name != "Dodge the Creeps" || info.MainScene != "res://main.tscn" || info.ProjectDir != dir+"/" {
		t.Errorf("project info %+v", info)
	}
	// No scene is active in a fresh workspace: the tree is null, and the
	// note says how to open one (as the reference answers).
	var none struct {
		Tree *treeNode `json:"tree"`
		Note string    `json:"note"`
	}
	s.ok(t, "godot_inspection_get_scene_tree", nil, &none)
	if none.Tree != nil || !strings.Contains(none.Note, "godot_scene_edit_open_scene") {
		t.Fatalf("tree without a scene: %+v", none)
	}
	var tree struct {
		Tree treeNode `json:"tree"`
	}
	s.ok(t, "godot_inspection_get_scene_tree", map[string]any{"scene": "res://main.tscn"}, &tree)
	if tree.Tree.Name != "Main" || tree.Tree.count() != 19 || len(tree.Tree.Children) != 10 {
		t.Fatalf("tree %+v", tree.Tree)
	}
	player := tree.Tree.Children[1]
	if player.Name != "Player" || player.Type != "Area2D" || len(player.Children) != 3 || player.Children[0].Owner != "res://player.tscn" {
		t.Errorf("Player %+v", player)
	}
	var prop struct {
		Value  map[string]float64 `json:"value"`
		Exists bool               `json:"exists"`
	}
	s.ok(t, "godot_inspection_get_node_property", map[string]any{"scene": "res://main.tscn", "node_path": "StartPosition", "property": "position"}, &prop)
	if !prop.Exists || prop.Value["x"] != 240 || prop.Value["y"] != 450 {
		t.Errorf("position %+v", prop)
	}
	var props struct {
		Builtin    map[string]any `json:"builtin"`
		Overridden []string       `json:"overridden"`
	}
	s.ok(t, "godot_inspection_get_node_properties", map[string]any{"scene": "res://main.tscn", "node_path": "StartTimer"}, &props)
	if props.Builtin["wait_time"] != float64(2) || !reflect.DeepEqual(props.Overridden, []string{"wait_time", "one_shot"}) {
		t.Errorf("StartTimer %+v", props)
	}
}

// TestInspectionEditor: with the editor attached over the real bridge, the
// same tool reaches the addon with the contract's command and params.
func TestInspectionEditor(t *testing.T) {
	url := bridgeURL(t)
	dir := corpusProject(t, "2d-dodge_the_creeps")
	s := stdioHostEnv(t, sessionless, []string{"GODOT_MCP_BRIDGE_URL=" + url},
		"--plugins-dir", projectPluginsDir, "--project", dir, "--log-level", "warn")
	tree := map[string]any{"name": "Main", "type": "Node", "path": ".", "script": "res://main.gd", "children": []any{}}
	ed := attachAddon(t, s, fakeaddon.Options{URL: url, GodotVersion: "4.6.1-stable",
		Handlers: map[string]fakeaddon.Handler{
			"cmd_get_scene_tree": func(map[string]any) fakeaddon.Reply { return fakeaddon.OK(map[string]any{"tree": tree}) },
			"cmd_get_node_property": func(p map[string]any) fakeaddon.Reply {
				return fakeaddon.Fail("RESOURCE_NOT_FOUND", "No node at '"+p["node_path"].(string)+"'.")
			},
		}})
	var got struct {
		Tree treeNode `json:"tree"`
	}
	s.ok(t, "godot_inspection_get_scene_tree", map[string]any{"max_depth": 2}, &got)
	if got.Tree.Name != "Main" {
		t.Fatalf("tree %+v", got)
	}
	calls := ed.Calls("cmd_get_scene_tree")
	if len(calls) != 1 || !reflect.DeepEqual(calls[0].Params, map[string]any{"max_depth": float64(2), "lightweight": false}) {
		t.Errorf("sent %+v", calls)
	}
	te := toolError(t, s.call(t, "godot_inspection_get_node_property", map[string]any{"node_path": "Nope", "property": "x"}))
	if te.Code != sdk.CodeNotFound || !strings.Contains(te.Message, "No node at 'Nope'.") || te.Hint == "" {
		t.Errorf("not found through the bridge: %+v", te)
	}
}

// TestListScenesNonUTF8Name: one project file whose name is not valid UTF-8
// used to fail the host's workspace listing, and with it list_scenes for
// the whole project. Through the real host it is listed escaped, with a
// warning, and the other scenes are all there.
func TestListScenesNonUTF8Name(t *testing.T) {
	dir := corpusProject(t, "2d-dodge_the_creeps")
	if err := os.WriteFile(filepath.Join(dir, "caf\xe9.tscn"), []byte("[gd_scene format=3]\n\n[node name=\"Cafe\" type=\"Node2D\"]\n"), 0o644); err != nil {
		t.Skipf("this file system refuses a non-UTF-8 name: %v", err)
	}
	s := stdioHost(t, sessionless, "--plugins-dir", projectPluginsDir, "--project", dir, "--log-level", "warn")
	var out struct {
		Scenes []struct {
			Path    string `json:"path"`
			Warning string `json:"warning"`
		} `json:"scenes"`
	}
	s.ok(t, "godot_inspection_list_scenes", nil, &out)
	var paths []string
	for _, sc := range out.Scenes {
		paths = append(paths, sc.Path)
		if (sc.Path == "res://caf\uFFFDe9.tscn") != strings.Contains(sc.Warning, "not valid UTF-8") {
			t.Errorf("entry %+v", sc)
		}
	}
	if !slices.Contains(paths, "res://caf\uFFFDe9.tscn") || !slices.Contains(paths, "res://main.tscn") || len(paths) != 5 {
		t.Errorf("scenes %q", paths)
	}
	var tree struct {
		Tree treeNode `json:"tree"`
	}
	s.ok(t, "godot_inspection_get_scene_tree", map[string]any{"scene": "res://caf\uFFFDe9.tscn"}, &tree)
	if tree.Tree.Name != "Cafe" {
		t.Errorf("tree of the escaped path: %+v", tree.Tree)
	}
}
