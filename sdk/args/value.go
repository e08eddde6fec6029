package args

import (
	"encoding/json"
	"fmt"
	"strings"
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
//
// A value argument is named by its path: "value" at the top level,
// "steps[].expected" for a field of the objects of list argument steps,
// "colors[]" for the elements of a list.
func CheckingSchema(schema json.RawMessage, valueArgs []string) (json.RawMessage, error) {
	if len(valueArgs) == 0 {
		return schema, nil
	}
	var s map[string]any
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, err
	}
	for _, path := range valueArgs {
		p, err := ValueArgProperty(s, path)
		if err != nil {
			return nil, err
		}
		delete(p, "type")
	}
	return json.Marshal(s)
}

// ValueArgProperty finds the property schema a value argument's path
// names in a decoded input schema.
func ValueArgProperty(schema map[string]any, path string) (map[string]any, error) {
	cur := schema
	segs := strings.Split(path, ".")
	for i, seg := range segs {
		name, list := strings.CutSuffix(seg, "[]")
		props, _ := cur["properties"].(map[string]any)
		p, ok := props[name].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("value argument %q: %q is not a property of the schema", path, strings.Join(segs[:i+1], "."))
		}
		if list {
			if p["type"] != "array" {
				return nil, fmt.Errorf("value argument %q: %q is not a list", path, name)
			}
			items, ok := p["items"].(map[string]any)
			if !ok { // a list of any JSON value: its items get a schema
				items = map[string]any{}
				p["items"] = items
			}
			p = items
		}
		if i == len(segs)-1 {
			return p, nil
		}
		cur = p
	}
	return nil, fmt.Errorf("value argument %q is empty", path)
}
