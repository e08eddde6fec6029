package main

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestMain(m *testing.M) { enginecheck.Main(m, enginecheck.IgnoreLeaks) }

func requireEngine(t *testing.T) {
	t.Helper()
	if _, err := webgodot.Locate(); err != nil {
		testenv.Missing(t, "the Godot web engine", err.Error())
	}
}

const project = "config_version=5\n\n[application]\n\nconfig/name=\"vs\"\nconfig/features=PackedStringArray(\"4.6\")\n"

// builder is the same graph built in the engine and saved by
// ResourceSaver: what the editor writes.
const builder = `extends Node
func _ready():
	var vs := VisualShader.new()
	var c := VisualShaderNodeColorParameter.new()
	vs.add_node(VisualShader.TYPE_FRAGMENT, c, Vector2(-300, 100), 2)
	var f := VisualShaderNodeFloatConstant.new()
	f.constant = 0.5
	vs.add_node(VisualShader.TYPE_FRAGMENT, f, Vector2(-300, 300), 3)
	var op := VisualShaderNodeVectorOp.new()
	op.operator = VisualShaderNodeVectorOp.OP_MUL
	vs.add_node(VisualShader.TYPE_FRAGMENT, op, Vector2(-100, 100), 4)
	vs.connect_nodes(VisualShader.TYPE_FRAGMENT, 2, 0, 4, 0)
	vs.connect_nodes(VisualShader.TYPE_FRAGMENT, 4, 0, 0, 0)
	vs.connect_nodes(VisualShader.TYPE_FRAGMENT, 3, 0, 0, 2)
	var v := VisualShaderNodeFloatConstant.new()
	vs.add_node(VisualShader.TYPE_VERTEX, v, Vector2(10, 20), 2)
	ResourceSaver.save(vs, "user://g.tres")
	print(FileAccess.get_file_as_string("user://g.tres"))
	for m in range(5):
		var e := VisualShader.new()
		e.mode = m
		ResourceSaver.save(e, "user://e.tres")
		print("@@mode ", m)
		print(FileAccess.get_file_as_string("user://e.tres"))
	get_tree().quit()
`

var subIDRE = regexp.MustCompile(`(VisualShaderNode\w+)_[a-z0-9]{5}`)

// normalize numbers sub-resource ids by first use and drops the header
// uid (ResourceSaver writes none outside a project's uid cache).
func normalize(s string) string {
	s = regexp.MustCompile(` uid="uid://[a-z0-9]+"`).ReplaceAllString(s, "")
	seen := map[string]string{}
	return subIDRE.ReplaceAllStringFunc(s, func(id string) string {
		if n, ok := seen[id]; ok {
			return n
		}
		n := subIDRE.FindStringSubmatch(id)[1] + "_" + string(rune('a'+len(seen)))
		seen[id] = n
		return n
	})
}

