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
	s := stdioHost(t, legacy, "--plugins-dir", wsDir, "--godot-version", "4.5", "--log-level", "warn")
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
		if ts.Name == "wsedit" {
			found = true
			if !slices.Equal(ts.HeadlessOnly, []string{"godot_wsedit_disk_size"}) || !slices.Equal(ts.EditorOnly, []string{"godot_wsedit_editor_scene"}) {
				t.Errorf("wsedit: headless_only %v, editor_only %v", ts.HeadlessOnly, ts.EditorOnly)
			}
		}
	}
	if !found {
		t.Fatalf("wsedit not listed: %s", text(res))
	}
	for _, want := range []string{"Headless only: godot_wsedit_disk_size", "Needs a Godot editor attached: godot_wsedit_editor_scene"} {
		if !strings.Contains(text(res), want) {
			t.Errorf("the summary does not say %q: %s", want, text(res))
		}
	}
}
