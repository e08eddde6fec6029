package server

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/args"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// arguments is the one argument check of a call: defaults filled in, the
// schema enforced with messages in words, the host's own arguments taken
// out, and the plugin's bytes re-encoded only when they changed.
func TestArguments(t *testing.T) {
	raw, err := augmentSchema(json.RawMessage(`{"type":"object","properties":{
		"path":{"type":"string"},
		"depth":{"type":"integer","default":2}},
		"required":["path"],"additionalProperties":false}`), manifest.Destructive, false, "")
	if err != nil {
		t.Fatal(err)
	}
	input, err := resolveSchema(raw)
	if err != nil {
		t.Fatal(err)
	}
	e := &toolEntry{input: input, check: args.Compile(input)}
	tests := []struct {
		args    string
		want    map[string]any // nil: an error is expected
		confirm bool
		plugin  string // the bytes the plugin gets
		errText string
	}{
		{args: `{"path":"a"}`, want: map[string]any{"path": "a", "depth": float64(2)}, plugin: `{"depth":2,"path":"a"}`},
		{args: `{"path":"a","depth":5,"confirm":true}`, want: map[string]any{"path": "a", "depth": float64(5)}, confirm: true, plugin: `{"depth":5,"path":"a"}`},
		{args: `{"path":"a","depth":5}`, want: map[string]any{"path": "a", "depth": float64(5)}, plugin: `{"path":"a","depth":5}`}, // unchanged: passed through
		{args: ``, errText: `missing required argument "path"`},
		{args: `null`, errText: `missing required argument "path"`},
		{args: `{"path":7}`, errText: `path must be a string, got 7`},
		{args: `{"path":"a","x":1}`, errText: `unknown argument "x"`},
		{args: `["a"]`, errText: `must be a JSON object`},
		{args: `{"path":`, errText: `not valid JSON`},
		// encoding/json keeps the last of two equal keys: a host that read
		// this as confirmed would let a client's "false" be overridden.
		{args: `{"path":"a","confirm":false,"confirm":true}`, errText: `name "confirm" more than once`},
	}
	for _, tt := range tests {
		got, err := e.arguments(json.RawMessage(tt.args))
		if tt.want == nil {
			if err == nil || err.Code != sdk.CodeInvalidArgument || !strings.Contains(err.Message, tt.errText) ||
				!strings.HasPrefix(err.Text(), "INVALID_ARGUMENT: ") {
				t.Errorf("%s: got %v, %v; want INVALID_ARGUMENT %q", tt.args, got, err, tt.errText)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got.in, tt.want) || got.confirm != tt.confirm || string(got.raw) != tt.plugin {
			t.Errorf("%s: got %v %s confirm=%v, %v; want %v %s confirm=%v", tt.args, got.in, got.raw, got.confirm, err, tt.want, tt.plugin, tt.confirm)
		}
	}
}
