package plugintest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/projfixture"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot/loadcheck"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// AssetProject copies a project of the shared corpus of whole projects
// (fixtures/projects, with their assets) to a temporary directory. It
// points projfixture at that corpus for the rest of the test, so
// EngineLoads can compare with the unedited project.
func AssetProject(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(testenv.RepoRoot(), "..", "shared", "fixtures", "projects")
	if st, err := os.Stat(filepath.Join(dir, name)); err != nil || !st.IsDir() {
		testenv.Missing(t, "the Godot projects corpus with assets ("+dir+")", "check out the shared fixtures beside the repository")
	}
	t.Setenv(projfixture.Env, dir)
	return projfixture.Copy(t, name)
}

// EngineLoads has Godot 4.6 load the edited project dir and fails on
// every problem it reports (a dropped property among them) that the
// unedited project of the corpus does not have too, and on every scene or
// resource that does not load.
func EngineLoads(t *testing.T, dir string) {
	t.Helper()
	read := func(dir string) map[string][]byte {
		files, err := loadcheck.ReadProject(dir)
		if err != nil {
			t.Fatal(err)
		}
		return files
	}
	rep := enginecheck.Run(t, read(dir), loadcheck.Options{AllowMissing: true})
	for _, f := range rep.Files {
		if (f.Kind == loadcheck.KindScene || f.Kind == loadcheck.KindResource) && !f.Loaded && !f.Unverifiable {
			t.Errorf("engine: %s did not load", f.File)
		}
	}
	if len(rep.Problems) == 0 {
		return
	}
	// Problems the corpus project has itself are not the edit's.
	before := map[string]bool{}
	if c := os.Getenv(projfixture.Env); c != "" {
		for _, p := range enginecheck.Run(t, read(filepath.Join(c, filepath.Base(dir))), loadcheck.Options{AllowMissing: true}).Problems {
			before[p.File+": "+p.Message] = true
		}
	}
	for _, p := range rep.Problems {
		if !before[p.File+": "+p.Message] {
			t.Errorf("engine: %s", p)
		}
	}
}

// UndoAll undoes every action of the test's workspace.
func UndoAll(t *testing.T, h *sdktest.Host) {
	t.Helper()
	if d := h.Workspace().History().Depth; d > 0 {
		if _, err := h.Workspace().Undo(context.Background(), d, false); err != nil {
			t.Fatal(err)
		}
	}
}
