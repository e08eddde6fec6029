package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/internal/warmengine"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
	"github.com/godot-mcp/godot-mcp/sdk/godot/uid"
)

const baseClass = "VisualShaderNode"

func readGraph(ctx context.Context, call *sdk.Call, p string) (*graph, error) {
	ws := call.Workspace()
	f, err := ws.Read(ctx, p)
	if err != nil {
		if e, ok := errors.AsType[*sdk.Error](err); ok && e.Code == sdk.CodeNotFound {
			e.Hint = "create it with godot_visual_shader_create"
		}
		return nil, err
	}
	doc, err := ws.ParseFile(ctx, f)
	if err != nil {
		return nil, sdk.Errorf(sdk.CodePreconditionFailed, "fix the file or create a new graph", "%s does not parse: %v", p, err)
	}
	return parseGraph(p, f, doc)
}

// readGraphFunction reads the graph at p and resolves the function argument
// for its mode, as every tool that edits one function's nodes does first.
func readGraphFunction(ctx context.Context, call *sdk.Call, p, function string) (*graph, string, error) {
	g, err := readGraph(ctx, call, p)
	if err != nil {
		return nil, "", err
	}
	fn, err := g.functionFor(function)
	if err != nil {
		return nil, "", err
	}
	return g, fn, nil
}

func (g *graph) commit(ctx context.Context, call *sdk.Call, name string) (sdk.CommitResult, error) {
	return call.Workspace().Begin(name).Write(g.path, g.doc.Bytes(), g.file.Version).Commit(ctx)
}

// noFunction refuses the function argument in editor mode: the addon adds
// to the function its own rules pick.
func noFunction(fn string) error {
	if fn == "" {
		return nil
	}
	return &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "headless",
		Message: "with an editor attached the addon picks the shader function itself; function is for headless edits",
		Hint:    "leave out function, or call again with no editor attached to pick the function"}
}

type createArgs struct {
	Name string      `json:"name" jsonschema:"the graph's name; the default path is res://shaders/<name>.tres"`
	Type string      `json:"type,omitempty" jsonschema:"3d (spatial, the default), 2d (canvas_item), particles, sky or fog"`
	Path sdk.ResPath `json:"path,omitempty" jsonschema:"res:// path of the new .tres" godot:"ext=.tres"`
}

type createResult struct {
	Path    string           `json:"path"`
	Created bool             `json:"created"`
	Mode    string           `json:"mode"`
	Commit  sdk.CommitResult `json:"commit"`
}

func (in createArgs) resolve() (string, int, error) {
	if strings.TrimSpace(in.Name) == "" {
		return "", 0, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "name", Message: "name is empty", Hint: "pass a name, e.g. \"water\""}
	}
	typ := in.Type
	if typ == "" {
		typ = "3d"
	}
	mode, ok := modeIndex(typ)
	if !ok {
		return "", 0, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "type", Message: fmt.Sprintf("unknown type %q", in.Type),
			Hint: "pass 3d, 2d, particles, sky or fog (or spatial, canvas_item)"}
	}
	p := string(in.Path)
	if p == "" {
		clean, err := sdk.CleanResPath("name", "res://shaders/"+in.Name+".tres", ".tres")
		if err != nil {
			return "", 0, err
		}
		p = clean
	}
	return p, mode, nil
}

func createCommand(in createArgs) (any, error) {
	p, _, err := in.resolve()
	if err != nil {
		return nil, err
	}
	return map[string]any{"name": in.Name, "type": in.Type, "path": p}, nil
}

// emptyGraph is an empty VisualShader of a mode, as the engine saves it.
func emptyGraph(mode int, id string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[gd_resource type=\"VisualShader\" format=3 uid=%q]\n\n[resource]\n", id)
	if mode != 0 {
		fmt.Fprintf(&b, "mode = %d\n", mode)
	}
	for _, f := range modes[mode].flags {
		fmt.Fprintf(&b, "flags/%s = false\n", f)
	}
	return b.String()
}

