package workspace

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	sw "github.com/godot-mcp/godot-mcp/sdk/workspace"
)

// fakeAddon answers the addon commands the workspace sends, like the
// godot-mcp addon would, and records them.
type fakeAddon struct {
	open   []string
	active string // the active tab
	sent   []string
	fail   string // a command that fails
}

func (f *fakeAddon) send(_ context.Context, command string, params any) (json.RawMessage, error) {
	p, _ := json.Marshal(params)
	f.sent = append(f.sent, command+" "+string(p))
	if command == f.fail {
		return nil, errors.New("BRIDGE_DISCONNECTED: no editor")
	}
	switch command {
	case CmdListOpenScenes:
		type sc struct {
			Path string `json:"path"`
		}
		out := struct {
			Scenes []sc `json:"scenes"`
		}{Scenes: []sc{}}
		for _, o := range f.open {
			out.Scenes = append(out.Scenes, sc{o})
		}
		return json.Marshal(out)
	case CmdRescanFilesystem:
		return json.RawMessage(`{"scanned":true,"scanning":true}`), nil
	case CmdReloadScene:
		return json.RawMessage(`{"reloaded":true}`), nil
	case CmdGetActiveScene:
		return json.Marshal(map[string]any{"is_open": f.active != "", "path": f.active})
	case CmdSaveScene:
		return json.Marshal(map[string]any{"path": f.active, "saved": true})
	}
	return nil, errors.New("unknown command " + command)
}

func TestEditorAttached(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"open.tscn", "closed.tscn"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h, err := New(dir, Options{JournalDir: "memory"})
	if err != nil {
		t.Fatal(err)
	}
	addon := &fakeAddon{open: []string{"res://open.tscn"}}
	h.SetEditor(&AddonEditor{Send: addon.send})
	ws := h.Workspace()
	ctx := context.Background()

	open, _ := ws.Read(ctx, "open.tscn")
	_, err = ws.Commit(ctx, sw.Change{Name: "x", Ops: []sw.Op{{Path: "open.tscn", Data: []byte("clobber"), Base: open.Version}}})
	var e *sdk.Error
	if !errors.As(err, &e) || e.Code != sdk.CodePreconditionFailed || e.Required != "scene_saved" {
		t.Fatalf("write to a scene open in the editor: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "open.tscn")); string(b) != "open.tscn" {
		t.Fatal("clobbered")
	}

	addon.sent = nil
	closed, _ := ws.Read(ctx, "closed.tscn")
	if _, err := ws.Commit(ctx, sw.Change{Name: "y", Ops: []sw.Op{{Path: "closed.tscn", Data: []byte("new"), Base: closed.Version}}}); err != nil {
		t.Fatal(err)
	}
	want := []string{`cmd_list_open_scenes {}`, `cmd_rescan_filesystem {}`, `cmd_list_open_scenes {}`}
	if strings.Join(addon.sent, "|") != strings.Join(want, "|") {
		t.Fatalf("sent %q, want %q", addon.sent, want)
	}

	// Once the editor closes the scene, it may be written; an open scene
	// that changed is reloaded.
	addon.open = nil
	if _, err := ws.Commit(ctx, sw.Change{Name: "z", Ops: []sw.Op{{Path: "open.tscn", Data: []byte("ok"), Base: open.Version}}}); err != nil {
		t.Fatal(err)
	}
	a := &AddonEditor{Send: addon.send}
	addon.open, addon.sent = []string{"res://open.tscn"}, nil
	if err := a.Reload(ctx, []string{"res://open.tscn", "res://x.gd"}); err != nil {
		t.Fatal(err)
	}
	if got := addon.sent[len(addon.sent)-1]; got != `cmd_reload_scene {"confirm":true,"scene_path":"res://open.tscn"}` {
		t.Fatalf("last command %q", got)
	}

	// A failing reload is a warning, not a failed write.
	addon.open, addon.fail = nil, CmdRescanFilesystem
	cur, _ := ws.Read(ctx, "closed.tscn")
	res, err := ws.Commit(ctx, sw.Change{Name: "w", Ops: []sw.Op{{Path: "closed.tscn", Data: []byte("newer"), Base: cur.Version}}})
	if err != nil || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "rescan") {
		t.Fatalf("%+v %v", res, err)
	}
	// An editor that cannot list its scenes blocks writes (fail closed).
	addon.fail = CmdListOpenScenes
	_, err = ws.Commit(ctx, sw.Change{Name: "v", Ops: []sw.Op{{Path: "n.txt", Data: []byte("n")}}})
	if !errors.As(err, &e) || e.Code != sdk.CodePreconditionFailed {
		t.Fatal(err)
	}
}

