package godot

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/internal/fixtures"
)

type corpusFile struct {
	rel  string
	data []byte
}

func (c corpusFile) isConfig() bool {
	return strings.HasSuffix(c.rel, ".godot") || strings.HasSuffix(c.rel, ".cfg")
}

// loadCorpus reads every .tscn, .tres and project.godot of the corpus.
func loadCorpus(tb testing.TB) []corpusFile {
	tb.Helper()
	root := fixtures.Dir(tb)
	var out []corpusFile
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		switch filepath.Ext(p) {
		case ".tscn", ".tres", ".godot":
		default:
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out = append(out, corpusFile{rel: filepath.ToSlash(rel), data: data})
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	if len(out) == 0 {
		tb.Skip("SKIPPING: fixture corpus is empty")
	}
	return out
}

func TestCorpusParsesAndRoundTrips(t *testing.T) {
	files := loadCorpus(t)
	var scenes, resources, configs int
	for _, c := range files {
		t.Run(c.rel, func(t *testing.T) {
			var out []byte
			if c.isConfig() {
				p, err := ParseProject(c.rel, c.data)
				if err != nil {
					t.Fatal(err)
				}
				configs++
				out = p.Bytes()
			} else {
				f, err := ParseFile(c.rel, c.data)
				if err != nil {
					t.Fatal(err)
				}
				if f.IsScene() {
					scenes++
				} else {
					resources++
				}
				out = f.Bytes()
			}
			if !bytes.Equal(out, c.data) {
				t.Fatalf("round trip differs:\n%s", firstDiff(c.data, out))
			}
		})
	}
	t.Logf("corpus: %d files (%d scenes, %d resources, %d project files)", len(files), scenes, resources, configs)
	if len(files) < 100 {
		t.Errorf("only %d corpus files found; expected the full corpus (119)", len(files))
	}
}

// firstDiff describes the first differing line of two texts.
func firstDiff(want, got []byte) string {
	wl := strings.Split(string(want), "\n")
	gl := strings.Split(string(got), "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g || i >= len(wl) || i >= len(gl) {
			return "line " + itoa(i+1) + ":\n want " + quoteTrunc(w) + "\n  got " + quoteTrunc(g)
		}
	}
	return "(identical)"
}

func quoteTrunc(s string) string {
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return "`" + s + "`"
}
