package classdb

import (
	"math"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// DefaultValue is Default parsed into a godot.Value, for comparing with
// the values of a parsed scene.
func (db *DB) DefaultValue(class, prop string) (godot.Value, bool) {
	text, ok := db.Default(class, prop)
	if !ok {
		return nil, false
	}
	v, err := godot.ParseValue([]byte(text))
	if err != nil {
		return nil, false
	}
	return v, true
}

// IsDefault reports whether v equals the default of prop on an instance
// of class: a value Godot leaves out when it saves the scene. Numbers
// compare by value across int and float (a float property written as 1
// equals a default of 1.0), floats within a relative 1e-6. It is false
// when the default is unknown.
func (db *DB) IsDefault(class, prop string, v godot.Value) bool {
	d, ok := db.DefaultValue(class, prop)
	if !ok || v == nil {
		return false
	}
	if a, ok := number(d); ok {
		if b, ok := number(v); ok {
			return a == b || math.Abs(a-b) <= 1e-6*math.Max(math.Abs(a), math.Abs(b))
		}
	}
	return godot.Equal(d, v)
}

func number(v godot.Value) (float64, bool) {
	switch n := v.(type) {
	case godot.Int:
		return float64(n), true
	case godot.Float:
		return float64(n), true
	}
	return 0, false
}
