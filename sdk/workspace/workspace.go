// Package workspace is the headless editing state of a Godot project that
// every toolset shares: the open and active scenes, and every file change,
// made through one journal so that godot_undo can revert it.
//
// The host holds one *Workspace per project and offers it to each plugin as
// the HostWorkspace gRPC service ([NewService]); toolsets reach it through
// sdk.Call.Workspace. sdktest runs the very same code on a test's project
// directory, so a toolset's unit tests see the same versions, conflicts,
// dry runs and undo as production. (It lives in the sdk module for that
// reason: the sdk never imports the host.)
//
// The rules, which docs/workspace.md explains for authors and agents:
//
//   - Versions. A file's version is "sha256:" and the SHA-256 of its bytes.
//     Content hashing, not mtime and size: a same-size edit within the file
//     system's timestamp granularity (seconds on some systems) would go
//     unseen by mtime+size, and a 20 KB scene hashes in about 10 µs.
//   - Confinement. Paths are res:// paths; "..", absolute paths, other
//     schemes and symbolic links leading out of the project are refused, a
//     symbolic link is never written through, and .godot/ and .git are
//     off limits for writes and deletes.
//   - Compare-and-swap. Every write names the version it was based on. If
//     the file on disk is not that version any more (another toolset, the
//     user's editor), the whole commit is refused with CONFLICT and nothing
//     is written.
//   - Atomicity. Each new content goes to a temporary file in the target's
//     directory, is fsynced, gets the old file's mode, and is renamed over
//     the target. A commit of several files prepares all of them first; if
//     a rename fails midway the files already replaced are restored, so a
//     commit lands whole or not at all. With a journal directory the change's
//     intent is logged first, so that a process killed midway is rolled
//     forward or back by the next one (intent.go).
//   - Journal. A commit is one named action; all commits of one tool call
//     (same call id) join one action. Undo restores the exact previous bytes
//     of every file the action touched (recreating deleted files, removing
//     created ones), redo re-applies them; either refuses with CONFLICT a
//     file changed on disk since the action. The journal holds at most
//     [Options.MaxActions] actions and [Options.MaxBytes] bytes of saved
//     content, dropping the oldest first. It lives in memory, or with
//     [Options.JournalDir] on disk, shared by every process that opens the
//     project with that directory (see persist.go).
//   - Editor. With an [Editor] attached, a write to a scene that has unsaved
//     changes in the editor is refused (PRECONDITION_FAILED, required
//     scene_saved), and the editor is asked to reload what changed.
package workspace

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// Default journal bounds.
const (
	DefaultMaxActions = 100
	DefaultMaxBytes   = 64 << 20
)

// MaxFileBytes bounds one file read or written through the workspace, so
// that it fits a broker message (64 MiB) with room to spare.
const MaxFileBytes = 32 << 20

// Editor is the Godot editor attached to the host, as far as the workspace
// needs it. The host implements it over the editor bridge (see
// AddonEditor in host/workspace); tests use a fake.
type Editor interface {
	// UnsavedScenes returns the res:// paths of the scenes open in the
	// editor that may have unsaved changes. A write to one is refused.
	UnsavedScenes(ctx context.Context) ([]string, error)
	// Reload tells the editor that these files changed on disk, so it
	// rescans them and reloads the ones it has open.
	Reload(ctx context.Context, paths []string) error
	// SaveScene has the editor save scene, a res:// path that must be its
	// active scene, so that the file holds everything the user sees (see
	// Change.SaveInEditor).
	SaveScene(ctx context.Context, scene string) error
}

// SyncMode says how hard a commit makes its files durable. Every mode is
// atomic for readers and for a crash of the host (a reader or a restarted
// host sees the old bytes or the new ones, never a mix); they differ on
// power loss and kernel crashes, and in cost (docs/PERFORMANCE.md: on a
// VM's ext4 each fsync costs about 1.5 ms, so SyncFile is ~2x and SyncFull
// ~4x the cost of SyncNone for a small file).
type SyncMode int

const (
	// SyncFile (the default) fsyncs each new content before renaming it
	// into place: after a power loss a file holds its old bytes or its new
	// ones, never an empty or torn file. The rename itself may be lost,
	// leaving the previous (complete) version.
	SyncFile SyncMode = iota
	// SyncFull also fsyncs the directory after the renames, so a commit
	// that returned survives a power loss.
	SyncFull
	// SyncNone never fsyncs, like the Godot editor's own saves: atomic for
	// readers and process crashes only. For CI and throwaway checkouts.
	SyncNone
)

