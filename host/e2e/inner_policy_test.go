package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
	"github.com/godot-mcp/godot-mcp/internal/syncbuf"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// The scene the inner-command tests edit: a root and one child to delete.
const innerScene = "[gd_scene format=3]\n\n[node name=\"HUD\" type=\"Control\"]\n\n[node name=\"Logo\" type=\"Sprite2D\" parent=\".\"]\n"

// innerProject writes a project holding res://hud.tscn and a policy file
// with the given [operator] deny list, and returns both paths.
func innerProject(t *testing.T, deny string) (dir, cfg string) {
	t.Helper()
	dir = t.TempDir()
	writeFile(t, filepath.Join(dir, "project.godot"), "config_version=5\n\n[application]\n\nconfig/features=PackedStringArray(\"4.6\")\n")
	writeFile(t, filepath.Join(dir, "hud.tscn"), innerScene)
	cfg = filepath.Join(t.TempDir(), "policy.toml")
	policy := "default_toolsets = [\"scene_edit\", \"composite\", \"batch\"]\n"
	if deny != "" {
		policy += "\n[operator]\ndeny = [" + deny + "]\n"
	}
	writeFile(t, cfg, policy)
	return dir, cfg
}

// runCommands is a run_commands call on res://hud.tscn: create a node,
// then delete Logo under the name spelling given.
func runCommands(deleteAs string, extra map[string]any) map[string]any {
	args := map[string]any{"scene": "res://hud.tscn", "commands": []any{
		map[string]any{"command": "create_node", "params": map[string]any{"node_type": "Label", "node_name": "Title"}},
		map[string]any{"command": deleteAs, "params": map[string]any{"node_path": "Logo"}},
	}}
	for k, v := range extra {
		args[k] = v
	}
	return args
}

// innerPolicies are the policies under which a delete inside run_commands
// must be refused, as a direct delete_node call is.
// at is the first command refused: with scene_edit denied, the
// create_node before the delete is refused too.
var innerPolicies = []struct {
	name, deny, code, at string
}{
	{"class destructive denied", `"class:destructive"`, sdk.CodeToolNotExposed, "commands[1]"},
	{"scene_edit toolset denied", `"scene_edit"`, sdk.CodeToolNotExposed, "commands[0]"},
	{"delete_node denied by name", `"godot_scene_edit_delete_node"`, sdk.CodeToolNotExposed, "commands[1]"},
}

// deleteSpellings are the names run_commands accepts for the delete.
var deleteSpellings = []string{"delete_node", "cmd_delete_node", "godot_scene_edit_delete_node", " scene_edit_delete_node"}

func sceneUnchanged(t *testing.T, dir, why string) {
	t.Helper()
	if got, _ := readFile(t, filepath.Join(dir, "hud.tscn")); got != innerScene {
		t.Errorf("%s: hud.tscn changed:\n%s", why, got)
	}
}

