package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// toolsetScript installs a script toolset whose manifest has the given tools.
func toolsetScript(t *testing.T, dir, name string, tools ...string) string {
	t.Helper()
	var specs []string
	for _, tl := range tools {
		specs = append(specs, `{"name":"`+tl+`","description":"d","input_schema":{"type":"object"},"safety_class":"read_only"}`)
	}
	m := `{"name":"` + name + `","version":"0.1.0","description":"d","tools":[` + strings.Join(specs, ",") + `]}`
	return script(t, dir, BinaryPrefix+name, `echo '`+m+`'`)
}

func entryNames(c *Catalog) []string {
	var out []string
	for _, e := range c.Entries() {
		out = append(out, e.Name)
	}
	return out
}

// A toolset "project_get" with tool "filesystem_tree" would be exposed as
// godot_project_get_filesystem_tree, like "project"'s "get_filesystem_tree".
// Only one may go: without a lock, the name that sorts first stays.
func TestExposedNameClashRefusesOnlyOne(t *testing.T) {
	dir := t.TempDir()
	toolsetScript(t, dir, "project", "get_filesystem_tree", "search_files")
	intruder := toolsetScript(t, dir, "project_get", "filesystem_tree")
	toolsetScript(t, dir, "list", "toolsets") // godot_list_toolsets is a core tool
	toolsetScript(t, dir, "tilemap", "paint")

	c := open(t, Options{Dir: dir, CacheDir: t.TempDir(), Reserved: []string{"godot_list_toolsets"}})
	if got := entryNames(c); !slices.Equal(got, []string{"project", "tilemap"}) {
		t.Fatalf("kept %v, want project and tilemap; problems %v", got, c.Problems())
	}
	if _, ok := c.Lookup("project_get"); ok {
		t.Fatal("the refused toolset can still be looked up")
	}
	refused := map[string]*Problem{}
	for _, p := range c.Refused() {
		refused[p.Name] = p
	}
	p := refused["project_get"]
	if p == nil || p.Kind != ProblemClash || p.Clash != "project" || p.Path != intruder {
		t.Fatalf("project_get refusal %+v", p)
	}
	for _, want := range []string{"godot_project_get_filesystem_tree", `"filesystem_tree"`, `"project"`, "sorts first", "rename"} {
		if !strings.Contains(p.Error(), want) {
			t.Errorf("refusal %q does not mention %s", p.Error(), want)
		}
	}
	if p := refused["list"]; p == nil || p.Kind != ProblemClash || !strings.Contains(p.Error(), "core") {
		t.Fatalf("a toolset taking a core tool's name: %+v", p)
	}
}

// With a lock file, the pinned toolset wins even when its name sorts last.
func TestExposedNameClashKeepsThePinnedToolset(t *testing.T) {
	entry := func(name string, pinned bool, tools ...string) Entry {
		m := &manifest.Manifest{Name: name}
		for _, tl := range tools {
			m.Tools = append(m.Tools, manifest.Tool{Name: tl})
		}
		return Entry{Name: name, Manifest: m, Pinned: pinned, Path: "/p/" + name}
	}
	kept, refused := ResolveClashes([]Entry{
		entry("scene", false, "edit_add_node"),
		entry("scene_edit", true, "add_node"),
	}, nil)
	if len(kept) != 1 || kept[0].Name != "scene_edit" {
		t.Fatalf("kept %+v, want the pinned scene_edit", kept)
	}
	if len(refused) != 1 || refused[0].Name != "scene" || !strings.Contains(refused[0].Error(), "pinned in the lock file") {
		t.Fatalf("refused %+v", refused)
	}
}

