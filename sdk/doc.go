// Package sdk is how you write a godot-mcp toolset in Go: plain Go types and
// functions, no protobuf. A toolset is its own executable; the godot-mcp host
// starts it when an agent enables the toolset and talks to it over gRPC.
//
// One typed tool, with progress, dry_run, an error that says how to fix it,
// and Serve:
//
//	package main
//
//	import (
//		"context"
//
//		"github.com/godot-mcp/godot-mcp/sdk"
//	)
//
//	type TouchArgs struct {
//		Path string `json:"path" jsonschema:"file to create, relative to the project"`
//		Text string `json:"text,omitempty" jsonschema:"content to write"`
//	}
//
//	func touch(ctx context.Context, call *sdk.Call, in TouchArgs) (sdk.Result, error) {
//		ws := call.Workspace() // the only way to change project files
//		call.Progress(0, 1, "checking")
//		fi, err := ws.Stat(ctx, in.Path) // confined to the project; its version if it exists
//		if err != nil {
//			return sdk.Result{}, err // INVALID_ARGUMENT for a path that leaves the project
//		}
//		res, err := ws.Begin("Touch "+fi.Path).
//			Write(fi.Path, []byte(in.Text), fi.Version). // compare-and-swap
//			Commit(ctx) // honours dry_run; one godot_undo step
//		if err != nil {
//			return sdk.Result{}, err // CONFLICT if the file changed since the Stat
//		}
//		call.Logger().Info("file written", "path", fi.Path, "dry_run", res.DryRun)
//		call.Progress(1, 1, "done")
//		return sdk.JSON(res), nil
//	}
//
//	func main() {
//		sdk.Serve(&sdk.Toolset{
//			Name:        "notes",
//			Version:     "1.0.0",
//			Description: "Writes small text files into the Godot project.",
//			Godot:       ">= 4.2",
//			Tools: []sdk.Tool{
//				sdk.NewTool("touch", "Create or overwrite a text file.", sdk.Mutating, touch),
//			},
//		})
//	}
//
// The input schema comes from TouchArgs: `json` names the argument,
// `jsonschema` describes it, and fields without omitempty are required. The
// SDK rejects arguments that do not match before the handler runs, with code
// INVALID_ARGUMENT naming the argument. The host owns confirm and dry_run:
// it only sets [Call.DryRun] for mutating and destructive tools, and those
// tools must honour it ([Tx.Commit] does by itself).
//
// Change project files only through [Call.Workspace]: the host keeps the
// writes inside the project, atomic, free of lost updates (CONFLICT), undoable
// as one godot_undo step per call, and visible to an attached editor. A
// toolset that writes files itself bypasses all of that (docs/workspace.md).
//
// To find and read files you may also use [Call.Project]: [Project.Resolve] turns
// "res://scenes" or "scenes" into a path confined to the project (no "..",
// no absolute paths, no symbolic links that lead out) and [Project.ResPath]
// turns it back.
//
// Build the binary as godot-mcp-toolset-<name> and copy it into the host's
// plugins directory. Run it with --describe to see its manifest. Nothing may
// print to stdout, which carries the plugin handshake, not even from init.
//
// Test a toolset in-process with package sdktest, which runs it over the real
// gRPC path against a fake host. docs/writing-a-toolset.md walks through all
// of this; docs/plugin-protocol.md is the wire protocol for other languages.
package sdk
