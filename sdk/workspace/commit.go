package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// Op is one file change of a [Change].
type Op struct {
	Path   string
	Delete bool
	Data   []byte
	// Base is the version the change is based on; "" means the file must
	// not exist yet.
	Base sdk.FileVersion
	// Mode is the permission bits of a new file (0: 0644). An existing file
	// keeps its mode.
	Mode fs.FileMode
	// BaseSeen bases the write on the version the agent last saw of the
	// file, when the workspace knows one (seen.go), instead of Base: for a
	// whole file the agent composed, which must not overwrite an edit the
	// agent never saw.
	BaseSeen bool
}

// Change is one commit: the changes of (part of) one tool call.
type Change struct {
	// Name is the action's name in the history, e.g. "Create node Player".
	Name string
	// Toolset and CallID say whose call this is. Commits with the same
	// non-empty CallID join one action, while it is the newest.
	Toolset string
	CallID  string
	// DryRun validates and reports without writing.
	DryRun bool
	Ops    []Op
	// ExpectActiveScene, when set, refuses the commit with CONFLICT unless
	// it is the active scene when the commit runs: a plugin that edits the
	// active scene it remembers (rather than asking first) is told so when
	// another call or process has switched scenes since.
	ExpectActiveScene string
	// SaveInEditor is a res:// scene open in the attached editor that this
	// commit writes on disk, for an edit the editor's own commands cannot
	// make (an inline sub-resource: the addon takes resources as paths
	// only). Any other scene the editor has open is never written, as it
	// may hold unsaved changes. This one is made safe instead: under the
	// commit's lock the editor saves it first (it must be the editor's
	// active scene), so the bases are checked against everything the user
	// had, and after the write the editor reloads it. A dry run saves
	// nothing and previews against the file as last saved. Without an
	// editor attached it changes nothing.
	SaveInEditor string
}

// file is one file of an action: its state before and after.
type file struct {
	res    string
	abs    string
	dirs   []string // directories the action created for it
	before content
	after  content
	// beforeVersion is before's version, computed once by the commit's
	// compare-and-swap (not kept in the journal).
	beforeVersion sdk.FileVersion
}

// action is one journal entry.
type action struct {
	id      uint64
	name    string
	toolset string
	callID  string
	session string // the Workspace that made it: call ids are unique per process only
	at      time.Time
	files   []*file
}

func (a *action) size() int64 {
	var n int64
	for _, f := range a.files {
		n += f.before.size + f.after.size
	}
	return n
}

func (a *action) paths() []string {
	out := make([]string, len(a.files))
	for i, f := range a.files {
		out[i] = f.res
	}
	return out
}

const maxNameLen = 200

