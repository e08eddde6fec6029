package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// Modes are VisualShader's modes, in the engine's order (the value of
// "mode" in the file), with the flags the engine saves for each, false by
// default, and the shader functions each has. Learned from ResourceSaver's
// output of an empty VisualShader of every mode (Godot 4.6; tested).
var modes = []struct {
	name      string
	aliases   []string
	flags     []string
	functions []string
}{
	{"spatial", []string{"3d"}, nil, []string{"vertex", "fragment", "light"}},
	{"canvas_item", []string{"2d"}, []string{"light_only"}, []string{"vertex", "fragment", "light"}},
	{"particles", nil, []string{"collision_use_scale", "disable_force", "disable_velocity", "keep_data"},
		[]string{"start", "process", "collide", "start_custom", "process_custom"}},
	{"sky", nil, []string{"use_half_res_pass", "use_quarter_res_pass", "disable_fog", "use_debanding"}, []string{"sky"}},
	{"fog", nil, nil, []string{"fog"}},
}

// functions are VisualShader.Type's names in the engine's order: the order
// their nodes are saved in.
var functions = []string{"vertex", "fragment", "light", "start", "process", "collide", "start_custom", "process_custom", "sky", "fog"}

// modeIndex returns the mode named name (or an alias: "3d", "2d").
func modeIndex(name string) (int, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	for i, m := range modes {
		if m.name == n || slices.Contains(m.aliases, n) {
			return i, true
		}
	}
	return 0, false
}

// graph is a VisualShader .tres opened for editing.
type graph struct {
	path string
	file sdk.File
	doc  *godot.File
	mode int
}

// node is one node of a graph.
type node struct {
	Function string         `json:"function"`
	ID       int            `json:"node_id"`
	Type     string         `json:"node_type"`
	Position []float64      `json:"position"`
	Props    map[string]any `json:"properties"`
	sub      *godot.SubResourceDecl
}

// connection is one edge: from a node's output port to a node's input.
type connection struct {
	Function string `json:"function"`
	FromNode int    `json:"from_node"`
	FromPort int    `json:"from_port"`
	ToNode   int    `json:"to_node"`
	ToPort   int    `json:"to_port"`
}

func parseGraph(path string, f sdk.File, doc *godot.File) (*graph, error) {
	if doc.ResourceType() != "VisualShader" || doc.Resource() == nil {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "pass a VisualShader .tres (create one with godot_visual_shader_create)", "%s is a %s, not a VisualShader", path, doc.ResourceType())
	}
	g := &graph{path: path, file: f, doc: doc}
	if v, ok := doc.Resource().Get("mode"); ok {
		if i, ok := v.(godot.Int); ok && int(i) >= 0 && int(i) < len(modes) {
			g.mode = int(i)
		}
	}
	return g, nil
}

// nodeKey splits "nodes/fragment/2/node" into its function, id and field.
func nodeKey(k string) (fn string, id int, field string, ok bool) {
	parts := strings.Split(k, "/")
	if len(parts) != 4 || parts[0] != "nodes" {
		return "", 0, "", false
	}
	id, err := strconv.Atoi(parts[2])
	if err != nil {
		return "", 0, "", false
	}
	return parts[1], id, parts[3], true
}

