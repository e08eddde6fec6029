package supervisor

import (
	"context"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
	"github.com/godot-mcp/godot-mcp/sdk/workspace"
)

// recordingEditor is the HostEditor behind the guard: it records what got
// through.
type recordingEditor struct {
	pb.UnimplementedHostEditorServer
	got []string
}

func (r *recordingEditor) Command(_ context.Context, req *pb.EditorRequest) (*pb.EditorResponse, error) {
	r.got = append(r.got, req.GetCommand())
	return &pb.EditorResponse{Ok: true, ResultJson: []byte("{}")}, nil
}

func TestEditorGuard(t *testing.T) {
	var calls workspace.Calls
	inner := &recordingEditor{}
	g := editorGuard{inner: inner, toolset: "scene_edit", calls: &calls}
	endReal := calls.Begin("c1", workspace.CallInfo{Toolset: "scene_edit"})
	defer endReal()
	endDry := calls.Begin("c2", workspace.CallInfo{Toolset: "scene_edit", DryRun: true})
	defer endDry()
	endOther := calls.Begin("c3", workspace.CallInfo{Toolset: "tilemap"})
	defer endOther()

	for _, c := range []struct {
		call, command, params string
		pass                  bool
		why                   string
	}{
		{"c1", "cmd_delete_node", `{"node_path":"A"}`, true, ""},
		{"c2", "cmd_get_scene_tree", `{}`, true, ""},
		{"c2", "cmd_open_scene", `{"scene_path":"res://a.tscn"}`, true, ""},
		{"c2", "cmd_batch_set_property", `{"dry_run":true}`, true, ""},
		{"c2", "cmd_batch_set_property", `{"dry_run":false}`, false, "unless dry_run is true"},
		{"c2", "cmd_delete_node", `{"node_path":"A"}`, false, "during a dry run"},
		{"c2", "cmd_never_heard_of", `{}`, false, "during a dry run"},
		{"c3", "cmd_get_scene_tree", `{}`, false, "outside any of its calls"},
		{"", "cmd_get_scene_tree", `{}`, false, "outside any of its calls"},
		{"gone", "cmd_get_scene_tree", `{}`, false, "outside any of its calls"},
	} {
		before := len(inner.got)
		resp, err := g.Command(context.Background(), &pb.EditorRequest{Command: c.command, ParamsJson: []byte(c.params), CallId: c.call})
		if err != nil {
			t.Fatal(err)
		}
		reached := len(inner.got) > before
		if resp.GetOk() != c.pass || reached != c.pass {
			t.Errorf("%s %s %s: ok=%v reached=%v, want %v", c.call, c.command, c.params, resp.GetOk(), reached, c.pass)
			continue
		}
		if !c.pass {
			e := sdk.ErrorFromWire(resp.GetError())
			if e.Code != sdk.CodePluginError || !strings.Contains(e.Message, c.why) || e.Hint == "" {
				t.Errorf("%s %s: refusal %+v, want PLUGIN_ERROR mentioning %q", c.call, c.command, e, c.why)
			}
		}
	}
}
