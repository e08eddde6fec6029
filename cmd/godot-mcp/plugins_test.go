package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/catalog"
)

// pluginsDir returns an empty plugins directory and isolates the manifest
// cache from the user's.
func pluginsDir(t *testing.T) string {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv(catalog.PluginsDirEnv, "")
	return t.TempDir()
}

// scriptToolset installs a shell script that describes toolset name at
// version, as a stand-in for a plugin binary: listing and locking only run
// --describe.
func scriptToolset(t *testing.T, dir, name, version string) string {
	t.Helper()
	m := `{"name":"` + name + `","version":"` + version + `","description":"Scripted toolset.","godot":">= 4.3",` +
		`"tools":[{"name":"ping","description":"Answer pong.","input_schema":{"type":"object"},"safety_class":"read_only"}]}`
	path := filepath.Join(dir, catalog.BinaryPrefix+name)
	script := "#!/bin/sh\nif [ \"$1\" = --describe ]; then echo '" + m + "'; exit 0; fi\nexit 1\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func runPluginsCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(append([]string{"plugins"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func TestPluginsList(t *testing.T) {
	dir := pluginsDir(t)
	alpha := scriptToolset(t, dir, "alpha", "1.2.0")
	scriptToolset(t, dir, "beta", "0.1.0")
	if err := os.WriteFile(filepath.Join(dir, catalog.BinaryPrefix+"broken"), []byte("#!/bin/sh\necho nope\n"), 0o755); err != nil {
		t.Fatal(err)
	}

	code, out, errOut := runPluginsCmd(t, "list", "--plugins-dir", dir)
	if code != 0 {
		t.Fatalf("list: exit %d, stderr %s", code, errOut)
	}
	for _, want := range []string{"NAME", "alpha", "1.2.0", ">= 4.3", "unpinned", alpha, "beta", "Refused binaries (1)", catalog.BinaryPrefix + "broken"} {
		if !strings.Contains(out, want) {
			t.Errorf("list output lacks %q:\n%s", want, out)
		}
	}

	// The environment variable works like the flag.
	t.Setenv(catalog.PluginsDirEnv, dir)
	code, out, _ = runPluginsCmd(t, "list", "--json")
	if code != 0 {
		t.Fatalf("list --json: exit %d", code)
	}
	var l pluginList
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		t.Fatalf("list --json: %v\n%s", err, out)
	}
	if len(l.Toolsets) != 2 || l.Toolsets[0].Name != "alpha" || l.Toolsets[0].Tools[0] != "ping" || l.Locked || len(l.Problems) != 1 || l.Problems[0].Kind != "manifest" {
		t.Fatalf("list --json: %+v", l)
	}
}