// nodes lists the graph's nodes (not the output node, which the file
// names only when it was moved) by function and id.
func (g *graph) nodes() []node {
	var out []node
	idx := map[string]int{}
	for _, p := range g.doc.Resource().Properties() {
		fn, id, field, ok := nodeKey(p.Key)
		if !ok {
			continue
		}
		k := fn + "/" + strconv.Itoa(id)
		i, seen := idx[k]
		if !seen {
			i = len(out)
			idx[k] = i
			out = append(out, node{Function: fn, ID: id, Position: []float64{0, 0}, Props: map[string]any{}})
		}
		switch field {
		case "node":
			if r, ok := p.Value.(godot.SubResource); ok {
				if sub := g.doc.SubResource(r.ID); sub != nil {
					out[i].Type, out[i].sub = sub.Type(), sub
					for _, sp := range sub.Properties() {
						out[i].Props[sp.Key] = godot.ToJSON(sp.Value)
					}
				}
			}
		case "position":
			if v, ok := p.Value.(godot.Vector2); ok {
				out[i].Position = []float64{float64(v.X), float64(v.Y)}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b node) int {
		if fa, fb := slices.Index(functions, a.Function), slices.Index(functions, b.Function); fa != fb {
			return fa - fb
		}
		return a.ID - b.ID
	})
	return out
}

func (g *graph) node(fn string, id int) (node, bool) {
	for _, n := range g.nodes() {
		if n.Function == fn && n.ID == id {
			return n, true
		}
	}
	return node{}, false
}

// connections lists the edges of every function, in file order.
func (g *graph) connections() []connection {
	var out []connection
	for _, fn := range functions {
		v, ok := g.doc.Resource().Get("nodes/" + fn + "/connections")
		if !ok {
			continue
		}
		ints := intsOf(v)
		for i := 0; i+3 < len(ints); i += 4 {
			out = append(out, connection{fn, ints[i], ints[i+1], ints[i+2], ints[i+3]})
		}
	}
	return out
}

func intsOf(v godot.Value) []int {
	var out []int
	if a, ok := v.(godot.PackedInt32Array); ok {
		for _, x := range a {
			out = append(out, int(x))
		}
	}
	return out
}

// rewriteNodes rewrites every nodes/... property in the order the engine
// saves them: by function, then by id (node, then position), then the
// function's connections. Unchanged values keep their text.
func (g *graph) rewriteNodes(add map[string]godot.Value) {
	res := g.doc.Resource()
	vals := map[string]godot.Value{}
	for _, p := range res.Properties() {
		if strings.HasPrefix(p.Key, "nodes/") {
			vals[p.Key] = p.Value
		}
	}
	for k, v := range add {
		vals[k] = v
	}
	keys := make([]string, 0, len(vals))
	for k := range vals {
		keys = append(keys, k)
	}
	rank := func(k string) (int, int, int) {
		if fn, id, field, ok := nodeKey(k); ok {
			f := 0
			if field == "position" {
				f = 1
			}
			return slices.Index(functions, fn), id, f
		}
		fn := strings.TrimSuffix(strings.TrimPrefix(k, "nodes/"), "/connections")
		return slices.Index(functions, fn), 1 << 30, 0
	}
	slices.SortFunc(keys, func(a, b string) int {
		fa, ia, xa := rank(a)
		fb, ib, xb := rank(b)
		if fa != fb {
			return fa - fb
		}
		if ia != ib {
			return ia - ib
		}
		return xa - xb
	})
	// Keys already in canonical order stay where they are.
	var current []string
	for _, p := range res.Properties() {
		if strings.HasPrefix(p.Key, "nodes/") {
			current = append(current, p.Key)
		}
	}
	if slices.Equal(current, keys) {
		for k, v := range add {
			res.Set(k, v)
		}
		return
	}
	// Clearing a node's last reference drops its sub-resource, so a
	// scratch property holds every value while the keys are rewritten.
	const hold = "nodes/__godot_mcp_hold"
	all := make([]godot.Value, 0, len(vals))
	for _, k := range keys {
		all = append(all, vals[k])
	}
	res.Set(hold, godot.Array{Items: all})
	for _, k := range current {
		res.Clear(k)
	}
	for _, k := range keys {
		res.Set(k, vals[k])
	}
	res.Clear(hold)
}

// functionFor resolves a function argument for the graph's mode: the
// default is fragment (spatial, canvas_item), process (particles), sky or
// fog.
func (g *graph) functionFor(fn string) (string, error) {
	m := modes[g.mode]
	if fn == "" {
		switch m.name {
		case "particles":
			return "process", nil
		case "spatial", "canvas_item":
			return "fragment", nil
		}
		return m.functions[0], nil
	}
	if !slices.Contains(m.functions, fn) {
		return "", &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "function",
			Message: fmt.Sprintf("a %s visual shader has no %q function", m.name, fn), Hint: "pass one of " + strings.Join(m.functions, ", ")}
	}
	return fn, nil
}
