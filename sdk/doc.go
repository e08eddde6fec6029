// Package sdk is how you write a godot-mcp toolset in Go: plain Go types and
// functions, no protobuf. A toolset is its own executable; the godot-mcp host
// starts it when an agent enables the toolset and talks to it over gRPC.
//
// A toolset of two typed tools that work in both modes (headless, on the
// project files, and with a Godot editor attached), with a path argument,
// Godot values, progress, dry_run, errors that say how to fix them, and
// Serve (the package's Example compiles and runs this code):
//
//	package main
//
//	import (
//		"context"
//
//		"github.com/godot-mcp/godot-mcp/sdk"
//		"github.com/godot-mcp/godot-mcp/sdk/godot"
//	)
//
//	type SetArgs struct {
//		Name  string `json:"name" jsonschema:"setting name, such as application/config/name"`
//		Value any    `json:"value" jsonschema:"the new value, as JSON: a number, a string, {\"x\":1,\"y\":2} for a Vector2, ..."`
//	}
//
//	type ReadArgs struct {
//		Path sdk.ResPath `json:"path" jsonschema:"res:// path of a text file" godot:"exists"`
//	}
//
//	// setSetting is the headless path: it edits project.godot through the
//	// workspace, the only way to change project files.
//	func setSetting(ctx context.Context, call *sdk.Call, in SetArgs) (sdk.Result, error) {
//		ws := call.Workspace()
//		call.Progress(0, 1, "reading project.godot")
//		proj, file, err := ws.ReadProject(ctx) // the settings and the file's version
//		if err != nil {
//			return sdk.Result{}, err // NOT_FOUND without a project.godot
//		}
//		typ := ""
//		if old, ok := proj.Setting(in.Name); ok {
//			typ = old.Kind().String() // keep the setting's type, such as "Vector2"
//		}
//		v, err := godot.FromJSON(in.Value, typ) // JSON to a Godot value
//		if err != nil {
//			return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass the value in the setting's type", "value: %v", err)
//		}
//		proj.SetSetting(in.Name, v)
//		// Commit honours dry_run, and the whole call is one godot_undo step.
//		res, err := ws.Begin("Set "+in.Name).
//			Write(file.Path, proj.Bytes(), file.Version). // compare-and-swap
//			Commit(ctx)
//		if err != nil {
//			return sdk.Result{}, err // CONFLICT if the file changed since the read
//		}
//		call.Logger().Info("setting written", "name", in.Name, "dry_run", res.DryRun)
//		call.Progress(1, 1, "done")
//		return sdk.JSON(map[string]any{"name": in.Name, "value": godot.ToJSON(v), "set": !res.DryRun}), nil
//	}
//
//	// readText serves both modes: it only reads, through the workspace.
//	func readText(ctx context.Context, call *sdk.Call, in ReadArgs) (sdk.Result, error) {
//		f, err := call.Workspace().Read(ctx, in.Path.String()) // in.Path is checked and cleaned
//		if err != nil {
//			return sdk.Result{}, err
//		}
//		return sdk.Text("%s", f.Data), nil
//	}
//
//	func settingsToolset() *sdk.Toolset {
//		return &sdk.Toolset{
//			Name:        "settings",
//			Version:     "1.0.0",
//			Description: "Reads project files and edits project settings.",
//			Godot:       ">= 4.2",
//			Tools: []sdk.Tool{
//				sdk.NewTool("read_text", "Read a text file of the project.", sdk.ReadOnly, readText,
//					sdk.AnyMode()),
//				sdk.NewTool("set_setting", "Set a project setting. Supports dry_run.", sdk.Mutating, setSetting,
//					// With an editor attached: the addon's command, so the
//					// editor's ProjectSettings change too.
//					sdk.EditorCommand("cmd_set_setting", func(in SetArgs) (any, error) {
//						return map[string]any{"name": in.Name, "value": in.Value}, nil
//					})),
//			},
//		}
//	}
//
//	func main() {
//		sdk.Serve(settingsToolset())
//	}
//
// The input schema comes from SetArgs and ReadArgs: `json` names the
// argument, `jsonschema` describes it, and fields without omitempty are
// required. The SDK rejects arguments that do not match before the handler
// runs, with code INVALID_ARGUMENT naming the argument. A [ResPath] (or
// [ScenePath]) argument is checked and cleaned first too: res:// in front,
// inside the project, and the `godot` tag's ext=, exists or new.
//
// Each tool works in two modes and the SDK picks one per call: editor mode
// when a Godot editor with the godot-mcp addon is attached, headless mode
// when none is. The handler is the headless path; one option says what
// happens with an editor attached: [AnyMode] (the handler serves both, as
// read_text does), [EditorCommand] (one addon command, as set_setting
// does), [EditorFunc] (query the editor, then apply commands, through an
// [*Editor]) or [HeadlessOnly]; [NewEditorTool] builds an editor-only tool.
// A call in a mode the tool lacks is refused with PRECONDITION_FAILED and
// Required "headless" or "editor". The manifest lists each tool's modes.
//
// Dry runs are the SDK's. The host owns confirm and dry_run and only sets
// [Call.DryRun] for mutating and destructive tools. Headless, [Tx.Commit]
// writes nothing in a dry run and records the file changes; in editor mode
// the *Editor records every command that would change something instead of
// sending it ([Editor.Query] still runs). Either way the SDK adds
// "dry_run": true and "preview": {"mode", "commands" or "files"} to the
// tool's own answer, so tools build no preview of their own.
//
// Change project files only through [Call.Workspace]: the host keeps the
// writes inside the project, atomic, free of lost updates (CONFLICT), undoable
// as one godot_undo step per call, and visible to an attached editor. A
// toolset that writes files itself bypasses all of that (docs/workspace.md).
// Package godot parses Godot's files, and its FromJSON and ToJSON convert
// between JSON and Godot values in the shapes the addon uses.
//
// To walk the project's folders you may also use [Call.Project]:
// [Project.Resolve] turns "res://scenes" or "scenes" into a path confined to
// the project (no "..", no absolute paths, no symbolic links that lead out)
// and [Project.ResPath] turns it back.
//
// Build the binary as godot-mcp-toolset-<name> and copy it into the host's
// plugins directory. Run it with --describe to see its manifest. Nothing may
// print to stdout, which carries the plugin handshake, not even from init.
//
// Test a toolset in-process with package sdktest, which runs it over the real
// gRPC path against a fake host, headless (Options.ProjectDir) and with a
// scripted editor (sdktest.NewEditor). docs/writing-a-toolset.md walks
// through all of this; docs/plugin-protocol.md is the wire protocol for
// other languages.
package sdk
