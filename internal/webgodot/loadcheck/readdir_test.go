package loadcheck

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestReadProject reads text and binary resources and leaves out imported
// assets, hidden folders and folders with a .gdignore.
func TestReadProject(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"project.godot":       "config_version=5\n",
		"main.tscn":           "[gd_scene format=3]\n",
		"nav/poly.res":        "RSRC\x00\x00\x00\x00binary",
		"look/stone.material": "RSRC\x00\x00\x00\x00binary",
		"ui/main.theme":       "RSRC\x00\x00\x00\x00binary",
		"art/icon.png":        "\x89PNG",
		"art/icon.png.import": "[remap]\n",
		".hidden/x.res":       "RSRC",
		"ignored/.gdignore":   "",
		"ignored/y.res":       "RSRC",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := ReadProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := slices.Sorted(mapKeys(files))
	want := []string{"look/stone.material", "main.tscn", "nav/poly.res", "project.godot", "ui/main.theme"}
	if !slices.Equal(got, want) {
		t.Errorf("read %v, want %v", got, want)
	}
	if string(files["nav/poly.res"]) != "RSRC\x00\x00\x00\x00binary" {
		t.Errorf("poly.res read as %q", files["nav/poly.res"])
	}
}