// TestRunCommandsHeldToInnerRules: through the real host over HTTP, with
// a policy file, a run_commands whose list deletes a node is refused (the
// whole list, nothing written) whenever a direct delete_node call by the
// same caller would be, whatever spelling names the delete; and a
// destructive command needs confirm. An allowed list still runs.
func TestRunCommandsHeldToInnerRules(t *testing.T) {
	for _, p := range innerPolicies {
		t.Run(p.name, func(t *testing.T) {
			dir, cfg := innerProject(t, p.deny)
			h := startHTTP(t, nil, "--config", cfg, "--project", dir, "--plugins-dir", projectPluginsDir)
			s := h.connect(t, sessionless, nil)
			direct := toolError(t, s.call(t, "godot_scene_edit_delete_node", map[string]any{"scene": "res://hud.tscn", "node_path": "Logo", "confirm": true}))
			if direct.Code != p.code {
				t.Fatalf("direct delete_node = %+v, want %s", direct, p.code)
			}
			for _, name := range deleteSpellings {
				te := toolError(t, s.call(t, "godot_composite_run_commands", runCommands(name, map[string]any{"confirm": true})))
				want := "godot_scene_edit_delete_node"
				if p.at == "commands[0]" {
					want = "godot_scene_edit_create_node"
				}
				if te.Code != p.code || te.Required != direct.Required ||
					!strings.Contains(te.Message, p.at) || !strings.Contains(te.Message, want) ||
					!strings.Contains(te.Message, "ran nothing") || te.Hint == "" {
					t.Errorf("run_commands with %q = %+v, want %s naming %s and %s, with the fix", name, te, p.code, p.at, want)
				}
				sceneUnchanged(t, dir, name)
			}
		})
	}

	t.Run("confirm", func(t *testing.T) {
		dir, cfg := innerProject(t, "")
		h := startHTTP(t, nil, "--config", cfg, "--project", dir, "--plugins-dir", projectPluginsDir)
		s := h.connect(t, sessionless, nil)
		te := toolError(t, s.call(t, "godot_composite_run_commands", runCommands("delete_node", nil)))
		if te.Code != sdk.CodePreconditionFailed || te.Required != sdk.RequiredConfirm ||
			!strings.Contains(te.Message, "godot_scene_edit_delete_node") || !strings.Contains(te.Hint, `"confirm": true`) {
			t.Errorf("unconfirmed delete in run_commands = %+v, want PRECONDITION_FAILED required=confirm", te)
		}
		sceneUnchanged(t, dir, "unconfirmed")

		var run struct {
			OKAll   bool `json:"ok_all"`
			Results []struct {
				Command string `json:"command"`
			} `json:"results"`
		}
		s.ok(t, "godot_composite_run_commands", runCommands("delete_node", map[string]any{"dry_run": true}), &run)
		sceneUnchanged(t, dir, "dry run")
		s.ok(t, "godot_composite_run_commands", runCommands("delete_node", map[string]any{"confirm": true}), &run)
		if !run.OKAll || len(run.Results) != 2 || run.Results[1].Command != "cmd_delete_node" {
			t.Fatalf("confirmed run_commands: %+v", run)
		}
		got, _ := readFile(t, filepath.Join(dir, "hud.tscn"))
		if strings.Contains(got, "Logo") || !strings.Contains(got, "Title") {
			t.Errorf("confirmed run_commands wrote:\n%s", got)
		}
	})

	t.Run("unknown command", func(t *testing.T) {
		dir, cfg := innerProject(t, "")
		h := startHTTP(t, nil, "--config", cfg, "--project", dir, "--plugins-dir", projectPluginsDir)
		s := h.connect(t, sessionless, nil)
		for _, name := range []string{"cmd_evaluate_expression", "godot_undo", "run_commands", ""} {
			te := toolError(t, s.call(t, "godot_composite_run_commands", runCommands(name, map[string]any{"confirm": true})))
			if te.Code == "" || !strings.Contains(te.Message, "commands[1]") {
				t.Errorf("run_commands with %q = %+v, want a refusal naming commands[1]", name, te)
			}
			sceneUnchanged(t, dir, name)
		}
	})
}

