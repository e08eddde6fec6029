package webgodot_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/internal/webgodot/loadcheck"
)

// The AudioStreamOggVorbis text resource a game pack gets for an Ogg file
// loads in the engine's load check with no error, no warning and no
// dropped property.
func TestImportedOggEngineCheck(t *testing.T) {
	setup, err := webgodot.Locate()
	if err != nil {
		testenv.Missing(t, "the Godot web engine (Chromium and the npm package "+webgodot.RuntimePackage+")", err.Error())
	}
	src := filepath.Join(testenv.RepoRoot(), "..", "shared", "fixtures", "projects", "2d-platformer")
	dir := t.TempDir()
	for _, name := range []string{"music.ogg", "music.ogg.import"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			testenv.Missing(t, "the demo projects fixture ("+src+")", err.Error())
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "project.godot"), []byte("config_version=5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pack, err := webgodot.ReadGameFiles(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range pack {
		if strings.HasPrefix(f.Path, ".godot/imported/") && strings.HasSuffix(f.Path, ".tres") {
			files["music_stream.tres"] = f.Data
		}
	}
	if files["music_stream.tres"] == nil {
		t.Fatal("the pack has no .tres for music.ogg")
	}
	r, err := webgodot.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	rep, err := loadcheck.Check(ctx, r, files, loadcheck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Files) != 1 || len(rep.Problems) != 0 {
		t.Errorf("engine %s checked %d files, problems %v", rep.Engine, len(rep.Files), rep.Problems)
	}
}
