// Package godottest builds small Godot projects for tests that run a real
// Godot binary, and finds that binary the way every such test must: skip
// with the reason on a developer's machine, fail in CI.
package godottest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/testenv"
)

// RequireGodot3 returns the path of Debian's godot3-server (Godot 3.2), the
// Godot these tests run, or stops the test as testenv.Missing says.
func RequireGodot3(t testing.TB) string {
	t.Helper()
	return testenv.RequireBinary(t, "godot3-server", "godot3-server")
}

// Godot3Project writes a Godot 3 project into a new temporary directory: a
// project.godot whose main scene is res://main.tscn, a main.tscn whose root
// node runs res://main.gd, main.gd with the given source, and any extra
// files (relative path → content). It returns the directory.
func Godot3Project(t testing.TB, mainGD string, extra map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"project.godot": "config_version=4\n\n[application]\n\nconfig/name=\"Test\"\nrun/main_scene=\"res://main.tscn\"\n",
		"main.tscn": "[gd_scene load_steps=2 format=2]\n\n[ext_resource path=\"res://main.gd\" type=\"Script\" id=1]\n\n" +
			"[node name=\"Main\" type=\"Node\"]\nscript = ExtResource( 1 )\n",
		"main.gd": mainGD,
	}
	for k, v := range extra {
		files[k] = v
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
