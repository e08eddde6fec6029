package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestToolSchemasSuitEveryClient checks every schema of every core and
// first-party tool, as the real host lists them, twice:
//
//  1. against the JSON Schema draft 2020-12 meta-schema, with a validator
//     that checks schemas against it (the schema library the host
//     resolves schemas with does not);
//  2. against the subset popular clients enforce on input schemas, the
//     intersection of what Gemini's function declarations (an OpenAPI 3.0
//     subset), OpenAI's function calling and MCP Inspector accept:
//     - every tool has a title (clients list tools by it);
//     - the root is an object with additionalProperties (a tool without
//     arguments is {"type": "object", "additionalProperties": false}, as
//     the MCP schema recommends);
//     - no type lists (["null", "integer"]): one plain type per property,
//     optional by omission (Inspector's CLI sends a type list's value as a
//     string, Gemini refuses the schema);
//     - no "null" type;
//     - every property and every array's items have a type (a value
//     argument, which takes any JSON value, is declared a string:
//     manifest.Tool.ValueArgs), and every array has items;
//     - every object declares additionalProperties (false, or the schema
//     of a map's values);
//     - no $ref, $defs, definitions, $anchor or $dynamicRef (clients do not
//     resolve references);
//     - no oneOf, allOf, not, if/then/else, patternProperties,
//     dependentSchemas or prefixItems (outside Gemini's subset);
//     - enum values are all of the property's type;
//     - required names are properties.
func TestToolSchemasSuitEveryClient(t *testing.T) {
	byToolset := listContract(t)
	var names []string
	for ts := range byToolset {
		names = append(names, ts)
	}
	sort.Strings(names)
	n := 0
	for _, ts := range names {
		for _, tl := range byToolset[ts] {
			n++
			if strings.TrimSpace(tl.Title) == "" {
				t.Errorf("%s: no title", tl.Name)
			}
			for kind, raw := range map[string]json.RawMessage{"input": tl.InputSchema, "output": tl.OutputSchema} {
				if len(raw) == 0 {
					continue
				}
				if err := metaValid(raw); err != nil {
					t.Errorf("%s: %s schema is not valid draft 2020-12: %v", tl.Name, kind, err)
				}
			}
			var in map[string]any
			if err := json.Unmarshal(tl.InputSchema, &in); err != nil {
				t.Fatalf("%s: %v", tl.Name, err)
			}
			for _, p := range clientSubset(in) {
				t.Errorf("%s: input schema outside the client subset: %s", tl.Name, p)
			}
		}
	}
	if n < 50 {
		t.Fatalf("only %d tools listed; the first-party toolsets did not load", n)
	}
}

// metaValid compiles a schema with a validator that checks it against the
// draft 2020-12 meta-schema first.
func metaValid(raw json.RawMessage) error {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("mem:///tool.json", doc); err != nil {
		return err
	}
	_, err = c.Compile("mem:///tool.json")
	return err
}

// clientSubset returns every violation of the client subset (see
// TestToolSchemasSuitEveryClient) in an input schema.
func clientSubset(root map[string]any) []string {
	var out []string
	bad := func(path, format string, a ...any) {
		if path == "" {
			path = "(root)"
		}
		out = append(out, path+": "+fmt.Sprintf(format, a...))
	}
	if root["type"] != "object" {
		bad("", "type %v, want object", root["type"])
	}
	var walk func(path string, s map[string]any)
	walk = func(path string, s map[string]any) {
		for _, k := range []string{"$ref", "$defs", "definitions", "$anchor", "$dynamicRef", "$dynamicAnchor",
			"oneOf", "allOf", "not", "if", "then", "else", "patternProperties", "dependentSchemas", "prefixItems"} {
			if _, ok := s[k]; ok {
				bad(path, "uses %s", k)
			}
		}
		typ, typed := s["type"].(string)
		switch t := s["type"].(type) {
		case nil:
			bad(path, "no type")
		case []any:
			bad(path, "type list %v; give one type, optional by omission", t)
		}
		if typ == "null" {
			bad(path, `type "null"`)
		}
		if enum, ok := s["enum"].([]any); ok {
			for _, v := range enum {
				if !typed || !ofType(v, typ) {
					bad(path, "enum value %v is not of type %q", v, typ)
				}
			}
		}
		if typ == "object" {
			props, _ := s["properties"].(map[string]any)
			ap, hasAP := s["additionalProperties"]
			if !hasAP {
				bad(path, "object without additionalProperties")
			}
			if req, ok := s["required"].([]any); ok {
				for _, r := range req {
					if _, ok := props[r.(string)]; !ok {
						bad(path, "required %q is no property", r)
					}
				}
			}
			names := make([]string, 0, len(props))
			for k := range props {
				names = append(names, k)
			}
			slices.Sort(names)
			for _, k := range names {
				p, ok := props[k].(map[string]any)
				if !ok {
					bad(path+"."+k, "schema is not an object")
					continue
				}
				walk(path+"."+k, p)
			}
			if m, ok := ap.(map[string]any); ok {
				walk(path+"{}", m)
			}
		}
		if typ == "array" {
			items, ok := s["items"].(map[string]any)
			if !ok {
				bad(path, "array without items")
			} else {
				walk(path+"[]", items)
			}
		}
	}
	walk("", root)
	return out
}

func ofType(v any, typ string) bool {
	switch v := v.(type) {
	case string:
		return typ == "string"
	case bool:
		return typ == "boolean"
	case float64:
		return typ == "number" || typ == "integer" && v == float64(int64(v))
	}
	return false
}
