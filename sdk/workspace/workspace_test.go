package workspace

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
)

var bg = context.Background()

func newWS(t testing.TB, opts Options) (*Workspace, string) {
	t.Helper()
	dir := t.TempDir()
	w, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	return w, dir
}

func put(t *testing.T, dir, rel, data string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, dir, rel string) (string, bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b), true
}

func mustRead(t *testing.T, w *Workspace, p string) sdk.File {
	t.Helper()
	f, err := w.Read(bg, p)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func code(err error) string {
	var e *sdk.Error
	if errors.As(err, &e) {
		return e.Code
	}
	if err == nil {
		return ""
	}
	return "plain:" + err.Error()
}

func wantCode(t *testing.T, err error, want string) *sdk.Error {
	t.Helper()
	if code(err) != want {
		t.Fatalf("error = %v (code %q), want code %s", err, code(err), want)
	}
	var e *sdk.Error
	errors.As(err, &e)
	return e
}

// tempLeft lists leftover temporary files under dir.
func tempLeft(t *testing.T, dir string) []string {
	t.Helper()
	var left []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".godot-mcp-") {
			left = append(left, p)
		}
		return nil
	})
	return left
}

func TestReadVersionIsContentHash(t *testing.T) {
	w, dir := newWS(t, Options{})
	put(t, dir, "a.txt", "hello")
	f := mustRead(t, w, "res://a.txt")
	if f.Path != "res://a.txt" || string(f.Data) != "hello" || f.Version != VersionOf([]byte("hello")) {
		t.Fatalf("read = %+v", f)
	}
	if !strings.HasPrefix(string(f.Version), "sha256:") {
		t.Fatalf("version %q", f.Version)
	}
	// The same bytes written again keep the version; any change moves it,
	// even one that keeps the size.
	put(t, dir, "a.txt", "hellp")
	if g := mustRead(t, w, "a.txt"); g.Version == f.Version {
		t.Fatal("a same-size change kept the version")
	}
	_, err := w.Read(bg, "res://missing.txt")
	wantCode(t, err, sdk.CodeNotFound)
}

