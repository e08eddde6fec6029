package e2e

import (
	"slices"
	"strings"
	"testing"
)

// godot_list_toolsets shows, from the plugins' manifests, which tools work
// in one mode only, so an agent knows before calling that a tool needs an
// editor attached (or none).
func TestListToolsetsShowsSingleModeTools(t *testing.T) {
	s := stdioHost(t, legacy, "--plugins-dir", projectPluginsDir, "--godot-version", "4.5", "--log-level", "warn")
	res := s.call(t, "godot_list_toolsets", nil)
	var out struct {
		Toolsets []struct {
			Name         string   `json:"name"`
			EditorOnly   []string `json:"editor_only"`
			HeadlessOnly []string `json:"headless_only"`
		} `json:"toolsets"`
	}
	decode(t, res, &out)
	found := false
	for _, ts := range out.Toolsets {
		if ts.Name == "project_scaffold" {
			found = true
			if !slices.Contains(ts.HeadlessOnly, "godot_project_scaffold") {
				t.Errorf("project_scaffold: headless_only %v", ts.HeadlessOnly)
			}
		}
		if ts.Name == "scene_edit" && (len(ts.EditorOnly) > 0 || len(ts.HeadlessOnly) > 0) {
			t.Errorf("scene_edit works in both modes, listed %v / %v", ts.EditorOnly, ts.HeadlessOnly)
		}
	}
	if !found {
		t.Fatalf("project_scaffold not listed: %s", text(res))
	}
	if !strings.Contains(text(res), "Headless only: godot_project_scaffold") {
		t.Errorf("the summary does not say it: %s", text(res))
	}
}
