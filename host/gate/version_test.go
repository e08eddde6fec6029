package gate

import (
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// A Godot 3 project reads as "3" (host.ProjectGodotVersion): toolsets that
// support Godot 3 projects pass, Godot 4-only toolsets are refused.
func TestGodot3ProjectVersion(t *testing.T) {
	if e := checkVersion("runtime", ">= 3.0, < 5.0", "3", "project"); e != nil {
		t.Fatalf("runtime refused on a Godot 3 project: %+v", e)
	}
	if e := checkVersion("project", ">= 4.0", "3", "project"); e == nil || e.Required != sdk.RequiredGodotVersion {
		t.Fatalf("a Godot 4 toolset accepted on a Godot 3 project: %+v", e)
	}
}