func create(ctx context.Context, call *sdk.Call, in createArgs) (sdk.Result, error) {
	p, mode, err := in.resolve()
	if err != nil {
		return sdk.Result{}, err
	}
	ws := call.Workspace()
	if fi, err := ws.Stat(ctx, p); err != nil {
		return sdk.Result{}, err
	} else if fi.Exists {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "path", Message: p + " already exists",
			Hint: "pick another name or path; edit the existing graph with godot_visual_shader_add_node"}
	}
	cr, err := ws.Begin("Create visual shader "+p).Write(p, []byte(emptyGraph(mode, uid.New().String())), "").Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(createResult{Path: p, Created: !cr.DryRun, Mode: modes[mode].name, Commit: cr}), nil
}

type graphArgs struct {
	ShaderPath sdk.ResPath `json:"shader_path" jsonschema:"res:// path of the VisualShader .tres" godot:"ext=.tres"`
}

type addArgs struct {
	graphArgs
	NodeType string    `json:"node_type" jsonschema:"a VisualShaderNode class, e.g. VisualShaderNodeColorConstant (godot_visual_shader_list_node_types lists them)"`
	NodeID   int       `json:"node_id" jsonschema:"the new node's id, 2 or more (0 is the output node)"`
	Position []float64 `json:"position,omitempty" jsonschema:"[x, y] in graph space"`
	Function string    `json:"function,omitempty" jsonschema:"the shader function (vertex, fragment, light, start, process, ...); default fragment, process for particles (headless only)"`
}

type addResult struct {
	NodeID   int              `json:"node_id"`
	NodeType string           `json:"node_type"`
	Function string           `json:"function"`
	Added    bool             `json:"added"`
	Ports    *ports           `json:"ports,omitempty" jsonschema:"the node's ports, as the engine connects them"`
	Note     string           `json:"note,omitempty"`
	Commit   sdk.CommitResult `json:"commit"`
}

// checkNodeType checks a class can be added to a graph.
func checkNodeType(class string) error {
	d := nodeedit.DB()
	c, ok := d.Class(class)
	switch {
	case !ok:
		hint := "godot_visual_shader_list_node_types lists them"
		if s := d.Suggest(class); s != "" && d.Inherits(s, baseClass) {
			hint = fmt.Sprintf("did you mean %q?", s)
		}
		return &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "node_type", Message: fmt.Sprintf("Godot has no class %q", class), Hint: hint}
	case !d.Inherits(class, baseClass) || class == baseClass:
		return &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "node_type", Message: class + " is not a VisualShaderNode", Hint: "godot_visual_shader_list_node_types lists them"}
	case !d.Instantiable(class) || c.APIType.EditorOnly():
		return &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "node_type", Message: class + " cannot be instantiated", Hint: "pick a concrete node type"}
	case class == "VisualShaderNodeOutput":
		return &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "node_type", Message: "every function has its output node already (id 0)", Hint: "connect to node 0"}
	}
	return nil
}

func addNodeCommand(in addArgs) (any, error) {
	if err := noFunction(in.Function); err != nil {
		return nil, err
	}
	if err := checkNodeType(in.NodeType); err != nil {
		return nil, err
	}
	pos := in.Position
	if pos == nil {
		pos = []float64{0, 0}
	}
	return map[string]any{"shader_path": in.ShaderPath, "node_type": in.NodeType, "node_id": in.NodeID, "position": pos}, nil
}

