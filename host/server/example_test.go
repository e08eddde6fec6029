package server_test

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/gate"
	"github.com/godot-mcp/godot-mcp/host/server"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// The wiring is a tree: the table of tools first, the gate on it, the
// server on both. Here without plugins, serving an in-memory client.
func ExampleNew() {
	manifests := []*manifest.Manifest{{Name: "scene_edit", Version: "1.0.0", Description: "Edit scenes.", Tools: []manifest.Tool{
		{Name: "add_node", Description: "Add a node.", SafetyClass: manifest.Mutating, InputSchema: []byte(`{"type":"object"}`)},
	}}}
	tools := server.NewTools(server.ToolsOptions{Version: "1.0.0", Toolsets: manifests})
	g := gate.New(gate.Options{Toolsets: manifests, Surface: tools})
	srv, err := server.New(server.Options{Version: "1.0.0", Tools: tools, Gate: g})
	if err != nil {
		panic(err)
	}

	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, _ := srv.Connect(ctx, st)
	defer ss.Close()
	cs, _ := mcp.NewClient(&mcp.Implementation{Name: "example"}, nil).Connect(ctx, ct, nil)
	defer cs.Close()

	// A tool of a toolset that is off answers with the call that turns it on.
	res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "godot_scene_edit_add_node", Arguments: map[string]any{}})
	fmt.Println(res.IsError, res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// true TOOLSET_DISABLED: tool "godot_scene_edit_add_node" belongs to toolset "scene_edit", which is not enabled
	// Hint: enable it first: godot_enable_toolset({"toolsets":["scene_edit"]})
	// Required: toolset_enabled
}
