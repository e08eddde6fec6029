// Package projfixture gives the toolset tests real Godot projects to work
// on: copies of the shared corpus of Godot 4 demo projects
// ($GODOT_MCP_FIXTURES, or ../shared/fixtures/godot4 beside the checkout),
// so a test edits real files without touching the corpus, and the check
// that an edited file survives a parse/write round trip byte for byte (what
// "godot-mcp check --roundtrip" verifies).
package projfixture

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// Env overrides where the corpus is.
const Env = "GODOT_MCP_FIXTURES"

// Dir returns the corpus directory. When it is absent the test stops as
// testenv.Missing says: a skip on a developer's machine, a failure in CI.
func Dir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv(Env); d != "" {
		return d
	}
	fx := filepath.Join(testenv.RepoRoot(), "..", "shared", "fixtures", "godot4")
	if st, err := os.Stat(fx); err != nil || !st.IsDir() {
		testenv.Missing(t, "the Godot 4 fixture corpus ("+fx+")", "check out the shared fixtures beside the repository, or set "+Env)
	}
	return fx
}

// Copy copies the corpus project name (e.g. "2d-platformer") into a fresh
// temporary directory and returns it.
func Copy(t testing.TB, name string) string {
	t.Helper()
	src := filepath.Join(Dir(t), name)
	dst := filepath.Join(t.TempDir(), name)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatalf("copying fixture %s: %v", name, err)
	}
	return dst
}

// Roundtrip fails t for each of files (paths relative to dir) that does
// not parse, or that the writer does not reproduce byte for byte.
func Roundtrip(t testing.TB, dir string, files ...string) {
	t.Helper()
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			t.Errorf("roundtrip: %v", err)
			continue
		}
		var out interface{ Bytes() []byte }
		switch filepath.Ext(f) {
		case ".tscn", ".tres":
			out, err = godot.ParseFile(f, data)
		case ".godot":
			out, err = godot.ParseProject(f, data)
		default:
			out, err = godot.ParseConfig(f, data)
		}
		if err != nil {
			t.Errorf("roundtrip: %s does not parse: %v", f, err)
			continue
		}
		if !bytes.Equal(out.Bytes(), data) {
			t.Errorf("roundtrip: %s is not reproduced byte for byte", f)
		}
	}
}

// Read returns a file of dir, failing t when it cannot.
func Read(t testing.TB, dir, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
