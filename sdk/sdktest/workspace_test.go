package sdktest_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

type appendArgs struct {
	Path string `json:"path" jsonschema:"path"`
	Line string `json:"line" jsonschema:"line"`
	// Twice commits two transactions in the one call.
	Twice bool `json:"twice,omitempty" jsonschema:"twice"`
	// Stale writes against a version that is certainly not current.
	Stale bool `json:"stale,omitempty" jsonschema:"stale"`
}

// appender is a toolset that edits files only through the workspace.
func appender() *sdk.Toolset {
	return &sdk.Toolset{
		Name: "appender", Version: "1.0.0", Description: "Appends lines to files.",
		Tools: []sdk.Tool{
			sdk.NewTool("append", "Append a line.", sdk.Mutating, func(ctx context.Context, call *sdk.Call, in appendArgs) (sdk.Result, error) {
				ws := call.Workspace()
				appendOnce := func() (sdk.CommitResult, error) {
					var data []byte
					var base sdk.FileVersion
					if fi, err := ws.Stat(ctx, in.Path); err != nil {
						return sdk.CommitResult{}, err
					} else if fi.Exists {
						f, err := ws.Read(ctx, in.Path)
						if err != nil {
							return sdk.CommitResult{}, err
						}
						data, base = f.Data, f.Version
					}
					if in.Stale {
						base = "sha256:0000"
					}
					return ws.Begin("Append to "+in.Path).Write(in.Path, append(data, in.Line+"\n"...), base).Commit(ctx)
				}
				res, err := appendOnce()
				if err == nil && in.Twice {
					res, err = appendOnce()
				}
				if err != nil {
					return sdk.Result{}, err
				}
				return sdk.JSON(res), nil
			}),
		},
	}
}

func TestWorkspaceThroughTheBroker(t *testing.T) {
	dir := t.TempDir()
	h := sdktest.New(t, appender(), sdktest.Options{ProjectDir: dir})
	ctx := context.Background()

	res := h.Call(ctx, "append", appendArgs{Path: "res://notes/a.txt", Line: "one", Twice: true})
	var out sdk.CommitResult
	if err := res.Structured(&out); err != nil || res.IsError {
		t.Fatalf("append: %v %s", err, res.Text())
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "notes/a.txt")); string(b) != "one\none\n" {
		t.Fatalf("file = %q", b)
	}
	hist := h.Workspace().History()
	if hist.Depth != 1 || hist.CurrentAction != "Append to res://notes/a.txt" {
		t.Fatalf("two commits of one call should be one action: %+v", hist)
	}

	// Dry run: reported, not written.
	res = h.Call(ctx, "append", appendArgs{Path: "res://notes/a.txt", Line: "two"}, sdktest.DryRun())
	if err := res.Structured(&out); err != nil || !out.DryRun || len(out.Files) != 1 || out.Files[0].Diff == "" {
		t.Fatalf("dry run: %+v %v", out, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "notes/a.txt")); string(b) != "one\none\n" {
		t.Fatalf("dry run wrote: %q", b)
	}

	// A stale version is a CONFLICT, with the hint.
	res = h.Call(ctx, "append", appendArgs{Path: "res://notes/a.txt", Line: "x", Stale: true})
	if !res.IsError || res.ErrorCode != sdk.CodeConflict || res.Error.Hint == "" {
		t.Fatalf("stale write: %+v", res)
	}
	// Escapes are refused.
	res = h.Call(ctx, "append", appendArgs{Path: "../escape.txt", Line: "x"})
	if res.ErrorCode != sdk.CodeInvalidArgument {
		t.Fatalf("escape: %+v", res)
	}

	if _, err := h.Workspace().Undo(ctx, 1, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "notes/a.txt")); !os.IsNotExist(err) {
		t.Fatal("undo did not remove the created file")
	}
}

func TestWorkspaceWithoutProject(t *testing.T) {
	h := sdktest.New(t, appender(), sdktest.Options{})
	res := h.Call(context.Background(), "append", appendArgs{Path: "a.txt", Line: "x"})
	if res.ErrorCode != sdk.CodePreconditionFailed || res.Error.Required != "project_dir" {
		t.Fatalf("%+v", res.Error)
	}
}