func addNode(ctx context.Context, call *sdk.Call, in addArgs) (sdk.Result, error) {
	if err := checkNodeType(in.NodeType); err != nil {
		return sdk.Result{}, err
	}
	if in.NodeID < 2 {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "node_id", Message: fmt.Sprintf("node_id %d is reserved (0 is the output node; ids start at 2)", in.NodeID), Hint: "pass 2 or more"}
	}
	pos := godot.Vector2{}
	switch len(in.Position) {
	case 0:
	case 2:
		pos = godot.Vector2{X: in.Position[0], Y: in.Position[1]}
	default:
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "position", Message: "position must be [x, y]", Hint: "pass two numbers, e.g. [200, 100]"}
	}
	g, fn, err := readGraphFunction(ctx, call, string(in.ShaderPath), in.Function)
	if err != nil {
		return sdk.Result{}, err
	}
	if n, ok := g.node(fn, in.NodeID); ok {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "node_id",
			Message: fmt.Sprintf("%s already has node %d (%s) in %s", g.path, in.NodeID, n.Type, fn), Hint: "pick an unused id, e.g. " + strconv.Itoa(g.nextID(fn))}
	}
	sub, err := g.doc.AddSubResource(in.NodeType)
	if err != nil {
		return sdk.Result{}, err
	}
	if nodeedit.DB().Inherits(in.NodeType, "VisualShaderNodeParameter") {
		// The engine names a new parameter after its class; the editor
		// keeps names unique, as the generated uniforms must be.
		sub.Set("parameter_name", godot.String(g.uniqueParameter(strings.TrimPrefix(in.NodeType, baseClass))))
	}
	prefix := fmt.Sprintf("nodes/%s/%d/", fn, in.NodeID)
	g.rewriteNodes(map[string]godot.Value{prefix + "node": sub.Ref(), prefix + "position": pos})
	cr, err := g.commit(ctx, call, fmt.Sprintf("Add %s %d to %s", in.NodeType, in.NodeID, g.path))
	if err != nil {
		return sdk.Result{}, err
	}
	out := addResult{NodeID: in.NodeID, NodeType: in.NodeType, Function: fn, Added: !cr.DryRun, Commit: cr}
	if p, err := portsOf(ctx, in.NodeType); err == nil {
		out.Ports = p
	} else {
		out.Note = "ports unknown: " + err.Error()
	}
	return sdk.JSON(out), nil
}

func (g *graph) nextID(fn string) int {
	id := 2
	for _, n := range g.nodes() {
		if n.Function == fn && n.ID >= id {
			id = n.ID + 1
		}
	}
	return id
}

func (g *graph) uniqueParameter(base string) string {
	used := map[string]bool{}
	for _, n := range g.nodes() {
		if s, ok := n.Props["parameter_name"].(string); ok {
			used[s] = true
		}
	}
	name := base
	for i := 2; used[name]; i++ {
		name = base + strconv.Itoa(i)
	}
	return name
}

type connectArgs struct {
	graphArgs
	FromNode int    `json:"from_node" jsonschema:"the node whose output port connects"`
	FromPort int    `json:"from_port" jsonschema:"the output port's index (add_node's answer lists the ports)"`
	ToNode   int    `json:"to_node" jsonschema:"the node whose input port receives (0 is the output node)"`
	ToPort   int    `json:"to_port" jsonschema:"the input port's index"`
	Function string `json:"function,omitempty" jsonschema:"the shader function; default fragment, process for particles (headless only)"`
}

type connectResult struct {
	Connected    bool             `json:"connected"`
	Function     string           `json:"function"`
	CheckedBy    string           `json:"checked_by" jsonschema:"engine (VisualShader.can_connect_nodes: ports exist, types fit, no cycle) or file (ids and duplicates only: no engine here)"`
	Note         string           `json:"note,omitempty"`
	Connections  int              `json:"connections" jsonschema:"connections in the function now"`
	Commit       sdk.CommitResult `json:"commit"`
	AlreadyThere bool             `json:"already_connected,omitempty"`
}

func connectCommand(in connectArgs) (any, error) {
	if err := noFunction(in.Function); err != nil {
		return nil, err
	}
	return map[string]any{"shader_path": in.ShaderPath, "from_node": in.FromNode, "from_port": in.FromPort, "to_node": in.ToNode, "to_port": in.ToPort}, nil
}

