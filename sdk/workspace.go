package sdk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"google.golang.org/grpc/status"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
)

// FileVersion identifies the content of a project file as the host's workspace
// read it: "sha256:" and the hex SHA-256 of the bytes. The zero
// FileVersion means "no file": a write based on it is a create and fails with CONFLICT if
// the file exists by then.
type FileVersion string

// File is a project file read through the workspace.
type File struct {
	// Path is the normalised res:// path.
	Path string
	// Data is the file's content.
	Data []byte
	// Version is what to pass to [Tx.Write] or [Tx.Delete] to change it.
	Version FileVersion
}

// FileInfo describes a path in the project.
type FileInfo struct {
	Path    string      `json:"path"`
	Exists  bool        `json:"exists"`
	IsDir   bool        `json:"is_dir"`
	Size    int64       `json:"size"`
	Version FileVersion `json:"version,omitempty"`
	ModTime time.Time   `json:"mod_time"`
}

// DirEntry is one entry of [Workspace.List].
type DirEntry struct {
	Path  string `json:"path"`
	IsDir bool   `json:"is_dir"`
	Size  int64  `json:"size"`
	// Warning is set when the name is not valid UTF-8: Path is then its
	// lossless escaped form (see [PathToWire]), which Read, Stat and
	// commits accept as the file's name.
	Warning string `json:"warning,omitempty"`
}

// The kinds of [FileChange].
const (
	ChangeCreated  = "created"
	ChangeModified = "modified"
	ChangeDeleted  = "deleted"
)

// FileChange is what a commit did, or in a dry run would do, to one file.
type FileChange struct {
	Path          string      `json:"path"`
	Change        string      `json:"change"` // ChangeCreated, ChangeModified or ChangeDeleted
	BytesBefore   int64       `json:"bytes_before"`
	BytesAfter    int64       `json:"bytes_after"`
	VersionBefore FileVersion `json:"version_before,omitempty"`
	VersionAfter  FileVersion `json:"version_after,omitempty"`
	// Diff is a short unified-diff-style preview: one hunk from the first
	// to the last changed line, bounded; binary files are summarised.
	Diff string `json:"diff,omitempty"`
}

// CommitResult is the outcome of [Tx.Commit].
type CommitResult struct {
	// ActionID is the journal action the change belongs to; 0 for a dry run
	// or when nothing changed.
	ActionID uint64 `json:"action_id,omitempty"`
	DryRun   bool   `json:"dry_run"`
	// Files lists every file that changed (or would), in commit order.
	// Writes of identical bytes are no-ops and not listed.
	Files []FileChange `json:"files"`
	// Warnings are problems after a successful write, such as an editor
	// that could not reload a file.
	Warnings []string `json:"warnings,omitempty"`
}

// Scenes is the headless editing state: the open scenes and the active one.
type Scenes struct {
	Active string   `json:"active"` // "" when no scene is active
	Open   []string `json:"open"`   // in the order they were opened
}

// Workspace reads and writes the project's files through the host, for one
// tool call. It is the only way a toolset may change project files: the
// host confines every path to the project, writes atomically, refuses a
// write based on a stale read (CONFLICT), refuses to clobber a scene with
// unsaved changes in an attached editor, and journals the call's changes as
// one action that godot_undo reverts. A toolset that writes files itself
// bypasses all of that, and the user's undo with it.
//
//	ws := call.Workspace()
//	f, err := ws.Read(ctx, "res://scenes/main.tscn")
//	if err != nil { return sdk.Result{}, err }
//	tx := ws.Begin("Create node Player")
//	tx.Write(f.Path, edited(f.Data), f.Version)
//	res, err := tx.Commit(ctx) // honours the call's dry_run
//
// Errors are *[Error] with codes NOT_FOUND, INVALID_ARGUMENT, CONFLICT,
// PRECONDITION_FAILED (no project, unsaved editor scene) or INTERNAL_ERROR;
// return them from the handler unchanged.
type Workspace struct {
	call *Call
}

// Workspace returns the call's view of the host's workspace. It is cheap;
// call it wherever it is needed.
func (c *Call) Workspace() *Workspace { return &Workspace{call: c} }