// A graph built over MCP is the file the engine writes for the same graph
// (sub-resource ids aside), and the engine compiles its generated code.
func TestGraphMatchesTheEngineAndCompiles(t *testing.T) {
	requireEngine(t)
	dir := plugintest.Project(t, map[string]string{"project.godot": project})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	c := plugintest.CallAs[createResult](t, h, "create", map[string]any{"name": "water"})
	if c.Path != "res://shaders/water.tres" || c.Mode != "spatial" {
		t.Fatalf("create: %+v", c)
	}
	p := map[string]any{"shader_path": c.Path}
	with := func(kv ...any) map[string]any {
		m := map[string]any{}
		for k, v := range p {
			m[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	a := plugintest.CallAs[addResult](t, h, "add_node", with("node_type", "VisualShaderNodeColorParameter", "node_id", 2, "position", []any{-300, 100}))
	if a.Ports == nil || len(a.Ports.Outputs) == 0 || a.Function != "fragment" {
		t.Errorf("add: %+v", a)
	}
	a = plugintest.CallAs[addResult](t, h, "add_node", with("node_type", "VisualShaderNodeFloatConstant", "node_id", 3, "position", []any{-300, 300}))
	plugintest.Must(t, h, "add_node", with("node_type", "VisualShaderNodeVectorOp", "node_id", 4, "position", []any{-100, 100}))
	plugintest.Must(t, h, "add_node", with("node_type", "VisualShaderNodeFloatConstant", "node_id", 2, "position", []any{10, 20}, "function", "vertex"))
	plugintest.Must(t, h, "set_node_param", with("node_id", 3, "property", "constant", "value", 0.5))
	plugintest.Must(t, h, "set_node_param", with("node_id", 4, "property", "operator", "value", 2))
	for _, e := range [][4]int{{2, 0, 4, 0}, {4, 0, 0, 0}, {3, 0, 0, 2}} {
		plugintest.Must(t, h, "connect_nodes", with("from_node", e[0], "from_port", e[1], "to_node", e[2], "to_port", e[3]))
	}
	got, err := os.ReadFile(filepath.Join(dir, "shaders", "water.tres"))
	if err != nil {
		t.Fatal(err)
	}

	r := enginecheck.Runner(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := r.Run(ctx, webgodot.ScriptProject(builder))
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Join(res.Stdout(), "\n")
	i := strings.Index(out, "[gd_resource")
	j := strings.Index(out, "@@mode 0")
	if i < 0 || j < i {
		t.Fatalf("engine printed:\n%s", out)
	}
	want := strings.TrimSpace(out[i:j])
	if normalize(strings.TrimSpace(string(got))) != normalize(want) {
		t.Errorf("graph differs from the engine's:\n--- ours\n%s\n--- engine\n%s", got, want)
	}
	// Every mode's empty graph is the engine's.
	for m := range modes {
		k := strings.Index(out, "@@mode "+string(rune('0'+m)))
		rest := out[k+len("@@mode 0"):]
		if e := strings.Index(rest, "@@mode"); e >= 0 {
			rest = rest[:e]
		}
		if normalize(strings.TrimSpace(emptyGraph(m, "uid://x"))) != normalize(strings.TrimSpace(rest)) {
			t.Errorf("mode %d: ours\n%s\nengine\n%s", m, emptyGraph(m, "uid://x"), rest)
		}
	}

	rd := plugintest.CallAs[readResult](t, h, "read", p)
	if !rd.Compiled || len(rd.Nodes) != 4 || len(rd.Connections) != 3 || !strings.Contains(rd.Code, "ALBEDO") {
		t.Errorf("read: %+v", rd)
	}
}

// Connections are checked by the engine; bad calls are refused and change
// nothing.
func TestRefusals(t *testing.T) {
	requireEngine(t)
	dir := plugintest.Project(t, map[string]string{"project.godot": project})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	plugintest.Must(t, h, "create", map[string]any{"name": "g", "type": "2d"})
	p := "res://shaders/g.tres"
	plugintest.Must(t, h, "add_node", map[string]any{"shader_path": p, "node_type": "VisualShaderNodeTexture2DParameter", "node_id": 2})
	plugintest.Must(t, h, "add_node", map[string]any{"shader_path": p, "node_type": "VisualShaderNodeFloatConstant", "node_id": 3})
	before, _ := os.ReadFile(filepath.Join(dir, "shaders", "g.tres"))
	for _, c := range []struct {
		tool string
		args map[string]any
		text string
	}{
		{"connect_nodes", map[string]any{"from_node": 2, "from_port": 0, "to_node": 0, "to_port": 0}, "the engine refuses"},
		{"connect_nodes", map[string]any{"from_node": 3, "from_port": 5, "to_node": 0, "to_port": 0}, "the engine refuses"},
		{"connect_nodes", map[string]any{"from_node": 9, "from_port": 0, "to_node": 0, "to_port": 0}, "no node 9"},
		{"add_node", map[string]any{"node_type": "VisualShaderNodeFloatConstant", "node_id": 3}, "already has node 3"},
		{"add_node", map[string]any{"node_type": "VisualShaderNodeFloatConstan", "node_id": 5}, "VisualShaderNodeFloatConstant"},
		{"add_node", map[string]any{"node_type": "Node2D", "node_id": 5}, "not a VisualShaderNode"},
		{"add_node", map[string]any{"node_type": "VisualShaderNodeFloatConstant", "node_id": 1}, "reserved"},
		{"add_node", map[string]any{"node_type": "VisualShaderNodeFloatConstant", "node_id": 5, "function": "sky"}, "no \"sky\" function"},
		{"set_node_param", map[string]any{"node_id": 3, "property": "nope", "value": 1}, "nope"},
		{"set_node_param", map[string]any{"node_id": 3, "property": "constant", "value": "abc"}, "constant"},
	} {
		c.args["shader_path"] = p
		plugintest.Refused(t, h, c.tool, c.args, sdk.CodeInvalidArgument, c.text)
	}
	plugintest.Refused(t, h, "create", map[string]any{"name": "g"}, sdk.CodeInvalidArgument, "pick another")
	after, _ := os.ReadFile(filepath.Join(dir, "shaders", "g.tres"))
	if string(after) != string(before) {
		t.Errorf("a refused call changed the graph:\n%s", after)
	}
	// Two parameters get distinct names (their uniforms must differ).
	plugintest.Must(t, h, "add_node", map[string]any{"shader_path": p, "node_type": "VisualShaderNodeTexture2DParameter", "node_id": 4})
	rd := plugintest.CallAs[readResult](t, h, "read", map[string]any{"shader_path": p})
	var names []string
	for _, n := range rd.Nodes {
		if s, ok := n.Props["parameter_name"].(string); ok {
			names = append(names, s)
		}
	}
	if !slices.Equal(names, []string{"Texture2DParameter", "Texture2DParameter2"}) || !rd.Compiled {
		t.Errorf("names %v, read %+v", names, rd)
	}
	lt := plugintest.CallAs[listResult](t, h, "list_node_types", map[string]any{})
	if len(lt.Types) < 80 || !slices.Contains(lt.Types, "VisualShaderNodeVectorOp") || slices.Contains(lt.Types, "VisualShaderNodeOutput") {
		t.Errorf("list: %d types", len(lt.Types))
	}
}

// Editor mode: the addon's commands with the reference's params.
func TestEditorMode(t *testing.T) {
	ed := sdktest.NewEditor().
		Result("cmd_create_visual_shader", map[string]any{"path": "res://shaders/w.tres", "created": true}).
		Result("cmd_add_shader_node", map[string]any{"node_id": 2, "added": true}).
		Result("cmd_connect_shader_nodes", map[string]any{"connected": true}).
		Result("cmd_set_shader_node_param", map[string]any{"set": true}).
		Result("cmd_read_visual_shader", map[string]any{"mode": 0}).
		Result("cmd_list_shader_node_types", map[string]any{"types": []any{}})
	h := sdktest.New(t, Toolset(), sdktest.Options{Editor: ed.Serve})
	s := "res://shaders/w.tres"
	plugintest.Must(t, h, "create", map[string]any{"name": "w"})
	plugintest.Must(t, h, "add_node", map[string]any{"shader_path": s, "node_type": "VisualShaderNodeColorConstant", "node_id": 2})
	plugintest.Must(t, h, "connect_nodes", map[string]any{"shader_path": s, "from_node": 2, "from_port": 0, "to_node": 0, "to_port": 0})
	plugintest.Must(t, h, "set_node_param", map[string]any{"shader_path": s, "node_id": 2, "property": "constant", "value": "#ff0000"})
	plugintest.Must(t, h, "read", map[string]any{"shader_path": s})
	plugintest.Must(t, h, "list_node_types", map[string]any{})
	plugintest.Refused(t, h, "add_node", map[string]any{"shader_path": s, "node_type": "VisualShaderNodeColorConstant", "node_id": 3, "function": "vertex"}, sdk.CodePreconditionFailed, "function")
	want := []sdktest.EditorCall{
		{Command: "cmd_create_visual_shader", Params: map[string]any{"name": "w", "type": "", "path": s}},
		{Command: "cmd_add_shader_node", Params: map[string]any{"shader_path": s, "node_type": "VisualShaderNodeColorConstant", "node_id": 2.0, "position": []any{0.0, 0.0}}},
		{Command: "cmd_connect_shader_nodes", Params: map[string]any{"shader_path": s, "from_node": 2.0, "from_port": 0.0, "to_node": 0.0, "to_port": 0.0}},
		{Command: "cmd_set_shader_node_param", Params: map[string]any{"shader_path": s, "node_id": 2.0, "property": "constant", "value": "#ff0000"}},
		{Command: "cmd_read_visual_shader", Params: map[string]any{"shader_path": s}},
		{Command: "cmd_list_shader_node_types", Params: nil},
	}
	got := ed.Calls()
	if len(got) != len(want) {
		t.Fatalf("editor got %d commands: %+v", len(got), got)
	}
	for i := range want {
		if got[i].Command != want[i].Command || (want[i].Params != nil && !reflect.DeepEqual(got[i].Params, want[i].Params)) {
			t.Errorf("command %d:\n got %s %v\nwant %s %v", i, got[i].Command, got[i].Params, want[i].Command, want[i].Params)
		}
	}
	ed2 := sdktest.NewEditor()
	h2 := sdktest.New(t, Toolset(), sdktest.Options{Editor: ed2.Serve})
	plugintest.EditorDryRuns(t, h2, ed2, map[string]any{
		"create":         map[string]any{"name": "w"},
		"add_node":       map[string]any{"shader_path": s, "node_type": "VisualShaderNodeColorConstant", "node_id": 2},
		"connect_nodes":  map[string]any{"shader_path": s, "from_node": 2, "from_port": 0, "to_node": 0, "to_port": 0},
		"set_node_param": map[string]any{"shader_path": s, "node_id": 2, "property": "constant", "value": 1},
	})
}

// snapshot is every file under dir, by its path relative to dir.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// Headless dry runs of every mutating tool leave the project's files as
// they were and answer in the SDK's preview shape: dry_run, preview.mode
// "headless" and the one file the tool would write, with its diff, next
// to the tool's own answer with its flag (created, added, connected, set)
// false.
func TestHeadlessDryRuns(t *testing.T) {
	dir := plugintest.Project(t, map[string]string{
		"project.godot": project,
		"g.tres": "[gd_resource type=\"VisualShader\" format=3 uid=\"uid://cvsdryrun01\"]\n\n" +
			"[sub_resource type=\"VisualShaderNodeColorConstant\" id=\"VisualShaderNodeColorConstant_a1b2c\"]\nconstant = Color(1, 0, 0, 1)\n\n" +
			"[resource]\nnodes/fragment/2/node = SubResource(\"VisualShaderNodeColorConstant_a1b2c\")\nnodes/fragment/2/position = Vector2(-200, 100)\n",
	})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	before := snapshot(t, dir)
	g := "res://g.tres"
	cases := []struct {
		tool         string
		args         map[string]any
		path, change string
		flag         string // the tool's own "it happened" field
		diff         string // a line the diff adds
	}{
		{"create", map[string]any{"name": "water", "type": "2d"}, "res://shaders/water.tres", sdk.ChangeCreated, "created", "+mode = 1"},
		{"add_node", map[string]any{"shader_path": g, "node_type": "VisualShaderNodeFloatConstant", "node_id": 3, "position": []any{-200, 300}},
			g, sdk.ChangeModified, "added", "+nodes/fragment/3/position = Vector2(-200, 300)"},
		{"connect_nodes", map[string]any{"shader_path": g, "from_node": 2, "from_port": 0, "to_node": 0, "to_port": 0},
			g, sdk.ChangeModified, "connected", "+nodes/fragment/connections = PackedInt32Array(2, 0, 0, 0)"},
		{"set_node_param", map[string]any{"shader_path": g, "node_id": 2, "property": "constant", "value": "#00ff00"},
			g, sdk.ChangeModified, "set", "+constant = Color(0, 1, 0, 1)"},
	}
	tested := map[string]bool{}
	for _, c := range cases {
		out := plugintest.DryRunIn(t, h, sdk.ModeHeadless, c.tool, c.args)
		tested[c.tool] = true
		if out[c.flag] != false {
			t.Errorf("%s: %s = %v in a dry run", c.tool, c.flag, out[c.flag])
		}
		files, _ := out["preview"].(map[string]any)["files"].([]any)
		if len(files) != 1 {
			t.Errorf("%s: preview files %v, want the one file it writes", c.tool, files)
			continue
		}
		f := files[0].(map[string]any)
		diff, _ := f["diff"].(string)
		if f["path"] != c.path || f["change"] != c.change || !strings.Contains(diff, c.diff) {
			t.Errorf("%s: preview %v, want %s %s with %q in the diff", c.tool, f, c.change, c.path, c.diff)
		}
		if after := snapshot(t, dir); !reflect.DeepEqual(after, before) {
			t.Fatalf("%s: a dry run changed the files:\n%v", c.tool, after)
		}
	}
	m, err := Toolset().Manifest()
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range m.Tools {
		if c := tool.SafetyClass; (c == sdk.Mutating || c == sdk.Destructive) && !tested[tool.Name] {
			t.Errorf("tool %s has no dry-run case", tool.Name)
		}
	}
}
