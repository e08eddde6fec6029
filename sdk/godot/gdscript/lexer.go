package gdscript

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

type kind uint8

const (
	tEOF kind = iota
	tNewline
	tIdent
	tKeyword
	tNumber
	tString
	tOp
	tAnnotation
	tNodePath // $Path, $"Path", %Unique
)

// token is one lexeme. For tNewline, indent is the indentation width of
// the next non-blank line and tabs/spaces what it used; line/col point at
// the end of the line the newline ends.
type token struct {
	kind      kind
	text      string
	line, col int // 1-based; col in characters
	indent    int
	indentTab bool // the next line's indentation uses tabs
}

func (t token) is(k kind, text string) bool { return t.kind == k && t.text == text }

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tNewline:
		return "newline"
	case tString:
		return "string"
	case tNumber:
		return "number literal"
	case tIdent:
		return fmt.Sprintf("identifier %q", t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

var keywords = map[string]bool{
	"if": true, "elif": true, "else": true, "for": true, "while": true, "match": true, "when": true,
	"break": true, "continue": true, "pass": true, "return": true, "class": true, "class_name": true,
	"extends": true, "is": true, "in": true, "as": true, "self": true, "super": true, "signal": true,
	"func": true, "static": true, "const": true, "enum": true, "var": true, "breakpoint": true,
	"preload": true, "await": true, "yield": true, "assert": true, "void": true,
	"and": true, "or": true, "not": true, "true": true, "false": true, "null": true,
	"PI": true, "TAU": true, "INF": true, "NAN": true,
}

// Keywords that also work as identifiers (Godot lets these name things).
var softKeywords = map[string]bool{"match": true, "when": true, "assert": true, "preload": true, "yield": true, "void": true,
	"PI": true, "TAU": true, "INF": true, "NAN": true}

// Operators, longest first.
var operators = []string{
	"**=", "<<=", ">>=", "...",
	"**", "<<", ">>", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "->", ":=", "..",
	"+", "-", "*", "/", "%", "^", "&", "|", "~", "!", "<", ">", "=", ".", ",", ":", ";", "(", ")", "[", "]", "{", "}", "?",
}

type lexer struct {
	src       []rune
	pos       int
	line, col int
	depth     int // bracket nesting: newlines inside brackets are still emitted, flagged by the parser
	toks      []token
	err       *Error
	indentSet bool
	indentTab bool // the file's indentation character once known
}

func lex(src string) ([]token, *Error) {
	if !utf8.ValidString(src) {
		return nil, &Error{Line: 1, Column: 1, Message: "Script is not valid UTF-8."}
	}
	l := &lexer{src: []rune(src), line: 1, col: 1}
	// About one token per 4 bytes of typical GDScript: one allocation
	// instead of a dozen growing copies.
	l.toks = make([]token, 0, len(src)/4+16)
	l.run()
	return l.toks, l.err
}

func (l *lexer) fail(line, col int, format string, a ...any) {
	if l.err == nil {
		l.err = &Error{Line: line, Column: col, Message: fmt.Sprintf(format, a...)}
	}
}

func (l *lexer) peek(off int) rune {
	if l.pos+off < len(l.src) {
		return l.src[l.pos+off]
	}
	return 0
}

func (l *lexer) advance() rune {
	r := l.src[l.pos]
	l.pos++
	if r == '\n' {
		l.line++
		l.col = 1
	} else {
		l.col++
	}
	return r
}

func (l *lexer) emit(k kind, text string, line, col int) {
	l.toks = append(l.toks, token{kind: k, text: text, line: line, col: col})
}

// newline emits a newline token after measuring the indentation of the next
// non-blank, non-comment line.
func (l *lexer) newline(line, col int) {
	for {
		start := l.pos
		width, tabs, spaces := 0, false, false
		for l.pos < len(l.src) && (l.src[l.pos] == ' ' || l.src[l.pos] == '\t') {
			if l.src[l.pos] == '\t' {
				tabs = true
				width += 4
			} else {
				spaces = true
				width++
			}
			l.advance()
		}
		r := l.peek(0)
		if r == '\r' && l.peek(1) == '\n' {
			l.advance()
			r = '\n'
		}
		if r == '\n' {
			l.advance()
			continue // blank line
		}
		if r == '#' {
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.advance()
			}
			if l.pos < len(l.src) {
				l.advance()
			}
			continue // comment line
		}
		_ = start
		if r != 0 && l.depth == 0 && width > 0 {
			if tabs && spaces {
				l.fail(l.line, 1, "Mixed use of tabs and spaces for indentation.")
			} else if !l.indentSet {
				l.indentSet, l.indentTab = true, tabs
			} else if l.indentTab != tabs {
				if tabs {
					l.fail(l.line, 1, "Used tab character for indentation instead of space as used before in the file.")
				} else {
					l.fail(l.line, 1, "Used space character for indentation instead of tab as used before in the file.")
				}
			}
		}
		l.toks = append(l.toks, token{kind: tNewline, line: line, col: col, indent: width, indentTab: tabs})
		return
	}
}

