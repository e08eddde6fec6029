package gdscript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpus parses every .gd file under $GODOT_MCP_GDSCRIPT_CORPUS (a
// folder of scripts Godot 4 compiles) and expects no syntax error.
func TestCorpus(t *testing.T) {
	dir := os.Getenv("GODOT_MCP_GDSCRIPT_CORPUS")
	if dir == "" {
		t.Skip("set GODOT_MCP_GDSCRIPT_CORPUS to a folder of Godot 4 scripts")
	}
	n, bad := 0, 0
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(p, ".gd") {
			return nil
		}
		src, _ := os.ReadFile(p)
		n++
		if e := Check(string(src)); e != nil {
			bad++
			t.Errorf("%s:%d:%d: %s", p, e.Line, e.Column, e.Message)
		}
		return nil
	})
	t.Logf("%d scripts, %d with a reported error", n, bad)
}
