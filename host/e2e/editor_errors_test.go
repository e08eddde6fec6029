package e2e

import (
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// TestSameMistakeSameCode: through the real host, the real scene_edit and
// inspection plugins and a fake addon over a real socket, the same wrong
// input gets the same error code headless and with an editor attached. The
// fake answers with the addon's own codes (RESOURCE_NOT_FOUND,
// VALIDATION_ERROR), as ADDON-PROTOCOL §5 says the addon does for these
// mistakes; the host maps them once, for every toolset.
func TestSameMistakeSameCode(t *testing.T) {
	url := bridgeURL(t)
	dir := corpusProject(t, "2d-dodge_the_creeps")
	s := stdioHostEnv(t, sessionless, []string{"GODOT_MCP_BRIDGE_URL=" + url},
		"--plugins-dir", projectPluginsDir, "--project", dir, "--log-level", "warn")
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"scene_edit"}}, nil)

	mistakes := []struct {
		name, tool string
		args       map[string]any
		want       string
		addonSaid  string // what the fake addon answers, in the message
	}{
		{"inspection: no such node", "godot_inspection_get_node_property",
			map[string]any{"node_path": "Nope", "property": "position"}, sdk.CodeNotFound, "No node at 'Nope'."},
		{"scene_edit: no such node", "godot_scene_edit_set_node_property",
			map[string]any{"node_path": "Nope", "property": "visible", "value": false}, sdk.CodeNotFound, "No node at 'Nope'."},
		{"scene_edit: no such property", "godot_scene_edit_set_node_property",
			map[string]any{"node_path": "StartTimer", "property": "wait_tme", "value": 1}, sdk.CodeInvalidArgument, "Node has no property 'wait_tme'."},
		{"scene_edit: the root cannot move", "godot_scene_edit_move_node",
			map[string]any{"node_path": ".", "new_parent_path": "Player"}, sdk.CodeInvalidArgument, "Cannot move the scene root."},
	}

	// Headless, on the files.
	s.ok(t, "godot_scene_edit_open_scene", map[string]any{"scene_path": "res://main.tscn"}, nil)
	headless := map[string]string{}
	for _, m := range mistakes {
		te := toolError(t, s.call(t, m.tool, m.args))
		if te.Code != m.want || te.Hint == "" {
			t.Errorf("%s headless: %+v, want %s with a hint", m.name, te, m.want)
		}
		headless[m.name] = te.Code
	}

	// The same calls, forwarded to an editor.
	missing := func(p map[string]any, key string) bool { return p[key] == "Nope" }
	ed := attachAddon(t, s, fakeaddon.Options{URL: url, GodotVersion: "4.6.1-stable",
		Handlers: map[string]fakeaddon.Handler{
			"cmd_get_node_property": func(p map[string]any) fakeaddon.Reply {
				if missing(p, "node_path") {
					return fakeaddon.Fail("RESOURCE_NOT_FOUND", "No node at 'Nope'.")
				}
				return fakeaddon.OK(map[string]any{"node_path": p["node_path"], "property": p["property"], "value": nil})
			},
			"cmd_set_node_property": func(p map[string]any) fakeaddon.Reply {
				if missing(p, "node_path") {
					return fakeaddon.Fail("RESOURCE_NOT_FOUND", "No node at 'Nope'.")
				}
				if p["property"] == "wait_tme" {
					return fakeaddon.Fail("VALIDATION_ERROR", "Node has no property 'wait_tme'.")
				}
				return fakeaddon.OK(map[string]any{"node_path": p["node_path"], "property": p["property"], "value": p["value"], "set": true})
			},
			"cmd_move_node": func(p map[string]any) fakeaddon.Reply {
				if p["node_path"] == "." {
					return fakeaddon.Fail("VALIDATION_ERROR", "Cannot move the scene root.")
				}
				return fakeaddon.OK(map[string]any{"node_path": p["node_path"], "moved": true})
			},
		}})
	for _, m := range mistakes {
		te := toolError(t, s.call(t, m.tool, m.args))
		if te.Code != headless[m.name] || !strings.Contains(te.Message, m.addonSaid) || te.Hint == "" {
			t.Errorf("%s in the editor: %+v, want %s (as headless) quoting %q, with a hint", m.name, te, headless[m.name], m.addonSaid)
		}
	}
	if n := len(ed.Calls("cmd_get_node_property")) + len(ed.Calls("cmd_set_node_property")) + len(ed.Calls("cmd_move_node")); n != len(mistakes) {
		t.Errorf("%d of %d calls reached the editor", n, len(mistakes))
	}

	// The host's own tools that forward to the editor get the same rule: an
	// addon that answers "Unknown command" (one older than the host) is a
	// precondition with the fix, not a VALIDATION_ERROR.
	ed.Remove("cmd_list_history")
	te := toolError(t, s.call(t, "godot_list_history", nil))
	if te.Code != sdk.CodePreconditionFailed || te.Required != "addon_command" ||
		!strings.Contains(te.Message, "Unknown command 'cmd_list_history'.") || !strings.Contains(te.Hint, "update the godot-mcp addon") {
		t.Errorf("godot_list_history with an addon without it: %+v", te)
	}
}
