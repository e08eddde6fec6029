package godot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/internal/fixtures"
)

func mustParseFile(t *testing.T, name, src string) *File {
	t.Helper()
	f, err := ParseFile(name, []byte(src))
	if err != nil {
		t.Fatalf("ParseFile(%s): %v", name, err)
	}
	return f
}

func mustParseProject(t *testing.T, src string) *Project {
	t.Helper()
	p, err := ParseProject("project.godot", []byte(src))
	if err != nil {
		t.Fatalf("ParseProject: %v", err)
	}
	return p
}

// readFixture reads one corpus file (skipping the test if the corpus is absent).
func readFixture(t *testing.T, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtures.Dir(t), filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// lineDiff compares two texts line by line (after aligning the common prefix
// and suffix) and returns the removed and added lines.
func lineDiff(before, after string) (removed, added []string) {
	a := strings.SplitAfter(before, "\n")
	b := strings.SplitAfter(after, "\n")
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	j := 0
	for j < len(a)-i && j < len(b)-i && a[len(a)-1-j] == b[len(b)-1-j] {
		j++
	}
	return a[i : len(a)-j], b[i : len(b)-j]
}

// diffLines is a small LCS line diff for tests: the lines only in a
// (removed) and only in b (added), in order.
func diffLines(a, b string) (removed, added []string) {
	x := strings.SplitAfter(a, "\n")
	y := strings.SplitAfter(b, "\n")
	n, m := len(x), len(y)
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			i++
			j++
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			added = append(added, y[j])
			j++
		default:
			removed = append(removed, x[i])
			i++
		}
	}
	return removed, added
}
