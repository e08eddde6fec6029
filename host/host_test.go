package host

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestProjectGodotVersion(t *testing.T) {
	tests := []struct {
		name, project, want string
	}{
		{"features", "config_version=5\n[application]\nconfig/name=\"x\"\nconfig/features=PackedStringArray(\"4.7\", \"Forward Plus\")\n", "4.7"},
		// The editor records major.minor; a fuller entry is read as such.
		{"patch version", "[application]\nconfig/features=PackedStringArray(\"Mobile\", \"4.4.1\")\n", "4.4"},
		{"no version", "[application]\nconfig/features=PackedStringArray(\"Forward Plus\")\n", ""},
		{"outside [application]", "[rendering]\nconfig/features=PackedStringArray(\"4.7\")\n", ""},
		{"no features", "config_version=5\n", ""},
		{"commented out", ";config/features=PackedStringArray(\"4.7\")\n", ""},
		// Godot 3 writes config_version=4 and no features.
		{"godot 3", "config_version=4\n\n[application]\n\nconfig/name=\"x\"\nrun/main_scene=\"res://main.tscn\"\n", "3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "project.godot"), []byte(tt.project), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := ProjectGodotVersion(dir)
			if err != nil || got != tt.want {
				t.Errorf("ProjectGodotVersion = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	dir := t.TempDir()
	broken := "[application]\nconfig/features=PackedStringArray(\"4.7\"\n"
	if err := os.WriteFile(filepath.Join(dir, "project.godot"), []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ProjectGodotVersion(dir); err == nil || !strings.Contains(err.Error(), "project.godot:") {
		t.Errorf("a broken project.godot must give a file:line:col error, got %v", err)
	}
	if _, err := FindProject(t.TempDir()); !errors.Is(err, ErrNoProject) {
		t.Errorf("FindProject on an empty dir: %v", err)
	}
}
