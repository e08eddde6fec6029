package main

import (
	"errors"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// Values are converted by the SDK's one converter (classdb's DB.Coerce
// over godot.FromJSON), which takes every shape the addon's from_json
// takes (ADDON-PROTOCOL §4.2) and refuses what does not fit; results are
// godot.ToJSONIn, the addon's to_json (§4.1). Object-typed properties are
// handled by the caller (objectValue), which checks the resource's type.

// coerce converts the JSON value v to typ, as the property's type is
// spelled in the class database or a script ("Array[int]" too).
func coerce(typ string, v any) (godot.Value, error) {
	if elem, ok := strings.CutPrefix(typ, "Array["); ok {
		typ = "typedarray::" + strings.TrimSuffix(elem, "]")
	}
	return db().CoerceType(typ, v, nil)
}

// coerceProperty converts the JSON value of prop to typ (coerce), or
// refuses it, naming the shapes the type takes (hint when the converter
// has none).
func coerceProperty(prop, typ string, raw any, hint string) (godot.Value, error) {
	v, err := coerce(typ, raw)
	if err != nil {
		var ve *godot.ValueError
		if errors.As(err, &ve) && ve.Accepted != "" {
			hint = "pass " + ve.Accepted
			short := *ve
			short.Accepted = ""
			err = &short
		}
		return nil, invalid(requiredValue, hint, "Setting '%s' failed: %v", prop, err)
	}
	return v, nil
}

// infer converts JSON to the closest Variant, for untyped script variables
// and metadata: numbers without a fraction become int.
func infer(v any) godot.Value {
	if val, err := godot.FromJSON(v, ""); err == nil {
		return val
	}
	return godot.String(godot.DescribeJSON(v))
}

// toJSON renders a Variant of f as the addon's to_json does, so
// set_node_property echoes a value in the shape get_node_property reads it.
func toJSON(f *godot.File, v godot.Value) any { return godot.ToJSONIn(v, f, "") }
