package server

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// TestReplaceSwapsAToolsetsTools: after a hot upgrade changed its tools,
// the table serves the new set (dropped, kept and added tools), the enabled
// toolset's clients see it in tools/list and got list_changed.
func TestReplaceSwapsAToolsetsTools(t *testing.T) {
	e := newEnv(t, envOptions{godot: "4.5", seed: []string{"inspection"}})
	c := e.connect(t, legacy)
	if !slices.Contains(c.names(t), "godot_inspection_broken") {
		t.Fatal("setup: broken not listed")
	}
	next := &manifest.Manifest{Name: "inspection", Version: "2.0.0", Description: "Read the project.", Tools: []manifest.Tool{
		tool("scene_tree", manifest.ReadOnly, `{"type":"object","properties":{"depth":{"type":"integer"}}}`),
		tool("fresh", manifest.ReadOnly, `{"type":"object"}`),
	}}
	if errs := e.srv.tools.Replace(next, true); len(errs) != 0 {
		t.Fatal(errs)
	}
	waitFor(t, c.listChanged, "list_changed")
	names := c.names(t)
	if slices.Contains(names, "godot_inspection_broken") || !slices.Contains(names, "godot_inspection_fresh") || !slices.Contains(names, "godot_inspection_scene_tree") {
		t.Errorf("after Replace: %v", names)
	}
	if _, ok := e.srv.reg.lookup("godot_inspection_broken"); ok {
		t.Error("the dropped tool is still in the registry")
	}
	if ent, ok := e.srv.reg.lookup("godot_inspection_scene_tree"); !ok {
		t.Error("the kept tool is gone")
	} else if b, _ := json.Marshal(ent.tool.InputSchema); !strings.Contains(string(b), `"depth"`) {
		t.Errorf("scene_tree keeps its old schema: %s", b)
	}
	if res := c.call(t, "godot_inspection_fresh", map[string]any{}); res.IsError {
		t.Errorf("the new tool: %+v", res)
	}
}