func connectNodes(ctx context.Context, call *sdk.Call, in connectArgs) (sdk.Result, error) {
	g, fn, err := readGraphFunction(ctx, call, string(in.ShaderPath), in.Function)
	if err != nil {
		return sdk.Result{}, err
	}
	for _, id := range []int{in.FromNode, in.ToNode} {
		if _, ok := g.node(fn, id); !ok && id != 0 {
			return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "from_node",
				Message: fmt.Sprintf("%s has no node %d in %s", g.path, id, fn), Hint: "add it with godot_visual_shader_add_node, or read the graph with godot_visual_shader_read"}
		}
	}
	c := connection{fn, in.FromNode, in.FromPort, in.ToNode, in.ToPort}
	var existing []int32
	for _, e := range g.connections() {
		if e.Function != fn {
			continue
		}
		if e == c {
			return sdk.JSON(connectResult{Connected: true, AlreadyThere: true, Function: fn, CheckedBy: "file", Connections: len(existing) / 4}), nil
		}
		if e.ToNode == c.ToNode && e.ToPort == c.ToPort {
			return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "to_port",
				Message: fmt.Sprintf("input %d of node %d is already connected (from node %d port %d)", c.ToPort, c.ToNode, e.FromNode, e.FromPort),
				Hint:    "an input takes one connection; pick another input"}
		}
		existing = append(existing, int32(e.FromNode), int32(e.FromPort), int32(e.ToNode), int32(e.ToPort))
	}
	out := connectResult{Function: fn, CheckedBy: "engine"}
	ok, err := canConnect(ctx, g.doc.Bytes(), fn, c)
	var un warmengine.Unavailable
	switch {
	case errors.As(err, &un):
		out.CheckedBy, out.Note = "file", "port types not checked, no engine here: "+un.Error()
	case err != nil:
		return sdk.Result{}, err
	case !ok:
		hint := "read the node's ports in godot_visual_shader_add_node's answer"
		if n, found := g.node(fn, c.FromNode); found {
			if p, err := portsOf(ctx, n.Type); err == nil && p != nil {
				hint = fmt.Sprintf("node %d (%s) has outputs %s", c.FromNode, n.Type, portList(p.Outputs))
			}
		}
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "from_port",
			Message: fmt.Sprintf("the engine refuses to connect node %d port %d to node %d port %d in %s: a port does not exist, the types do not fit, or it would make a cycle",
				c.FromNode, c.FromPort, c.ToNode, c.ToPort, fn),
			Hint: hint}
	}
	existing = append(existing, int32(c.FromNode), int32(c.FromPort), int32(c.ToNode), int32(c.ToPort))
	g.rewriteNodes(map[string]godot.Value{"nodes/" + fn + "/connections": godot.PackedInt32Array(existing)})
	cr, err := g.commit(ctx, call, fmt.Sprintf("Connect shader nodes %d→%d in %s", c.FromNode, c.ToNode, g.path))
	if err != nil {
		return sdk.Result{}, err
	}
	out.Connected, out.Connections, out.Commit = !cr.DryRun, len(existing)/4, cr
	return sdk.JSON(out), nil
}

