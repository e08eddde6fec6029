package sdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
)

type limitedArgs struct {
	Depth int      `json:"depth,omitempty" jsonschema:"levels to list" default:"3" minimum:"1" maximum:"10"`
	Mode  string   `json:"mode,omitempty" default:"fast"`
	Tags  []string `json:"tags,omitempty"`
}

func TestSchemaForLimits(t *testing.T) {
	s, err := sdk.SchemaFor[limitedArgs]()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(s.Properties["depth"])
	if want := `{"type":"integer","description":"levels to list","default":3,"minimum":1,"maximum":10}`; string(b) != want {
		t.Errorf("depth: %s, want %s", b, want)
	}
	if string(s.Properties["mode"].Default) != `"fast"` {
		t.Errorf("mode default: %s", s.Properties["mode"].Default)
	}
	if s.Properties["tags"].Type != "array" || s.Properties["tags"].Types != nil {
		t.Errorf("optional list: %+v", s.Properties["tags"])
	}

	type badDefault struct {
		N int `json:"n,omitempty" default:"three"`
	}
	if _, err := sdk.SchemaFor[badDefault](); err == nil || !strings.Contains(err.Error(), "default") {
		t.Errorf("a default that is no number: %v", err)
	}
}

func ExampleSchemaFor() {
	type treeArgs struct {
		Depth int `json:"depth,omitempty" jsonschema:"levels to list" default:"3" minimum:"1" maximum:"20"`
	}
	s, _ := sdk.SchemaFor[treeArgs]()
	b, _ := json.Marshal(s.Properties["depth"])
	fmt.Println(string(b))
	// Output: {"type":"integer","description":"levels to list","default":3,"minimum":1,"maximum":20}
}

// Optional arguments were typed ["null", T]: MCP Inspector's CLI then sent
// them as strings and Gemini's function-calling schema refused the tool.
// Every property now has one plain type, at every depth.
func TestSchemaForPlainTypes(t *testing.T) {
	type inner struct {
		Flag *bool `json:"flag,omitempty" jsonschema:"f"`
	}
	type args struct {
		Depth  *int              `json:"depth,omitempty" jsonschema:"d"`
		Ratio  *float64          `json:"ratio,omitempty" jsonschema:"r"`
		On     *bool             `json:"on,omitempty" jsonschema:"o"`
		Names  []string          `json:"names" jsonschema:"n"`
		Labels map[string]string `json:"labels,omitempty" jsonschema:"l"`
		Inner  *inner            `json:"inner,omitempty" jsonschema:"i"`
		Many   []inner           `json:"many,omitempty" jsonschema:"m"`
	}
	s, err := sdk.SchemaFor[args]()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		got  string
		list []string
		want string
	}{
		{"depth", s.Properties["depth"].Type, s.Properties["depth"].Types, "integer"},
		{"ratio", s.Properties["ratio"].Type, s.Properties["ratio"].Types, "number"},
		{"on", s.Properties["on"].Type, s.Properties["on"].Types, "boolean"},
		{"names", s.Properties["names"].Type, s.Properties["names"].Types, "array"},
		{"labels", s.Properties["labels"].Type, s.Properties["labels"].Types, "object"},
		{"inner", s.Properties["inner"].Type, s.Properties["inner"].Types, "object"},
		{"inner.flag", s.Properties["inner"].Properties["flag"].Type, s.Properties["inner"].Properties["flag"].Types, "boolean"},
		{"many[].flag", s.Properties["many"].Items.Properties["flag"].Type, s.Properties["many"].Items.Properties["flag"].Types, "boolean"},
	} {
		if tc.got != tc.want || tc.list != nil {
			t.Errorf("%s: type %q types %v, want the one type %q", tc.path, tc.got, tc.list, tc.want)
		}
	}
}

// Tools without a title showed up in clients as their raw names; NewTool
// now derives one when the author gives none.
func TestDefaultTitle(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"create_node", "Create node"},
		{"get_scene_tree", "Get scene tree"},
		{"play", "Play"},
		{"is-playing", "Is playing"},
		{"", ""},
	} {
		if got := sdk.DefaultTitle(tc.name); got != tc.want {
			t.Errorf("DefaultTitle(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	noop := func(context.Context, *sdk.Call, struct{}) (sdk.Result, error) { return sdk.Text("ok"), nil }
	ts := &sdk.Toolset{Name: "t", Version: "1.0.0", Description: "T.", Tools: []sdk.Tool{
		sdk.NewTool("stop_scene", "Stop.", sdk.ReadOnly, noop),
		sdk.NewTool("play_scene", "Play.", sdk.ReadOnly, noop, sdk.WithTitle("Run a scene")),
	}}
	m, err := ts.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	if m.Tools[0].Title != "Stop scene" || m.Tools[1].Title != "Run a scene" {
		t.Errorf("titles %q, %q; want the derived \"Stop scene\" and the author's \"Run a scene\"", m.Tools[0].Title, m.Tools[1].Title)
	}
}
