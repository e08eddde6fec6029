package e2e

import (
	"os"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// TestWorkspaceRefusesGitMetadata: a real tool call cannot write or delete
// anything under .git, like .godot/.
func TestWorkspaceRefusesGitMetadata(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir+"/project.godot", "config_version=5\n")
	mkdirAll(t, dir+"/.git/hooks")
	writeFile(t, dir+"/.git/HEAD", "ref: refs/heads/main\n")
	s := stdioHost(t, legacy, "--project", dir, "--plugins-dir", wsDir)
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"wsedit"}}, nil)

	for _, call := range []struct {
		tool string
		args map[string]any
	}{
		{"godot_wsedit_write", map[string]any{"name": "Hook", "files": []map[string]any{{"path": "res://.git/hooks/pre-commit", "content": "#!/bin/sh\n"}}}},
		{"godot_wsedit_write", map[string]any{"name": "Head", "files": []map[string]any{{"path": "res://.git/HEAD", "content": "x"}}}},
		{"godot_wsedit_delete", map[string]any{"path": "res://.git/HEAD", "confirm": true}},
	} {
		te := toolError(t, s.call(t, call.tool, call.args))
		if te.Code != sdk.CodeInvalidArgument || !strings.Contains(te.Message, ".git") {
			t.Fatalf("%s %v = %+v, want INVALID_ARGUMENT naming .git", call.tool, call.args, te)
		}
	}
	if got, _ := readFile(t, dir+"/.git/HEAD"); got != "ref: refs/heads/main\n" {
		t.Fatalf(".git/HEAD = %q", got)
	}
	if _, ok := readFile(t, dir+"/.git/hooks/pre-commit"); ok {
		t.Fatal("a git hook was created through a tool")
	}
}

func mkdirAll(t testing.TB, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}
