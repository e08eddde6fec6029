package sdk

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// SchemaFor derives the JSON Schema of an arguments type the way [NewTool]
// does; the host uses it for its own tools, so core and toolset tools are
// described by the same rules:
//
//   - the `json` tag names a property, the `jsonschema` tag describes it,
//     and a field without omitempty (or omitzero) is required;
//   - `default:"3"`, `minimum:"1"` and `maximum:"20"` declare the limits in
//     the schema, where clients and agents see them, and the host refuses
//     values outside them ("depth must be between 1 and 20, got 99");
//   - `alias:"node_type"` gives a top-level argument a second spelling
//     (see [ResolveAliases]);
//   - every property has one plain type: an optional argument (a pointer,
//     a slice, a map) is optional by omission, never "null or T". Clients
//     that cannot render a type list send such arguments as strings, and
//     function-calling subsets (Gemini's) refuse the schema outright.
//
// The tag values are JSON for numbers, booleans and lists and plain text
// for strings. A tag that does not parse is an error, reported when the
// toolset is built.
func SchemaFor[T any]() (*jsonschema.Schema, error) {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		return nil, err
	}
	if err := applyTags(s, reflect.TypeFor[T](), true); err != nil {
		return nil, err
	}
	aliases, err := aliasFields(reflect.TypeFor[T]())
	if err != nil {
		return nil, err
	}
	addAliases(s, aliases)
	// The root keeps its type: a pointer arguments type is refused
	// (deriveSchema), not turned into an object.
	for _, p := range s.Properties {
		plainTypes(p)
	}
	return s, nil
}

// plainTypes turns every "null or T" of an input schema into T, at every
// depth: a caller leaves an optional argument out instead of sending null.
func plainTypes(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	for _, p := range s.Properties {
		plainTypes(p)
	}
	plainTypes(s.Items)
	plainTypes(s.AdditionalProperties)
}

// outputSchemaFor derives an output schema: the same tags, but lists stay
// "null or array", because a nil slice is encoded as null.
func outputSchemaFor[T any]() (*jsonschema.Schema, error) {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		return nil, err
	}
	if err := applyTags(s, reflect.TypeFor[T](), false); err != nil {
		return nil, err
	}
	return s, nil
}

// applyTags walks a struct type alongside its schema and applies the limit
// tags; input also turns optional lists into plain arrays.
func applyTags(s *jsonschema.Schema, t reflect.Type, input bool) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s == nil {
		return nil
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return applyTags(s.Items, t.Elem(), input)
	case reflect.Struct:
	default:
		return nil
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		if f.Anonymous && f.Tag.Get("json") == "" {
			if err := applyTags(s, f.Type, input); err != nil {
				return err
			}
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		p := s.Properties[name]
		if p == nil {
			continue
		}
		if v, ok := f.Tag.Lookup("default"); ok {
			raw, err := tagJSON(f.Type, v)
			if err != nil {
				return fmt.Errorf("field %s: default tag %q: %w", f.Name, v, err)
			}
			p.Default = raw
		}
		for _, lim := range []struct {
			tag string
			dst **float64
		}{{"minimum", &p.Minimum}, {"maximum", &p.Maximum}} {
			if v, ok := f.Tag.Lookup(lim.tag); ok {
				n, err := strconv.ParseFloat(v, 64)
				if err != nil {
					return fmt.Errorf("field %s: %s tag %q is not a number", f.Name, lim.tag, v)
				}
				*lim.dst = &n
			}
		}
		if err := applyTags(p, f.Type, input); err != nil {
			return err
		}
	}
	return nil
}

// tagJSON turns a default tag into JSON for a field of type t.
func tagJSON(t reflect.Type, v string) (json.RawMessage, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.String {
		return json.Marshal(v)
	}
	if !json.Valid([]byte(v)) {
		return nil, fmt.Errorf("not JSON")
	}
	// It must also decode into the field's type.
	if err := json.Unmarshal([]byte(v), reflect.New(t).Interface()); err != nil {
		return nil, err
	}
	return json.RawMessage(v), nil
}
