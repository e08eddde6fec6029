package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
)

// editorEnv is a server whose editor link is a real bridge with the fake
// addon attached over a real socket.
func editorEnv(t *testing.T) (*env, *bridge.Bridge, *fakeaddon.Addon) {
	t.Helper()
	b, err := bridge.New(bridge.Options{URL: "ws://127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(bridge.Hooks{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	e := newEnv(t, envOptions{godot: "4.5", editor: b})
	a := fakeaddon.Start(fakeaddon.Options{URL: "ws://" + b.Addr(), ProjectPath: "/p/game/", GodotVersion: "4.5.1-stable", AddonVersion: "1.4.0",
		RetryMin: 10 * time.Millisecond, RetryMax: 50 * time.Millisecond})
	t.Cleanup(a.Close)
	deadline := time.Now().Add(10 * time.Second)
	for b.Status().AddonCommands < 0 {
		if time.Now().After(deadline) {
			t.Fatal("the fake editor did not attach")
		}
		time.Sleep(5 * time.Millisecond)
	}
	return e, b, a
}

func TestUndoRedoHistoryForwardToTheEditor(t *testing.T) {
	e, _, a := editorEnv(t)
	a.SetHistory("Create Hero", "Set position", "Rename Hero")
	c := e.connect(t, protocols[0])

	var dry map[string]any
	structured(t, c.call(t, "godot_undo", map[string]any{"dry_run": true}), &dry)
	if dry["would_undo_next"] != "Rename Hero" || dry["dry_run"] != true || dry["has_undo"] != true {
		t.Fatalf("dry run %v", dry)
	}
	var undo map[string]any
	structured(t, c.call(t, "godot_undo", map[string]any{"count": 2}), &undo)
	if undo["undone"] != 2.0 || undo["last_action"] != "Set position" || undo["nothing_to_undo"] != false || undo["dry_run"] != false {
		t.Fatalf("undo %v", undo)
	}
	calls := a.Calls("cmd_undo")
	if len(calls) != 2 || calls[0].Params["dry_run"] != true || calls[0].Params["count"] != 1.0 ||
		calls[1].Params["count"] != 2.0 || calls[1].Params["dry_run"] != false {
		t.Fatalf("addon saw %+v", calls)
	}
	var redo map[string]any
	structured(t, c.call(t, "godot_redo", nil), &redo)
	if redo["redone"] != 1.0 || redo["last_action"] != "Set position" || redo["nothing_to_redo"] != false {
		t.Fatalf("redo %v", redo)
	}
	var hist struct {
		HasUndo bool   `json:"has_undo"`
		HasRedo bool   `json:"has_redo"`
		Current string `json:"current_action"`
		Recent  []struct{ Name string }
	}
	structured(t, c.call(t, "godot_list_history", nil), &hist)
	if !hist.HasUndo || !hist.HasRedo || hist.Current != "Set position" || len(hist.Recent) != 2 || hist.Recent[0].Name != "Create Hero" {
		t.Fatalf("history %+v", hist)
	}
	// An empty history is not an error.
	a.SetHistory()
	structured(t, c.call(t, "godot_undo", nil), &undo)
	if undo["undone"] != 0.0 || undo["nothing_to_undo"] != true {
		t.Fatalf("empty undo %v", undo)
	}
	// The addon's refusal comes back with its code.
	res := c.call(t, "godot_undo", map[string]any{"count": 0})
	if !res.IsError {
		t.Fatal("count 0 accepted")
	}
}

func TestUndoWithoutEditor(t *testing.T) {
	b, err := bridge.New(bridge.Options{URL: "ws://127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	for _, ed := range []Editor{b, nil} {
		e := newEnv(t, envOptions{godot: "4.5", editor: ed})
		c := e.connect(t, protocols[0])
		for _, tool := range []string{"godot_undo", "godot_redo", "godot_list_history"} {
			res := c.call(t, tool, nil)
			// Without an editor the history tools walk the headless
			// workspace journal; this env has no project, so that says so.
			te := toolErr(t, res)
			if te.Code != "PRECONDITION_FAILED" || te.Required != "project_dir" || te.Hint == "" {
				t.Fatalf("%s without an editor: %+v", tool, te)
			}
		}
	}
}

func TestDiagnosticsShowTheBridge(t *testing.T) {
	e, b, _ := editorEnv(t)
	c := e.connect(t, protocols[0])
	var info struct {
		Editor bridge.Status `json:"editor"`
	}
	structured(t, c.call(t, "godot_get_server_info", nil), &info)
	if !info.Editor.Connected || info.Editor.ProjectPath != "/p/game/" || info.Editor.GodotVersion != "4.5.1-stable" ||
		info.Editor.AddonVersion != "1.4.0" || info.Editor.URL != b.URL() || info.Editor.CommandsSent < 2 {
		t.Fatalf("editor %+v", info.Editor)
	}
	res := c.call(t, "godot_health_check", nil)
	var health struct {
		Checks []check `json:"checks"`
	}
	structured(t, res, &health)
	found := false
	for _, ch := range health.Checks {
		if ch.Name == "editor_bridge" && ch.Status == "ok" && strings.Contains(ch.Detail, "/p/game/") {
			found = true
		}
	}
	if !found {
		t.Fatalf("checks %+v", health.Checks)
	}
}

// attachedEditor is an Editor that reports an attached editor and answers
// nothing else.
type attachedEditor struct{ connected bool }

func (a attachedEditor) Request(context.Context, string, any, time.Duration) (json.RawMessage, error) {
	return json.RawMessage(`{}`), nil
}
func (a attachedEditor) Status() bridge.Status { return bridge.Status{Connected: a.connected} }

// The host tells each plugin call which mode to work in: editor mode
// exactly while an editor is attached.
func TestPluginCallsCarryTheEditorMode(t *testing.T) {
	for _, connected := range []bool{true, false} {
		e := newEnv(t, envOptions{godot: "4.5", editor: attachedEditor{connected}})
		c := e.connect(t, protocols[0])
		if res := c.call(t, "godot_inspection_scene_tree", nil); res.IsError {
			t.Fatalf("call failed: %+v", res)
		}
		e.plugins.mu.Lock()
		got := e.plugins.lastReq.EditorAttached
		e.plugins.mu.Unlock()
		if got != connected {
			t.Errorf("editor connected=%v: the plugin call said EditorAttached=%v", connected, got)
		}
	}
}
