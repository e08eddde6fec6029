package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/syncbuf"
	"github.com/godot-mcp/godot-mcp/sdk"
)

type commitOut struct {
	ActionID uint64 `json:"action_id"`
	DryRun   bool   `json:"dry_run"`
	Files    []struct {
		Path, Change, Diff string
	} `json:"files"`
}

func readFile(t *testing.T, path string) (string, bool) {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b), true
}

// TestWorkspaceUndoRedo drives a real plugin that writes through the
// workspace and the core history tools over MCP, against a real project
// directory: edit, dry run, history, undo, redo, and the refusals.
func TestWorkspaceUndoRedo(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir+"/project.godot", "config_version=5\n\n[application]\n\nconfig/name=\"Demo\"\nconfig/features=PackedStringArray(\"4.5\")\n")
	original := "[gd_scene format=3]\r\n\n[node name=\"Main\" type=\"Node2D\"]\n"
	writeFile(t, dir+"/main.tscn", original)
	s := stdioHost(t, legacy, "--project", dir, "--plugins-dir", wsDir)
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"wsedit"}}, nil)

	edit := map[string]any{"name": "Add Player", "split": true, "files": []map[string]any{
		{"path": "res://main.tscn", "content": "[gd_scene format=3]\n\n[node name=\"Main\" type=\"Node2D\"]\n\n[node name=\"Player\" type=\"Node2D\" parent=\".\"]\n"},
		{"path": "res://player/player.gd", "content": "extends Node2D\n"},
	}}
	// A dry run reports both files and writes nothing.
	var dry commitOut
	s.ok(t, "godot_wsedit_write", map[string]any{"name": "Add Player", "dry_run": true, "files": edit["files"]}, &dry)
	if !dry.DryRun || len(dry.Files) != 2 || dry.Files[0].Change != "modified" || dry.Files[1].Change != "created" ||
		!strings.Contains(dry.Files[0].Diff, "+[node name=\"Player\"") {
		t.Fatalf("dry run = %+v", dry)
	}
	if got, _ := readFile(t, dir+"/main.tscn"); got != original {
		t.Fatal("dry run wrote main.tscn")
	}
	if _, ok := readFile(t, dir+"/player/player.gd"); ok {
		t.Fatal("dry run created player.gd")
	}

	// The edit: two commits in one call, one action.
	var out commitOut
	s.ok(t, "godot_wsedit_write", edit, &out)
	if out.ActionID == 0 {
		t.Fatalf("write = %+v", out)
	}
	if got, _ := readFile(t, dir+"/player/player.gd"); got != "extends Node2D\n" {
		t.Fatalf("player.gd = %q", got)
	}
	var hist struct {
		HasUndo       bool   `json:"has_undo"`
		HasRedo       bool   `json:"has_redo"`
		CurrentAction string `json:"current_action"`
		Depth         int    `json:"depth"`
		Recent        []struct {
			Name  string   `json:"name"`
			Files []string `json:"files"`
		} `json:"recent"`
	}
	s.ok(t, "godot_list_history", nil, &hist)
	if !hist.HasUndo || hist.HasRedo || hist.Depth != 1 || hist.CurrentAction != "Add Player" || len(hist.Recent) != 1 || len(hist.Recent[0].Files) != 2 {
		t.Fatalf("history = %+v", hist)
	}

	// Undo dry run, then undo: byte-identical, the created file gone.
	var u map[string]any
	s.ok(t, "godot_undo", map[string]any{"dry_run": true}, &u)
	if u["would_undo_next"] != "Add Player" || u["has_undo"] != true {
		t.Fatalf("undo dry run = %v", u)
	}
	s.ok(t, "godot_undo", map[string]any{"count": 5}, &u)
	if u["undone"] != 1.0 || u["requested"] != 5.0 || u["last_action"] != "Add Player" || u["nothing_to_undo"] != false {
		t.Fatalf("undo = %v", u)
	}
	if got, _ := readFile(t, dir+"/main.tscn"); got != original {
		t.Fatalf("main.tscn after undo = %q, want the original bytes", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "player")); !os.IsNotExist(err) {
		t.Fatal("undo left the created file or its directory")
	}
	s.ok(t, "godot_undo", nil, &u)
	if u["nothing_to_undo"] != true {
		t.Fatalf("second undo = %v", u)
	}

	// Redo, then a change on disk blocks the undo.
	s.ok(t, "godot_redo", nil, &u)
	if u["redone"] != 1.0 {
		t.Fatalf("redo = %v", u)
	}
	if got, _ := readFile(t, dir+"/player/player.gd"); got != "extends Node2D\n" {
		t.Fatal("redo did not recreate player.gd")
	}
	writeFile(t, dir+"/player/player.gd", "extends Node2D # the user's edit\n")
	te := toolError(t, s.call(t, "godot_undo", nil))
	if te.Code != sdk.CodeConflict || !strings.Contains(te.Message, "res://player/player.gd") {
		t.Fatalf("undo over a user's edit = %+v", te)
	}
	if got, _ := readFile(t, dir+"/player/player.gd"); got != "extends Node2D # the user's edit\n" {
		t.Fatal("undo clobbered the user's edit")
	}

	// A path out of the project is refused; a delete is undone by
	// recreating the file.
	te = toolError(t, s.call(t, "godot_wsedit_write", map[string]any{"name": "Escape", "files": []map[string]any{{"path": "../x", "content": "x"}}}))
	if te.Code != sdk.CodeInvalidArgument {
		t.Fatalf("escape = %+v", te)
	}
	s.ok(t, "godot_wsedit_delete", map[string]any{"path": "res://main.tscn", "confirm": true}, nil)
	if _, ok := readFile(t, dir+"/main.tscn"); ok {
		t.Fatal("delete did not delete")
	}
	s.ok(t, "godot_undo", nil, &u)
	if got, _ := readFile(t, dir+"/main.tscn"); !strings.Contains(got, "Player") {
		t.Fatalf("undo of the delete = %q", got)
	}
}

