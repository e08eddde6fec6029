package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/internal/godotrun/godottest"
	"github.com/godot-mcp/godot-mcp/sdk"
)

var promptNames = []string{
	"author_resource", "batch_refactor", "build_scene", "debug_scene", "export_build",
	"play_test", "script_edit", "toolset_discovery", "troubleshoot",
}

// allToolNames are the exposed names of every installed tool, enabled or
// not, as godot_list_tools_by_safety_class lists them.
func allToolNames(t *testing.T, s *session) map[string]bool {
	t.Helper()
	var byClass map[string]any
	s.ok(t, "godot_list_tools_by_safety_class", nil, &byClass)
	out := map[string]bool{}
	for _, v := range byClass {
		list, _ := v.([]any)
		for _, n := range list {
			out[n.(string)] = true
		}
	}
	return out
}

// The reference's nine prompts, through the real host: listed, rendered
// with and without arguments, naming only tools that exist and the
// toolsets to enable; an argument a prompt does not take is refused.
func TestPrompts(t *testing.T) {
	dir := corpusProject(t, "2d-dodge_the_creeps")
	s := stdioHost(t, legacy, "--plugins-dir", projectPluginsDir, "--project", dir, "--log-level", "warn")
	ctx := context.Background()
	lr, err := s.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range lr.Prompts {
		names = append(names, p.Name)
		if p.Title == "" || p.Description == "" {
			t.Errorf("prompt %s lacks a title or description", p.Name)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, promptNames) {
		t.Fatalf("prompts = %v\nwant %v", names, promptNames)
	}
	tools := allToolNames(t, s)
	args := map[string]map[string]string{
		"build_scene":     {"scene_path": "res://levels/one.tscn", "root_type": "Node3D"},
		"play_test":       {"scene_path": "res://main.tscn"},
		"script_edit":     {"script_path": "res://player.gd", "node_path": "Player"},
		"debug_scene":     {"scene_path": "res://main.tscn", "script_path": "res://main.gd"},
		"author_resource": {"resource_kind": "shader", "save_path": "res://fx/glow.gdshader"},
		"export_build":    {"preset": "Linux", "output_path": "res://build/game.x86_64"},
		"batch_refactor":  {"node_type": "Sprite2D", "property": "modulate", "value": `{"r": 1, "g": 0, "b": 0, "a": 1}`},
	}
	for _, name := range promptNames {
		for _, a := range []map[string]string{nil, args[name]} {
			res, err := s.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: a})
			if err != nil {
				t.Errorf("%s %v: %v", name, a, err)
				continue
			}
			if len(res.Messages) != 1 {
				t.Fatalf("%s: %d messages", name, len(res.Messages))
			}
			txt := res.Messages[0].Content.(*mcp.TextContent).Text
			if !strings.Contains(txt, "godot_enable_toolset") {
				t.Errorf("%s does not say which toolsets to enable:\n%s", name, txt)
			}
			for _, v := range a {
				if !strings.Contains(txt, v) && !strings.Contains(txt, strings.Trim(string(mustJSON(v)), `"`)) {
					t.Errorf("%s does not use its argument %q:\n%s", name, v, txt)
				}
			}
			for _, n := range toolNameRE.FindAllString(txt, -1) {
				if !tools[n] && !slices.Contains(notToolNames, n) {
					t.Errorf("%s names %s, which is no tool", name, n)
				}
			}
			if strings.Contains(txt, "withholds from you") {
				t.Errorf("%s: nothing is withheld from the local caller:\n%s", name, txt)
			}
		}
	}
	_, err = s.GetPrompt(ctx, &mcp.GetPromptParams{Name: "build_scene", Arguments: map[string]string{"scene": "res://x.tscn"}})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || !strings.Contains(werr.Message, "takes scene_path, root_type") {
		t.Errorf("unknown argument: %v", err)
	}
}

func mustJSON(v string) []byte {
	b, _ := json.Marshal(v)
	return b
}

// readJSON reads a resource and decodes its one JSON content.
func readJSON(t *testing.T, s *session, uri string, out any) {
	t.Helper()
	res, err := s.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("read %s: %v", uri, err)
	}
	if len(res.Contents) != 1 || res.Contents[0].MIMEType != "application/json" {
		t.Fatalf("read %s: %+v", uri, res.Contents)
	}
	if err := json.Unmarshal([]byte(res.Contents[0].Text), out); err != nil {
		t.Fatalf("read %s: %v in %s", uri, err, res.Contents[0].Text)
	}
}

