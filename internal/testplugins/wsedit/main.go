// Command wsedit is a test toolset that changes project files only through
// the host's workspace (sdk.Call.Workspace), the way every Godot toolset
// must: the host's tests drive it over MCP to prove that edits are
// versioned, journaled as one action per call, undone and redone by the
// core tools, and that dry runs write nothing. It is never shipped.
package main

import (
	"context"

	"github.com/godot-mcp/godot-mcp/sdk"
)

type fileIn struct {
	Path    string `json:"path" jsonschema:"res:// path"`
	Content string `json:"content" jsonschema:"the file's new content"`
}

type writeIn struct {
	Name  string   `json:"name" jsonschema:"the action name shown in the history"`
	Files []fileIn `json:"files" jsonschema:"files to write, all in one action"`
	// Split commits each file in its own transaction, still in one call.
	Split bool `json:"split,omitempty" jsonschema:"commit each file separately (still one action)"`
}

type deleteIn struct {
	Path string `json:"path" jsonschema:"res:// path of the file to delete"`
}

type readIn struct {
	Path string `json:"path" jsonschema:"res:// path"`
}

type readOut struct {
	Path    string          `json:"path"`
	Content string          `json:"content"`
	Version sdk.FileVersion `json:"version"`
	Active  string          `json:"active_scene"`
}

// base returns the current version of path, "" when it does not exist.
func base(ctx context.Context, ws *sdk.Workspace, path string) (sdk.FileVersion, error) {
	fi, err := ws.Stat(ctx, path)
	if err != nil || !fi.Exists {
		return "", err
	}
	return fi.Version, nil
}

func write(ctx context.Context, call *sdk.Call, in writeIn) (sdk.Result, error) {
	ws := call.Workspace()
	tx := ws.Begin(in.Name)
	var res sdk.CommitResult
	for _, f := range in.Files {
		v, err := base(ctx, ws, f.Path)
		if err != nil {
			return sdk.Result{}, err
		}
		tx.Write(f.Path, []byte(f.Content), v)
		if in.Split {
			if res, err = tx.Commit(ctx); err != nil {
				return sdk.Result{}, err
			}
			tx = ws.Begin(in.Name)
		}
	}
	if !in.Split {
		var err error
		if res, err = tx.Commit(ctx); err != nil {
			return sdk.Result{}, err
		}
	}
	return sdk.JSON(res), nil
}

func main() {
	sdk.Serve(&sdk.Toolset{
		Name:        "wsedit",
		Version:     "1.0.0",
		Description: "Test toolset that writes project files through the host's workspace.",
		Tools: []sdk.Tool{
			sdk.NewTool("write", "Write files as one undoable action.", sdk.Mutating, write),
			sdk.NewTool("delete", "Delete a file (undoable).", sdk.Destructive,
				func(ctx context.Context, call *sdk.Call, in deleteIn) (sdk.Result, error) {
					ws := call.Workspace()
					f, err := ws.Read(ctx, in.Path)
					if err != nil {
						return sdk.Result{}, err
					}
					res, err := ws.Begin("Delete "+f.Path).Delete(f.Path, f.Version).Commit(ctx)
					if err != nil {
						return sdk.Result{}, err
					}
					return sdk.JSON(res), nil
				}),
			// One tool per single mode, for the listing of such tools.
			sdk.NewTool("disk_size", "Size of a file as it is on disk.", sdk.ReadOnly,
				func(ctx context.Context, call *sdk.Call, in readIn) (sdk.Result, error) {
					f, err := call.Workspace().Read(ctx, in.Path)
					if err != nil {
						return sdk.Result{}, err
					}
					return sdk.Text("%d", len(f.Data)), nil
				}, sdk.HeadlessOnly("it answers about the file on disk, not the editor's copy")),
			sdk.NewEditorTool("editor_scene", "The editor's active scene.", sdk.ReadOnly,
				func(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, _ struct{}) (sdk.Result, error) {
					var out map[string]any
					if err := ed.Query(ctx, "cmd_get_active_scene", map[string]any{}, &out); err != nil {
						return sdk.Result{}, err
					}
					return sdk.JSON(out), nil
				}),
			sdk.NewTool("read", "Read a file and the active scene.", sdk.ReadOnly,
				func(ctx context.Context, call *sdk.Call, in readIn) (sdk.Result, error) {
					ws := call.Workspace()
					f, err := ws.Read(ctx, in.Path)
					if err != nil {
						return sdk.Result{}, err
					}
					active, err := ws.ActiveScene(ctx)
					if err != nil {
						return sdk.Result{}, err
					}
					return sdk.JSON(readOut{Path: f.Path, Content: string(f.Data), Version: f.Version, Active: active}), nil
				}),
		},
	})
}