func isIdentStart(r rune) bool { return r == '_' || unicode.IsLetter(r) }
func isIdentPart(r rune) bool  { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

func (l *lexer) run() {
	// Leading indentation of the first line counts like any other.
	l.newline(1, 1)
	if len(l.toks) > 0 && l.toks[0].indent > 0 && l.err == nil {
		l.fail(l.line, 1, "Unexpected \"Indent\" in class body.")
	}
	l.toks = l.toks[:0]
	for l.pos < len(l.src) && l.err == nil {
		line, col := l.line, l.col
		r := l.peek(0)
		switch {
		case r == '\r' && l.peek(1) == '\n':
			l.advance()
		case r == '\n':
			l.advance()
			l.newline(line, col)
		case r == ' ' || r == '\t' || r == '\r' || r == '\f':
			l.advance()
		case r == '#':
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.advance()
			}
		case r == '\\':
			l.advance()
			if l.peek(0) == '\r' {
				l.advance()
			}
			if l.peek(0) != '\n' {
				l.fail(line, col, "Expected new line after \"\\\".")
				return
			}
			l.advance() // a continued line: no newline token
			// Comment lines between continued lines belong to them.
			for {
				i := l.pos
				for i < len(l.src) && (l.src[i] == ' ' || l.src[i] == '\t') {
					i++
				}
				if i >= len(l.src) || l.src[i] != '#' {
					break
				}
				for l.pos < len(l.src) && l.src[l.pos] != '\n' {
					l.advance()
				}
				if l.pos < len(l.src) {
					l.advance()
				}
			}
		case isIdentStart(r):
			start := l.pos
			for l.pos < len(l.src) && isIdentPart(l.src[l.pos]) {
				l.advance()
			}
			word := string(l.src[start:l.pos])
			if (word == "r") && (l.peek(0) == '"' || l.peek(0) == '\'') {
				l.str(line, col, true)
				continue
			}
			if keywords[word] {
				l.emit(tKeyword, word, line, col)
			} else {
				l.emit(tIdent, word, line, col)
			}
		case unicode.IsDigit(r) || (r == '.' && unicode.IsDigit(l.peek(1))):
			l.number(line, col)
		case r == '"' || r == '\'':
			l.str(line, col, false)
		case (r == '&' || r == '^') && (l.peek(1) == '"' || l.peek(1) == '\''):
			l.advance()
			l.str(line, col, false)
		case r == '@':
			l.advance()
			start := l.pos
			for l.pos < len(l.src) && isIdentPart(l.src[l.pos]) {
				l.advance()
			}
			if start == l.pos {
				l.fail(line, col, "Expected annotation name after \"@\".")
				return
			}
			l.emit(tAnnotation, string(l.src[start:l.pos]), line, col)
		case r == '$' || (r == '%' && l.nodePathAllowed() && (isIdentStart(l.peek(1)) || l.peek(1) == '"')):
			l.advance()
			if l.peek(0) == '"' || l.peek(0) == '\'' {
				l.str(line, col, false)
				if l.err != nil {
					return
				}
				l.toks[len(l.toks)-1].kind = tNodePath
				continue
			}
			start := l.pos
			if r == '$' && l.peek(0) == '%' {
				l.advance()
			}
			for l.pos < len(l.src) && (isIdentPart(l.src[l.pos]) || l.src[l.pos] == '/' || (l.src[l.pos] == '%' && l.pos > start && l.src[l.pos-1] == '/')) {
				l.advance()
			}
			if start == l.pos || l.pos == start+1 && l.src[start] == '%' {
				l.fail(line, col, "Expected node path as string or identifier after \"$\".")
				return
			}
			l.emit(tNodePath, string(l.src[start:l.pos]), line, col)
		default:
			for _, op := range operators {
				if l.hasPrefix(op) {
					for range op {
						l.advance()
					}
					switch op {
					case "(", "[", "{":
						l.depth++
					case ")", "]", "}":
						if l.depth > 0 {
							l.depth--
						}
					}
					l.emit(tOp, op, line, col)
					goto next
				}
			}
			l.fail(line, col, "Invalid character %q.", r)
			return
		next:
		}
	}
	if l.err == nil {
		l.toks = append(l.toks, token{kind: tNewline, line: l.line, col: l.col}, token{kind: tEOF, line: l.line, col: l.col})
	}
}