// Commit applies a change: every path is confined, every base version is
// checked against the disk, the attached editor is asked about unsaved
// scenes, and then all files are written or none. See the package doc.
func (w *Workspace) Commit(ctx context.Context, ch Change) (sdk.CommitResult, error) {
	name := strings.TrimSpace(ch.Name)
	if name == "" {
		return sdk.CommitResult{}, sdk.Errorf(sdk.CodeInvalidArgument, `name the action, e.g. ws.Begin("Create node Player")`,
			"a workspace commit needs an action name")
	}
	if len(name) > maxNameLen {
		name = name[:maxNameLen]
	}
	if len(ch.Ops) == 0 {
		return sdk.CommitResult{}, sdk.Errorf(sdk.CodeInvalidArgument, "add a Write or Delete before Commit",
			"commit %q changes no file", name)
	}
	// Resolve every path first: a bad one refuses the whole commit.
	files := make([]*file, 0, len(ch.Ops))
	seen := map[string]string{}
	for _, op := range ch.Ops {
		t, err := w.resolveWrite(op.Path)
		if err != nil {
			return sdk.CommitResult{}, err
		}
		if prev, dup := seen[t.abs]; dup {
			return sdk.CommitResult{}, sdk.Errorf(sdk.CodeInvalidArgument, "change each file once per commit",
				"%s is changed twice in one commit (also as %s)", t.res, prev)
		}
		seen[t.abs] = t.res
		if !op.Delete && len(op.Data) > MaxFileBytes {
			return sdk.CommitResult{}, sdk.Errorf(sdk.CodeInvalidArgument, "write smaller files",
				"%s would be %d bytes; the workspace handles files up to %d", t.res, len(op.Data), MaxFileBytes)
		}
		f := &file{res: t.res, abs: t.abs, dirs: t.dirs}
		if !op.Delete {
			mode := op.Mode.Perm()
			if mode == 0 {
				mode = 0o644
			}
			f.after = newContent(op.Data, mode)
			f.after.ver = VersionOf(op.Data)
		}
		files = append(files, f)
	}
	if err := ctx.Err(); err != nil {
		return sdk.CommitResult{}, cancelled(err)
	}

	release, unlock, err := w.lockJournal(ctx)
	if err != nil {
		return sdk.CommitResult{}, err
	}
	defer unlock()
	if err := w.expectActiveLocked(ch.ExpectActiveScene); err != nil {
		return sdk.CommitResult{}, err
	}
	saved, err := w.saveInEditorLocked(ctx, ch)
	if err != nil {
		return sdk.CommitResult{}, err
	}
	// Compare and swap: read every file and check its version.
	var conflicts, diffs []string
	changed := files[:0:0]
	for i, f := range files {
		cur, err := load(f.abs)
		if err != nil {
			return sdk.CommitResult{}, fileError(f.res, err, sdk.CodeInvalidArgument, "change regular files only")
		}
		f.before = cur
		op := ch.Ops[i]
		base, seen := op.Base, false
		if op.BaseSeen {
			if v, ok := w.seenLocked(f.res); ok {
				base, seen = v, true
			}
		}
		got := cur.version()
		if got != base {
			conflicts = append(conflicts, conflictLine(f.res, base, got, seen))
			if d := w.conflictDiffLocked(f.res, base, cur); d != "" {
				diffs = append(diffs, d)
			}
			continue
		}
		f.beforeVersion = got
		if op.Delete && !cur.exists {
			return sdk.CommitResult{}, sdk.Errorf(sdk.CodeNotFound, "nothing to delete; drop the Delete",
				"%s does not exist", f.res)
		}
		if cur.exists {
			f.after.mode = cur.mode // an existing file keeps its mode
			if f.after.exists && string(cur.data) == string(f.after.data) {
				continue // identical bytes: a no-op
			}
		}
		changed = append(changed, f)
	}
	if len(conflicts) > 0 {
		e := conflictError(conflicts, "read it again and re-apply the edit")
		if len(diffs) > 0 {
			e.Message += "\nWhat changed since:\n" + strings.TrimSuffix(strings.Join(diffs, ""), "\n")
		}
		return sdk.CommitResult{}, e
	}
	if err := w.guardLocked(ctx, changed, saved); err != nil {
		return sdk.CommitResult{}, err
	}
	res := sdk.CommitResult{DryRun: ch.DryRun, Files: make([]sdk.FileChange, 0, len(changed))}
	for _, f := range changed {
		res.Files = append(res.Files, report(f, ch.DryRun))
	}
	if ch.DryRun || len(changed) == 0 {
		if !ch.DryRun {
			w.noteSeenFiles(files)
		}
		return res, nil
	}
	if err := ctx.Err(); err != nil {
		return sdk.CommitResult{}, cancelled(err)
	}
	// The intent first (intent.go): a kill from here on is recovered whole.
	at := time.Now()
	id, mergeTop := w.nextID, w.mergeTopLocked(ch)
	if mergeTop != nil {
		id = mergeTop.id
	}
	temps := w.planTemps(changed)
	rec := toRecord(&action{id: id, name: name, toolset: ch.Toolset, callID: ch.CallID, session: w.session, at: at, files: changed})
	prepared, warn := w.prepareLocked(entry{Kind: entryPrepare, Op: opCommit, Action: rec, Merge: mergeTop != nil, Temps: temps, ID: id})
	if warn != "" {
		res.Warnings = append(res.Warnings, warn)
	}
	crashAt("prepared")
	if err := apply(changed, temps, w.opts.Sync); err != nil {
		if prepared {
			w.record(entry{Kind: entryDone, ID: id})
		}
		return sdk.CommitResult{}, err
	}
	crashAt("applied")
	w.version++
	w.noteSeenFiles(files)
	w.forgetDeletedLocked(changed)
	var warns []string
	res.ActionID, warns = w.journalLocked(name, ch, changed, at, prepared)
	res.Warnings = append(res.Warnings, warns...)
	if warn := release(); warn != "" {
		res.Warnings = append(res.Warnings, warn)
	}
	res.Warnings = append(res.Warnings, w.reloadLocked(ctx, changed)...)
	return res, nil
}

// expectActiveLocked refuses a commit prepared for an active scene that is
// no longer the active one.
func (w *Workspace) expectActiveLocked(want string) error {
	if want == "" {
		return nil
	}
	res, _, err := clean(want)
	if err != nil {
		return err
	}
	if res == w.active {
		return nil
	}
	now := "no scene is active"
	if w.active != "" {
		now = "the active scene is " + w.active
	}
	return &sdk.Error{Code: sdk.CodeConflict, Required: "active_scene",
		Message: "the change was made to " + res + " as the active scene, but " + now + " (another call or process switched scenes); nothing was written",
		Hint:    "run the tool again: it edits the scene that is active now, or pass scene explicitly"}
}

