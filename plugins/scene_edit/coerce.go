package main

import "github.com/godot-mcp/godot-mcp/sdk/godot"

// Values are converted by nodeedit (Scene.Set, over the SDK's one
// converter, classdb's DB.Coerce), which takes every shape the addon's
// from_json takes (ADDON-PROTOCOL §4.2) and refuses what does not fit;
// results are godot.ToJSONIn, the addon's to_json (§4.1).

// toJSON renders a Variant of f as the addon's to_json does, so
// set_node_property echoes a value in the shape get_node_property reads it.
func toJSON(f *godot.File, v godot.Value) any { return godot.ToJSONIn(v, f, "") }