func TestPluginsLockAndVerify(t *testing.T) {
	dir := pluginsDir(t)
	scriptToolset(t, dir, "alpha", "1.0.0")
	scriptToolset(t, dir, "beta", "1.0.0")

	// Without a lock file, verify has nothing to check against.
	if code, _, errOut := runPluginsCmd(t, "verify", "--plugins-dir", dir); code != 1 || !strings.Contains(errOut, "plugins lock") {
		t.Fatalf("verify without lock: exit %d, %s", code, errOut)
	}

	code, out, errOut := runPluginsCmd(t, "lock", "--plugins-dir", dir)
	if code != 0 || !strings.Contains(out, "+ alpha 1.0.0") || !strings.Contains(out, "+ beta 1.0.0") {
		t.Fatalf("lock: exit %d\n%s%s", code, out, errOut)
	}
	lockPath := filepath.Join(dir, catalog.LockFileName)
	lock, err := catalog.ReadLock(lockPath)
	if err != nil || lock == nil || len(lock.Plugins) != 2 || lock.Plugins[0].Manifest == nil {
		t.Fatalf("lock file: %+v, %v", lock, err)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(leftovers) > 0 {
		t.Fatalf("temporary files left behind: %v", leftovers)
	}
	if code, out, _ := runPluginsCmd(t, "lock", "--plugins-dir", dir); code != 0 || !strings.Contains(out, "up to date") {
		t.Fatalf("second lock: exit %d\n%s", code, out)
	}
	if code, out, _ := runPluginsCmd(t, "verify", "--plugins-dir", dir); code != 0 || !strings.Contains(out, "OK: 2 binaries") {
		t.Fatalf("verify: exit %d\n%s", code, out)
	}
	if _, out, _ := runPluginsCmd(t, "list", "--plugins-dir", dir); !strings.Contains(out, "pinned") || strings.Contains(out, "unpinned") {
		t.Fatalf("list after lock:\n%s", out)
	}

	// Change one binary, add one, remove one: verify names each.
	alpha := scriptToolset(t, dir, "alpha", "2.0.0")
	gamma := scriptToolset(t, dir, "gamma", "1.0.0")
	if err := os.Remove(filepath.Join(dir, catalog.BinaryPrefix+"beta")); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runPluginsCmd(t, "verify", "--plugins-dir", dir)
	if code != 1 {
		t.Fatalf("verify after changes: exit %d\n%s", code, out)
	}
	for _, want := range []string{"3 binaries differ", "changed", alpha, "unpinned", gamma, "missing", catalog.BinaryPrefix + "beta", `run "godot-mcp plugins lock"`} {
		if !strings.Contains(out, want) {
			t.Errorf("verify output lacks %q:\n%s", want, out)
		}
	}
	if _, out, _ := runPluginsCmd(t, "list", "--plugins-dir", dir); !strings.Contains(out, "Refused binaries (3)") || !strings.Contains(out, "No toolsets.") {
		t.Fatalf("list with a stale lock:\n%s", out)
	}

	// Re-locking trusts the new state and says what changed.
	code, out, _ = runPluginsCmd(t, "lock", "--plugins-dir", dir)
	for _, want := range []string{"~ alpha 1.0.0 -> 2.0.0", "+ gamma 1.0.0", "- beta"} {
		if !strings.Contains(out, want) {
			t.Errorf("re-lock output lacks %q:\n%s", want, out)
		}
	}
	if code != 0 {
		t.Fatalf("re-lock: exit %d", code)
	}
	if code, _, _ := runPluginsCmd(t, "verify", "--plugins-dir", dir); code != 0 {
		t.Fatalf("verify after re-lock: exit %d", code)
	}
}

func TestPluginsLockLeavesOutRefused(t *testing.T) {
	dir := pluginsDir(t)
	scriptToolset(t, dir, "alpha", "1.0.0")
	if err := os.WriteFile(filepath.Join(dir, catalog.BinaryPrefix+"broken"), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runPluginsCmd(t, "lock", "--plugins-dir", dir)
	if code != 1 || !strings.Contains(out, "+ alpha") || !strings.Contains(out, "Not pinned") || !strings.Contains(out, catalog.BinaryPrefix+"broken") {
		t.Fatalf("lock with a broken binary: exit %d\n%s", code, out)
	}
}

func TestPluginsUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "Usage: godot-mcp plugins"},
		{[]string{"--help"}, 0, "Usage: godot-mcp plugins"},
		{[]string{"frobnicate"}, 2, `unknown subcommand "frobnicate"`},
		{[]string{"list", "--bogus"}, 2, "flag provided but not defined"},
		{[]string{"list", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"list", "--plugins-dir", filepath.Join(t.TempDir(), "nope")}, 2, "reading plugins directory"},
	} {
		code, _, errOut := runPluginsCmd(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("plugins %v: exit %d (want %d), stderr %q lacks %q", tc.args, code, tc.code, errOut, tc.want)
		}
	}
}

