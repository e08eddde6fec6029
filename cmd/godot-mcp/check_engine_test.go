package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
)

func writeProject(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestCheckEngine runs "check --engine" on a project with one broken
// scene and one broken script: both print as file:line, only the files
// asked about are reported, and the exit status says errors were found.
func TestCheckEngine(t *testing.T) {
	if _, err := webgodot.Locate(); err != nil {
		testenv.Missing(t, "the Godot web engine (Chromium and the npm package "+webgodot.RuntimePackage+")", err.Error())
	}
	dir := writeProject(t, map[string]string{
		"project.godot":         "config_version=5\n\n[application]\n\nconfig/name=\"x\"\nconfig/features=PackedStringArray(\"4.3\")\n",
		"scenes/main.tscn":      "[gd_scene format=3]\n\n[node name=\"Main\" type=\"Node2D\"]\npostion = Vector2(1, 2)\n",
		"scripts/bad.gd":        "extends Node\n\nfunc f(:\n\tpass\n",
		"scenes/ok.tscn":        "[gd_scene format=3]\n\n[node name=\"Ok\" type=\"Node2D\"]\nposition = Vector2(1, 2)\n",
		"addons/tool/plugin.gd": "@tool\nextends EditorPlugin\n",
	})
	code, out, errOut := runCheckCapture("--engine", dir)
	if code != 1 {
		t.Errorf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, want := range []string{
		filepath.Join(dir, "scenes", "main.tscn") + ":4: Main has no property postion (Node2D); Godot ignored it",
		filepath.Join(dir, "scripts", "bad.gd") + ":3: Parse Error: Expected parameter name.",
		"4 files, 3 errors, 1 skipped (editor-only)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if want := "skipped: " + filepath.Join(dir, "addons", "tool", "plugin.gd") + ": editor-only (extends EditorPlugin)"; !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q:\n%s", want, errOut)
	}
	if !strings.Contains(errOut, "Godot 4.3 project") {
		t.Errorf("stderr does not say the 4.3 project is checked with 4.6:\n%s", errOut)
	}

	// Asking about one file reports that file only (the rest still loads).
	code, out, _ = runCheckCapture("--engine", filepath.Join(dir, "scenes", "ok.tscn"))
	if code != 0 || strings.Contains(out, "bad.gd") || !strings.Contains(out, "1 files, 0 errors") {
		t.Errorf("check --engine ok.tscn: exit %d\n%s", code, out)
	}
}

// TestCheckEngineMissing: without the engine the command says what is
// missing and how to set it up, and exits 2.
func TestCheckEngineMissing(t *testing.T) {
	t.Setenv(webgodot.EnvChromium, "/nonexistent/chromium")
	t.Setenv(webgodot.EnvRuntime, t.TempDir())
	dir := writeProject(t, map[string]string{"project.godot": "config_version=5\n"})
	code, _, errOut := runCheckCapture("--engine", dir)
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	for _, want := range []string{"PRECONDITION_FAILED", "Chromium", webgodot.EnvRuntime, "Hint: install Chromium"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	// Outside a project.
	t.Setenv(webgodot.EnvChromium, "")
	t.Setenv(webgodot.EnvRuntime, "")
	if code, _, errOut := runCheckCapture("--engine", t.TempDir()); code != 2 || !strings.Contains(errOut, "project.godot") && !strings.Contains(errOut, "PRECONDITION_FAILED") {
		t.Errorf("outside a project: exit %d, %s", code, errOut)
	}
}
