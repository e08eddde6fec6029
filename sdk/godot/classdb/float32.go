package classdb

import "github.com/godot-mcp/godot-mcp/sdk/godot"

// Stored returns v as the engine holds it once set on class's property
// prop, which is what the editor then saves: a float of a property the
// engine keeps as a 32-bit float (Node2D.rotation, most real_t
// properties) is rounded to float32, so it is written with float32 digits
// (0.33333334) as the editor writes it, rather than the 17 digits of the
// double that was asked for. Double-precision properties (Timer's
// wait_time) and other values are returned unchanged.
func (db *DB) Stored(class, prop string, v godot.Value) godot.Value {
	f, ok := v.(godot.Float)
	if !ok {
		return v
	}
	if p, ok := db.Property(class, prop); ok && p.Float32 {
		return godot.Float(float32(f))
	}
	return v
}
