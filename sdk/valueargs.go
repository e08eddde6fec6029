package sdk

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// Value arguments: a tool argument that holds a Godot value whose type
// the target decides (a node property, a project setting, a shader
// uniform) is a field of type any tagged `godot:"value"`:
//
//	Value any `json:"value" jsonschema:"the new value, converted to the property's type" godot:"value"`
//
// Its schema is {"type": "string"}: clients that need one plain type per
// argument (Gemini's function declarations, MCP Inspector's CLI) send a
// Godot text form ("Vector2(1, 2)", "#ff0000", "res://icon.png", "42") or
// JSON text ("[16, 32]", {"type": "BoxMesh"} as text), which godot.FromJSON
// converts to the target's type. The manifest lists the argument in
// ValueArgs, and the host then accepts any JSON value there as well (a
// number, a bool, a list, an object, null), as the description says, so
// clients that send JSON values are not refused.
const valueTag = "value"

// valueNote ends the description of every value argument: what a client
// may send, whatever the author wrote about the target's types.
const valueNote = "Any JSON value is accepted (a number, a bool, a list, an object, null); as a string, a Godot text form such as \"Vector2(1, 2)\" or \"#ff0000\", or JSON text such as \"[16, 32]\"."

// valueArgs names the top-level fields of t tagged `godot:"value"`; each
// must be of type any (it holds whatever JSON the caller sent).
func valueArgs(t reflect.Type) ([]string, error) {
	if t.Kind() != reflect.Struct {
		return nil, nil
	}
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Tag.Get("godot") != valueTag {
			continue
		}
		if f.Type.Kind() != reflect.Interface || f.Type.NumMethod() != 0 {
			return nil, fmt.Errorf("field %s: godot:\"value\" needs type any, not %s", f.Name, f.Type)
		}
		out = append(out, jsonName(f))
	}
	return out, nil
}

// typeValueArgs declares each value argument {"type": "string"} in the
// input schema and appends valueNote to its description.
func typeValueArgs(schema json.RawMessage, names []string) (json.RawMessage, error) {
	if len(names) == 0 {
		return schema, nil
	}
	var s map[string]json.RawMessage
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, err
	}
	var props map[string]map[string]any
	if err := json.Unmarshal(s["properties"], &props); err != nil {
		return nil, err
	}
	for _, n := range names {
		p := props[n]
		if p == nil {
			return nil, fmt.Errorf("value argument %q is not in the input schema", n)
		}
		p["type"] = "string"
		desc, _ := p["description"].(string)
		desc = strings.TrimSpace(desc)
		switch {
		case desc == "":
		case strings.HasSuffix(desc, "."):
			desc += " "
		default:
			desc += ". "
		}
		p["description"] = desc + valueNote
	}
	raw, err := json.Marshal(props)
	if err != nil {
		return nil, err
	}
	s["properties"] = raw
	return json.Marshal(s)
}
