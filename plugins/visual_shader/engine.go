package main

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/warmengine"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
)

// theEngine is this plugin process's warm engine.
var theEngine = warmengine.New(webgodot.Locate)

// handler runs in the warm engine. Requests:
//   - {op: "ports", class}: the node's ports, found by asking the engine
//     which probe nodes it can connect (a node's port counts are not
//     exposed to scripts), with types from its default input values;
//   - {op: "check", graph, function, from_node, from_port, to_node,
//     to_port}: VisualShader.can_connect_nodes on the graph;
//   - {op: "compile", graph}: the graph's generated code, compiled.
const handler = `extends Node

func _load(text: String) -> VisualShader:
	var f := FileAccess.open("user://mcp_graph.tres", FileAccess.WRITE)
	f.store_string(text)
	f.close()
	return ResourceLoader.load("user://mcp_graph.tres", "", ResourceLoader.CACHE_MODE_IGNORE) as VisualShader

func handle(body: String) -> void:
	var req = JSON.parse_string(body)
	match str(req["op"]):
		"ports":
			print("@@ports ", JSON.stringify(_ports(str(req["class"]))))
		"check":
			var vs := _load(str(req["graph"]))
			var ok := false
			if vs != null:
				ok = vs.can_connect_nodes(int(req["function"]), int(req["from_node"]), int(req["from_port"]), int(req["to_node"]), int(req["to_port"]))
			print("@@can ", ok)
		"compile":
			var vs := _load(str(req["graph"]))
			if vs == null:
				print("@@code null")
				return
			var code := vs.get_code()
			print("@@code ", JSON.stringify(code))
			var s := Shader.new()
			s.code = code
			s.get_rid()

const KINDS := {"scalar": "VisualShaderNodeFloatConstant", "sampler": "VisualShaderNodeTexture2DParameter", "transform": "VisualShaderNodeTransformConstant"}
const SINKS := {"scalar": ["VisualShaderNodeVectorOp", 0], "sampler": ["VisualShaderNodeTexture", 2], "transform": ["VisualShaderNodeTransformVecMult", 0]}

func _ports(cls: String) -> Dictionary:
	var out := {"inputs": [], "outputs": []}
	if not ClassDB.can_instantiate(cls):
		return out
	var n = ClassDB.instantiate(cls)
	if not (n is VisualShaderNode):
		return out
	var vs := VisualShader.new()
	var t := VisualShader.TYPE_FRAGMENT
	vs.add_node(t, n, Vector2(), 2)
	var id := 3
	var probes := {}
	var sinks := {}
	for k in KINDS:
		vs.add_node(t, ClassDB.instantiate(KINDS[k]), Vector2(), id)
		probes[k] = id
		id += 1
		vs.add_node(t, ClassDB.instantiate(SINKS[k][0]), Vector2(), id)
		sinks[k] = [id, SINKS[k][1]]
		id += 1
	var defaults := {}
	var dv: Array = n.get_default_input_values()
	for i in range(0, dv.size(), 2):
		defaults[int(dv[i])] = dv[i + 1]
	for p in range(16):
		for k in KINDS:
			if vs.can_connect_nodes(t, probes[k], 0, 2, p):
				var e := {"port": p, "kind": k}
				if defaults.has(p):
					e["type"] = type_string(typeof(defaults[p]))
					e["default"] = var_to_str(defaults[p])
				out["inputs"].append(e)
				break
	for p in range(16):
		for k in KINDS:
			if vs.can_connect_nodes(t, 2, p, sinks[k][0], sinks[k][1]):
				out["outputs"].append({"port": p, "kind": k})
				break
	return out
`

// port is one port of a node type, as the engine answers it.
type port struct {
	Port int `json:"port"`
	// Kind is what can connect: scalar (every scalar, vector and boolean
	// type: the engine converts between them), sampler or transform.
	Kind    string `json:"kind"`
	Type    string `json:"type,omitempty" jsonschema:"the Variant type of the port's default value, when it has one"`
	Default string `json:"default,omitempty"`
}

type ports struct {
	Inputs  []port `json:"inputs"`
	Outputs []port `json:"outputs"`
}

func ask(ctx context.Context, req map[string]any) ([]webgodot.Line, error) {
	body, _ := json.Marshal(req)
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	return theEngine.Do(ctx, false, handler, string(body))
}

func portsOf(ctx context.Context, class string) (*ports, error) {
	lines, err := ask(ctx, map[string]any{"op": "ports", "class": class})
	if err != nil {
		return nil, err
	}
	for _, l := range lines {
		if j, ok := strings.CutPrefix(l.Text, "@@ports "); ok && l.Stream == webgodot.Stdout {
			var p ports
			if err := json.Unmarshal([]byte(j), &p); err == nil {
				return &p, nil
			}
		}
	}
	return nil, nil
}

func canConnect(ctx context.Context, graph []byte, fn string, c connection) (bool, error) {
	lines, err := ask(ctx, map[string]any{"op": "check", "graph": string(graph), "function": indexOf(fn),
		"from_node": c.FromNode, "from_port": c.FromPort, "to_node": c.ToNode, "to_port": c.ToPort})
	if err != nil {
		return false, err
	}
	for _, l := range lines {
		if l.Stream == webgodot.Stdout && strings.HasPrefix(l.Text, "@@can ") {
			return strings.TrimPrefix(l.Text, "@@can ") == "true", nil
		}
	}
	return false, nil
}

func indexOf(fn string) int {
	for i, f := range functions {
		if f == fn {
			return i
		}
	}
	return -1
}

// compileResult is the engine's generated code for a graph and what the
// compiler said of it.
type compileResult struct {
	Code   string   `json:"code"`
	Errors []string `json:"errors"`
}

var (
	shaderErrRE = regexp.MustCompile(`^SHADER ERROR: (.*)$`)
	atLineRE    = regexp.MustCompile(`\(:(\d+)\)$`)
)

func compileGraph(ctx context.Context, graph []byte) (*compileResult, error) {
	lines, err := ask(ctx, map[string]any{"op": "compile", "graph": string(graph)})
	if err != nil {
		return nil, err
	}
	out := &compileResult{Errors: []string{}}
	for i, l := range lines {
		if j, ok := strings.CutPrefix(l.Text, "@@code "); ok && l.Stream == webgodot.Stdout {
			_ = json.Unmarshal([]byte(j), &out.Code)
			continue
		}
		if m := shaderErrRE.FindStringSubmatch(l.Text); m != nil {
			msg := m[1]
			if i+1 < len(lines) {
				if at := atLineRE.FindStringSubmatch(lines[i+1].Text); at != nil {
					n, _ := strconv.Atoi(at[1])
					msg = "generated code line " + strconv.Itoa(n) + ": " + msg
				}
			}
			out.Errors = append(out.Errors, msg)
		}
	}
	return out, nil
}
