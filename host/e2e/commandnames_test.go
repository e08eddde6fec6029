package e2e

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
	"github.com/godot-mcp/godot-mcp/sdk/editorcmd"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// Every first-party tool whose editor path is one addon command is in
// editorcmd's map under that command, so an operation list naming the tool
// reaches the addon under the command the tool itself sends. The map is
// written by hand from the addon's command names; this keeps it from
// drifting from the toolsets.
func TestEditorCommandMapMatchesTheToolsets(t *testing.T) {
	checked := 0
	for _, name := range firstParty {
		out, err := exec.Command(filepath.Join(projectPluginsDir, "godot-mcp-toolset-"+name), "--describe").Output()
		if err != nil {
			t.Fatalf("%s --describe: %v", name, err)
		}
		var m manifest.Manifest
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatalf("%s --describe: %v", name, err)
		}
		for _, tl := range m.Tools {
			if !strings.HasPrefix(tl.EditorPath, "cmd_") {
				continue
			}
			exposed := manifest.ExposedName(m.Name, tl.Name)
			if got, ok := editorcmd.ToolCommand(exposed); !ok || got != tl.EditorPath {
				t.Errorf("%s sends %s, but editorcmd maps it to %q (known: %v)", exposed, tl.EditorPath, got, ok)
			}
			checked++
		}
	}
	if checked < 10 {
		t.Fatalf("only %d tools with an addon command checked: the toolsets did not describe themselves", checked)
	}
}

// run_commands with an editor attached sends each operation under the
// addon's own command name, however the agent named it: the tool's exposed
// name, its bare name, or the addon's name (cmd_read_script, which is not
// "cmd_" + any tool's name). The names used to be made by prefixing
// "cmd_" to the tool's, which the addon does not know (cmd_read).
func TestRunCommandsUseTheAddonsNames(t *testing.T) {
	url := bridgeURL(t)
	dir := copyFixture(t, "2d-pong")
	s := stdioHostEnv(t, sessionless, []string{"GODOT_MCP_BRIDGE_URL=" + url},
		"--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	ed := attachAddon(t, s, fakeaddon.Options{URL: url, GodotVersion: "4.6.1-stable", ProjectPath: dir + "/",
		Handlers: map[string]fakeaddon.Handler{
			"cmd_run_commands": func(map[string]any) fakeaddon.Reply {
				return fakeaddon.OK(map[string]any{"results": []any{}, "ok_all": true, "count": 0})
			},
		}})
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"composite", "scripts", "project", "input_map"}}, nil)
	want := map[string]string{
		"godot_scripts_read":        "cmd_read_script",
		"scripts_read":              "cmd_read_script",
		"cmd_read_script":           "cmd_read_script",
		"godot_project_resolve_uid": "cmd_uid_to_path",
		"input_map_add_action":      "cmd_add_input_action",
	}
	var cmds []any
	var order []string
	for name := range want {
		order = append(order, name)
		cmds = append(cmds, map[string]any{"command": name, "params": map[string]any{}})
	}
	s.ok(t, "godot_composite_run_commands", map[string]any{"commands": cmds}, nil)
	got := ed.Calls("cmd_run_commands")
	if len(got) != 1 {
		t.Fatalf("cmd_run_commands calls = %v", got)
	}
	sent, _ := got[0].Params["commands"].([]any)
	if len(sent) != len(order) {
		t.Fatalf("the addon got %v", got[0].Params)
	}
	for i, name := range order {
		if c := sent[i].(map[string]any)["command"]; c != want[name] {
			t.Errorf("%q reached the addon as %v, want %s", name, c, want[name])
		}
	}

	// A tool with no single addon command is refused before anything is
	// sent, with the advice to call it directly.
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"runtime"}}, nil)
	te := toolError(t, s.call(t, "godot_composite_run_commands", map[string]any{"commands": []any{
		map[string]any{"command": "godot_runtime_run_and_capture", "params": map[string]any{}}}}))
	if te.Code != "INVALID_ARGUMENT" || !strings.Contains(te.Hint, "call godot_runtime_run_and_capture directly") {
		t.Errorf("run_and_capture in a list: %+v", te)
	}
	if n := len(ed.Calls("cmd_run_commands")); n != 1 {
		t.Errorf("the refused list reached the addon (%d cmd_run_commands calls)", n)
	}
}
