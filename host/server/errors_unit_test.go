package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/sdk"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
)

// fromProto is the plugin result path: off the wire (sdk.ResultFromWire,
// as supervisor.Call does) and to MCP.
func fromProto(w *pb.CallResult, toolset string) *mcp.CallToolResult {
	res, terr := sdk.ResultFromWire(w)
	var err error
	if terr != nil {
		terr.Toolset = toolset
		err = terr
	}
	out, _ := toMCP(res, err, toolset, false)
	return out
}

func textResult(sc string, text string) *pb.CallResult {
	return &pb.CallResult{
		Content:               []*pb.Content{{Content: &pb.Content_Text{Text: &pb.TextContent{Text: text}}}},
		StructuredContentJson: []byte(sc),
	}
}

func resultTexts(r *mcp.CallToolResult) []string {
	var out []string
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			out = append(out, t.Text)
		}
	}
	return out
}

// Structured content that is not a JSON object breaks MCP clients: it
// becomes PLUGIN_BAD_RESULT naming the toolset, and the plugin's text is
// kept.
func TestPluginStructuredContentMustBeAnObject(t *testing.T) {
	for _, sc := range []string{`[1,2]`, `"text"`, `42`, `null`, `{"a":`, ` true`} {
		r := fromProto(textResult(sc, "plugin says hi"), "scene_edit")
		te, ok := r.StructuredContent.(*sdk.Error)
		if !r.IsError || !ok || te.Code != sdk.CodePluginBadResult || te.Toolset != "scene_edit" ||
			!strings.Contains(te.Message, `"scene_edit"`) || !strings.Contains(te.Hint, "toolset's author") {
			t.Errorf("%s: result %+v, structured %+v", sc, r, r.StructuredContent)
			continue
		}
		texts := resultTexts(r)
		if len(texts) != 2 || !strings.HasPrefix(texts[0], sdk.CodePluginBadResult) || texts[1] != "plugin says hi" {
			t.Errorf("%s: content %q", sc, texts)
		}
	}
	for _, sc := range []string{`{"a":1}`, "\n {}"} {
		r := fromProto(textResult(sc, "ok"), "scene_edit")
		raw, ok := r.StructuredContent.(json.RawMessage)
		if r.IsError || !ok || string(raw) != sc {
			t.Errorf("%q: result %+v", sc, r)
		}
	}
	if r := fromProto(textResult("", "ok"), "scene_edit"); r.IsError || r.StructuredContent != nil {
		t.Errorf("no structured content: %+v", r)
	}
}

// A plugin may report any code, even one the host uses for its own
// decisions; source tells a client who decided.
func TestToolErrorSource(t *testing.T) {
	res := &pb.CallResult{IsError: true, Error: &pb.ToolError{Code: sdk.CodeToolNotExposed, Message: "nope"}}
	r := fromProto(res, "scene_edit")
	b, _ := json.Marshal(r.StructuredContent)
	var got map[string]any
	_ = json.Unmarshal(b, &got)
	if got["code"] != sdk.CodeToolNotExposed || got["source"] != sdk.SourcePlugin {
		t.Errorf("plugin error = %s, want source %q", b, sdk.SourcePlugin)
	}

	b, _ = json.Marshal(errorResult(asError(&sdk.Error{Code: sdk.CodeToolNotExposed, Message: "x"}, "scene_edit"), false).StructuredContent)
	got = nil
	_ = json.Unmarshal(b, &got)
	if got["code"] != sdk.CodeToolNotExposed || got["source"] != sdk.SourceHost {
		t.Errorf("host error = %s, want source %q", b, sdk.SourceHost)
	}
}