func TestCommitCreateModifyDelete(t *testing.T) {
	w, dir := newWS(t, Options{})
	put(t, dir, "old.txt", "old")
	if err := os.Chmod(filepath.Join(dir, "old.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	put(t, dir, "gone.txt", "bye")
	old, gone := mustRead(t, w, "old.txt"), mustRead(t, w, "gone.txt")
	res, err := w.Commit(bg, Change{Name: "Three files", Ops: []Op{
		{Path: "res://new/dir/new.txt", Data: []byte("new")},
		{Path: "res://old.txt", Data: []byte("old, edited"), Base: old.Version},
		{Path: "res://gone.txt", Delete: true, Base: gone.Version},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if res.ActionID == 0 || len(res.Files) != 3 {
		t.Fatalf("result = %+v", res)
	}
	kinds := []string{res.Files[0].Change, res.Files[1].Change, res.Files[2].Change}
	if !slices.Equal(kinds, []string{sdk.ChangeCreated, sdk.ChangeModified, sdk.ChangeDeleted}) {
		t.Fatalf("changes = %v", kinds)
	}
	if s, _ := get(t, dir, "new/dir/new.txt"); s != "new" {
		t.Fatalf("new = %q", s)
	}
	if s, _ := get(t, dir, "old.txt"); s != "old, edited" {
		t.Fatalf("old = %q", s)
	}
	if _, ok := get(t, dir, "gone.txt"); ok {
		t.Fatal("gone.txt still exists")
	}
	fi, _ := os.Stat(filepath.Join(dir, "old.txt"))
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode = %v, want the old 0600 kept", fi.Mode().Perm())
	}
	if left := tempLeft(t, dir); len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
	h := w.History()
	if h.Depth != 1 || h.CurrentAction != "Three files" || len(h.Recent) != 1 || len(h.Recent[0].Files) != 3 {
		t.Fatalf("history = %+v", h)
	}
}

func TestCommitConflictWritesNothing(t *testing.T) {
	w, dir := newWS(t, Options{})
	put(t, dir, "a.tscn", "A1")
	put(t, dir, "b.tscn", "B1")
	a, b := mustRead(t, w, "a.tscn"), mustRead(t, w, "b.tscn")
	put(t, dir, "b.tscn", "B2 by the user's editor")
	_, err := w.Commit(bg, Change{Name: "Edit both", Ops: []Op{
		{Path: "a.tscn", Data: []byte("A-new"), Base: a.Version},
		{Path: "b.tscn", Data: []byte("B-new"), Base: b.Version},
	}})
	e := wantCode(t, err, sdk.CodeConflict)
	if !strings.Contains(e.Message, "res://b.tscn changed on disk since it was read") || !strings.Contains(e.Hint, "read it again and re-apply") {
		t.Fatalf("error = %+v", e)
	}
	if s, _ := get(t, dir, "a.tscn"); s != "A1" {
		t.Fatalf("a.tscn = %q: a refused commit wrote a file", s)
	}
	// A create over an existing file is a conflict too.
	_, err = w.Commit(bg, Change{Name: "Create", Ops: []Op{{Path: "a.tscn", Data: []byte("x")}}})
	e = wantCode(t, err, sdk.CodeConflict)
	if !strings.Contains(e.Message, "already exists") {
		t.Fatal(e)
	}
	if w.History().Depth != 0 {
		t.Fatal("a refused commit was journaled")
	}
}

func TestCommitAtomicUnderFailure(t *testing.T) {
	w, dir := newWS(t, Options{})
	put(t, dir, "a.txt", "A1")
	put(t, dir, "b.txt", "B1")
	a, b := mustRead(t, w, "a.txt"), mustRead(t, w, "b.txt")
	n := 0
	rename = func(from, to string) error {
		n++
		if n == 3 { // the third file's rename fails, after two landed
			return errors.New("disk on fire")
		}
		return os.Rename(from, to)
	}
	t.Cleanup(func() { rename = os.Rename })
	_, err := w.Commit(bg, Change{Name: "Three", Ops: []Op{
		{Path: "a.txt", Data: []byte("A2"), Base: a.Version},
		{Path: "sub/c.txt", Data: []byte("C")},
		{Path: "b.txt", Data: []byte("B2"), Base: b.Version},
	}})
	e := wantCode(t, err, sdk.CodeInternalError)
	if !strings.Contains(e.Message, "disk on fire") || !strings.Contains(e.Message, "left as it was") {
		t.Fatal(e)
	}
	if s, _ := get(t, dir, "a.txt"); s != "A1" {
		t.Fatalf("a.txt = %q, want it rolled back", s)
	}
	if _, ok := get(t, dir, "sub/c.txt"); ok {
		t.Fatal("created file survived the rollback")
	}
	if _, err := os.Stat(filepath.Join(dir, "sub")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("directory created for the failed commit survived the rollback")
	}
	if s, _ := get(t, dir, "b.txt"); s != "B1" {
		t.Fatalf("b.txt = %q", s)
	}
	if left := tempLeft(t, dir); len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
	if w.History().Depth != 0 {
		t.Fatal("a failed commit was journaled")
	}
}

func TestUndoRedoByteIdentical(t *testing.T) {
	w, dir := newWS(t, Options{})
	orig := "[gd_scene format=3]\r\n\n[node name=\"Main\" type=\"Node2D\"]\n\x00binary\xff"
	put(t, dir, "main.tscn", orig)
	put(t, dir, "del.gd", "extends Node\n")
	m, d := mustRead(t, w, "main.tscn"), mustRead(t, w, "del.gd")
	if _, err := w.Commit(bg, Change{Name: "Edit", Ops: []Op{
		{Path: "main.tscn", Data: []byte("changed"), Base: m.Version},
		{Path: "del.gd", Delete: true, Base: d.Version},
		{Path: "deep/new/x.tres", Data: []byte("new")},
	}}); err != nil {
		t.Fatal(err)
	}
	u, err := w.Undo(bg, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	if u.Done != 1 || u.LastAction != "Edit" || len(u.Files) != 3 {
		t.Fatalf("undo = %+v", u)
	}
	if s, _ := get(t, dir, "main.tscn"); s != orig {
		t.Fatalf("main.tscn after undo = %q", s)
	}
	if s, ok := get(t, dir, "del.gd"); !ok || s != "extends Node\n" {
		t.Fatal("deleted file not recreated")
	}
	if _, err := os.Stat(filepath.Join(dir, "deep")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("undo of a create left the directories it made")
	}
	r, err := w.Redo(bg, 1, false)
	if err != nil || r.Done != 1 {
		t.Fatalf("redo = %+v, %v", r, err)
	}
	if s, _ := get(t, dir, "main.tscn"); s != "changed" {
		t.Fatalf("after redo = %q", s)
	}
	if _, ok := get(t, dir, "del.gd"); ok {
		t.Fatal("redo did not delete again")
	}
	if s, _ := get(t, dir, "deep/new/x.tres"); s != "new" {
		t.Fatal("redo did not recreate")
	}
	b, _ := json.Marshal(r)
	var m2 map[string]any
	_ = json.Unmarshal(b, &m2)
	if m2["redone"] != 1.0 || m2["nothing_to_redo"] != false || m2["dry_run"] != false || m2["last_action"] != "Edit" {
		t.Fatalf("redo JSON = %s", b)
	}
	// Nothing left to redo: not an error.
	r, err = w.Redo(bg, 3, false)
	if err != nil || r.Done != 0 {
		t.Fatal(r, err)
	}
	b, _ = json.Marshal(r)
	if !strings.Contains(string(b), `"nothing_to_redo":true`) {
		t.Fatalf("%s", b)
	}
}

func TestUndoRefusesFileChangedOnDisk(t *testing.T) {
	w, dir := newWS(t, Options{})
	put(t, dir, "a.txt", "v1")
	a := mustRead(t, w, "a.txt")
	if _, err := w.Commit(bg, Change{Name: "First", Ops: []Op{{Path: "a.txt", Data: []byte("v2"), Base: a.Version}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Commit(bg, Change{Name: "Other", Ops: []Op{{Path: "b.txt", Data: []byte("b")}}}); err != nil {
		t.Fatal(err)
	}
	put(t, dir, "a.txt", "v3 by the user")
	// Undoing two actions reaches "First", whose file changed: nothing is
	// undone, not even "Other".
	_, err := w.Undo(bg, 2, false)
	e := wantCode(t, err, sdk.CodeConflict)
	if !strings.Contains(e.Message, `"First"`) || !strings.Contains(e.Message, "res://a.txt") || !strings.Contains(e.Hint, "count=1") {
		t.Fatal(e)
	}
	if _, ok := get(t, dir, "b.txt"); !ok {
		t.Fatal("a refused undo undid part of it")
	}
	if s, _ := get(t, dir, "a.txt"); s != "v3 by the user" {
		t.Fatal("undo clobbered the user's change")
	}
	// The dry run gives the same verdict.
	_, err = w.Undo(bg, 2, true)
	wantCode(t, err, sdk.CodeConflict)
	if _, err := w.Undo(bg, 1, false); err != nil {
		t.Fatalf("undo of the untouched action: %v", err)
	}
	if _, ok := get(t, dir, "b.txt"); ok {
		t.Fatal("b.txt not removed")
	}
	// Redo is refused as well when the created file reappears meanwhile.
	put(t, dir, "b.txt", "someone else")
	_, err = w.Redo(bg, 1, false)
	wantCode(t, err, sdk.CodeConflict)
}

func TestUndoDryRunChangesNothing(t *testing.T) {
	w, dir := newWS(t, Options{})
	if _, err := w.Commit(bg, Change{Name: "Create x", Ops: []Op{{Path: "x.txt", Data: []byte("x")}}}); err != nil {
		t.Fatal(err)
	}
	u, err := w.Undo(bg, 1, true)
	if err != nil || !u.Has || u.WouldNext != "Create x" {
		t.Fatal(u, err)
	}
	b, _ := json.Marshal(u)
	if string(b) != `{"dry_run":true,"has_undo":true,"requested":1,"would_undo_next":"Create x"}` {
		t.Fatalf("%s", b)
	}
	if _, ok := get(t, dir, "x.txt"); !ok || w.History().Depth != 1 {
		t.Fatal("a dry-run undo changed something")
	}
	_, err = w.Undo(bg, 0, false)
	e := wantCode(t, err, sdk.CodeInvalidArgument)
	if e.Message != "count must be >= 1" {
		t.Fatal(e)
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	w, dir := newWS(t, Options{})
	put(t, dir, "a.tscn", "line1\nline2\nline3\n")
	a := mustRead(t, w, "a.tscn")
	res, err := w.Commit(bg, Change{Name: "Edit", DryRun: true, Ops: []Op{
		{Path: "a.tscn", Data: []byte("line1\nLINE2\nline3\n"), Base: a.Version},
		{Path: "new.tscn", Data: []byte("n\n")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.DryRun || res.ActionID != 0 || len(res.Files) != 2 {
		t.Fatalf("%+v", res)
	}
	if d := res.Files[0].Diff; d != "@@ -2,1 +2,1 @@\n-line2\n+LINE2\n" {
		t.Fatalf("diff = %q", d)
	}
	if res.Files[1].Change != sdk.ChangeCreated || res.Files[1].BytesAfter != 2 {
		t.Fatalf("%+v", res.Files[1])
	}
	if s, _ := get(t, dir, "a.tscn"); s != "line1\nline2\nline3\n" {
		t.Fatal("dry run wrote")
	}
	if _, ok := get(t, dir, "new.tscn"); ok {
		t.Fatal("dry run created")
	}
	if w.History().Depth != 0 || len(tempLeft(t, dir)) > 0 {
		t.Fatal("dry run journaled or left files")
	}
	// A dry run reports the same conflict as the real run.
	put(t, dir, "a.tscn", "changed")
	_, err = w.Commit(bg, Change{Name: "Edit", DryRun: true, Ops: []Op{{Path: "a.tscn", Data: []byte("x"), Base: a.Version}}})
	wantCode(t, err, sdk.CodeConflict)
}

func TestConfinement(t *testing.T) {
	w, dir := newWS(t, Options{})
	outside := t.TempDir()
	put(t, outside, "secret.txt", "secret")
	put(t, dir, "inside.txt", "in")
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "inside.txt"), filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "secret-link.txt")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"../x.txt", "res://../x.txt", "a/../../x.txt", "/etc/passwd", "user://x.txt",
		"res://out/secret.txt", "res://out/new.txt", "res://link.txt", "res://secret-link.txt", "res://.godot/x.cfg",
		"res://.godot/imported/sub/x.ctex", "res://.godot/imported/.x", "res://.GODOT/imported/x.ctex", "res://.godot/uid_cache.bin",
		"a\\..\\..\\x", "res://"} {
		_, err := w.Commit(bg, Change{Name: "Escape", Ops: []Op{{Path: p, Data: []byte("pwned")}}})
		if code(err) != sdk.CodeInvalidArgument {
			t.Errorf("write %q: error = %v, want INVALID_ARGUMENT", p, err)
		}
	}
	// The imported files are the one part of .godot/ that may be written.
	if _, err := w.Commit(bg, Change{Name: "Imported", Ops: []Op{{Path: "res://.godot/imported/a.png-0123.ctex", Data: []byte("GST2")}}}); err != nil {
		t.Errorf("write into .godot/imported: %v", err)
	}
	for _, p := range []string{"../x.txt", "res://out/secret.txt", "res://secret-link.txt", "/etc/passwd"} {
		if _, err := w.Read(bg, p); code(err) != sdk.CodeInvalidArgument {
			t.Errorf("read %q: error = %v, want INVALID_ARGUMENT", p, err)
		}
	}
	if s, _ := get(t, outside, "secret.txt"); s != "secret" {
		t.Fatal("a file outside the project was written")
	}
	if _, ok := get(t, outside, "new.txt"); ok {
		t.Fatal("a file was created outside the project")
	}
	// A link inside the project can be read through.
	if f := mustRead(t, w, "res://link.txt"); string(f.Data) != "in" {
		t.Fatal(f)
	}
	// A symlinked directory inside the project is followed for writes.
	if err := os.Symlink(filepath.Join(dir, "real"), filepath.Join(dir, "alias")); err != nil {
		t.Fatal(err)
	}
	put(t, dir, "real/keep", "")
	if _, err := w.Commit(bg, Change{Name: "Via alias", Ops: []Op{{Path: "alias/f.txt", Data: []byte("ok")}}}); err != nil {
		t.Fatal(err)
	}
	if s, _ := get(t, dir, "real/f.txt"); s != "ok" {
		t.Fatal("write through an inner directory link went elsewhere")
	}
	ents, err := w.List(bg, "res://")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.Path == "res://out" || e.Path == "res://secret-link.txt" {
			t.Fatalf("List shows %s, which leads out of the project", e.Path)
		}
	}
}

func TestSameCallIsOneAction(t *testing.T) {
	w, dir := newWS(t, Options{})
	put(t, dir, "a.txt", "a0")
	a := mustRead(t, w, "a.txt")
	r1, err := w.Commit(bg, Change{Name: "Tool call", Toolset: "t", CallID: "c1", Ops: []Op{{Path: "a.txt", Data: []byte("a1"), Base: a.Version}}})
	if err != nil {
		t.Fatal(err)
	}
	a = mustRead(t, w, "a.txt")
	r2, err := w.Commit(bg, Change{Name: "second part", Toolset: "t", CallID: "c1", Ops: []Op{
		{Path: "a.txt", Data: []byte("a2"), Base: a.Version}, {Path: "b.txt", Data: []byte("b")}}})
	if err != nil {
		t.Fatal(err)
	}
	if r1.ActionID != r2.ActionID {
		t.Fatalf("two commits of one call made actions %d and %d", r1.ActionID, r2.ActionID)
	}
	h := w.History()
	if h.Depth != 1 || h.CurrentAction != "Tool call" {
		t.Fatalf("%+v", h)
	}
	if _, err := w.Undo(bg, 1, false); err != nil {
		t.Fatal(err)
	}
	if s, _ := get(t, dir, "a.txt"); s != "a0" {
		t.Fatalf("a.txt = %q, want the state before the call", s)
	}
	if _, ok := get(t, dir, "b.txt"); ok {
		t.Fatal("b.txt survived the undo of its call")
	}
	// Another call is another action.
	if _, err := w.Commit(bg, Change{Name: "x", CallID: "c2", Ops: []Op{{Path: "x", Data: []byte("x")}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Commit(bg, Change{Name: "y", CallID: "c3", Ops: []Op{{Path: "y", Data: []byte("y")}}}); err != nil {
		t.Fatal(err)
	}
	if w.History().Depth != 2 {
		t.Fatal("two calls share an action")
	}
}

func TestNoOpWriteIsNotAnAction(t *testing.T) {
	w, dir := newWS(t, Options{})
	put(t, dir, "a.txt", "same")
	a := mustRead(t, w, "a.txt")
	res, err := w.Commit(bg, Change{Name: "Nothing", Ops: []Op{{Path: "a.txt", Data: []byte("same"), Base: a.Version}}})
	if err != nil || res.ActionID != 0 || len(res.Files) != 0 || w.History().Depth != 0 {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestJournalBounds(t *testing.T) {
	w, _ := newWS(t, Options{MaxActions: 3, MaxBytes: 1000})
	for i := range 5 {
		if _, err := w.Commit(bg, Change{Name: string(rune('a' + i)), Ops: []Op{{Path: string(rune('a'+i)) + ".txt", Data: []byte("x")}}}); err != nil {
			t.Fatal(err)
		}
	}
	h := w.History()
	if h.Depth != 3 || h.Recent[0].Name != "c" || h.CurrentAction != "e" {
		t.Fatalf("count bound: %+v", h)
	}
	// Bytes: a 600-byte action pushes out older ones to stay under 1000.
	if _, err := w.Commit(bg, Change{Name: "big", Ops: []Op{{Path: "big.txt", Data: make([]byte, 600)}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Commit(bg, Change{Name: "big2", Ops: []Op{{Path: "big2.txt", Data: make([]byte, 600)}}}); err != nil {
		t.Fatal(err)
	}
	h = w.History()
	if h.JournalBytes > 1000 || h.CurrentAction != "big2" || h.Depth != 1 {
		t.Fatalf("byte bound: %+v", h)
	}
	// An action larger than the journal is written, with a warning, and
	// cannot be undone.
	res, err := w.Commit(bg, Change{Name: "huge", Ops: []Op{{Path: "huge.txt", Data: make([]byte, 2000)}}})
	if err != nil || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "cannot be undone") {
		t.Fatalf("%+v %v", res, err)
	}
	if w.History().CurrentAction == "huge" {
		t.Fatal("oversized action kept")
	}
}

func TestCancelledCommitWritesNothing(t *testing.T) {
	w, dir := newWS(t, Options{})
	ctx, cancel := context.WithCancel(bg)
	cancel()
	_, err := w.Commit(ctx, Change{Name: "x", Ops: []Op{{Path: "x.txt", Data: []byte("x")}}})
	wantCode(t, err, sdk.CodeCancelled)
	if _, ok := get(t, dir, "x.txt"); ok {
		t.Fatal("cancelled commit wrote")
	}
	_, err = w.Undo(ctx, 1, false)
	wantCode(t, err, sdk.CodeCancelled)
}

type fakeEditor struct {
	mu       sync.Mutex
	unsaved  []string
	err      error
	reloaded [][]string
	// saves are the scenes SaveScene saved; onSave plays the editor's
	// save (writes what the user sees), saveErr refuses it.
	saves   []string
	onSave  func(scene string)
	saveErr error
}

func (f *fakeEditor) SaveScene(_ context.Context, scene string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.saveErr != nil {
		return f.saveErr
	}
	f.saves = append(f.saves, scene)
	if f.onSave != nil {
		f.onSave(scene)
	}
	return nil
}

func (f *fakeEditor) UnsavedScenes(context.Context) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.unsaved, f.err
}

func (f *fakeEditor) Reload(_ context.Context, paths []string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reloaded = append(f.reloaded, paths)
	return nil
}

func TestEditorGuard(t *testing.T) {
	w, dir := newWS(t, Options{})
	ed := &fakeEditor{unsaved: []string{"res://open.tscn"}}
	w.SetEditor(ed)
	put(t, dir, "open.tscn", "editor has unsaved changes")
	put(t, dir, "closed.tscn", "c")
	o, c := mustRead(t, w, "open.tscn"), mustRead(t, w, "closed.tscn")
	for _, dry := range []bool{true, false} {
		_, err := w.Commit(bg, Change{Name: "x", DryRun: dry, Ops: []Op{
			{Path: "closed.tscn", Data: []byte("c2"), Base: c.Version},
			{Path: "open.tscn", Data: []byte("clobber"), Base: o.Version}}})
		e := wantCode(t, err, sdk.CodePreconditionFailed)
		if e.Required != "scene_saved" || !strings.Contains(e.Message, "res://open.tscn") {
			t.Fatal(e)
		}
	}
	if s, _ := get(t, dir, "closed.tscn"); s != "c" {
		t.Fatal("a refused commit wrote")
	}
	if _, err := w.Commit(bg, Change{Name: "y", Ops: []Op{{Path: "closed.tscn", Data: []byte("c2"), Base: c.Version}}}); err != nil {
		t.Fatal(err)
	}
	if len(ed.reloaded) != 1 || !slices.Equal(ed.reloaded[0], []string{"res://closed.tscn"}) {
		t.Fatalf("reloaded = %v", ed.reloaded)
	}
	// Undo is guarded and reloads too.
	ed.unsaved = []string{"res://closed.tscn"}
	_, err := w.Undo(bg, 1, false)
	wantCode(t, err, sdk.CodePreconditionFailed)
	ed.unsaved = nil
	if _, err := w.Undo(bg, 1, false); err != nil {
		t.Fatal(err)
	}
	if len(ed.reloaded) != 2 {
		t.Fatalf("undo did not reload: %v", ed.reloaded)
	}
	// An editor that cannot answer refuses the write (fail closed).
	ed.err = errors.New("timeout")
	_, err = w.Commit(bg, Change{Name: "z", Ops: []Op{{Path: "z.txt", Data: []byte("z")}}})
	wantCode(t, err, sdk.CodePreconditionFailed)
	w.SetEditor(nil)
	if _, err := w.Commit(bg, Change{Name: "z", Ops: []Op{{Path: "z.txt", Data: []byte("z")}}}); err != nil {
		t.Fatal(err)
	}
}

// TestSaveInEditor: a commit may write the one scene open in the editor
// that it names in SaveInEditor: the editor saves it first, under the
// lock, so a base read before the user's last unsaved edits is a CONFLICT
// (their edits are on disk, nothing is lost), and it is reloaded after.
// Every other open scene stays refused; a dry run saves nothing.
func TestSaveInEditor(t *testing.T) {
	w, dir := newWS(t, Options{})
	ed := &fakeEditor{unsaved: []string{"res://open.tscn", "res://other.tscn"}}
	w.SetEditor(ed)
	put(t, dir, "open.tscn", "saved")
	put(t, dir, "other.tscn", "o")
	f := mustRead(t, w, "open.tscn")

	// A dry run previews against the file as saved and saves nothing.
	res, err := w.Commit(bg, Change{Name: "x", DryRun: true, SaveInEditor: "res://open.tscn", Ops: []Op{{Path: "open.tscn", Data: []byte("edited"), Base: f.Version}}})
	if err != nil || len(res.Files) != 1 || len(ed.saves) != 0 {
		t.Fatalf("dry run: %+v %v, saves %v", res, err, ed.saves)
	}
	// Another open scene is still refused.
	o := mustRead(t, w, "other.tscn")
	_, err = w.Commit(bg, Change{Name: "x", SaveInEditor: "res://open.tscn", Ops: []Op{
		{Path: "open.tscn", Data: []byte("edited"), Base: f.Version}, {Path: "other.tscn", Data: []byte("o2"), Base: o.Version}}})
	if e := wantCode(t, err, sdk.CodePreconditionFailed); !strings.Contains(e.Message, "res://other.tscn") || strings.Contains(e.Message, "res://open.tscn") {
		t.Fatal(e)
	}
	// The user edited in the editor after the read: the save puts the
	// edits on disk and the stale base is a conflict.
	ed.onSave = func(string) { put(t, dir, "open.tscn", "saved with the user's edits") }
	_, err = w.Commit(bg, Change{Name: "x", SaveInEditor: "res://open.tscn", Ops: []Op{{Path: "open.tscn", Data: []byte("edited"), Base: f.Version}}})
	wantCode(t, err, sdk.CodeConflict)
	if s, _ := get(t, dir, "open.tscn"); s != "saved with the user's edits" {
		t.Fatalf("open.tscn = %q", s)
	}
	// Read again: the save changes nothing now, and the write goes through
	// and is reloaded.
	ed.onSave = nil
	f = mustRead(t, w, "open.tscn")
	res, err = w.Commit(bg, Change{Name: "x", SaveInEditor: "res://open.tscn", Ops: []Op{{Path: "open.tscn", Data: []byte("edited"), Base: f.Version}}})
	if err != nil || res.ActionID == 0 {
		t.Fatal(res, err)
	}
	if s, _ := get(t, dir, "open.tscn"); s != "edited" {
		t.Fatalf("open.tscn = %q", s)
	}
	// (The refused commit with other.tscn saved open.tscn too: the save
	// comes before the checks, and saving loses nothing.)
	if !slices.Equal(ed.saves, []string{"res://open.tscn", "res://open.tscn", "res://open.tscn"}) || len(ed.reloaded) != 1 || !slices.Equal(ed.reloaded[0], []string{"res://open.tscn"}) {
		t.Fatalf("saves %v, reloaded %v", ed.saves, ed.reloaded)
	}
	// An editor that will not save (the tab was switched) refuses the write.
	ed.saveErr = &sdk.Error{Code: sdk.CodeConflict, Required: "active_scene", Message: "switched"}
	f = mustRead(t, w, "open.tscn")
	_, err = w.Commit(bg, Change{Name: "y", SaveInEditor: "res://open.tscn", Ops: []Op{{Path: "open.tscn", Data: []byte("again"), Base: f.Version}}})
	if e := wantCode(t, err, sdk.CodeConflict); e.Required != "active_scene" {
		t.Fatal(e)
	}
	ed.saveErr = errors.New("bridge down")
	_, err = w.Commit(bg, Change{Name: "y", SaveInEditor: "res://open.tscn", Ops: []Op{{Path: "open.tscn", Data: []byte("again"), Base: f.Version}}})
	if e := wantCode(t, err, sdk.CodePreconditionFailed); e.Required != "scene_saved" {
		t.Fatal(e)
	}
	if s, _ := get(t, dir, "open.tscn"); s != "edited" {
		t.Fatalf("a refused commit wrote: %q", s)
	}
}

func TestScenes(t *testing.T) {
	w, dir := newWS(t, Options{})
	put(t, dir, "a.tscn", "a")
	put(t, dir, "b.tscn", "b")
	put(t, dir, "c.gd", "c")
	if _, err := w.SetActiveScene(bg, "res://c.gd"); code(err) != sdk.CodeInvalidArgument {
		t.Fatal(err)
	}
	if _, err := w.SetActiveScene(bg, "res://none.tscn"); code(err) != sdk.CodeNotFound {
		t.Fatal(err)
	}
	_, _ = w.SetActiveScene(bg, "res://a.tscn")
	sc, _ := w.SetActiveScene(bg, "b.tscn")
	if sc.Active != "res://b.tscn" || !slices.Equal(sc.Open, []string{"res://a.tscn", "res://b.tscn"}) {
		t.Fatal(sc)
	}
	sc, err := w.CloseScene(bg, "")
	if err != nil || sc.Active != "res://a.tscn" {
		t.Fatal(sc, err)
	}
	_, err = w.CloseScene(bg, "res://b.tscn")
	if e := wantCode(t, err, sdk.CodePreconditionFailed); e.Required != "open_scene" {
		t.Fatal(e)
	}
	// Deleting an open scene closes it.
	a := mustRead(t, w, "a.tscn")
	if _, err := w.Commit(bg, Change{Name: "rm", Ops: []Op{{Path: "a.tscn", Delete: true, Base: a.Version}}}); err != nil {
		t.Fatal(err)
	}
	if sc := w.Scenes(); sc.Active != "" || len(sc.Open) != 0 {
		t.Fatal(sc)
	}
	_, err = w.CloseScene(bg, "")
	if e := wantCode(t, err, sdk.CodePreconditionFailed); e.Required != "active_scene" {
		t.Fatal(e)
	}
}

func TestPreviewBinaryAndBounds(t *testing.T) {
	if p := preview([]byte{0, 1}, []byte("x")); !strings.HasPrefix(p, "binary file") {
		t.Fatal(p)
	}
	var big strings.Builder
	for range 100 {
		big.WriteString("line\n")
	}
	p := preview(nil, []byte(big.String()))
	if !strings.HasPrefix(p, "@@ -1,0 +1,100 @@") || !strings.Contains(p, "(0 lines removed, 100 added in all)") {
		t.Fatal(p)
	}
}

// Two toolsets edit one file from the same read at the same time: exactly
// one wins, the other gets CONFLICT, and the file holds the winner's bytes
// (no lost update, no mix).
func TestConcurrentWritersNoLostUpdate(t *testing.T) {
	w, dir := newWS(t, Options{})
	put(t, dir, "shared.tscn", "base")
	for round := range 20 {
		f := mustRead(t, w, "shared.tscn")
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = w.Commit(bg, Change{Name: "edit", Toolset: []string{"a", "b"}[i], CallID: "c",
					Ops: []Op{{Path: "shared.tscn", Data: []byte(fmt.Sprintf("round %d by %d", round, i)), Base: f.Version}}})
			}()
		}
		wg.Wait()
		won := -1
		for i, err := range errs {
			switch code(err) {
			case "":
				if won >= 0 {
					t.Fatalf("round %d: both writers won", round)
				}
				won = i
			case sdk.CodeConflict:
			default:
				t.Fatalf("round %d: %v", round, err)
			}
		}
		if won < 0 {
			t.Fatalf("round %d: nobody won", round)
		}
		if s, _ := get(t, dir, "shared.tscn"); s != fmt.Sprintf("round %d by %d", round, won) {
			t.Fatalf("round %d: file = %q, want the winner's", round, s)
		}
	}
}

// A directory swapped for a link to outside the project after an action:
// the undo must not follow it.
func TestUndoDoesNotFollowASwappedDirectory(t *testing.T) {
	w, dir := newWS(t, Options{})
	outside := t.TempDir()
	if _, err := w.Commit(bg, Change{Name: "create", Ops: []Op{{Path: "sub/f.txt", Data: []byte("x")}}}); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "sub")); err != nil {
		t.Fatal(err)
	}
	put(t, outside, "f.txt", "x") // same bytes: only the path check can refuse
	if err := os.Symlink(outside, filepath.Join(dir, "sub")); err != nil {
		t.Fatal(err)
	}
	_, err := w.Undo(bg, 1, false)
	wantCode(t, err, sdk.CodeConflict)
	if _, ok := get(t, outside, "f.txt"); !ok {
		t.Fatal("undo deleted a file outside the project")
	}
}

// A commit prepared for the active scene is refused, whole, once another
// call or another process has switched scenes; with the expected scene
// still active it goes through.
func TestCommitExpectActiveScene(t *testing.T) {
	jdir := t.TempDir()
	w, dir := newWS(t, Options{JournalDir: jdir})
	put(t, dir, "a.tscn", "a")
	put(t, dir, "b.tscn", "b")
	other, err := Open(dir, Options{JournalDir: jdir}) // a second process on the project
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.SetActiveScene(bg, "res://a.tscn"); err != nil {
		t.Fatal(err)
	}
	a := mustRead(t, w, "a.tscn")
	edit := func(data string) (sdk.CommitResult, error) {
		return w.Commit(bg, Change{Name: "edit", ExpectActiveScene: "res://a.tscn",
			Ops: []Op{{Path: "a.tscn", Data: []byte(data), Base: a.Version}, {Path: "new.txt", Data: []byte("n")}}})
	}
	if _, err := other.SetActiveScene(bg, "res://b.tscn"); err != nil {
		t.Fatal(err)
	}
	_, err = edit("a2")
	if e := wantCode(t, err, sdk.CodeConflict); e.Required != "active_scene" || !strings.Contains(e.Message, "res://b.tscn") {
		t.Fatal(e)
	}
	if got, _ := get(t, dir, "a.tscn"); got != "a" {
		t.Fatalf("a.tscn = %q after a refused commit", got)
	}
	if _, ok := get(t, dir, "new.txt"); ok {
		t.Fatal("new.txt written by a refused commit")
	}
	if h := w.History(); h.Depth != 0 {
		t.Fatalf("refused commit journaled: %+v", h)
	}
	if _, err := other.CloseScene(bg, ""); err != nil { // a is active again
		t.Fatal(err)
	}
	res, err := edit("a2")
	if err != nil || len(res.Files) != 2 {
		t.Fatal(res, err)
	}
	if got, _ := get(t, dir, "a.tscn"); got != "a2" {
		t.Fatalf("a.tscn = %q", got)
	}
	// The version reported before the write is the one compared.
	if res.Files[0].VersionBefore != a.Version || res.Files[0].VersionAfter != VersionOf([]byte("a2")) {
		t.Fatalf("versions %+v", res.Files[0])
	}
}

// A project directory replaced by a link after the workspace opened it is
// not written through (the root is only trusted while it is a directory).
func TestRootReplacedByLinkIsNotWritten(t *testing.T) {
	parent := t.TempDir()
	root := filepath.Join(parent, "project")
	outside := filepath.Join(parent, "outside")
	for _, d := range []string{root, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w, err := Open(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(root, root+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, root); err != nil {
		t.Fatal(err)
	}
	_, err = w.Commit(bg, Change{Name: "w", Ops: []Op{{Path: "a.txt", Data: []byte("x")}}})
	wantCode(t, err, sdk.CodeInvalidArgument)
	if _, err := os.Stat(filepath.Join(outside, "a.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("written through the link that replaced the project directory")
	}
}

// TestGitMetadataIsOffLimits: .git (the directory, a worktree's .git file,
// a submodule's, under any spelling of the name or through a link) is never
// written or deleted, like .godot/.
func TestGitMetadataIsOffLimits(t *testing.T) {
	w, dir := newWS(t, Options{})
	put(t, dir, ".git/config", "[core]\n")
	put(t, dir, ".git/HEAD", "ref: refs/heads/main\n")
	put(t, dir, "addons/sub/.git", "gitdir: ../../.git/modules/sub\n")
	if err := os.Symlink(filepath.Join(dir, ".git"), filepath.Join(dir, "meta")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, ".godot"), filepath.Join(dir, "cache")); err != nil {
		t.Fatal(err)
	}
	put(t, dir, ".godot/keep", "")
	head := mustRead(t, w, "res://.git/HEAD") // reading stays allowed
	for _, tc := range []struct {
		name string
		op   Op
	}{
		{"overwrite config", Op{Path: "res://.git/config", Data: []byte("x"), Base: VersionOf([]byte("[core]\n"))}},
		{"create a hook", Op{Path: "res://.git/hooks/pre-commit", Data: []byte("#!/bin/sh\n")}},
		{"delete HEAD", Op{Path: "res://.git/HEAD", Delete: true, Base: head.Version}},
		{"replace .git itself", Op{Path: "res://.git", Data: []byte("x")}},
		{"upper case", Op{Path: "res://.GIT/config", Data: []byte("x")}},
		{"submodule's .git file", Op{Path: "res://addons/sub/.git", Delete: true, Base: VersionOf([]byte("gitdir: ../../.git/modules/sub\n"))}},
		{"through a link", Op{Path: "res://meta/config", Data: []byte("x"), Base: VersionOf([]byte("[core]\n"))}},
		{".godot through a link", Op{Path: "res://cache/x.cfg", Data: []byte("x")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := w.Commit(bg, Change{Name: tc.name, Ops: []Op{tc.op}})
			e := wantCode(t, err, sdk.CodeInvalidArgument)
			if !strings.Contains(e.Message, ".git") && !strings.Contains(e.Message, ".godot") {
				t.Fatalf("message does not say why: %v", e)
			}
		})
	}
	if s, _ := get(t, dir, ".git/config"); s != "[core]\n" {
		t.Fatalf(".git/config = %q", s)
	}
	if _, ok := get(t, dir, ".git/HEAD"); !ok {
		t.Fatal(".git/HEAD was deleted")
	}
	if _, ok := get(t, dir, ".git/hooks/pre-commit"); ok {
		t.Fatal("a hook was created")
	}
	// A file merely named like it is fine.
	if _, err := w.Commit(bg, Change{Name: "ok", Ops: []Op{{Path: "res://docs/.gitignore", Data: []byte("*.tmp\n")}}}); err != nil {
		t.Fatal(err)
	}
}
