package godot

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// SyntaxError reports input that does not follow the Godot text grammar, or a
// file that breaks a structural rule the engine's loader enforces (for example
// an [ext_resource] without an id). Callers that want the conventional
// "file:line:col: message" form can use Error directly.
type SyntaxError struct {
	File string // file name given to the parser; empty when parsing a bare value
	Line int    // 1-based line
	Col  int    // 1-based column, counted in characters rather than bytes
	Msg  string // what was expected and what was found
}

func (e *SyntaxError) Error() string {
	if e.File != "" {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
}

// Errors returned by the editing API. They are wrapped with detail, so test
// them with errors.Is.
var (
	// ErrNotFound means a node, resource, section or connection does not exist.
	ErrNotFound = errors.New("not found")
	// ErrExists means the edit would create a duplicate (a sibling with the
	// same name, an identical connection, ...).
	ErrExists = errors.New("already exists")
	// ErrInvalid means the edit is not allowed (bad node name, moving a node
	// under itself, editing a node the scene does not own, ...).
	ErrInvalid = errors.New("invalid edit")
)

// parseError is the parser's internal error: a byte offset and a message.
// Converting to line/column is deferred to the API boundary because it needs a
// scan of the source, which the hot path should never pay for.
type parseError struct {
	off int
	msg string
}

// maxExcerpt bounds how much of one piece of the input (a name, an id, a
// header) a syntax error quotes. The piece starts at or near the error's
// column, so its head is what a reader needs; a 1 MB identifier must not
// make a 1 MB message.
const maxExcerpt = 80

// excerpt is an input string longer than maxExcerpt, formatted as its head
// and its length: "abc…" (1048576 bytes) for %q, abc… (1048576 bytes) for
// %s and %v.
type excerpt string

// Format implements fmt.Formatter.
func (e excerpt) Format(f fmt.State, verb rune) {
	s := string(e)
	cut := min(maxExcerpt, len(s))
	for cut > 0 && cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut--
	}
	head := s[:cut]
	if verb == 'q' {
		head = strconv.Quote(head)
	}
	_, _ = io.WriteString(f, head)
	if cut < len(s) {
		_, _ = fmt.Fprintf(f, "… (%d bytes)", len(s))
	}
}

// errAt makes a parse error at byte offset off. String and byte-slice
// arguments longer than maxExcerpt are cut to an excerpt, whichever verb
// formats them: every message quoting the input stays short.
func errAt(off int, format string, args ...any) *parseError {
	for i, a := range args {
		switch v := a.(type) {
		case string:
			if len(v) > maxExcerpt {
				args[i] = excerpt(v)
			}
		case []byte:
			if len(v) > maxExcerpt {
				args[i] = excerpt(v)
			}
		}
	}
	return &parseError{off: off, msg: fmt.Sprintf(format, args...)}
}

func (p *parseError) syntax(file string, src []byte) *SyntaxError {
	line, col := position(src, p.off)
	return &SyntaxError{File: file, Line: line, Col: col, Msg: p.msg}
}

// position converts a byte offset into a 1-based line and character column.
func position(src []byte, off int) (line, col int) {
	if off > len(src) {
		off = len(src)
	}
	if off < 0 {
		off = 0
	}
	head := src[:off]
	line = 1 + bytes.Count(head, []byte{'\n'})
	start := bytes.LastIndexByte(head, '\n') + 1
	col = utf8.RuneCount(head[start:]) + 1
	return line, col
}