// TestWorkspaceHistoryAcrossProcesses: an edit made by one `godot-mcp call`
// is undone by the next one, and a running server sees both: the journal
// lives on disk (under the user's cache directory) and is shared.
func TestWorkspaceHistoryAcrossProcesses(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir+"/project.godot", "config_version=5\n")
	writeFile(t, dir+"/main.tscn", "v1\n")
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"call"}, append(args, "--project", dir, "--plugins-dir", wsDir)...)...)
		cmd.Env = hostEnv(t.TempDir() + "/calls")
		var stdout, stderr syncbuf.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("godot-mcp call %v: %v\n%s\n%s", args, err, stdout.String(), stderr.String())
		}
		return stdout.String()
	}
	server := stdioHost(t, legacy, "--project", dir, "--plugins-dir", wsDir)

	run("godot_wsedit_write", "--args", `{"name":"Edit from the CLI","files":[{"path":"res://main.tscn","content":"v2\n"}]}`)
	if got, _ := readFile(t, dir+"/main.tscn"); got != "v2\n" {
		t.Fatalf("main.tscn = %q", got)
	}
	var hist struct {
		CurrentAction string `json:"current_action"`
	}
	server.ok(t, "godot_list_history", nil, &hist)
	if hist.CurrentAction != "Edit from the CLI" {
		t.Fatalf("the server does not see the CLI's action: %+v", hist)
	}
	if out := run("godot_undo"); !strings.Contains(out, `"last_action": "Edit from the CLI"`) {
		t.Fatalf("undo from a second call: %s", out)
	}
	if got, _ := readFile(t, dir+"/main.tscn"); got != "v1\n" {
		t.Fatalf("main.tscn after undo = %q", got)
	}
	var u map[string]any
	server.ok(t, "godot_redo", nil, &u)
	if got, _ := readFile(t, dir+"/main.tscn"); got != "v2\n" || u["redone"] != 1.0 {
		t.Fatalf("redo in the server after an undo in the CLI: %v, file %q", u, got)
	}
}
