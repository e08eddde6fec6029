package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
)

func TestMain(m *testing.M) { enginecheck.Main(m, enginecheck.IgnoreLeaks) }

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