// nodePathAllowed reports whether % here starts a unique-node path rather
// than the modulo operator: it does where an operand is expected.
func (l *lexer) nodePathAllowed() bool {
	if len(l.toks) == 0 {
		return true
	}
	t := l.toks[len(l.toks)-1]
	switch t.kind {
	case tIdent, tNumber, tString, tNodePath:
		return false
	case tKeyword:
		switch t.text {
		case "self", "true", "false", "null", "PI", "TAU", "INF", "NAN", "super":
			return false
		}
		return true
	case tOp:
		return t.text != ")" && t.text != "]" && t.text != "}"
	}
	return true
}

func (l *lexer) hasPrefix(s string) bool {
	i := 0
	for _, r := range s {
		if l.peek(i) != r {
			return false
		}
		i++
	}
	return true
}

func (l *lexer) number(line, col int) {
	start := l.pos
	digit := func(r rune) bool { return unicode.IsDigit(r) || r == '_' }
	if l.peek(0) == '0' && (l.peek(1) == 'x' || l.peek(1) == 'X') {
		l.advance()
		l.advance()
		digit = func(r rune) bool { return strings.ContainsRune("0123456789abcdefABCDEF_", r) }
	} else if l.peek(0) == '0' && (l.peek(1) == 'b' || l.peek(1) == 'B') {
		l.advance()
		l.advance()
		digit = func(r rune) bool { return r == '0' || r == '1' || r == '_' }
	}
	for l.pos < len(l.src) && digit(l.src[l.pos]) {
		l.advance()
	}
	if l.pos-start >= 2 && (l.src[start+1] == 'x' || l.src[start+1] == 'X' || l.src[start+1] == 'b' || l.src[start+1] == 'B') && l.pos-start == 2 {
		l.fail(line, col, "Expected digits after number prefix.")
		return
	}
	if l.peek(0) == '.' && l.peek(1) != '.' && (l.pos-start < 2 || (l.src[start+1] != 'x' && l.src[start+1] != 'b')) {
		l.advance()
		for l.pos < len(l.src) && digit(l.src[l.pos]) {
			l.advance()
		}
	}
	if (l.peek(0) == 'e' || l.peek(0) == 'E') && (unicode.IsDigit(l.peek(1)) || ((l.peek(1) == '+' || l.peek(1) == '-') && unicode.IsDigit(l.peek(2)))) {
		l.advance()
		if l.peek(0) == '+' || l.peek(0) == '-' {
			l.advance()
		}
		for l.pos < len(l.src) && digit(l.src[l.pos]) {
			l.advance()
		}
	}
	if isIdentStart(l.peek(0)) {
		l.fail(l.line, l.col, "Invalid numeric notation.")
		return
	}
	l.emit(tNumber, string(l.src[start:l.pos]), line, col)
}

func (l *lexer) str(line, col int, raw bool) {
	q := l.advance()
	triple := l.peek(0) == q && l.peek(1) == q
	if triple {
		l.advance()
		l.advance()
	}
	for {
		if l.pos >= len(l.src) {
			l.fail(line, col, "Unterminated string.")
			return
		}
		r := l.peek(0)
		if r == '\\' && !raw {
			l.advance()
			if l.pos < len(l.src) {
				l.advance()
			}
			continue
		}
		if r == '\\' && raw && (l.peek(1) == q || l.peek(1) == '\\') {
			l.advance()
			l.advance()
			continue
		}
		// An unclosed one-quote string is reported at its start, where
		// Godot reports it too in 53 of 58 measured cases (see
		// docs/PERFORMANCE.md).
		if r == '\n' && !triple {
			l.fail(line, col, "Unterminated string.")
			return
		}
		if r == q && (!triple || (l.peek(1) == q && l.peek(2) == q)) {
			l.advance()
			if triple {
				l.advance()
				l.advance()
			}
			break
		}
		l.advance()
	}
	l.emit(tString, "", line, col)
}
