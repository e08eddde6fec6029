package server

import (
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/exposure"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// The core tools are one list (coreDefs): twelve tools of toolset core, the
// two toggles and undo/redo mutating, godot_debug_workflow runtime (it runs
// the game) and the rest read-only, every one passing the bare
// classification layer, named as ExposedName composes them, with a schema
// derived from its arguments type.
func TestCoreTools(t *testing.T) {
	core := CoreTools()
	if len(core) != 12 {
		t.Fatalf("%d core tools", len(core))
	}
	for _, ct := range core {
		if ok, layer := exposure.Compose().Check(exposure.Caller{}, ct); !ok {
			t.Errorf("core tool %s withheld by %s", ct.Name, layer)
		}
		mutating := ct.Name == "godot_enable_toolset" || ct.Name == "godot_disable_toolset" ||
			ct.Name == "godot_undo" || ct.Name == "godot_redo"
		want := manifest.ReadOnly
		switch {
		case mutating:
			want = manifest.Mutating
		case ct.Name == "godot_debug_workflow":
			want = manifest.Runtime
		}
		if ct.Class != want || ct.Toolset != exposure.CoreToolset {
			t.Errorf("core tool %+v", ct)
		}
		if exposure.ExposedName(exposure.CoreToolset, strings.TrimPrefix(ct.Name, "godot_")) != ct.Name {
			t.Errorf("ExposedName does not compose %s", ct.Name)
		}
		if !isCore(ct.Name) {
			t.Errorf("isCore(%s) = false", ct.Name)
		}
	}
	for _, d := range coreDefs {
		if _, err := d.schema(); err != nil {
			t.Errorf("%s: schema: %v", d.name, err)
		}
	}
}
