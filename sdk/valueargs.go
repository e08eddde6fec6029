package sdk

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk/args"
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

// valueArgs names the fields of t tagged `godot:"value"` by their paths:
// "value" at the top level, "steps[].expected" in the objects of a list
// argument, "colors[]" for the elements of a list. Each must be of type
// any or []any (it holds whatever JSON the caller sent).
func valueArgs(t reflect.Type) ([]string, error) {
	return valueArgsUnder(t, "", map[reflect.Type]bool{})
}

func valueArgsUnder(t reflect.Type, prefix string, seen map[reflect.Type]bool) ([]string, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return nil, nil
	}
	seen[t] = true
	defer delete(seen, t)
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		if f.Tag.Get("godot") == valueTag {
			switch {
			case isAny(f.Type):
				out = append(out, prefix+jsonName(f))
			case f.Type.Kind() == reflect.Slice && isAny(f.Type.Elem()):
				out = append(out, prefix+jsonName(f)+"[]") // each element is a value
			default:
				return nil, fmt.Errorf("field %s: godot:\"value\" needs type any (or []any), not %s", f.Name, f.Type)
			}
			continue
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Slice {
			inner, err := valueArgsUnder(ft.Elem(), prefix+jsonName(f)+"[].", seen)
			if err != nil {
				return nil, err
			}
			out = append(out, inner...)
		}
	}
	return out, nil
}

func isAny(t reflect.Type) bool { return t.Kind() == reflect.Interface && t.NumMethod() == 0 }

// typeValueArgs declares each value argument {"type": "string"} in the
// input schema and appends valueNote to its description.
func typeValueArgs(schema json.RawMessage, paths []string) (json.RawMessage, error) {
	if len(paths) == 0 {
		return schema, nil
	}
	var s map[string]any
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, err
	}
	for _, path := range paths {
		p, err := args.ValueArgProperty(s, path)
		if err != nil {
			return nil, err
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
	return json.Marshal(s)
}
