package enginecheck_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot/loadcheck"
)

// corpusDir is the shared corpus of real Godot 4 projects beside the
// checkout; it ships scenes, resources and project.godot but no scripts or
// assets.
func corpusDir(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("GODOT_MCP_FIXTURES"); d != "" {
		return d
	}
	root := testenv.RepoRoot()
	if root == "" {
		t.Skip("SKIPPING corpus test: no go.work above the working directory")
	}
	dir := filepath.Join(root, "..", "shared", "fixtures", "godot4")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("SKIPPING corpus test: the Godot 4 fixture corpus is not at %s", dir)
	}
	return dir
}

// knownFindings are real problems of the corpus that Godot hides: the
// check must report each of them (and nothing else).
var knownFindings = map[string]string{
	// autosmooth is Godot 3's name; 4.x has smooth_faces.
	"3d-csg/csg.tscn:165": "has no property autosmooth",
}

// TestCorpusLoads has the engine load every scene and resource of every
// corpus project, one engine run per project. The corpus has no scripts
// or assets: assets are replaced by placeholders and missing scripts are
// allowed (their nodes' script variables cannot be checked). Every file
// whose dependencies are present must load, and the only problems
// reported must be the known findings.
func TestCorpusLoads(t *testing.T) {
	if testing.Short() {
		t.Skip("the corpus takes one engine run per project (about a minute); skipped with -short")
	}
	dir := corpusDir(t)
	enginecheck.Runner(t) // skip or fail early when the engine is missing
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	scenes, unverifiable := 0, 0
	found := map[string]bool{}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		files, err := loadcheck.ReadProject(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		rep := enginecheck.Run(t, files, loadcheck.Options{AllowMissing: true})
		for _, f := range rep.Files {
			switch {
			case f.Unverifiable:
				unverifiable++
			case !f.Loaded:
				t.Errorf("%s/%s did not load", e.Name(), f.File)
			case f.Kind == loadcheck.KindScene:
				scenes++
			}
		}
		for _, p := range rep.Problems {
			if p.IsWarning() {
				continue
			}
			key := fmt.Sprintf("%s/%s:%d", e.Name(), p.File, p.Line)
			if want, ok := knownFindings[key]; ok && strings.Contains(p.Message, want) {
				found[key] = true
				continue
			}
			t.Errorf("%s/%s", e.Name(), p)
		}
		if len(rep.Files) == 0 {
			t.Errorf("%s: no files checked", e.Name())
		}
		t.Logf("%s: %d files; %s", e.Name(), len(rep.Files), strings.Join(rep.Notes, "; "))
	}
	for k, v := range knownFindings {
		if !found[k] {
			t.Errorf("%s: the check did not report %q", k, v)
		}
	}
	t.Logf("%d scenes loaded and compared; %d files not verifiable (a dependency is missing from the corpus)", scenes, unverifiable)
	if scenes < 60 {
		t.Errorf("checked %d scenes, want most of the corpus's 70", scenes)
	}
}
