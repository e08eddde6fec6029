package sdk_test

import (
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
