package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/scaffold"
)

func runNewCapture(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = runNew(args, &o, &e)
	return code, o.String(), e.String()
}

// TestNewProjectLoads creates a project per template with `godot-mcp new`,
// then has `check --roundtrip` and `check --engine` (the real Godot 4.6)
// pass on it.
func TestNewProjectLoads(t *testing.T) {
	if _, err := webgodot.Locate(); err != nil {
		testenv.Missing(t, "the Godot web engine (Chromium and the npm package "+webgodot.RuntimePackage+")", err.Error())
	}
	for _, tpl := range scaffold.Templates {
		t.Run(tpl, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "my_game")
			code, out, errOut := runNewCapture(dir, "--godot", "4.6", "--template", tpl, "--renderer", "Compatibility")
			if code != 0 {
				t.Fatalf("new: exit %d\n%s%s", code, out, errOut)
			}
			proj, err := os.ReadFile(filepath.Join(dir, "project.godot"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(proj), `config/name="my_game"`) || !strings.Contains(string(proj), `PackedStringArray("4.6", "GL Compatibility")`) {
				t.Errorf("project.godot:\n%s", proj)
			}
			if code, out, errOut := runCheckCapture("--roundtrip", dir); code != 0 {
				t.Errorf("check --roundtrip: exit %d\n%s%s", code, out, errOut)
			}
			if code, out, errOut := runCheckCapture("--engine", dir); code != 0 || !strings.Contains(out, " 0 errors") {
				t.Errorf("check --engine: exit %d\n%s%s", code, out, errOut)
			}
		})
	}
}

func TestNewRefusesNonEmptyFolder(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runNewCapture("--template", "2d", dir)
	if code != 1 || !strings.Contains(errOut, "is not empty (keep.txt)") || !strings.Contains(errOut, "--force") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "project.godot")); !os.IsNotExist(err) {
		t.Fatalf("a refused new wrote project.godot: %v", err)
	}
	if code, out, errOut := runNewCapture(dir, "--force", "--template", "2d"); code != 0 || !strings.Contains(out, "scenes/main.tscn") {
		t.Fatalf("--force: exit %d\n%s%s", code, out, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "keep.txt")); string(b) != "x" {
		t.Errorf("keep.txt = %q", b)
	}
}

func TestNewBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"a", "b"},
		{t.TempDir(), "--godot", "3.5"},
		{t.TempDir(), "--renderer", "vulkan"},
		{t.TempDir(), "--template", "rpg"},
	} {
		if code, _, errOut := runNewCapture(args...); code != 2 || errOut == "" {
			t.Errorf("new %v: exit %d, stderr %q", args, code, errOut)
		}
	}
}
