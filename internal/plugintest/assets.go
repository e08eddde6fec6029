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
	t.Setenv(projfixture.Env, corpusOfProjects(t, name))
	return projfixture.Copy(t, name)
}

// CorpusProject copies the project name of the shared corpus of whole
// projects (fixtures/projects, with their assets) into a new temporary
// directory and returns that directory, the project's root.
func CorpusProject(t testing.TB, name string) string {
	t.Helper()
	src := filepath.Join(corpusOfProjects(t, name), name)
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// corpusOfProjects is the folder of the corpus of whole projects; it stops
// the test as testenv.Missing says when name is not there.
func corpusOfProjects(t testing.TB, name string) string {
	t.Helper()
	dir := filepath.Join(testenv.RepoRoot(), "..", "shared", "fixtures", "projects")
	if st, err := os.Stat(filepath.Join(dir, name)); err != nil || !st.IsDir() {
		testenv.Missing(t, "the Godot projects corpus with assets ("+dir+")", "check out the shared fixtures beside the repository")
	}
	return dir
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
