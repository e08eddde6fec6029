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
//		"os"
//		"path/filepath"
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
//		if !filepath.IsLocal(in.Path) {
//			return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument,
//				"use a relative path inside the project", "path %q leaves the project", in.Path)
//		}
//		call.Progress(0, 1, "checking")
//		dst := filepath.Join(call.Env.ProjectDir, in.Path)
//		if call.DryRun {
//			return sdk.Text("would write %d bytes to %s", len(in.Text), in.Path), nil
//		}
//		if err := os.WriteFile(dst, []byte(in.Text), 0o644); err != nil {
//			return sdk.Result{}, err // a plain error becomes code TOOL_ERROR
//		}
//		call.Logger().Info("file written", "path", in.Path)
//		call.Progress(1, 1, "done")
//		return sdk.JSON(map[string]any{"path": in.Path, "bytes": len(in.Text)}), nil
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
// tools must honour it.
//
// Take paths from arguments through [Call.Project]: [Project.Resolve] turns
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
