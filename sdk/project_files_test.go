package sdk

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Files lists what the editor's file system sees: no hidden entries, no
// links followed, and with gdignore no folder that holds a .gdignore.
func TestProjectFiles(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"project.godot", "a.gd", ".godot/cache", ".git/HEAD", "art/x.png", "build/.gdignore", "build/game.pck"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "art"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	p, err := openProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		gdignore bool
		want     []string
	}{
		{false, []string{"res://a.gd", "res://art/x.png", "res://build/game.pck", "res://project.godot"}},
		{true, []string{"res://a.gd", "res://art/x.png", "res://project.godot"}},
	} {
		abs, err := p.Files(context.Background(), c.gdignore)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, a := range abs {
			got = append(got, p.ResPath(a))
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("Files(gdignore=%v) = %v, want %v", c.gdignore, got, c.want)
		}
	}
}
