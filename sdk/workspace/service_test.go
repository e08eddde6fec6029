package workspace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
)

func TestServiceEnforcesTheCall(t *testing.T) {
	w, dir := newWS(t, Options{})
	var calls Calls
	svc := NewService(w, "scene_edit", &calls)
	req := &pb.WorkspaceCommitRequest{CallId: "c1", Name: "x", Ops: []*pb.WorkspaceOp{{Path: "x.txt", Data: []byte("x")}}}

	// No call in flight: refused.
	resp, _ := svc.Commit(bg, req)
	if resp.GetError().GetCode() != sdk.CodePreconditionFailed || resp.GetError().GetRequired() != "tool_call" {
		t.Fatalf("%+v", resp)
	}
	// A call of another toolset: refused.
	end := calls.Begin("c1", CallInfo{Toolset: "other"})
	resp, _ = svc.Commit(bg, req)
	if resp.GetError().GetRequired() != "tool_call" {
		t.Fatalf("%+v", resp)
	}
	end()
	// A dry-run call commits dry even if the plugin asks otherwise.
	end = calls.Begin("c1", CallInfo{Toolset: "scene_edit", DryRun: true})
	resp, _ = svc.Commit(bg, req)
	if resp.GetError() != nil || !resp.GetDryRun() || len(resp.GetFiles()) != 1 {
		t.Fatalf("%+v", resp)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.txt")); !os.IsNotExist(err) {
		t.Fatal("a dry-run call wrote")
	}
	end()
	end = calls.Begin("c1", CallInfo{Toolset: "scene_edit"})
	defer end()
	resp, _ = svc.Commit(bg, req)
	if resp.GetError() != nil || resp.GetActionId() == 0 {
		t.Fatalf("%+v", resp)
	}
	// Without a project every request says so.
	none := NewService(nil, "t", &calls)
	r, _ := none.Read(bg, &pb.WorkspaceReadRequest{Path: "x.txt"})
	if r.GetError().GetRequired() != "project_dir" {
		t.Fatalf("%+v", r)
	}
}
