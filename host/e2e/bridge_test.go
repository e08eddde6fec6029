package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// TestEditorBridge runs the real binary with its bridge on and the fake
// addon dialing it over a real socket: the editor's Godot version drives
// the gate, the dock follows every toggle, the undo tools reach the editor,
// and a replacement swaps the version again.
func TestEditorBridge(t *testing.T) {
	url := bridgeURL(t)
	s := stdioHostEnv(t, sessionless, []string{"GODOT_MCP_BRIDGE_URL=" + url}, "--godot-version", "4.5")
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"gatetest"}}, nil)
	drain(s.notes.listChanged)

	old := fakeaddon.Start(fakeaddon.Options{URL: url, ProjectPath: "/p/old/", GodotVersion: "4.3.0-stable",
		RetryMin: 10 * time.Millisecond, RetryMax: 50 * time.Millisecond})
	defer old.Close()
	type info struct {
		Godot  struct{ Version, Source string } `json:"godot"`
		Editor struct {
			Connected   bool   `json:"connected"`
			ProjectPath string `json:"project_path"`
		} `json:"editor"`
		EnabledSet []string `json:"enabled_set"`
	}
	var got info
	waitUntil(t, "the old editor's version to reach the gate", func() bool {
		s.ok(t, "godot_get_server_info", nil, &got)
		return got.Godot.Version == "4.3.0-stable"
	})
	if got.Godot.Source != "editor" || !got.Editor.Connected || got.Editor.ProjectPath != "/p/old/" || slices.Contains(got.EnabledSet, "gatetest") {
		t.Fatalf("server info %+v", got)
	}
	select {
	case <-s.notes.listChanged:
	case <-time.After(10 * time.Second):
		t.Fatal("no list_changed after the editor turned gatetest off")
	}
	waitUntil(t, "the dock to drop gatetest", func() bool {
		set, _ := old.Toolsets()
		return strings.Join(set, ",") == "core,inspection"
	})
	te := toolError(t, s.call(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"gatetest"}}))
	if te.Code != sdk.CodePreconditionFailed || te.Required != sdk.RequiredGodotVersion || !strings.Contains(te.Hint, "4.3.0-stable") {
		t.Fatalf("re-enable against the old editor: %+v", te)
	}

	old.SetHistory("Create Hero")
	var undo map[string]any
	s.ok(t, "godot_undo", map[string]any{"dry_run": true}, &undo)
	if undo["would_undo_next"] != "Create Hero" || len(old.Calls("cmd_undo")) != 1 {
		t.Fatalf("undo %v", undo)
	}

	// A newer editor takes over: the old one is told, the gate follows.
	cur := fakeaddon.Start(fakeaddon.Options{URL: url, ProjectPath: "/p/new/", GodotVersion: "4.5.1-stable",
		RetryMin: 10 * time.Millisecond, RetryMax: 50 * time.Millisecond})
	defer cur.Close()
	if err := old.WaitStatus(fakeaddon.Replaced, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the new editor's version", func() bool {
		s.ok(t, "godot_get_server_info", nil, &got)
		return got.Godot.Version == "4.5.1-stable" && got.Editor.ProjectPath == "/p/new/"
	})
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"gatetest"}}, nil)
	waitUntil(t, "the dock to show gatetest", func() bool {
		set, _ := cur.Toolsets()
		return slices.Contains(set, "gatetest")
	})

	// The editor leaves: the flag's version is back.
	cur.Close()
	waitUntil(t, "the flag's version", func() bool {
		s.ok(t, "godot_get_server_info", nil, &got)
		return got.Godot.Version == "4.5" && got.Godot.Source == "flag" && !got.Editor.Connected
	})
	// Undo falls back to the headless journal, which needs a project.
	te = toolError(t, s.call(t, "godot_undo", nil))
	if te.Code != "PRECONDITION_FAILED" || te.Required != "project_dir" {
		t.Fatalf("undo without an editor: %+v", te)
	}
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