func errNoWorkspace(why string) *Error {
	return &Error{Code: CodePreconditionFailed, Required: "workspace",
		Message: "the host's workspace service is not available: " + why,
		Hint:    "run the toolset under a godot-mcp host started with a project directory (in tests, sdktest.Options.ProjectDir)"}
}

func (w *Workspace) client() (pb.HostWorkspaceClient, error) {
	if w == nil || w.call == nil || w.call.srv == nil {
		return nil, errNoWorkspace("this call is not connected to a godot-mcp host")
	}
	conn, err := w.call.hostServices()
	if err != nil {
		return nil, errNoWorkspace(err.Error())
	}
	return pb.NewHostWorkspaceClient(conn), nil
}

// rpcError turns a failed RPC into an *Error.
func rpcError(ctx context.Context, what string, err error) error {
	if ctx.Err() != nil {
		return &Error{Code: CodeCancelled, Message: fmt.Sprintf("workspace %s: %v", what, ctx.Err())}
	}
	return errNoWorkspace(fmt.Sprintf("%s failed: %s", what, status.Convert(err).Message()))
}

// ProjectFile is where a project's settings live.
const ProjectFile = "res://project.godot"

// ReadProject reads and parses project.godot, returning the parsed settings
// and the file (its version is what a commit of the edited settings passes
// back). A missing file is NOT_FOUND and one that does not parse is
// PRECONDITION_FAILED, each with a hint.
func (w *Workspace) ReadProject(ctx context.Context) (*godot.Project, File, error) {
	f, err := w.Read(ctx, ProjectFile)
	if err != nil {
		var e *Error
		if errors.As(err, &e) && e.Code == CodeNotFound {
			e.Hint = "open a Godot project: the project directory must hold project.godot"
		}
		return nil, File{}, err
	}
	p, err := godot.ParseProject("project.godot", f.Data)
	if err != nil {
		return nil, File{}, Errorf(CodePreconditionFailed, "fix project.godot (godot-mcp check reports where) and try again", "project.godot does not parse: %v", err)
	}
	return p, f, nil
}

// GodotVersion returns the Godot version the project's files are written
// for, such as "4.7": the host's [Env.GodotVersion] (the attached editor's,
// the operator's override or project.godot's), else config/features of
// project.godot read through the workspace; "" when neither tells. The
// answer is kept for the rest of the call.
func (w *Workspace) GodotVersion(ctx context.Context) string {
	if w == nil || w.call == nil {
		return ""
	}
	c := w.call
	if c.Env.GodotVersion != "" {
		return c.Env.GodotVersion
	}
	c.mu.Lock()
	cached := c.godotVersion
	c.mu.Unlock()
	if cached != nil {
		return *cached
	}
	v := ""
	if p, _, err := w.ReadProject(ctx); err == nil {
		v = p.GodotVersion()
	}
	c.mu.Lock()
	c.godotVersion = &v
	c.mu.Unlock()
	return v
}

// FloatStyle returns how the project's Godot version spells floats:
// [godot.FloatStyleFor] of [Workspace.GodotVersion] (the current spelling
// when the version is unknown).
func (w *Workspace) FloatStyle(ctx context.Context) godot.FloatStyle {
	return godot.FloatStyleFor(w.GodotVersion(ctx))
}

// ParseFile parses a .tscn or .tres read through the workspace, set up so
// that edits write values the way the project's Godot version does
// ([Workspace.FloatStyle]). The error is the parser's, with file:line:col;
// wrap it in the tool's own *Error. Toolsets that edit scenes or resources
// headlessly parse them here rather than with [godot.ParseFile], or set the
// style themselves with [godot.File.SetFloatStyle].
func (w *Workspace) ParseFile(ctx context.Context, f File) (*godot.File, error) {
	doc, err := godot.ParseFile(f.Path, f.Data)
	if err != nil {
		return nil, err
	}
	doc.SetFloatStyle(w.FloatStyle(ctx))
	return doc, nil
}

// Read returns a file's bytes and version. A missing file is NOT_FOUND.
func (w *Workspace) Read(ctx context.Context, path string) (File, error) {
	return w.read(ctx, path, false)
}