// Options configure a Workspace.
type Options struct {
	// Sync is the durability of commits; the zero value is SyncFile.
	Sync SyncMode
	// MaxActions bounds the number of undoable plus redoable actions;
	// 0 means DefaultMaxActions.
	MaxActions int
	// MaxBytes bounds the file content the journal keeps (before and after
	// bytes of every action); 0 means DefaultMaxBytes.
	MaxBytes int64
	// JournalDir, when set, keeps the journal on disk there, so that the
	// history survives the process and is shared by every process that
	// opens the same project with the same JournalDir (a server and a
	// one-shot `godot-mcp call`). Empty keeps it in memory.
	JournalDir string
}

// Workspace is one project's editing state. It is safe for concurrent use:
// reads run in parallel; commits, undo and redo are serialised.
type Workspace struct {
	root string
	opts Options

	// sem (capacity 1) is the workspace lock: it serialises changes and
	// guards what follows. A channel rather than a sync.Mutex so that a
	// call waiting for it gives up when its context ends.
	sem      chan struct{}
	edMu     sync.Mutex // guards editor alone, so attaching never waits for a call
	editor   Editor
	undo     []*action // oldest first
	redo     []*action // next redo last
	bytes    int64     // content held by undo and redo
	nextID   uint64
	version  int64 // bumped by every commit, undo and redo
	open     []string
	active   string
	session  string  // random, tells this Workspace's actions from other processes'
	store    *store  // nil: the journal is in memory only
	storeErr string  // why the journal directory could not be used (reported once)
	pending  []entry // journal changes not yet appended to the log
	prepared *entry  // a change another process left half done (intent.go)
	tempSeq  uint64  // numbers this Workspace's temporary files
	swept    bool    // stray temporary files were looked for (intent.go)
	// scenesDirty: open or active changed since they were last saved
	// (with a journal directory, the scenes are shared like the journal).
	scenesDirty bool

	// What the agent last saw of each file (seen.go). Its own mutex:
	// reads for the agent do not take the workspace lock.
	seenMu    sync.Mutex
	seen      map[string]*seenFile
	seenBytes int64
	seenSeq   uint64
}

// Open returns the workspace of the project at root.
func Open(root string, opts Options) (*Workspace, error) {
	if root == "" {
		return nil, errNoProject()
	}
	r, err := filepath.EvalSymlinks(root)
	if err == nil {
		r, err = filepath.Abs(r)
	}
	if err != nil {
		return nil, sdk.Errorf(sdk.CodePreconditionFailed, "check the project directory the host was started with",
			"project directory %s is not accessible: %v", root, err)
	}
	if opts.MaxActions <= 0 {
		opts.MaxActions = DefaultMaxActions
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	var nonce [8]byte
	_, _ = rand.Read(nonce[:])
	w := &Workspace{root: r, opts: opts, nextID: 1, session: hex.EncodeToString(nonce[:]), sem: make(chan struct{}, 1)}
	if opts.JournalDir != "" {
		w.store = &store{dir: opts.JournalDir, fsync: opts.Sync == SyncFull}
	}
	return w, nil
}

// lockJournal takes the workspace lock and brings the journal up to date
// with the disk. release saves what changed (returning a warning if that
// failed) and may be called early; unlock releases everything. Waiting for
// the lock (held by another call of this process, or the journal's file
// lock by another process) ends with CANCELLED when ctx does.
func (w *Workspace) lockJournal(ctx context.Context) (release func() string, unlock func(), err error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, cancelled(err)
	}
	select {
	case w.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, nil, &sdk.Error{Code: sdk.CodeCancelled,
			Message: "workspace: the call ended while waiting for another call of this process to finish its change; nothing was written",
			Hint:    "retry; a call that never finishes is reported in the host's log"}
	}
	if err := w.syncInLocked(ctx); err != nil {
		<-w.sem
		return nil, nil, err
	}
	released := false
	release = func() string {
		if released {
			return ""
		}
		released = true
		return w.syncOutLocked()
	}
	return release, func() { release(); <-w.sem }, nil
}

func errNoProject() *sdk.Error {
	return &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "project_dir",
		Message: "the host has no Godot project, so there is no workspace",
		Hint:    "start godot-mcp with a project directory (--project DIR)"}
}

// Root is the project directory, symbolic links resolved.
func (w *Workspace) Root() string { return w.root }

// SetEditor attaches (or with nil detaches) the Godot editor.
func (w *Workspace) SetEditor(e Editor) {
	w.edMu.Lock()
	w.editor = e
	w.edMu.Unlock()
}

func (w *Workspace) getEditor() Editor {
	w.edMu.Lock()
	defer w.edMu.Unlock()
	return w.editor
}

// VersionOf returns the version of content.
func VersionOf(data []byte) sdk.FileVersion {
	sum := sha256.Sum256(data)
	return sdk.FileVersion("sha256:" + hex.EncodeToString(sum[:]))
}

