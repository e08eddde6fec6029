// Package gdscript checks the syntax of GDScript 2 (Godot 4) source without
// Godot: a tokenizer and a recursive-descent parser that follow the
// language reference, reporting the first syntax error with its line and
// column.
//
//	if err := gdscript.Check(src); err != nil {
//		fmt.Printf("%d:%d: %s\n", err.Line, err.Column, err.Message)
//	}
//
// Check checks syntax: indentation, brackets, strings, statements,
// declarations, expressions, lambdas, match patterns, annotations.
// CheckNames then finds the names Godot rejects that it is certain of (a
// misspelt member of the engine base class, an identifier declared
// nowhere), from the class database. Neither resolves types, so a script
// both accept may still fail to compile in Godot (a type mismatch, a wrong
// argument count). Those need Godot's own compiler. How often this checker
// and Godot 4.6 agree is measured in docs/PERFORMANCE.md.
package gdscript

// Error is a syntax error. Line and Column are 1-based; Column counts
// characters, with a tab as one.
type Error struct {
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
	// Hint names the Godot 4 spelling when the line holds Godot 3 syntax
	// ("use @export var: ..."); empty otherwise.
	Hint string `json:"hint,omitempty"`
}

func (e *Error) Error() string { return e.Message }

// Check parses src and returns its first syntax error, or nil. An error
// on a line of Godot 3 syntax carries the Godot 4 spelling in Hint.
func Check(src string) *Error {
	err := check(src)
	if err != nil {
		err.Hint = godot3Hint(src, err.Line)
	}
	return err
}

func check(src string) (err *Error) {
	toks, lerr := lex(src)
	if lerr != nil {
		return lerr
	}
	p := &parser{toks: toks}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			err = p.err
		}
	}()
	p.file()
	return p.err
}
