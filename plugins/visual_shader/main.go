// Command visual_shader is the first-party "visual_shader" toolset:
// VisualShader node graphs (.tres), edited headless exactly as the editor
// saves them (nodes/fragment/2/node = SubResource(...), .../position,
// nodes/fragment/connections = PackedInt32Array(...)), with connections
// checked and graphs compiled by the real engine (the embedded Godot 4.6
// web runtime, kept warm). With an editor attached the tools forward to
// the godot-mcp addon.
package main

import (
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

func main() {
	sdk.Serve(Toolset())
}

// Toolset returns the visual_shader toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "visual_shader",
		Version: "0.1.0",
		Description: "VisualShader node graphs: create, add nodes (with their ports), connect them (port types checked by the engine), " +
			"set node properties and read the graph with the code the engine generates from it.",
		Godot: ">= 4.0",
		Warm:  classdb.Warm,
		Tools: []sdk.Tool{
			sdk.NewTool("create",
				"Create an empty VisualShader .tres of a type: 3d (spatial, default), 2d (canvas_item), particles, sky or fog. "+
					"Saved at path (default res://shaders/<name>.tres); refuses an existing file.",
				sdk.Mutating, create, sdk.EditorCommand("cmd_create_visual_shader", createCommand),
				sdk.DryRunAnswer(createDryRun, "created"), sdk.WithTitle("Create visual shader")),
			sdk.NewTool("add_node",
				"Add a node of a VisualShaderNode class to a graph with an id (2 or more; 0 is the output) and a position. "+
					"The answer lists the node's input and output ports.",
				sdk.Mutating, addNode, sdk.EditorCommand("cmd_add_shader_node", addNodeCommand), sdk.WithTitle("Add visual shader node")),
			sdk.NewTool("connect_nodes",
				"Connect an output port of one node to an input port of another (node 0 is the output node); the engine checks "+
					"that both ports exist, their types fit and no cycle results.",
				sdk.Mutating, connectNodes, sdk.EditorCommand("cmd_connect_shader_nodes", connectCommand), sdk.WithTitle("Connect visual shader nodes")),
			sdk.NewTool("set_node_param",
				"Set a property of a graph node (constant, parameter_name, operator, ...), converted to the property's type.",
				sdk.Mutating, setNodeParam, sdk.EditorCommand("cmd_set_shader_node_param", setParamCommand), sdk.WithTitle("Set visual shader node property")),
			sdk.NewTool("read",
				"Read a VisualShader graph: mode, nodes (type, position, properties), connections, and the shader code the engine "+
					"generates from it, compiled (compile_errors).",
				sdk.ReadOnly, read, sdk.EditorCommand("cmd_read_visual_shader", readCommand), sdk.WithTitle("Read visual shader")),
			sdk.NewTool("list_node_types",
				"List the VisualShaderNode classes a graph can hold (from the engine's class database).",
				sdk.ReadOnly, listNodeTypes, sdk.EditorCommand("cmd_list_shader_node_types", func(listArgs) (any, error) { return nil, nil }),
				sdk.WithTitle("List visual shader node types")),
		},
	}
}
