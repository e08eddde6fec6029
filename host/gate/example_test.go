package gate_test

import (
	"context"
	"fmt"

	"github.com/godot-mcp/godot-mcp/host/gate"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// printer stands in for the supervisor (Plugins) and the server's table of
// tools (Surface).
type printer struct{}

func (printer) Start(_ context.Context, n string) error { fmt.Println("start", n); return nil }
func (printer) Stop(_ context.Context, n string) error  { fmt.Println("stop", n); return nil }
func (printer) Show(n string)                           { fmt.Println("show", n) }
func (printer) Hide(n string)                           { fmt.Println("hide", n) }

// A toggle is a transaction: the plugin starts, then its tools show; a
// disable hides them before the plugin stops. A toolset whose Godot
// constraint the version does not meet is refused with the fix.
func ExampleGate() {
	manifests := []*manifest.Manifest{
		{Name: "inspection", Version: "1.0.0", Description: "Read the project."},
		{Name: "scene_edit", Version: "1.0.0", Description: "Edit scenes.", Godot: ">= 4.4"},
	}
	version := gate.NewVersion("4.3", "project.godot") // the supervisor reads it too
	g := gate.New(gate.Options{Toolsets: manifests, Plugins: printer{}, Surface: printer{}, Version: version})
	ctx := context.Background()

	g.Seed(ctx, gate.Defaults(nil), "startup") // inspection
	fmt.Println(g.EnabledSet())

	_, err := g.Enable(ctx, gate.Request{Toolsets: []string{"scene_edit"}, By: "stdio"})
	fmt.Println(err)

	_, _ = g.Disable(ctx, gate.Request{Toolsets: []string{"inspection"}, By: "stdio"})
	fmt.Println(g.EnabledSet())
	// Output:
	// start inspection
	// show inspection
	// [core inspection]
	// PRECONDITION_FAILED: toolset "scene_edit" requires Godot >= 4.4, and the Godot version is 4.3 (from project.godot)
	// Hint: requires Godot >= 4.4, found 4.3: upgrade the editor or the project, or enable another toolset
	// Required: godot_version
	// hide inspection
	// stop inspection
	// [core]
}