// saveInEditorLocked has the attached editor save the commit's
// SaveInEditor scene, before the compare-and-swap reads it, and returns
// its res:// path ("" when there is none, no editor is attached, or the
// commit is a dry run, which writes nothing and so may preview it).
func (w *Workspace) saveInEditorLocked(ctx context.Context, ch Change) (string, error) {
	if ch.SaveInEditor == "" {
		return "", nil
	}
	res, _, err := clean(ch.SaveInEditor)
	if err != nil {
		return "", err
	}
	ed := w.getEditor()
	if ed == nil {
		return "", nil
	}
	if ch.DryRun {
		return res, nil
	}
	if err := ed.SaveScene(ctx, res); err != nil {
		if ctx.Err() != nil {
			return "", cancelled(ctx.Err())
		}
		var e *sdk.Error
		if errors.As(err, &e) {
			return "", e
		}
		return "", &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "scene_saved",
			Message: "the Godot editor did not save " + res + " before it was to be edited on disk, so nothing was written: " + err.Error(),
			Hint:    "save the scene in the editor (godot_scene_edit_save_scene) and call again"}
	}
	return res, nil
}

// guardLocked refuses changes to scenes with unsaved editor changes. With
// no editor it allows everything; with an editor that cannot answer it
// refuses (fail closed: a clobbered scene cannot be undone). saved is a
// scene the editor saved under this lock (Change.SaveInEditor): it holds
// nothing unsaved, and the editor reloads it after the write.
func (w *Workspace) guardLocked(ctx context.Context, files []*file, saved string) error {
	ed := w.getEditor()
	if ed == nil || len(files) == 0 {
		return nil
	}
	unsaved, err := ed.UnsavedScenes(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return cancelled(ctx.Err())
		}
		return &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "scene_saved",
			Message: "cannot tell whether the Godot editor has unsaved changes in the files to write: " + err.Error(),
			Hint:    "retry once the editor answers, or close the editor to work headless"}
	}
	var hit []string
	for _, f := range files {
		if f.res != saved && slices.Contains(unsaved, f.res) {
			hit = append(hit, f.res)
		}
	}
	if len(hit) > 0 {
		return &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "scene_saved",
			Message: fmt.Sprintf("%s %s open in the Godot editor with possibly unsaved changes; writing it on disk would lose them",
				strings.Join(hit, ", "), isAre(len(hit))),
			Hint: "save it in the editor (godot_scene_edit_save_scene) or close it there, or make the change with the editor attached so it goes through the editor's own undo"}
	}
	return nil
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// reloadLocked tells the editor what changed; a failure is a warning, the
// files are written already.
func (w *Workspace) reloadLocked(ctx context.Context, files []*file) []string {
	ed := w.getEditor()
	if ed == nil || len(files) == 0 {
		return nil
	}
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.res
	}
	if err := ed.Reload(context.WithoutCancel(ctx), paths); err != nil {
		return []string{"the Godot editor was not told to reload the changed files: " + err.Error() +
			"; run godot_scene_edit_rescan_filesystem or reload them in the editor"}
	}
	return nil
}

// forgetDeletedLocked closes scenes whose file is gone.
func (w *Workspace) forgetDeletedLocked(files []*file) {
	for _, f := range files {
		if !f.after.exists && slices.Contains(w.open, f.res) {
			w.closeLocked(f.res)
		}
	}
}

// conflictLine says why a write's base does not hold; seen says the base
// is the version the agent last saw (Op.BaseSeen) rather than one the tool
// read.
func conflictLine(res string, base, got sdk.FileVersion, seen bool) string {
	since, was := "it was read", "read "
	if seen {
		since, was = "the agent last read or wrote it", "saw "
	}
	switch {
	case base == "" && got != "":
		if seen {
			return res + " was created since the agent last saw it absent"
		}
		return res + " already exists (the write expected to create it)"
	case got == "":
		return res + " was deleted since " + since
	default:
		return res + " changed on disk since " + since + " (" + was + short(base) + ", now " + short(got) + ")"
	}
}

func short(v sdk.FileVersion) string {
	s := strings.TrimPrefix(string(v), "sha256:")
	if len(s) > 12 {
		s = s[:12]
	}
	return s
}

func conflictError(lines []string, fix string) *sdk.Error {
	return &sdk.Error{Code: sdk.CodeConflict,
		Message: strings.Join(lines, "; ") + "; nothing was written",
		Hint:    fix + " (another toolset or an editor changed the file)"}
}

