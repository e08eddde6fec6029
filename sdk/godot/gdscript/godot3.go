package gdscript

import (
	"fmt"

	"github.com/godot-mcp/godot-mcp/sdk/godot/renames"
)

// Warning is Godot 3 syntax in a script: code that Godot 4 rejects or
// reads differently (`export var`, `yield(`), with the Godot 4 spelling.
// Line and Column are 1-based.
type Warning struct {
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
	// Godot4 is the construct to write instead ("@export var").
	Godot4 string `json:"godot4"`
}

// Godot3 lists the Godot 3 constructs in src, one per line at most, with
// the Godot 4 spelling: "`export var` is Godot 3 syntax; in Godot 4 write
// `@export var`". It reads lines rather than the parse tree, so it also
// finds constructs that parse in Godot 4 but mean something else
// (yield(...) is an ordinary call there); show them as warnings.
func Godot3(src string) []Warning {
	var out []Warning
	for _, f := range renames.Syntax(src) {
		out = append(out, Warning{Line: f.Line, Column: f.Column, Message: f.Message(), Godot4: f.New})
	}
	return out
}

// godot3Hint is the Godot 4 spelling for a syntax error on a line that
// holds Godot 3 syntax, or "".
func godot3Hint(src string, line int) string {
	f, ok := renames.SyntaxAt(src, line)
	if !ok {
		return ""
	}
	return fmt.Sprintf("use %s: %s", f.New, f.Message())
}
