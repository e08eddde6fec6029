package args

import (
	"encoding/json"
	"fmt"
)

// CheckingSchema is the schema a call's arguments are checked against,
// derived from the schema clients are shown: each value argument (a Godot
// value whose type the target decides, manifest.Tool.ValueArgs) loses its
// "type", so that any JSON value passes there.
//
// Clients are shown {"type": "string"} for such an argument, one plain
// type being what Gemini's function declarations and MCP Inspector's CLI
// require; a client that sends a number, a list, an object or null (as
// the description allows) must not be refused for it. The plugin converts
// whatever arrives to the target's type and refuses what does not fit.
func CheckingSchema(schema json.RawMessage, valueArgs []string) (json.RawMessage, error) {
	if len(valueArgs) == 0 {
		return schema, nil
	}
	var s map[string]json.RawMessage
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, err
	}
	var props map[string]map[string]json.RawMessage
	if err := json.Unmarshal(s["properties"], &props); err != nil {
		return nil, fmt.Errorf("properties: %v", err)
	}
	for _, name := range valueArgs {
		p, ok := props[name]
		if !ok {
			return nil, fmt.Errorf("value argument %q is not a property of the schema", name)
		}
		delete(p, "type")
	}
	raw, err := json.Marshal(props)
	if err != nil {
		return nil, err
	}
	s["properties"] = raw
	return json.Marshal(s)
}
