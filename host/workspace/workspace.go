// Package workspace is the host's side of the headless workspace: one
// journaled editing state per project (package sdk/workspace holds the
// engine, shared with sdktest), offered to every plugin as the
// HostWorkspace broker service, and walked by the core tools godot_undo,
// godot_redo and godot_list_history when no editor is attached.
//
// The host creates one Host at start:
//
//	ws, err := workspace.New(projectDir, workspace.Options{})
//	sup := supervisor.New(supervisor.Options{Workspace: ws, …})
//	…
//	res, err := ws.Undo(ctx, 1, false) // godot_undo in headless mode
//
// and, when a Godot editor attaches through the bridge,
// ws.SetEditor(&workspace.AddonEditor{Send: bridge.Command}) so that writes
// never clobber a scene open in the editor and the editor reloads what
// changed; SetEditor(nil) when it leaves.
package workspace

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/godot-mcp/godot-mcp/sdk"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
	sw "github.com/godot-mcp/godot-mcp/sdk/workspace"
)

// Editor is the attached Godot editor as the workspace needs it; see
// AddonEditor for the implementation over the addon's commands.
type Editor = sw.Editor

// The result shapes of the core tools in headless mode (the addon's
// cmd_undo, cmd_redo and cmd_list_history shapes; see sdk/workspace).
type (
	UndoResult = sw.UndoResult
	RedoResult = sw.RedoResult
	History    = sw.History
)

// SyncEnv names the environment variable that sets the durability of
// workspace commits when Options.Sync is not set: "file" (default), "full"
// or "none" (see sdk/workspace.SyncMode).
const SyncEnv = "GODOT_MCP_WORKSPACE_SYNC"

// JournalEnv names the environment variable that says where the undo
// journal lives when Options.JournalDir is not set: a directory, or
// "memory" to keep it in the host's memory only. Unset: a directory per
// project under the user's cache directory
// ($XDG_CACHE_HOME/godot-mcp/journal/<hash of the project path>).
const JournalEnv = "GODOT_MCP_WORKSPACE_JOURNAL"

// Options configure the host's workspace.
type Options struct {
	// JournalDir keeps the journal on disk there (see JournalEnv for the
	// default); "memory" keeps it in memory.
	JournalDir string
	// Sync is the commits' durability; nil means $GODOT_MCP_WORKSPACE_SYNC,
	// else sw.SyncFile.
	Sync *sw.SyncMode
	// Journal bounds; zero values take sdk/workspace's defaults
	// (100 actions, 64 MiB of file content).
	MaxActions int
	MaxBytes   int64
}

// Host is the host's workspace. A Host without a project (New with "")
// serves every plugin request and every core tool with
// PRECONDITION_FAILED required=project_dir.
type Host struct {
	ws    *sw.Workspace // nil without a project
	calls sw.Calls
}

// New opens the workspace of the project at dir ("" for none).
func New(dir string, opts Options) (*Host, error) {
	h := &Host{}
	if dir == "" {
		return h, nil
	}
	mode := sw.SyncFile
	if opts.Sync != nil {
		mode = *opts.Sync
	} else if v := os.Getenv(SyncEnv); v != "" {
		m, ok := syncModes[v]
		if !ok {
			return nil, fmt.Errorf("%s=%q: want file, full or none", SyncEnv, v)
		}
		mode = m
	}
	jdir, err := journalDir(dir, opts.JournalDir)
	if err != nil {
		return nil, err
	}
	ws, err := sw.Open(dir, sw.Options{MaxActions: opts.MaxActions, MaxBytes: opts.MaxBytes, Sync: mode, JournalDir: jdir})
	if err != nil {
		return nil, err
	}
	h.ws = ws
	return h, nil
}

// journalDir picks where the journal of the project at dir lives; "" means
// in memory.
func journalDir(dir, opt string) (string, error) {
	if opt == "" {
		opt = os.Getenv(JournalEnv)
	}
	switch opt {
	case "memory":
		return "", nil
	case "":
	default:
		return opt, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		// No home or cache directory (a bare container): the history then
		// lives in this process, which is what a server needs; only
		// one-shot `godot-mcp call`s lose the shared history.
		return "", nil
	}
	root, err := filepath.EvalSymlinks(dir)
	if err == nil {
		root, err = filepath.Abs(root)
	}
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(cache, "godot-mcp", "journal", hex.EncodeToString(sum[:8])), nil
}

var syncModes = map[string]sw.SyncMode{"file": sw.SyncFile, "full": sw.SyncFull, "none": sw.SyncNone}

// Workspace returns the engine, nil without a project.
func (h *Host) Workspace() *sw.Workspace { return h.ws }

// Service implements supervisor.Workspace: the HostWorkspace service for
// one toolset's plugin.
func (h *Host) Service(toolset string) pb.HostWorkspaceServer {
	return sw.NewService(h.ws, toolset, &h.calls)
}

// BeginCall implements supervisor.Workspace: commits naming callID are
// accepted (as one journal action) until end is called.
func (h *Host) BeginCall(toolset, tool, callID string, dryRun bool) (end func()) {
	return h.calls.Begin(callID, sw.CallInfo{Toolset: toolset, Tool: tool, DryRun: dryRun})
}

// SetEditor attaches the Godot editor (nil detaches it).
func (h *Host) SetEditor(e Editor) {
	if h.ws != nil {
		h.ws.SetEditor(e)
	}
}

func noProject() *sdk.Error {
	return &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "project_dir",
		Message: "the host has no Godot project and no editor is attached, so there is no history to walk",
		Hint:    "start godot-mcp with --project DIR, or attach the Godot editor with the godot-mcp addon"}
}

// Undo is godot_undo in headless mode: it reverts the newest count
// journal actions (all-or-nothing; CONFLICT if a file changed on disk).
func (h *Host) Undo(ctx context.Context, count int, dryRun bool) (UndoResult, error) {
	if h.ws == nil {
		return UndoResult{}, noProject()
	}
	return h.ws.Undo(ctx, count, dryRun)
}

// Redo is godot_redo in headless mode.
func (h *Host) Redo(ctx context.Context, count int, dryRun bool) (RedoResult, error) {
	if h.ws == nil {
		return RedoResult{}, noProject()
	}
	return h.ws.Redo(ctx, count, dryRun)
}

// History is godot_list_history in headless mode.
func (h *Host) History(ctx context.Context) (History, error) {
	if h.ws == nil {
		return History{}, noProject()
	}
	return h.ws.HistoryContext(ctx)
}