// A clash of exposed names refuses one toolset, visibly; a backup copy is
// ignored with a note; a world-writable binary is not run by list.
func TestPluginsListShowsRefusals(t *testing.T) {
	dir := pluginsDir(t)
	m := func(name, tool string) string {
		return `{"name":"` + name + `","version":"1.0.0","description":"d","tools":[{"name":"` + tool + `","description":"d","input_schema":{"type":"object"},"safety_class":"read_only"}]}`
	}
	put := func(file, body string, mode os.FileMode) {
		path := filepath.Join(dir, file)
		if err := os.WriteFile(path, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
	}
	marker := filepath.Join(t.TempDir(), "ran")
	put(catalog.BinaryPrefix+"project", "#!/bin/sh\necho '"+m("project", "get_x")+"'\n", 0o755)
	put(catalog.BinaryPrefix+"project_get", "#!/bin/sh\necho '"+m("project_get", "x")+"'\n", 0o755)
	put(catalog.BinaryPrefix+"project.bak", "#!/bin/sh\necho '"+m("project", "get_x")+"'\n", 0o755)
	put(catalog.BinaryPrefix+"loose", "#!/bin/sh\ntouch '"+marker+"'\necho '"+m("loose", "y")+"'\n", 0o777)

	code, out, errOut := runPluginsCmd(t, "list", "--plugins-dir", dir)
	if code != 0 {
		t.Fatalf("list: exit %d, stderr %s", code, errOut)
	}
	for _, want := range []string{"clash:", `toolset "project_get" is refused`, "godot_project_get_x", "unsafe:", "Ignored", catalog.BinaryPrefix + "project.bak"} {
		if !strings.Contains(out, want) {
			t.Errorf("list output lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("plugins list ran a world-writable binary")
	}
	code, out, _ = runPluginsCmd(t, "list", "--plugins-dir", dir, "--json")
	var l pluginList
	if err := json.Unmarshal([]byte(out), &l); err != nil || code != 0 {
		t.Fatalf("list --json: %v\n%s", err, out)
	}
	if len(l.Toolsets) != 1 || l.Toolsets[0].Name != "project" {
		t.Fatalf("toolsets %+v, want project kept", l.Toolsets)
	}
	found := false
	for _, p := range l.Problems {
		if p.Kind == "clash" && p.Name == "project_get" && p.Clash == "project" {
			found = true
		}
	}
	if !found || len(l.Ignored) != 1 {
		t.Fatalf("problems %+v ignored %v", l.Problems, l.Ignored)
	}
}

// plugins list keeps the genuine toolset when a stale copy under another
// file name, or another plugin, describes itself with its name, and lists
// each of those once.
func TestPluginsListRefusesMisnamedCopiesAlone(t *testing.T) {
	dir := pluginsDir(t)
	genuine := scriptToolset(t, dir, "project", "1.0.0")
	data, err := os.ReadFile(genuine)
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{"project_old", "impostor"} {
		if err := os.WriteFile(filepath.Join(dir, catalog.BinaryPrefix+file), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := runPluginsCmd(t, "list", "--plugins-dir", dir, "--json")
	var l pluginList
	if err := json.Unmarshal([]byte(out), &l); err != nil || code != 0 {
		t.Fatalf("list --json: exit %d %v\n%s%s", code, err, out, errOut)
	}
	if len(l.Toolsets) != 1 || l.Toolsets[0].Path != genuine || len(l.Problems) != 2 {
		t.Fatalf("toolsets %+v problems %+v", l.Toolsets, l.Problems)
	}
	_, out, _ = runPluginsCmd(t, "list", "--plugins-dir", dir)
	for _, file := range []string{"project_old", "impostor"} {
		if n := strings.Count(out, catalog.BinaryPrefix+file); n != 1 {
			t.Errorf("list names %s %d times, want once:\n%s", file, n, out)
		}
	}
	if !strings.Contains(out, "Refused binaries (2)") {
		t.Errorf("list output:\n%s", out)
	}
}