func portList(ps []port) string {
	var s []string
	for _, p := range ps {
		s = append(s, fmt.Sprintf("%d (%s)", p.Port, p.Kind))
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

type setArgs struct {
	graphArgs
	NodeID   int    `json:"node_id" jsonschema:"the node's id in the graph"`
	Property string `json:"property" jsonschema:"a property of the node's class, e.g. constant, parameter_name, operator"`
	Value    any    `json:"value" jsonschema:"converted to the property's type; null or the class default removes it" godot:"value"`
	Function string `json:"function,omitempty" jsonschema:"the shader function; default fragment, process for particles (headless only)"`
}

type setResult struct {
	NodeID   int              `json:"node_id"`
	Property string           `json:"property"`
	Value    any              `json:"value"`
	Set      bool             `json:"set"`
	Removed  bool             `json:"removed,omitempty" jsonschema:"the value is the class default, which the file leaves out"`
	Commit   sdk.CommitResult `json:"commit"`
}

func setParamCommand(in setArgs) (any, error) {
	if err := noFunction(in.Function); err != nil {
		return nil, err
	}
	return map[string]any{"shader_path": in.ShaderPath, "node_id": in.NodeID, "property": in.Property, "value": in.Value}, nil
}

func setNodeParam(ctx context.Context, call *sdk.Call, in setArgs) (sdk.Result, error) {
	g, fn, err := readGraphFunction(ctx, call, string(in.ShaderPath), in.Function)
	if err != nil {
		return sdk.Result{}, err
	}
	n, ok := g.node(fn, in.NodeID)
	if !ok || n.sub == nil {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "node_id",
			Message: fmt.Sprintf("%s has no node %d in %s", g.path, in.NodeID, fn), Hint: "read the graph with godot_visual_shader_read"}
	}
	out := setResult{NodeID: in.NodeID, Property: in.Property}
	var v godot.Value
	if in.Value != nil {
		v, err = nodeedit.Coerce(n.Type, in.Property, in.Value, classdb.ResourceFunc(func(typ, p string) (godot.Value, error) {
			return g.doc.AddExtResource(strings.SplitN(typ, ",", 2)[0], p, "")
		}))
		if err != nil {
			return sdk.Result{}, err
		}
	}
	if v == nil || nodeedit.DB().IsDefault(n.Type, in.Property, v) {
		out.Removed = n.sub.Clear(in.Property)
		if v != nil {
			out.Value = godot.ToJSON(v)
		}
	} else {
		n.sub.Set(in.Property, v)
		out.Value = godot.ToJSON(v)
	}
	cr, err := g.commit(ctx, call, fmt.Sprintf("Set %s of shader node %d in %s", in.Property, in.NodeID, g.path))
	if err != nil {
		return sdk.Result{}, err
	}
	out.Set, out.Commit = !cr.DryRun, cr
	return sdk.JSON(out), nil
}

type readResult struct {
	ShaderPath  string       `json:"shader_path"`
	Mode        string       `json:"mode"`
	Functions   []string     `json:"functions"`
	Nodes       []node       `json:"nodes"`
	Connections []connection `json:"connections"`
	// The engine's view: the generated code and whether it compiles.
	Code          string   `json:"code,omitempty" jsonschema:"the shader code the engine generates from the graph"`
	CompileErrors []string `json:"compile_errors"`
	Compiled      bool     `json:"compiled" jsonschema:"the engine generated and compiled the graph's code without errors"`
	Note          string   `json:"note,omitempty"`
}

func readCommand(in graphArgs) (any, error) {
	return map[string]any{"shader_path": in.ShaderPath}, nil
}

func read(ctx context.Context, call *sdk.Call, in graphArgs) (sdk.Result, error) {
	g, err := readGraph(ctx, call, string(in.ShaderPath))
	if err != nil {
		return sdk.Result{}, err
	}
	out := readResult{ShaderPath: g.path, Mode: modes[g.mode].name, Functions: modes[g.mode].functions,
		Nodes: g.nodes(), Connections: g.connections(), CompileErrors: []string{}}
	if out.Nodes == nil {
		out.Nodes = []node{}
	}
	if out.Connections == nil {
		out.Connections = []connection{}
	}
	c, err := compileGraph(ctx, g.file.Data)
	var un warmengine.Unavailable
	switch {
	case errors.As(err, &un):
		out.Note = "not compiled, no engine here: " + un.Error()
	case err != nil:
		return sdk.Result{}, err
	default:
		out.Code, out.CompileErrors = c.Code, c.Errors
		out.Compiled = c.Code != "" && len(c.Errors) == 0
	}
	return sdk.JSON(out), nil
}

type listArgs struct{}

type listResult struct {
	Types []string `json:"types"`
}

func listNodeTypes(_ context.Context, _ *sdk.Call, _ listArgs) (sdk.Result, error) {
	d := nodeedit.DB()
	var out []string
	for _, c := range d.Classes() {
		if strings.HasPrefix(c, baseClass) && checkNodeType(c) == nil {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return sdk.JSON(listResult{Types: out}), nil
}

// createDryRun is what a dry run of create answers without writing.
func createDryRun(in createArgs) map[string]any {
	p, mode, err := in.resolve()
	if err != nil {
		return nil
	}
	return map[string]any{"path": p, "mode": modes[mode].name}
}
