package main

import (
	"context"
	"fmt"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/uid"
)

// statNew stats target, a file a tool is about to create, and refuses one
// that exists unless overwrite is set; hint tells the agent how to go on,
// which differs where an existing file keeps its .import.
func statNew(ctx context.Context, ws *sdk.Workspace, target string, overwrite bool, hint string) (sdk.FileInfo, error) {
	st, err := ws.Stat(ctx, target)
	if err != nil {
		return sdk.FileInfo{}, err
	}
	if st.Exists && !overwrite {
		return sdk.FileInfo{}, &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "overwrite", Message: target + " already exists", Hint: hint}
	}
	return st, nil
}

// newResourceFile starts an empty text resource of class typ, to be saved
// at target, with a new uid and the header the project's Godot writes; it
// returns the file and its uid.
func newResourceFile(ctx context.Context, ws *sdk.Workspace, typ, target string) (*godot.File, string, error) {
	id := uid.New().String()
	header := fmt.Sprintf("[gd_resource type=%q format=3 uid=%s]\n", typ, godot.FormatValue(godot.String(id)))
	if minor(ws.GodotVersion(ctx)) < 6 {
		// Before 4.6 the header counts the resources; Bytes keeps it right.
		header = fmt.Sprintf("[gd_resource type=%q load_steps=1 format=3 uid=%s]\n", typ, godot.FormatValue(godot.String(id)))
	}
	rf, err := godot.ParseFile(target, []byte(header+"\n[resource]\n"))
	if err != nil {
		return nil, "", fmt.Errorf("building %s: %w", target, err)
	}
	rf.SetFloatStyle(ws.FloatStyle(ctx))
	return rf, id, nil
}