// content is a file's state: absent, or bytes with a mode. A content the
// journal replayed from its log has its size and version but not its
// bytes (ref says where they are: bytes reads them).
type content struct {
	exists bool
	data   []byte
	mode   fs.FileMode
	size   int64
	ver    sdk.FileVersion // "" until known
	ref    *blobRef
}

func (c content) version() sdk.FileVersion {
	if !c.exists {
		return ""
	}
	if c.ver != "" {
		return c.ver
	}
	return VersionOf(c.data)
}

// bytes returns the content's bytes, reading them from the journal's log
// if they are there; they must still hash to the content's version.
func (c content) bytes() ([]byte, error) {
	if c.ref == nil || !c.exists {
		return c.data, nil
	}
	data := make([]byte, c.size)
	if _, err := c.ref.f.ReadAt(data, c.ref.off); err != nil {
		return nil, fmt.Errorf("reading the journal: %w", err)
	}
	if VersionOf(data) != c.ver {
		return nil, fmt.Errorf("the journal's copy of the content is damaged")
	}
	return data, nil
}

func newContent(data []byte, mode fs.FileMode) content {
	return content{exists: true, data: data, mode: mode, size: int64(len(data))}
}

// load reads the current state of abs.
func load(abs string) (content, error) {
	f, fi, err := sdk.OpenRegular(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return content{}, nil
	}
	if err != nil {
		return content{}, err
	}
	defer f.Close()
	if fi.Size() > MaxFileBytes {
		return content{}, fmt.Errorf("is %d bytes; the workspace handles files up to %d", fi.Size(), MaxFileBytes)
	}
	// Read into a buffer of the size just seen (one read call for a scene,
	// where io.ReadAll would grow from 512 bytes in a dozen); a file that
	// grows meanwhile is still read to its end.
	buf := bytes.NewBuffer(make([]byte, 0, fi.Size()+1))
	if _, err := buf.ReadFrom(io.LimitReader(f, MaxFileBytes+1)); err != nil {
		return content{}, err
	}
	data := buf.Bytes()
	if len(data) > MaxFileBytes {
		return content{}, fmt.Errorf("grew past %d bytes while being read", MaxFileBytes)
	}
	c := newContent(data, fi.Mode().Perm())
	c.ver = VersionOf(data)
	return c, nil
}

// Read returns a file's bytes and version.
func (w *Workspace) Read(ctx context.Context, p string) (sdk.File, error) {
	if err := ctx.Err(); err != nil {
		return sdk.File{}, cancelled(err)
	}
	res, abs, err := w.resolveExisting(p)
	if err != nil {
		return sdk.File{}, err
	}
	c, err := load(abs)
	if err != nil {
		return sdk.File{}, fileError(res, err, sdk.CodeInvalidArgument, "read a regular file")
	}
	if !c.exists {
		return sdk.File{}, sdk.Errorf(sdk.CodeNotFound, "check the path", "%s does not exist", res)
	}
	return sdk.File{Path: res, Data: c.data, Version: c.version()}, nil
}

// Stat describes a path; a missing one has Exists false.
func (w *Workspace) Stat(ctx context.Context, p string) (sdk.FileInfo, error) {
	if err := ctx.Err(); err != nil {
		return sdk.FileInfo{}, cancelled(err)
	}
	res, abs, err := w.resolveExisting(p)
	var se *sdk.Error
	if errors.As(err, &se) && se.Code == sdk.CodeNotFound {
		return sdk.FileInfo{Path: res}, nil
	}
	if err != nil {
		return sdk.FileInfo{}, err
	}
	fi, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return sdk.FileInfo{Path: res}, nil
	}
	if err != nil {
		return sdk.FileInfo{}, sdk.Errorf(sdk.CodeInternalError, "retry; check the file's permissions", "%s: %v", res, err)
	}
	info := sdk.FileInfo{Path: res, Exists: true, IsDir: fi.IsDir(), Size: fi.Size(), ModTime: fi.ModTime()}
	if !fi.IsDir() {
		c, err := load(abs)
		if err != nil {
			// A special file has no version to base a write on; say so
			// rather than report it as a file a write could replace.
			var nr *sdk.NotRegularError
			if errors.As(err, &nr) {
				return sdk.FileInfo{}, fileError(res, err, sdk.CodeInvalidArgument, "")
			}
		} else if c.exists {
			info.Version = c.version()
		}
	}
	return info, nil
}

