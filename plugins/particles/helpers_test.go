package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/projfixture"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot/loadcheck"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestMain(m *testing.M) { enginecheck.Main(m, enginecheck.IgnoreLeaks) }

// assetProject copies a project of the shared corpus of whole projects
// (fixtures/projects, with their assets) to a temporary directory.
func assetProject(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(testenv.RepoRoot(), "..", "shared", "fixtures", "projects")
	if st, err := os.Stat(filepath.Join(dir, name)); err != nil || !st.IsDir() {
		testenv.Missing(t, "the Godot projects corpus with assets ("+dir+")", "check out the shared fixtures beside the repository")
	}
	t.Setenv(projfixture.Env, dir)
	return projfixture.Copy(t, name)
}

// engineLoads has Godot 4.6 load the edited project dir and fails on
// every problem it reports (a dropped property among them) that the
// unedited project of the corpus does not have too, and on every scene or
// resource that does not load.
func engineLoads(t *testing.T, dir string) {
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

// undoAll undoes every action of the test's workspace.
func undoAll(t *testing.T, h *sdktest.Host) {
	t.Helper()
	if d := h.Workspace().History().Depth; d > 0 {
		if _, err := h.Workspace().Undo(context.Background(), d, false); err != nil {
			t.Fatal(err)
		}
	}
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// subID masks the generated part of sub-resource ids, uniqueID the
// node ids, uidText the file uids.
var (
	subID    = regexp.MustCompile(`"([A-Za-z0-9]+)_[a-z0-9]{5}"`)
	uniqueID = regexp.MustCompile(` unique_id=\d+`)
	uidText  = regexp.MustCompile(`uid://[a-z0-9]+`)
)

func mask(s string) string {
	s = subID.ReplaceAllString(s, `"${1}_ID"`)
	s = uniqueID.ReplaceAllString(s, "")
	return uidText.ReplaceAllString(s, "uid://UID")
}

func contains(t *testing.T, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("missing %q in:\n%s", w, text)
		}
	}
}
