package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/testenv"
)

// TestDemoScript runs scripts/demo.sh, the README's demo command, up to the
// point where it would serve: with the binaries this test binary built
// (instead of its own build) on a copy of examples/demo. It must show the
// headless scene edit and leave the scene byte-identical after the undo.
func TestDemoScript(t *testing.T) {
	root := testenv.RepoRoot()
	binDir := t.TempDir()
	entries, err := os.ReadDir(projectPluginsDir)
	if err != nil {
		t.Fatal(err)
	}
	links := []string{bin}
	for _, e := range entries {
		links = append(links, filepath.Join(projectPluginsDir, e.Name()))
	}
	for _, p := range links {
		if err := os.Symlink(p, filepath.Join(binDir, filepath.Base(p))); err != nil {
			t.Fatal(err)
		}
	}
	project := filepath.Join(t.TempDir(), "demo")
	if err := exec.Command("cp", "-r", filepath.Join(root, "examples", "demo"), project).Run(); err != nil {
		t.Fatal(err)
	}
	scene := filepath.Join(project, "scenes", "main.tscn")
	before := mustRead(t, scene)

	cmd := exec.Command("bash", filepath.Join(root, "scripts", "demo.sh"))
	cmd.Env = append(hostEnv(filepath.Join(t.TempDir(), "calls.jsonl")),
		"GODOT_MCP_DEMO_BIN="+binDir, "GODOT_MCP_DEMO_PROJECT="+project, "GODOT_MCP_DEMO_SERVE=0",
		"XDG_CACHE_HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("demo.sh: %v\n%s", err, out)
	}
	for _, want := range []string{
		"godot-mcp-toolset-scene_edit",
		`"dry_run": true`,
		`+[node name="Badge" type="Sprite2D" parent="Player"]`,
		`+position = Vector2(0, -40)`,
		`"undone": 2`,
		"is identical to what it was before the edit",
	} {
		if !strings.Contains(string(out), want) {
			t.Fatalf("demo output lacks %q:\n%s", want, out)
		}
	}
	if string(mustRead(t, scene)) != string(before) {
		t.Fatal("the demo changed the project's scene")
	}
}