// report describes a checked change; f.beforeVersion is the version the
// compare-and-swap computed (hashing 20 KB again costs as much as the rest
// of the report).
func report(f *file, dryRun bool) sdk.FileChange {
	fc := sdk.FileChange{Path: f.res, BytesBefore: f.before.size, BytesAfter: f.after.size,
		VersionBefore: f.beforeVersion, VersionAfter: f.after.version()}
	switch {
	case !f.before.exists:
		fc.Change = sdk.ChangeCreated
	case !f.after.exists:
		fc.Change = sdk.ChangeDeleted
	default:
		fc.Change = sdk.ChangeModified
	}
	if dryRun {
		fc.Diff = preview(f.before.data, f.after.data)
	}
	return fc
}

// Hooks for fault injection in tests.
var (
	rename = os.Rename
	remove = os.Remove
)

// apply brings every file from before to after: all new contents are
// written to their temporary files (temps, planned by planTemps) first,
// then renamed into place (deletes are removes). If a step fails, the
// files already changed get their before state back and the error is
// returned. Missing directories of a file are created; when a file goes
// away, the empty directories its action created go too.
func apply(files []*file, temps []string, sync SyncMode) error {
	written := make([]bool, len(files))
	cleanup := func() {
		for i, t := range temps {
			if written[i] {
				_ = os.Remove(t)
			}
		}
	}
	for i, f := range files {
		if !f.after.exists {
			continue
		}
		for _, d := range f.dirs {
			if err := os.Mkdir(d, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				cleanup()
				return writeError(f.res, err)
			}
		}
		if err := writeTempAt(temps[i], f.after, sync != SyncNone); err != nil {
			cleanup()
			return writeError(f.res, err)
		}
		written[i] = true
		crashAt("temp")
	}
	// The commit point: from here on the disk changes.
	for i, f := range files {
		var err error
		if f.after.exists {
			err = rename(temps[i], f.abs)
			if err == nil {
				written[i] = false
			}
		} else {
			err = remove(f.abs)
			if errors.Is(err, fs.ErrNotExist) {
				err = nil
			}
		}
		if err != nil {
			cleanup()
			rollback(files[:i], sync != SyncNone)
			return writeError(f.res, err)
		}
		crashAt("rename")
	}
	for _, f := range files {
		if !f.after.exists {
			removeEmptyDirs(f.dirs)
		}
		if sync == SyncFull {
			syncDir(filepath.Dir(f.abs))
		}
	}
	return nil
}

// rollback restores the before state of files already changed, newest
// first, best effort (each restore is itself atomic).
func rollback(files []*file, fsync bool) {
	for i := len(files) - 1; i >= 0; i-- {
		f := files[i]
		if f.before.exists {
			if t, err := writeTemp(f.abs, f.before, fsync); err == nil {
				if os.Rename(t, f.abs) != nil {
					_ = os.Remove(t)
				}
			}
		} else {
			_ = os.Remove(f.abs)
			removeEmptyDirs(f.dirs)
		}
	}
}

// writeTemp writes c to a new temporary file beside abs, with c's mode,
// fsynced if asked, and returns its path.
func writeTemp(abs string, c content, fsync bool) (string, error) {
	data, err := c.bytes()
	if err != nil {
		return "", err
	}
	tf, err := os.CreateTemp(filepath.Dir(abs), "."+filepath.Base(abs)+tempPrefix+"*")
	if err != nil {
		return "", err
	}
	if err := fillTemp(tf, data, c.mode, fsync); err != nil {
		return "", err
	}
	return tf.Name(), nil
}

// writeTempAt writes c to the new file name (which must not exist), with
// c's mode, fsynced if asked.
func writeTempAt(name string, c content, fsync bool) error {
	data, err := c.bytes()
	if err != nil {
		return err
	}
	tf, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	return fillTemp(tf, data, c.mode, fsync)
}

// fillTemp writes data to the new temp file tf, sets mode, fsyncs if asked
// and closes it; on any failure the file is removed.
func fillTemp(tf *os.File, data []byte, mode os.FileMode, fsync bool) error {
	_, err := tf.Write(data)
	if err == nil {
		err = tf.Chmod(mode)
	}
	if err == nil && fsync {
		err = tf.Sync()
	}
	if cerr := tf.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(tf.Name())
	}
	return err
}

// removeEmptyDirs removes directories an action created, innermost first,
// as long as they are empty.
func removeEmptyDirs(dirs []string) {
	for i := len(dirs) - 1; i >= 0; i-- {
		if os.Remove(dirs[i]) != nil {
			return
		}
	}
}

// syncDir makes a rename durable; best effort (not every system can).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

func writeError(res string, err error) *sdk.Error {
	return &sdk.Error{Code: sdk.CodeInternalError,
		Message: fmt.Sprintf("writing %s failed: %v; every file of the change was left as it was", res, err),
		Hint:    "check the disk space and the permissions of the project directory, then retry"}
}
