package exposure_test

import (
	"fmt"

	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/host/exposure"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// A chain from a policy config answers tools/list (Evaluate) and
// tools/call (Authorize) the same way.
func ExampleChain() {
	cfg := &config.Config{Profiles: map[string]config.Profile{
		"ci": {Deny: []string{"class:destructive"}},
	}}
	chain, err := exposure.NewChain(cfg)
	if err != nil {
		panic(err)
	}
	candidates := []exposure.Tool{
		{Name: "godot_scene_edit_add_node", Toolset: "scene_edit", Class: manifest.Mutating},
		{Name: "godot_scene_edit_delete_node", Toolset: "scene_edit", Class: manifest.Destructive},
	}
	caller := exposure.Caller{Principal: "ci-bot", Profile: "ci", Transport: exposure.TransportHTTP}

	d := chain.Evaluate(caller, candidates) // tools/list
	for _, t := range d.Visible {
		fmt.Println("visible:", t.Name)
	}
	refused := chain.Authorize(caller, candidates[1]) // tools/call
	fmt.Println(refused.Code, refused.Required)
	// Output:
	// visible: godot_scene_edit_add_node
	// TOOL_NOT_EXPOSED layer:profile
}