// The godot:// resources, headless on a real project: listed, each read
// through the inspection tool behind it, and the same through
// godot_read_resource.
func TestResourcesHeadless(t *testing.T) {
	dir := corpusProject(t, "2d-dodge_the_creeps")
	s := stdioHost(t, sessionless, "--plugins-dir", projectPluginsDir, "--project", dir, "--log-level", "warn")
	ctx := context.Background()
	lr, err := s.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range lr.Resources {
		uris = append(uris, r.URI)
	}
	slices.Sort(uris)
	want := []string{"godot://node/selected", "godot://project/info", "godot://scene/current", "godot://scene/tree"}
	if !slices.Equal(uris, want) {
		t.Fatalf("resources = %v", uris)
	}
	lt, err := s.ListResourceTemplates(ctx, nil)
	if err != nil || len(lt.ResourceTemplates) != 1 || lt.ResourceTemplates[0].URITemplate != "godot://scene/tree/{max_depth}" {
		t.Fatalf("templates = %+v, %v", lt, err)
	}

	var info struct {
		Name      string `json:"name"`
		MainScene string `json:"main_scene"`
	}
	readJSON(t, s, "godot://project/info", &info)
	if info.Name != "Dodge the Creeps" || info.MainScene != "res://main.tscn" {
		t.Errorf("project info %+v", info)
	}
	var cur struct {
		IsOpen bool `json:"is_open"`
	}
	readJSON(t, s, "godot://scene/current", &cur)
	if cur.IsOpen {
		t.Errorf("a scene is open in a fresh workspace: %+v", cur)
	}
	// No scene is open: the tree is the main scene's, and says so.
	var tree struct {
		Tree treeNode `json:"tree"`
		Note string   `json:"note"`
	}
	readJSON(t, s, "godot://scene/tree", &tree)
	if tree.Tree.Name != "Main" || tree.Tree.count() != 19 || !strings.Contains(tree.Note, "res://main.tscn") {
		t.Errorf("tree %+v note %q", tree.Tree, tree.Note)
	}
	tree.Tree = treeNode{}
	readJSON(t, s, "godot://scene/tree/0", &tree)
	if tree.Tree.Name != "Main" || len(tree.Tree.Children) != 0 {
		t.Errorf("tree to depth 0: %+v", tree.Tree)
	}
	var sel struct {
		Selected any    `json:"selected"`
		Note     string `json:"note"`
	}
	readJSON(t, s, "godot://node/selected", &sel)
	if sel.Selected != nil || !strings.Contains(strings.ToLower(sel.Note), "editor") {
		t.Errorf("selected headless: %+v", sel)
	}
	if _, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: "godot://scene/nope"}); err == nil {
		t.Error("an unknown resource was read")
	}

	// The tool fallback answers the same.
	var viaTool struct {
		Name string `json:"name"`
	}
	s.ok(t, "godot_read_resource", map[string]any{"uri": "godot://project/info"}, &viaTool)
	if viaTool.Name != info.Name {
		t.Errorf("godot_read_resource project info %+v", viaTool)
	}
	te := toolError(t, s.call(t, "godot_read_resource", map[string]any{"uri": "godot://nope"}))
	if te.Code != sdk.CodeInvalidArgument || !strings.Contains(te.Hint, "godot://scene/tree/{max_depth}") {
		t.Errorf("unknown uri: %+v", te)
	}
	// A resource of a disabled toolset answers with the enable call.
	s.ok(t, "godot_disable_toolset", map[string]any{"toolsets": []string{"inspection"}}, nil)
	_, err = s.ReadResource(ctx, &mcp.ReadResourceParams{URI: "godot://project/info"})
	if err == nil || !strings.Contains(err.Error(), sdk.CodeToolsetDisabled) || !strings.Contains(err.Error(), "godot_enable_toolset") {
		t.Errorf("resource of a disabled toolset: %v", err)
	}
}