// TestBatchToolsHeldToEquivalentRules: the batch and composite tools that
// set properties or create nodes on many nodes are held to the policy of
// the scene_edit tool they are equivalent to, so denying that tool by name
// also denies the batch way to do it.
func TestBatchToolsHeldToEquivalentRules(t *testing.T) {
	dir, cfg := innerProject(t, `"godot_scene_edit_set_node_property"`)
	h := startHTTP(t, nil, "--config", cfg, "--project", dir, "--plugins-dir", projectPluginsDir)
	s := h.connect(t, sessionless, nil)
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"godot_batch_set_property", map[string]any{"scene": "res://hud.tscn", "node_paths": []string{"Logo"}, "property": "visible", "value": false}},
		{"godot_batch_cross_scene_set_property", map[string]any{"scenes": []string{"res://hud.tscn"}, "type": "Sprite2D", "property": "visible", "value": false}},
		{"godot_composite_apply_node_edits", map[string]any{"scene": "res://hud.tscn", "edits": []any{map[string]any{"node_path": "Logo", "properties": map[string]any{"visible": false}}}}},
		{"godot_composite_batch_create_nodes", map[string]any{"scene": "res://hud.tscn", "node_type": "Label", "names": []string{"A", "B"}}},
		{"godot_composite_compose_node", map[string]any{"scene": "res://hud.tscn", "node_type": "Label"}},
		{"godot_composite_run_commands", map[string]any{"scene": "res://hud.tscn", "commands": []any{
			map[string]any{"command": "set_property", "params": map[string]any{"node_paths": []string{"Logo"}, "property": "visible", "value": false}}}}},
		{"godot_composite_run_commands", map[string]any{"scene": "res://hud.tscn", "commands": []any{
			map[string]any{"command": "cmd_set_node_property", "params": map[string]any{"node_path": "Logo", "property": "visible", "value": false}}}}},
	}
	for _, c := range calls {
		te := toolError(t, s.call(t, c.tool, c.args))
		if te.Code != sdk.CodeToolNotExposed || !strings.Contains(te.Message, "godot_scene_edit_set_node_property") {
			t.Errorf("%s = %+v, want TOOL_NOT_EXPOSED naming godot_scene_edit_set_node_property", c.tool, te)
		}
		sceneUnchanged(t, dir, c.tool)
	}
	// What the policy allows still runs.
	s.ok(t, "godot_composite_run_commands", map[string]any{"scene": "res://hud.tscn", "commands": []any{
		map[string]any{"command": "rename_node", "params": map[string]any{"node_path": "Logo", "new_name": "Badge"}}}}, nil)
	if got, _ := readFile(t, filepath.Join(dir, "hud.tscn")); !strings.Contains(got, "Badge") {
		t.Errorf("allowed run_commands wrote:\n%s", got)
	}
}

// TestRunCommandsCLIHeldToInnerRules: `godot-mcp call` takes the same
// path: the policy refuses the inner delete, confirm is required, and an
// allowed list runs (its commands' toolsets enabled for the call).
func TestRunCommandsCLIHeldToInnerRules(t *testing.T) {
	call := func(t *testing.T, dir, cfg, args string, flags ...string) (int, string) {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"call", "godot_composite_run_commands", "--args", args,
			"--config", cfg, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "error"}, flags...)...)
		cmd.Env = hostEnv(filepath.Join(t.TempDir(), "calls"))
		var out syncbuf.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, out.String()
	}
	list := `{"scene":"res://hud.tscn","commands":[{"command":"create_node","params":{"node_type":"Label","node_name":"Title"}},` +
		`{"command":"cmd_delete_node","params":{"node_path":"Logo"}}]}`
	for _, p := range innerPolicies {
		t.Run(p.name, func(t *testing.T) {
			dir, cfg := innerProject(t, p.deny)
			code, out := call(t, dir, cfg, list, "--confirm")
			if code != 1 || !strings.Contains(out, p.code) || !strings.Contains(out, p.at) {
				t.Errorf("exit %d, output:\n%s", code, out)
			}
			sceneUnchanged(t, dir, p.name)
		})
	}
	t.Run("confirm", func(t *testing.T) {
		// call starts with no toolset enabled and enables the ones the
		// list's commands need, as it does the tool's own.
		dir, cfg := innerProject(t, "")
		code, out := call(t, dir, cfg, list)
		if code != 1 || !strings.Contains(out, sdk.CodePreconditionFailed) || !strings.Contains(out, "confirm") {
			t.Errorf("unconfirmed: exit %d, output:\n%s", code, out)
		}
		sceneUnchanged(t, dir, "unconfirmed")
		if code, out := call(t, dir, cfg, list, "--confirm"); code != 0 {
			t.Fatalf("confirmed: exit %d, output:\n%s", code, out)
		}
		if got, _ := readFile(t, filepath.Join(dir, "hud.tscn")); strings.Contains(got, "Logo") || !strings.Contains(got, "Title") {
			t.Errorf("confirmed run_commands wrote:\n%s", got)
		}
	})
}