// List returns the entries of a directory, sorted by name. Symbolic links
// whose target leaves the project are left out.
func (w *Workspace) List(ctx context.Context, dir string) ([]sdk.DirEntry, error) {
	if err := ctx.Err(); err != nil {
		return nil, cancelled(err)
	}
	res, abs, err := w.resolveExisting(dir)
	if err != nil {
		return nil, err
	}
	ents, err := os.ReadDir(abs)
	if err != nil {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "list a directory", "%s: %v", res, err)
	}
	prefix := strings.TrimSuffix(res, "/") + "/"
	if res == "res://" {
		prefix = "res://"
	}
	out := make([]sdk.DirEntry, 0, len(ents))
	for _, e := range ents {
		full := filepath.Join(abs, e.Name())
		if e.Type()&fs.ModeSymlink != 0 {
			r, err := filepath.EvalSymlinks(full)
			if err != nil || !w.contains(r) {
				continue
			}
			full = r
		}
		fi, err := os.Stat(full)
		if err != nil {
			continue
		}
		de := sdk.DirEntry{Path: prefix + e.Name(), IsDir: fi.IsDir()}
		if !fi.IsDir() {
			de.Size = fi.Size()
		}
		out = append(out, de)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// Scenes returns the headless open scenes and the active one (waiting as
// long as it takes for the lock: see ScenesContext).
func (w *Workspace) Scenes() sdk.Scenes {
	sc, _ := w.ScenesContext(context.Background())
	return sc
}

// ScenesContext is Scenes, giving up with CANCELLED when ctx ends.
func (w *Workspace) ScenesContext(ctx context.Context) (sdk.Scenes, error) {
	_, unlock, err := w.lockJournal(ctx)
	if err != nil {
		return sdk.Scenes{}, err
	}
	defer unlock()
	return w.scenesLocked(), nil
}

func (w *Workspace) scenesLocked() sdk.Scenes {
	return sdk.Scenes{Active: w.active, Open: append([]string{}, w.open...)}
}

// SetActiveScene opens a scene if it is not open and makes it active.
func (w *Workspace) SetActiveScene(ctx context.Context, p string) (sdk.Scenes, error) {
	if err := ctx.Err(); err != nil {
		return sdk.Scenes{}, cancelled(err)
	}
	res, abs, err := w.resolveExisting(p)
	if err != nil {
		return sdk.Scenes{}, err
	}
	if ext := path.Ext(res); ext != ".tscn" && ext != ".scn" {
		return sdk.Scenes{}, sdk.Errorf(sdk.CodeInvalidArgument, "open a .tscn or .scn scene file", "%s is not a scene", res)
	}
	if fi, err := os.Stat(abs); err != nil || fi.IsDir() {
		return sdk.Scenes{}, sdk.Errorf(sdk.CodeNotFound, "check the path", "%s is not a file", res)
	} else if !fi.Mode().IsRegular() {
		return sdk.Scenes{}, fileError(res, sdk.NotRegular(fi.Mode()), sdk.CodeInvalidArgument, "")
	}
	_, unlock, err := w.lockJournal(ctx)
	if err != nil {
		return sdk.Scenes{}, err
	}
	defer unlock()
	if !slices.Contains(w.open, res) {
		w.open = append(w.open, res)
	}
	w.active = res
	w.scenesDirty = true
	return w.scenesLocked(), nil
}

// CloseScene closes an open scene ("" = the active one). The active scene
// becomes the most recently opened scene still open.
func (w *Workspace) CloseScene(ctx context.Context, p string) (sdk.Scenes, error) {
	if err := ctx.Err(); err != nil {
		return sdk.Scenes{}, cancelled(err)
	}
	_, unlock, err := w.lockJournal(ctx)
	if err != nil {
		return sdk.Scenes{}, err
	}
	defer unlock()
	res := w.active
	if p != "" {
		r, _, err := clean(p)
		if err != nil {
			return sdk.Scenes{}, err
		}
		res = r
	}
	if res == "" {
		return sdk.Scenes{}, &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "active_scene",
			Message: "no scene is open", Hint: "open one with open_scene, or pass the scene's path"}
	}
	if !slices.Contains(w.open, res) {
		return sdk.Scenes{}, &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "open_scene",
			Message: res + " is not open", Hint: "list the open scenes, or open it with open_scene first"}
	}
	w.closeLocked(res)
	return w.scenesLocked(), nil
}

func (w *Workspace) closeLocked(res string) {
	w.scenesDirty = true
	w.open = slices.DeleteFunc(w.open, func(s string) bool { return s == res })
	if w.active == res {
		w.active = ""
		if n := len(w.open); n > 0 {
			w.active = w.open[n-1]
		}
	}
}

func cancelled(err error) *sdk.Error {
	return &sdk.Error{Code: sdk.CodeCancelled, Message: "workspace: " + err.Error() + "; nothing was written"}
}