func (w *Workspace) read(ctx context.Context, path string, forAgent bool) (File, error) {
	c, err := w.client()
	if err != nil {
		return File{}, err
	}
	resp, err := c.Read(ctx, &pb.WorkspaceReadRequest{Path: requestPath(path), ForAgent: forAgent})
	if err != nil {
		return File{}, rpcError(ctx, "read", err)
	}
	if e := ErrorFromWire(resp.GetError()); e != nil {
		return File{}, e
	}
	return FileFromWire(resp), nil
}

// ReadForAgent is Read for a tool that shows the file's content to the
// agent (as godot_scripts_read does): the host remembers this version as
// the one the agent last saw, which a later [Tx.Overwrite] of the file is
// checked against. Reads a tool makes for its own purposes (to edit, to
// check, to index) use Read.
func (w *Workspace) ReadForAgent(ctx context.Context, path string) (File, error) {
	return w.read(ctx, path, true)
}

// Stat describes a path; a missing path is not an error (Exists is false).
func (w *Workspace) Stat(ctx context.Context, path string) (FileInfo, error) {
	c, err := w.client()
	if err != nil {
		return FileInfo{}, err
	}
	resp, err := c.Stat(ctx, &pb.WorkspaceStatRequest{Path: requestPath(path)})
	if err != nil {
		return FileInfo{}, rpcError(ctx, "stat", err)
	}
	if e := ErrorFromWire(resp.GetError()); e != nil {
		return FileInfo{}, e
	}
	return FileInfoFromWire(resp), nil
}

// List returns a directory's entries sorted by name; "res://" is the root.
func (w *Workspace) List(ctx context.Context, dir string) ([]DirEntry, error) {
	c, err := w.client()
	if err != nil {
		return nil, err
	}
	resp, err := c.List(ctx, &pb.WorkspaceListRequest{Path: requestPath(dir)})
	if err != nil {
		return nil, rpcError(ctx, "list", err)
	}
	if e := ErrorFromWire(resp.GetError()); e != nil {
		return nil, e
	}
	return DirEntriesFromWire(resp), nil
}

// Scenes returns the headless active and open scenes.
func (w *Workspace) Scenes(ctx context.Context) (Scenes, error) {
	c, err := w.client()
	if err != nil {
		return Scenes{}, err
	}
	resp, err := c.Scenes(ctx, &pb.WorkspaceScenesRequest{})
	return scenesReply(ctx, "scenes", resp, err)
}

// ActiveScene returns the res:// path of the active scene, "" when none.
func (w *Workspace) ActiveScene(ctx context.Context) (string, error) {
	s, err := w.Scenes(ctx)
	return s.Active, err
}

// OpenScenes returns the open scenes, in the order they were opened.
func (w *Workspace) OpenScenes(ctx context.Context) ([]string, error) {
	s, err := w.Scenes(ctx)
	return s.Open, err
}

// SetActiveScene opens a scene file if it is not open and makes it active.
// The file must exist (NOT_FOUND) and be a .tscn or .scn (INVALID_ARGUMENT).
// Opening is editing state, not a file change: it is not journaled.
func (w *Workspace) SetActiveScene(ctx context.Context, path string) (Scenes, error) {
	c, err := w.client()
	if err != nil {
		return Scenes{}, err
	}
	resp, err := c.SetActiveScene(ctx, &pb.WorkspaceSceneRequest{Path: requestPath(path)})
	return scenesReply(ctx, "set active scene", resp, err)
}

// CloseScene closes an open scene ("" = the active one). A scene that is
// not open is PRECONDITION_FAILED with Required "open_scene".
func (w *Workspace) CloseScene(ctx context.Context, path string) (Scenes, error) {
	c, err := w.client()
	if err != nil {
		return Scenes{}, err
	}
	resp, err := c.CloseScene(ctx, &pb.WorkspaceSceneRequest{Path: requestPath(path)})
	return scenesReply(ctx, "close scene", resp, err)
}

func scenesReply(ctx context.Context, what string, resp *pb.WorkspaceScenesResponse, err error) (Scenes, error) {
	if err != nil {
		return Scenes{}, rpcError(ctx, what, err)
	}
	if e := ErrorFromWire(resp.GetError()); e != nil {
		return Scenes{}, e
	}
	return ScenesFromWire(resp), nil
}

