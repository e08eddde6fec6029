package classdb

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/internal/fixtures"
)

// The editor saved every project.godot of the corpus: within each section,
// the keys it wrote are in SettingRank order (registered settings by
// registration order, the project's own after them). A new key inserted by
// that rank therefore lands where the editor would put it.
func TestSettingRankAgreesWithEditorSavedProjects(t *testing.T) {
	db := MustEmbedded()
	files, _ := filepath.Glob(filepath.Join(fixtures.Dir(t), "*", "project.godot"))
	if len(files) < 10 {
		t.Fatalf("only %d project.godot files in the corpus", len(files))
	}
	pairs := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := godot.ParseProject(f, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, sec := range p.Sections() {
			prev, prevKey := 0, ""
			for _, k := range p.Keys(sec) {
				name := k
				if sec != "" {
					name = sec + "/" + k
				}
				if strings.HasPrefix(name, "debug/gdscript/warnings/") {
					// Registered by debug and editor builds only, so the
					// runtime's dump does not know their place (see
					// SettingRank).
					continue
				}
				r := db.SettingRank(name)
				if r < prev {
					t.Errorf("%s [%s]: %s (rank %d) after %s (rank %d)", filepath.Base(filepath.Dir(f)), sec, k, r, prevKey, prev)
				}
				if r != prev {
					pairs++
				}
				prev, prevKey = r, k
			}
		}
	}
	if pairs < 50 {
		t.Errorf("only %d ordered pairs checked", pairs)
	}
}

// A new setting goes where ProjectSettings saves it: a registered one
// before the registered ones that follow it and before every custom key, a
// custom one at the end of its section.
func TestSetSettingOrdered(t *testing.T) {
	db := MustEmbedded()
	src := "config_version=5\n\n[application]\n\nconfig/name=\"X\"\nconfig/features=PackedStringArray(\"4.6\")\n\n[autoload]\n\nA=\"*res://a.gd\"\n\n[display]\n\nwindow/size/viewport_height=480\nwindow/mine=1\n"
	p, err := godot.ParseProject("project.godot", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p.SetSettingOrdered("application/run/main_scene", godot.String("res://main.tscn"), db.SettingRank)
	p.SetSettingOrdered("autoload/B", godot.String("*res://b.gd"), db.SettingRank)
	p.SetSettingOrdered("display/window/size/viewport_width", godot.Int(640), db.SettingRank)
	p.SetSettingOrdered("display/window/zzz", godot.Int(2), db.SettingRank)
	p.SetSettingOrdered("application/config/name", godot.String("Y"), db.SettingRank)
	want := "config_version=5\n\n[application]\n\nconfig/name=\"Y\"\nrun/main_scene=\"res://main.tscn\"\nconfig/features=PackedStringArray(\"4.6\")\n\n[autoload]\n\nA=\"*res://a.gd\"\nB=\"*res://b.gd\"\n\n[display]\n\nwindow/size/viewport_width=640\nwindow/size/viewport_height=480\nwindow/mine=1\nwindow/zzz=2\n"
	if got := string(p.Bytes()); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