// A caller whose policy withholds the tool behind a resource may not read
// it: it is not listed, reading it is refused with the layer, and so is
// godot_read_resource; prompts that name the tool say it is withheld.
func TestResourcePolicy(t *testing.T) {
	dir := corpusProject(t, "2d-dodge_the_creeps")
	cfg := filepath.Join(t.TempDir(), "policy.toml")
	if err := os.WriteFile(cfg, []byte("[operator]\ndeny = [\"godot_inspection_get_project_info\", \"godot_scripts_write\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := stdioHost(t, legacy, "--plugins-dir", projectPluginsDir, "--project", dir, "--config", cfg, "--log-level", "warn")
	ctx := context.Background()
	lr, err := s.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range lr.Resources {
		if r.URI == "godot://project/info" {
			t.Error("a resource the caller may not read is listed")
		}
	}
	if len(lr.Resources) != 3 {
		t.Errorf("resources = %d, want the 3 others", len(lr.Resources))
	}
	_, err = s.ReadResource(ctx, &mcp.ReadResourceParams{URI: "godot://project/info"})
	if err == nil || !strings.Contains(err.Error(), sdk.CodeToolNotExposed) || !strings.Contains(err.Error(), "operator") {
		t.Errorf("withheld resource read: %v", err)
	}
	te := toolError(t, s.call(t, "godot_read_resource", map[string]any{"uri": "godot://project/info"}))
	if te.Code != sdk.CodeToolNotExposed {
		t.Errorf("withheld resource through the tool: %+v", te)
	}
	var cur struct {
		IsOpen bool `json:"is_open"`
	}
	readJSON(t, s, "godot://scene/current", &cur)
	res, err := s.GetPrompt(ctx, &mcp.GetPromptParams{Name: "build_scene"})
	if err != nil {
		t.Fatal(err)
	}
	if txt := res.Messages[0].Content.(*mcp.TextContent).Text; !strings.Contains(txt, "withholds from you: godot_scripts_write.") {
		t.Errorf("build_scene does not say godot_scripts_write is withheld:\n%s", txt)
	}
}

// godot_debug_workflow on a project whose script fails at a known line:
// refused with the enable call while runtime is off, then one call runs
// the scene and points at res://main.gd:4.
func TestDebugWorkflow(t *testing.T) {
	godottest.RequireGodot3(t)
	dir := godottest.Godot3Project(t, "extends Node\n\nfunc hit(enemy):\n\tenemy.take_damage(3)\n\nfunc _ready():\n\thit(null)\n\tprint(\"after the hit\")\n", nil)
	s := stdioHost(t, legacy, "--plugins-dir", projectPluginsDir, "--project", dir, "--log-level", "warn")
	te := toolError(t, s.call(t, "godot_debug_workflow", nil))
	if te.Code != sdk.CodeToolsetDisabled || !strings.Contains(te.Hint, `godot_enable_toolset({"toolsets":["runtime"]})`) {
		t.Fatalf("without runtime: %+v", te)
	}
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"runtime"}}, nil)
	res := s.call(t, "godot_debug_workflow", map[string]any{"timeout_seconds": 3})
	if res.IsError {
		t.Fatalf("debug workflow: %s", text(res))
	}
	var out struct {
		OK     bool `json:"ok"`
		Errors []struct {
			File string `json:"file"`
			Line int    `json:"line"`
		} `json:"errors"`
		LookAt []struct {
			Where, Why, Call string
		} `json:"look_at"`
		Next       []string `json:"next"`
		OutputTail string   `json:"output_tail"`
	}
	decode(t, res, &out)
	if out.OK || len(out.Errors) == 0 || out.Errors[0].File != "res://main.gd" || out.Errors[0].Line != 4 {
		t.Fatalf("errors %+v\n%s", out.Errors, text(res))
	}
	if len(out.LookAt) == 0 || out.LookAt[0].Where != "res://main.gd:4" || !strings.Contains(out.LookAt[0].Why, "take_damage") ||
		out.LookAt[0].Call != `godot_scripts_read {"script_path": "res://main.gd"}` {
		t.Errorf("look_at %+v", out.LookAt)
	}
	if len(out.Next) == 0 || !strings.Contains(out.OutputTail, "after the hit") {
		t.Errorf("next %q, output tail %q", out.Next, out.OutputTail)
	}
	if txt := text(res); !strings.Contains(txt, "res://main.gd:4") {
		t.Errorf("the text does not name the line:\n%s", txt)
	}
}