// Begin starts a transaction: a set of file changes committed together as
// one undoable action called name (what godot_list_history shows, e.g.
// "Create node Player"). Nothing reaches the host before Commit.
func (w *Workspace) Begin(name string) *Tx {
	return &Tx{ws: w, name: name}
}

// Tx collects file changes for one [Tx.Commit]. It is not safe for
// concurrent use.
type Tx struct {
	ws     *Workspace
	name   string
	ops    []*pb.WorkspaceOp
	active string
	done   bool
}

// ExpectActiveScene makes the commit conditional on path being the headless
// active scene when it runs: otherwise it is refused with CONFLICT
// (Required "active_scene") and nothing is written. A toolset that
// remembers the active scene between calls, instead of asking
// [Workspace.ActiveScene] before every edit, sets it so a scene switched
// by another call or process is never edited by mistake; the check costs
// no extra round trip.
func (tx *Tx) ExpectActiveScene(path string) *Tx {
	tx.active = path
	return tx
}

// Write sets a file's content. base is the version the new content was
// derived from, as [Workspace.Read] returned it; the zero FileVersion creates a
// new file (CONFLICT if one exists by commit time). Missing directories are
// created.
func (tx *Tx) Write(path string, data []byte, base FileVersion) *Tx {
	tx.ops = append(tx.ops, &pb.WorkspaceOp{Path: requestPath(path), Data: data, BaseVersion: string(base)})
	return tx
}

// Overwrite replaces a file with a whole new content the agent composed
// (godot_scripts_write): like Write, except that when the host knows the
// version the agent last saw of the file (a [Workspace.ReadForAgent], or a
// write, undo or redo through the host), the write is based on that
// version instead of base. A file changed since the agent saw it (the
// user's editor saved it meanwhile) is then a CONFLICT whose message shows
// what changed, and is not overwritten. base applies to a file the agent
// has not seen; pass the version just read (or "" to create).
func (tx *Tx) Overwrite(path string, data []byte, base FileVersion) *Tx {
	tx.ops = append(tx.ops, &pb.WorkspaceOp{Path: requestPath(path), Data: data, BaseVersion: string(base), BaseSeen: true})
	return tx
}

// WriteMode is Write with the permission bits of a new file (an existing
// file keeps its own mode).
func (tx *Tx) WriteMode(path string, data []byte, base FileVersion, mode fs.FileMode) *Tx {
	tx.ops = append(tx.ops, &pb.WorkspaceOp{Path: requestPath(path), Data: data, BaseVersion: string(base), Mode: uint32(mode.Perm())})
	return tx
}

// Delete removes a file whose current version is base.
func (tx *Tx) Delete(path string, base FileVersion) *Tx {
	tx.ops = append(tx.ops, &pb.WorkspaceOp{Path: requestPath(path), Delete: true, BaseVersion: string(base)})
	return tx
}

// Commit sends the changes to the host, which checks every base version
// first and then replaces all files or none. In a dry run (the call's
// dry_run) it validates the same way and reports what would change, writing
// nothing. All commits of one tool call join the same journal action, so
// one godot_undo reverts the whole call. A Tx commits at most once.
func (tx *Tx) Commit(ctx context.Context) (CommitResult, error) {
	if tx.done {
		return CommitResult{}, Errorf(CodeInvalidArgument, "begin a new transaction for further changes",
			"transaction %q was already committed", tx.name)
	}
	tx.done = true
	c, err := tx.ws.client()
	if err != nil {
		return CommitResult{}, err
	}
	call := tx.ws.call
	call.mu.Lock()
	saveInEditor := call.saveInEditor
	call.mu.Unlock()
	resp, err := c.Commit(ctx, &pb.WorkspaceCommitRequest{
		CallId: validUTF8(call.CallID), Name: validUTF8(tx.name), Ops: tx.ops, DryRun: call.DryRun, ExpectActiveScene: requestPath(tx.active),
		SaveInEditor: requestPath(saveInEditor),
	})
	if err != nil {
		return CommitResult{}, rpcError(ctx, "commit", err)
	}
	if e := ErrorFromWire(resp.GetError()); e != nil {
		return CommitResult{}, e
	}
	out := CommitResultFromWire(resp)
	if out.DryRun {
		call.mu.Lock()
		call.changes = append(call.changes, out.Files...)
		call.mu.Unlock()
	}
	return out, nil
}