// A stray backup copy beside the real binary is ignored (not run, not a
// problem), mentioned once in the log, and the real toolset stays.
func TestBackupCopiesAreIgnored(t *testing.T) {
	dir := t.TempDir()
	count := describeCounter(t)
	install(t, dir, BinaryPrefix+"echo")
	for _, f := range []string{BinaryPrefix + "echo.bak", BinaryPrefix + "echo~", BinaryPrefix + "Echo", BinaryPrefix + "core", BinaryPrefix} {
		install(t, dir, f)
	}
	var logs strings.Builder
	c := open(t, Options{Dir: dir, CacheDir: t.TempDir(), Logger: hclog.New(&hclog.LoggerOptions{Output: &logs, Level: hclog.Debug})})
	if got := entryNames(c); !slices.Equal(got, []string{"echo"}) {
		t.Fatalf("entries %v, want echo; problems %v", got, c.Problems())
	}
	if len(c.Problems()) != 0 {
		t.Fatalf("problems %v, want none", c.Problems())
	}
	if n := count(); n != 1 {
		t.Fatalf("--describe ran %d times, want once (only the real binary)", n)
	}
	if got := c.Ignored(); len(got) != 5 {
		t.Fatalf("ignored %v", got)
	}
	if n := strings.Count(logs.String(), "echo.bak"); n != 1 {
		t.Fatalf("the backup is mentioned %d times in the log, want once:\n%s", n, logs.String())
	}
	if strings.Contains(logs.String(), "[WARN]") || strings.Contains(logs.String(), "[ERROR]") {
		t.Fatalf("ignoring a backup must be quiet:\n%s", logs.String())
	}
}

// --describe runs with the plugin environment, not the host's.
func TestDescribeGetsNoSecrets(t *testing.T) {
	dir := t.TempDir()
	envFile := filepath.Join(t.TempDir(), "env")
	t.Setenv("GODOT_MCP_AUTH_TOKEN", "operator-secret")
	t.Setenv("SOME_CLOUD_KEY", "cloud-secret")
	t.Setenv("PASSED_ON", "yes")
	script(t, dir, BinaryPrefix+"spy", `env > '`+envFile+`'; echo '`+manifestJSON("spy")+`'`)
	c := open(t, Options{Dir: dir, CacheDir: t.TempDir(), PassEnv: func(name string) []string {
		if name != "spy" {
			t.Errorf("PassEnv asked for %q", name)
		}
		return []string{"PASSED_ON", "GODOT_MCP_AUTH_TOKEN"}
	}})
	if _, ok := c.Lookup("spy"); !ok {
		t.Fatalf("spy not cataloged: %v", c.Problems())
	}
	data, err := os.ReadFile(envFile)
	if err != nil {
		t.Fatal(err)
	}
	env := string(data)
	if strings.Contains(env, "secret") {
		t.Fatalf("--describe saw a secret:\n%s", env)
	}
	if !strings.Contains(env, "PASSED_ON=yes") {
		t.Fatalf("--describe lacks the passed variable:\n%s", env)
	}
}

// World-writable binaries are a warning, or refused when the operator asks;
// with NoExecUnsafe they are not run.
func TestUnsafePermissions(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(t.TempDir(), "ran")
	path := script(t, dir, BinaryPrefix+"loose", `touch '`+marker+`'; echo '`+manifestJSON("loose")+`'`)
	if err := os.Chmod(path, 0o777); err != nil {
		t.Fatal(err)
	}
	toolsetScript(t, dir, "tidy", "ping")

	c := open(t, Options{Dir: dir, CacheDir: t.TempDir(), NoExecUnsafe: true})
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("NoExecUnsafe ran a world-writable binary")
	}
	if kinds := problemKinds(c); kinds[BinaryPrefix+"loose"] != ProblemUnsafe {
		t.Fatalf("problems %v", c.Problems())
	}
	if got := entryNames(c); !slices.Equal(got, []string{"tidy"}) {
		t.Fatalf("entries %v", got)
	}

	c = open(t, Options{Dir: dir, CacheDir: t.TempDir()})
	if _, ok := c.Lookup("loose"); !ok {
		t.Fatalf("warn mode refused the binary: %v", c.Problems())
	}
	if w := c.Warnings(); len(w) != 1 || !strings.Contains(w[0], "chmod o-w") || !strings.Contains(w[0], path) {
		t.Fatalf("warnings %v", w)
	}

	c = open(t, Options{Dir: dir, CacheDir: t.TempDir(), RefuseUnsafe: true})
	if kinds := problemKinds(c); kinds[BinaryPrefix+"loose"] != ProblemUnsafe {
		t.Fatalf("refuse mode: problems %v", c.Problems())
	}

	// A world-writable directory makes every binary in it unsafe.
	if err := os.Chmod(path, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	c = open(t, Options{Dir: dir, CacheDir: t.TempDir(), RefuseUnsafe: true})
	if len(c.Entries()) != 0 || len(c.Warnings()) != 1 {
		t.Fatalf("world-writable dir: entries %v warnings %v", entryNames(c), c.Warnings())
	}
}