// TestRunCommandsEditorHeldToInnerRules: with an editor attached, a
// refused list never reaches the addon, not as cmd_run_commands nor as any
// of its commands; an allowed one reaches it with the commands the host
// checked; and a dry run is not forwarded (the addon has none).
func TestRunCommandsEditorHeldToInnerRules(t *testing.T) {
	for _, p := range innerPolicies {
		t.Run(p.name, func(t *testing.T) {
			url := bridgeURL(t)
			dir, cfg := innerProject(t, p.deny)
			s := stdioHostEnv(t, sessionless, []string{"GODOT_MCP_BRIDGE_URL=" + url},
				"--config", cfg, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
			ed := attachAddon(t, s, fakeaddon.Options{URL: url, GodotVersion: "4.6.1-stable", ProjectPath: dir + "/",
				Handlers: map[string]fakeaddon.Handler{
					"cmd_run_commands": func(map[string]any) fakeaddon.Reply {
						return fakeaddon.OK(map[string]any{"results": []any{}, "ok_all": true, "count": 0})
					},
				}})
			for _, name := range deleteSpellings {
				args := runCommands(name, map[string]any{"confirm": true})
				delete(args, "scene")
				te := toolError(t, s.call(t, "godot_composite_run_commands", args))
				if te.Code != p.code || !strings.Contains(te.Message, p.at) {
					t.Errorf("run_commands with %q in the editor = %+v, want %s", name, te, p.code)
				}
			}
			if got := ed.Calls("cmd_run_commands", "cmd_delete_node", "cmd_create_node"); len(got) != 0 {
				t.Errorf("a refused list reached the addon: %v", got)
			}

			// What the policy allows still reaches the editor, under the
			// names the host checked.
			args := map[string]any{"commands": []any{
				map[string]any{"command": "find_nodes_by_type", "params": map[string]any{"type": "Label"}}}}
			s.ok(t, "godot_composite_run_commands", args, nil)
			got := ed.Calls("cmd_run_commands")
			if len(got) != 1 {
				t.Fatalf("cmd_run_commands calls = %v", got)
			}
			cmds, _ := got[0].Params["commands"].([]any)
			if len(cmds) != 1 || cmds[0].(map[string]any)["command"] != "cmd_find_nodes_by_type" {
				t.Errorf("the addon got %v", got[0].Params)
			}
			// A dry run of an allowed list that changes the scene is recorded
			// by the SDK, not forwarded: the addon's cmd_run_commands has no
			// preview and would run it for real.
			var preview struct {
				DryRun  bool `json:"dry_run"`
				Preview struct {
					Commands []struct {
						Command string `json:"command"`
					} `json:"commands"`
				} `json:"preview"`
			}
			create := map[string]any{"commands": []any{map[string]any{"command": "create_node",
				"params": map[string]any{"node_type": "Timer", "node_name": "Clock"}}}, "dry_run": true}
			if p.name != "scene_edit toolset denied" {
				s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"scene_edit"}}, nil)
			}
			res := s.call(t, "godot_composite_run_commands", create)
			if !res.IsError {
				decode(t, res, &preview)
				if !preview.DryRun || len(preview.Preview.Commands) != 1 || preview.Preview.Commands[0].Command != "cmd_run_commands" {
					t.Errorf("dry run in the editor = %s", text(res))
				}
			}
			if n := len(ed.Calls("cmd_run_commands")); n != 1 {
				t.Errorf("a dry run reached the addon: cmd_run_commands calls %d", n)
			}
		})
	}
}
