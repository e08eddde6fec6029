package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/catalog"
)

const explainPolicy = `
[stdio]
profile = "developer"

[operator]
deny = ["class:destructive"]

[profiles.developer]

[profiles.ci]
inherit = "developer"
allow = ["class:read_only"]

[[tokens]]
name = "ci-bot"
token_env = "TEST_EXPLAIN_TOKEN"
profile = "ci"

[transport.http_remote]
ceiling = "ci"
`

// explainEnv isolates a test from the machine: its own plugins directory,
// manifest cache and token secret.
func explainEnv(t *testing.T, pluginsDir string) string {
	t.Helper()
	t.Setenv(catalog.PluginsDirEnv, pluginsDir)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("TEST_EXPLAIN_TOKEN", "secret")
	p := filepath.Join(t.TempDir(), "policy.toml")
	if err := os.WriteFile(p, []byte(explainPolicy), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func runExplain(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(append([]string{"policy"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

// fakePlugin writes a toolset "binary" that is a shell script printing its
// manifest for --describe, which is all the catalog runs.
func fakePlugin(t *testing.T, dir, name, manifestJSON string) {
	t.Helper()
	script := "#!/bin/sh\ncat <<'JSON'\n" + manifestJSON + "\nJSON\n"
	if err := os.WriteFile(filepath.Join(dir, catalog.BinaryPrefix+name), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

const sceneEditManifest = `{"name":"scene_edit","version":"1.0.0","description":"Edit scenes.","tools":[
 {"name":"get_tree","description":"Read the tree.","input_schema":{"type":"object"},"safety_class":"read_only"},
 {"name":"add_node","description":"Add a node.","input_schema":{"type":"object"},"safety_class":"mutating"},
 {"name":"delete_scene","description":"Delete a scene.","input_schema":{"type":"object"},"safety_class":"destructive"},
 {"name":"export","description":"Export.","input_schema":{"type":"object"},"safety_class":"read_only","scope":"cli"}]}`

func TestExplainCoreOnly(t *testing.T) {
	cfg := explainEnv(t, t.TempDir()) // an empty plugins directory
	code, out, errs := runExplain(t, "explain", "--config", cfg, "--profile", "ci")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{
		`profile:    "ci" inheriting developer`,
		"visible (7):",
		"godot_get_server_info",
		"withheld (5):",
		`godot_enable_toolset   core  mutating  by profile:  profile "ci" allows only "class:read_only"`,
		`profile "ci" withheld 5 tools (7 remain)`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestExplainWithoutCatalog(t *testing.T) {
	cfg := explainEnv(t, filepath.Join(t.TempDir(), "missing"))
	code, out, errs := runExplain(t, "explain", "--config", cfg)
	if code != 0 || !strings.Contains(errs, "no plugins catalog") || !strings.Contains(out, "visible (12):") {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
	// An explicit --plugins-dir that cannot be read is an error.
	code, _, errs = runExplain(t, "explain", "--config", cfg, "--plugins-dir", filepath.Join(t.TempDir(), "missing"))
	if code != 2 || !strings.Contains(errs, "plugins directory") {
		t.Errorf("exit %d: %s", code, errs)
	}
	// Explain does not need token secrets.
	t.Setenv("TEST_EXPLAIN_TOKEN", "")
	code, _, errs = runExplain(t, "explain", "--config", cfg)
	if code != 0 || !strings.Contains(errs, "TEST_EXPLAIN_TOKEN is unset") {
		t.Errorf("without the secret: exit %d: %s", code, errs)
	}
	// No config at all: built-in defaults, every core tool visible.
	code, out, _ = runExplain(t, "explain")
	if code != 0 || !strings.Contains(out, "(built-in defaults)") || !strings.Contains(out, "withheld (0):") {
		t.Errorf("exit %d\n%s", code, out)
	}
}

func TestExplainWithPlugins(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake plugin is a shell script")
	}
	dir := t.TempDir()
	fakePlugin(t, dir, "scene_edit", sceneEditManifest)
	cfg := explainEnv(t, dir)

	code, out, errs := runExplain(t, "explain", "--config", cfg, "--principal", "ci-bot", "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	var ex explanation
	if err := json.Unmarshal([]byte(out), &ex); err != nil {
		t.Fatalf("--json output: %v\n%s", err, out)
	}
	if ex.Principal != "ci-bot" || ex.Profile != "ci" || ex.Transport != "http_loopback" || ex.Candidates != 16 {
		t.Errorf("header = %+v", ex)
	}
	layers := map[string]string{}
	for _, w := range ex.Withheld {
		layers[w.Name] = w.Layer
		if w.Reason == "" {
			t.Errorf("%s withheld without a reason", w.Name)
		}
	}
	want := map[string]string{
		"godot_scene_edit_delete_scene": "operator",
		"godot_scene_edit_add_node":     "profile",
		"godot_enable_toolset":          "profile",
		"godot_disable_toolset":         "profile",
		"godot_undo":                    "profile",
		"godot_redo":                    "profile",
		"godot_debug_workflow":          "profile", // it runs the game
		"godot_scene_edit_export":       "scope",
	}
	if len(layers) != len(want) {
		t.Errorf("withheld %v, want %v", layers, want)
	}
	for n, l := range want {
		if layers[n] != l {
			t.Errorf("%s withheld by %q, want %q", n, layers[n], l)
		}
	}
	if len(ex.Visible) != 8 || len(ex.Filtered) != 3 {
		t.Errorf("visible %d, filtered %+v", len(ex.Visible), ex.Filtered)
	}

	// A remote caller is capped to "ci" even with the developer profile.
	code, out, _ = runExplain(t, "explain", "--config", cfg, "--profile", "developer", "--transport", "http_remote")
	if code != 0 || !strings.Contains(out, `http_remote (capped to profile "ci")`) ||
		!strings.Contains(out, `by transport:`) || !strings.Contains(out, `http_remote ceiling "ci" withheld 6 tools`) {
		t.Errorf("exit %d\n%s", code, out)
	}
}

func TestExplainUnknownNameStopsStartup(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake plugin is a shell script")
	}
	dir := t.TempDir()
	fakePlugin(t, dir, "scene_edit", sceneEditManifest)
	explainEnv(t, dir)
	cfg := filepath.Join(t.TempDir(), "typo.toml")
	if err := os.WriteFile(cfg, []byte("[operator]\ndeny = [\"scene_edt\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runExplain(t, "explain", "--config", cfg)
	if code != 1 || !strings.Contains(errs, `operator.deny[0]: "scene_edt" names no installed toolset or tool; did you mean "scene_edit"?`) ||
		!strings.Contains(errs, "would refuse to start") || !strings.Contains(out, "visible (") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

func TestExplainBadInput(t *testing.T) {
	cfg := explainEnv(t, t.TempDir())
	bad := filepath.Join(t.TempDir(), "bad.toml")
	if err := os.WriteFile(bad, []byte("[profiles.ci]\ninherit = \"nobody\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "Usage: godot-mcp policy explain"},
		{[]string{"--help"}, 0, "Usage: godot-mcp policy explain"},
		{[]string{"explian"}, 2, `unknown subcommand "explian"`},
		{[]string{"explain", "--help"}, 0, "-plugins-dir directory"},
		{[]string{"explain", "--config", cfg, "--profile", "nobody"}, 2, `--profile "nobody" is not defined in the config (profiles: ci, developer)`},
		{[]string{"explain", "--config", cfg, "--principal", "nobody"}, 2, `no token of that name in the config (tokens: ci-bot)`},
		{[]string{"explain", "--config", cfg, "--transport", "http"}, 2, "use stdio, http_loopback, http_remote or cli"},
		{[]string{"explain", "--config", bad}, 2, `profiles.ci.inherit: profile "nobody" is not defined`},
		{[]string{"explain", "--config", filepath.Join(t.TempDir(), "none.toml")}, 2, "check the --config path"},
		{[]string{"explain", "extra"}, 2, `unexpected argument "extra"`},
	} {
		code, _, errs := runExplain(t, tt.args...)
		if code != tt.code || !strings.Contains(errs, tt.want) {
			t.Errorf("policy %v: exit %d, stderr:\n%s\nwant exit %d and %q", tt.args, code, errs, tt.code, tt.want)
		}
	}
}

// TestExplainHeldTo: a visible tool whose work is another, withheld tool's
// is marked as refused on every call, and a dispatching tool says its
// commands are checked one by one.
func TestExplainHeldTo(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake plugin is a shell script")
	}
	dir := t.TempDir()
	fakePlugin(t, dir, "scene_edit", sceneEditManifest)
	fakePlugin(t, dir, "bulk", `{"name":"bulk","version":"1.0.0","description":"Many at once.","tools":[
 {"name":"wipe","description":"Delete many scenes.","input_schema":{"type":"object"},"safety_class":"mutating","performs":["godot_scene_edit_delete_scene"]},
 {"name":"add","description":"Add many nodes.","input_schema":{"type":"object"},"safety_class":"mutating","performs":["godot_scene_edit_add_node"]},
 {"name":"run","description":"Run commands.","input_schema":{"type":"object","properties":{"commands":{"type":"array"}}},"safety_class":"mutating","dispatch":"commands[*].command"}]}`)
	cfg := explainEnv(t, dir)
	code, out, errs := runExplain(t, "explain", "--config", cfg, "--profile", "developer", "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	var ex explanation
	if err := json.Unmarshal([]byte(out), &ex); err != nil {
		t.Fatal(err)
	}
	notes := map[string]string{}
	for _, v := range ex.Visible {
		notes[v.Name] = v.Note
	}
	for name, want := range map[string]string{
		"godot_bulk_wipe": "every call refused: it does the work of godot_scene_edit_delete_scene, withheld by operator",
		"godot_bulk_add":  "",
		"godot_bulk_run":  "each listed command is checked as a call of its own tool",
	} {
		if got, ok := notes[name]; !ok || got != want {
			t.Errorf("%s: visible %v, note %q, want %q", name, ok, got, want)
		}
	}
	_, out, _ = runExplain(t, "explain", "--config", cfg, "--profile", "developer")
	if !strings.Contains(out, "(every call refused: it does the work of godot_scene_edit_delete_scene, withheld by operator)") {
		t.Errorf("text output lacks the note:\n%s", out)
	}
}
