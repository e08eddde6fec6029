package enginecheck_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
// corpus project, one engine run per project,
// two at a time. The corpus has no scripts
// or assets: assets are replaced by placeholders and missing scripts are
// allowed (their nodes' script variables cannot be checked). Every file
// whose dependencies are present must load, and the only problems
// reported must be the known findings.
func TestCorpusLoads(t *testing.T) {
	if testing.Short() {
		t.Skip("the corpus takes one engine run per project (about a minute); skipped with -short")
	}
	dir := corpusDir(t)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Two projects at a time, each in its own tab of the shared browser:
	// the engine is single-threaded, so two runs keep both cores busy.
	r := enginecheck.Runner(t)
	type result struct {
		name string
		rep  *loadcheck.Report
		err  error
	}
	var projects []string
	for _, e := range entries {
		if e.IsDir() {
			projects = append(projects, e.Name())
		}
	}
	results := make([]result, len(projects))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, name := range projects {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			files, err := loadcheck.ReadProject(filepath.Join(dir, name))
			if err == nil {
				results[i].rep, err = loadcheck.Check(context.Background(), r, files, loadcheck.Options{AllowMissing: true})
			}
			results[i].name, results[i].err = name, err
		}()
	}
	wg.Wait()

	scenes, unverifiable := 0, 0
	found := map[string]bool{}
	for _, res := range results {
		if res.err != nil {
			t.Errorf("%s: %v", res.name, res.err)
			continue
		}
		rep := res.rep
		for _, f := range rep.Files {
			switch {
			case f.Unverifiable:
				unverifiable++
			case !f.Loaded:
				t.Errorf("%s/%s did not load", res.name, f.File)
			case f.Kind == loadcheck.KindScene:
				scenes++
			}
		}
		for _, p := range rep.Problems {
			if p.IsWarning() {
				continue
			}
			key := fmt.Sprintf("%s/%s:%d", res.name, p.File, p.Line)
			if want, ok := knownFindings[key]; ok && strings.Contains(p.Message, want) {
				found[key] = true
				continue
			}
			t.Errorf("%s/%s", res.name, p)
		}
		if len(rep.Files) == 0 {
			t.Errorf("%s: no files checked", res.name)
		}
		t.Logf("%s: %d files; %s", res.name, len(rep.Files), strings.Join(rep.Notes, "; "))
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