// A commit may write the one open scene it names in SaveInEditor: the
// addon saves it first (only as the active tab: a switched tab is a
// CONFLICT, nothing saved or written) and reloads it after.
func TestSaveInEditorOverTheAddon(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "open.tscn"), []byte("saved"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := New(dir, Options{JournalDir: "memory"})
	if err != nil {
		t.Fatal(err)
	}
	addon := &fakeAddon{open: []string{"res://open.tscn", "res://other.tscn"}, active: "res://other.tscn"}
	h.SetEditor(&AddonEditor{Send: addon.send})
	ws := h.Workspace()
	ctx := context.Background()
	f, _ := ws.Read(ctx, "open.tscn")
	ch := sw.Change{Name: "x", SaveInEditor: "res://open.tscn", Ops: []sw.Op{{Path: "open.tscn", Data: []byte("edited"), Base: f.Version}}}
	_, err = ws.Commit(ctx, ch)
	var e *sdk.Error
	if !errors.As(err, &e) || e.Code != sdk.CodeConflict || e.Required != "active_scene" || !strings.Contains(e.Message, "res://other.tscn") {
		t.Fatalf("a switched tab: %v", err)
	}
	if want := []string{`cmd_get_active_scene {}`}; strings.Join(addon.sent, "|") != strings.Join(want, "|") {
		t.Fatalf("sent %q, want %q", addon.sent, want)
	}
	addon.active, addon.sent = "res://open.tscn", nil
	if _, err := ws.Commit(ctx, ch); err != nil {
		t.Fatal(err)
	}
	want := []string{`cmd_get_active_scene {}`, `cmd_save_scene {}`, `cmd_list_open_scenes {}`,
		`cmd_rescan_filesystem {}`, `cmd_list_open_scenes {}`, `cmd_reload_scene {"confirm":true,"scene_path":"res://open.tscn"}`}
	if strings.Join(addon.sent, "|") != strings.Join(want, "|") {
		t.Fatalf("sent %q, want %q", addon.sent, want)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "open.tscn")); string(b) != "edited" {
		t.Fatalf("open.tscn = %q", b)
	}
}

func TestNoProject(t *testing.T) {
	h, err := New("", Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, f := range []func() error{
		func() error { _, err := h.Undo(ctx, 1, false); return err },
		func() error { _, err := h.Redo(ctx, 1, false); return err },
		func() error { _, err := h.History(ctx); return err },
	} {
		var e *sdk.Error
		if err := f(); !errors.As(err, &e) || e.Required != "project_dir" {
			t.Fatalf("%v", err)
		}
	}
	h.SetEditor(nil) // no panic without a project
}

func TestJournalDirChoice(t *testing.T) {
	dir := t.TempDir()
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv(JournalEnv, "")
	got, err := journalDir(dir, "")
	if err != nil || !strings.HasPrefix(got, filepath.Join(cache, "godot-mcp", "journal")+string(filepath.Separator)) {
		t.Fatalf("default = %q, %v", got, err)
	}
	if again, _ := journalDir(dir+"/", ""); again != got {
		t.Fatalf("the same project maps to %q and %q", got, again)
	}
	if other, _ := journalDir(t.TempDir(), ""); other == got {
		t.Fatal("two projects share a journal")
	}
	t.Setenv(JournalEnv, "memory")
	if got, _ := journalDir(dir, ""); got != "" {
		t.Fatalf("memory = %q", got)
	}
	if got, _ := journalDir(dir, "/somewhere"); got != "/somewhere" {
		t.Fatalf("explicit = %q", got)
	}
	t.Setenv(SyncEnv, "fast")
	if _, err := New(dir, Options{}); err == nil || !strings.Contains(err.Error(), SyncEnv) {
		t.Fatalf("a bad %s: %v", SyncEnv, err)
	}
}
