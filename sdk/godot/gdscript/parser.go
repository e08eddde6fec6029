package gdscript

import "fmt"

// parser is a recursive-descent parser over the token list. It builds no
// tree: it checks the syntax and stops at the first error, which is the one
// Godot reports first too.
//
// Newlines: the lexer emits one per logical line with the indentation of
// the next line. Inside brackets they are skipped (nest > 0), except in a
// lambda body, which re-enables them (see lambda).
type parser struct {
	toks []token
	pos  int
	nest int // open brackets around the current expression
	err  *Error
	// afterLambda is the token index where the last multi-line lambda
	// body ended.
	afterLambda int
	// indent is the indentation of the innermost block being parsed.
	indent int
	// inline counts one-line lambda bodies being parsed: their statements
	// may end at a closing bracket or comma.
	inline int
	// abstract is set by an @abstract annotation until the member it
	// annotates: an abstract function has no body.
	abstract bool
}

type bailout struct{}

func (p *parser) cur() token  { return p.toks[p.pos] }
func (p *parser) next() token { return p.toks[min(p.pos+1, len(p.toks)-1)] }

func (p *parser) fail(t token, format string, a ...any) {
	// Inside brackets Godot reports an unexpected token that follows a
	// line break at that line break.
	if p.nest > 0 && p.pos > 0 && p.pos < len(p.toks) && p.toks[p.pos] == t && p.toks[p.pos-1].kind == tNewline {
		t = p.closing()
	}
	if p.err == nil {
		p.err = &Error{Line: t.line, Column: t.col, Message: fmt.Sprintf(format, a...)}
	}
	panic(bailout{})
}

// closing is where Godot reports a missing closing bracket: when the
// arguments ran on past a line break, at that line break (the end of the
// last line that belonged to them), else at the current token.
func (p *parser) closing() token {
	t := p.peek()
	if p.pos > 0 && p.toks[p.pos-1].kind == tNewline {
		i := p.pos - 1
		for i > 0 && p.toks[i-1].kind == tNewline {
			i--
		}
		// Line breaks that ended a lambda body were the body's; Godot then
		// reports at the token itself.
		if i >= p.afterLambda {
			return p.toks[i]
		}
	}
	return t
}

// skipNL skips newlines inside brackets.
func (p *parser) skipNL() {
	if p.nest > 0 {
		for p.cur().kind == tNewline {
			p.pos++
		}
	}
}

func (p *parser) peek() token {
	p.skipNL()
	return p.cur()
}

func (p *parser) isOp(s string) bool { t := p.peek(); return t.kind == tOp && t.text == s }
func (p *parser) isKw(s string) bool { t := p.peek(); return t.kind == tKeyword && t.text == s }

func (p *parser) accept(s string) bool {
	t := p.peek()
	if (t.kind == tOp || t.kind == tKeyword) && t.text == s {
		p.pos++
		return true
	}
	return false
}

func (p *parser) expect(s, context string) token {
	t := p.peek()
	if (t.kind == tOp || t.kind == tKeyword) && t.text == s {
		p.pos++
		return t
	}
	p.fail(t, "Expected %q %s.", s, context)
	return t
}

func (p *parser) ident(context string) token {
	t := p.peek()
	if t.kind == tIdent || (t.kind == tKeyword && softKeywords[t.text]) {
		p.pos++
		return t
	}
	p.fail(t, "Expected %s, found %s.", context, t)
	return t
}

// endStatement requires the end of a statement: a newline, ";" or the end.
func (p *parser) endStatement(what string) {
	t := p.cur()
	switch {
	case t.kind == tNewline || t.kind == tEOF:
		return
	case t.is(tOp, ";"):
		p.pos++
		return
	case p.inline > 0 && (t.is(tOp, ")") || t.is(tOp, "]") || t.is(tOp, "}") || t.is(tOp, ",")):
		return
	}
	p.fail(t, "Expected end of statement after %s, found %s instead.", what, t)
}

// bracketed parses inner between an opening bracket, already stepped
// over, and closer, with line breaks skipped, then steps over closer. It
// reports false, without stepping, when closer does not follow: the caller
// fails, at the token its Godot message names.
func (p *parser) bracketed(closer string, inner func()) bool {
	p.nest++
	inner()
	p.nest--
	if !p.isOp(closer) {
		return false
	}
	p.pos++
	return true
}

// list is bracketed with items separated by commas, a trailing comma
// allowed.
func (p *parser) list(closer string, item func()) bool {
	return p.bracketed(closer, func() {
		for !p.isOp(closer) {
			item()
			if !p.accept(",") {
				break
			}
		}
	})
}

// lines parses the lines of a block indented in, calling line at the start
// of each, until the block ends: at the end of the file or at a line
// indented less. A line indented more is an error that deeper reports (it
// fails) given the line break before it. With lambdaEnds the block also
// ends where the body of a lambda inside brackets does (see closer).
func (p *parser) lines(in int, lambdaEnds bool, deeper func(nl token), line func()) {
	for {
		t := p.cur()
		if t.kind == tEOF || (lambdaEnds && p.closer(t)) {
			return
		}
		if t.kind == tNewline {
			if lambdaEnds && p.closer(p.next()) {
				p.pos++
				return
			}
			if t.indent < in {
				return
			}
			if t.indent > in {
				deeper(t)
			}
			p.pos++
			continue
		}
		line()
	}
}

// file parses a whole script at class level (indent 0).
func (p *parser) file() {
	p.classBody(0)
	if t := p.cur(); t.kind != tEOF {
		p.fail(t, "Unexpected %s in class body.", t)
	}
}

// classBody parses members at indent level until a line dedents below it.
func (p *parser) classBody(indent int) {
	p.lines(indent, false, func(token) {
		p.fail(p.next(), "Unexpected \"Indent\" in class body.")
	}, func() { p.member(indent) })
}

func (p *parser) member(indent int) {
	t := p.cur()
	switch {
	case t.kind == tAnnotation:
		if t.text == "abstract" {
			p.abstract = true
		}
		p.annotation()
		if p.cur().kind == tNewline {
			return
		}
		p.member(indent)
		return
	case t.is(tOp, ";"):
		p.pos++
		return
	case t.kind == tKeyword:
		if t.text != "static" {
			defer func() { p.abstract = false }()
		}
		switch t.text {
		case "extends":
			p.pos++
			p.extends()
			p.endStatement("\"extends\"")
			return
		case "class_name":
			p.pos++
			p.ident("class name after \"class_name\"")
			if p.accept("extends") {
				p.extends()
			}
			p.endStatement("class_name")
			return
		case "signal":
			p.pos++
			p.ident("signal name after \"signal\"")
			if p.isOp("(") {
				p.params(")", "signal parameters")
			}
			p.endStatement("signal declaration")
			return
		case "enum":
			p.pos++
			p.enum()
			p.endStatement("enum")
			return
		case "const":
			p.pos++
			p.constDecl()
			return
		case "var":
			p.pos++
			p.varDecl(indent, true)
			return
		case "static":
			p.pos++
			switch {
			case p.isKw("func"):
				p.pos++
				p.function(indent)
			case p.isKw("var"):
				p.pos++
				p.varDecl(indent, true)
			default:
				p.fail(p.cur(), "Expected \"func\" or \"var\" after \"static\".")
			}
			return
		case "func":
			p.pos++
			p.function(indent)
			return
		case "class":
			p.pos++
			p.ident("class name after \"class\"")
			if p.accept("extends") {
				p.extends()
			}
			p.expect(":", "after class declaration")
			p.block(indent, func(in int) { p.classBody(in) }, "class")
			return
		case "pass":
			p.pos++
			p.endStatement("\"pass\"")
			return
		}
	}
	p.fail(t, "Unexpected %s in class body.", t)
}

func (p *parser) annotation() {
	p.pos++ // the annotation token
	if p.cur().is(tOp, "(") {
		p.args(")")
	}
}

func (p *parser) extends() {
	t := p.peek()
	switch {
	case t.kind == tString:
		p.pos++
	case t.kind == tIdent:
		p.pos++
	default:
		p.fail(t, "Expected class name or path after \"extends\".")
	}
	for p.accept(".") {
		p.ident("class name after \".\"")
	}
}

func (p *parser) enum() {
	if t := p.peek(); t.kind == tIdent {
		p.pos++
	}
	p.expect("{", "after \"enum\"")
	if !p.list("}", func() {
		p.ident("identifier for enum key")
		if p.accept("=") {
			p.expr()
		}
	}) {
		p.fail(p.closing(), "Expected closing \"}\" for enum.")
	}
}

func (p *parser) typeHint() {
	t := p.peek()
	if t.kind != tIdent && !t.is(tKeyword, "void") {
		p.fail(t, "Expected type specifier, found %s.", t)
	}
	p.pos++
	for p.isOp(".") {
		p.pos++
		p.ident("type name after \".\"")
	}
	if p.isOp("[") {
		p.pos++
		if !p.bracketed("]", func() {
			p.typeHint()
			for p.accept(",") {
				p.typeHint()
			}
		}) {
			p.fail(p.closing(), "Expected closing \"]\" after collection type.")
		}
	}
}

// initializer parses what may follow a declared name: ":= value", or else
// ": type" (when typed) and "= value", each optional unless required names
// where the missing "=" should have been.
func (p *parser) initializer(typed bool, required string) {
	if p.accept(":=") {
		p.expr()
		return
	}
	if typed && p.accept(":") {
		// "x: = value" is "x := value", the type inferred.
		if p.isOp("=") {
			p.pos++
			p.expr()
			return
		}
		p.typeHint()
	}
	if required != "" {
		p.expect("=", required)
		p.expr()
	} else if p.accept("=") {
		p.expr()
	}
}

func (p *parser) constDecl() {
	p.ident("constant name after \"const\"")
	p.initializer(true, "after constant name")
	p.endStatement("constant declaration")
}

// varDecl parses a variable, with a property block (get/set) at class level.
func (p *parser) varDecl(indent int, member bool) {
	p.ident("variable name after \"var\"")
	// A member's ":" at the end of the line opens its get/set block.
	p.initializer(!(member && p.isOp(":") && p.next().kind == tNewline), "")
	if member && p.isOp(":") {
		p.pos++
		if p.cur().kind == tNewline {
			p.block(indent, p.property, "property")
			return
		}
		// Inline form: set = setter, get = getter.
		for {
			t := p.ident("\"get\" or \"set\"")
			if t.text != "get" && t.text != "set" {
				p.fail(t, "Expected \"get\" or \"set\" for property declaration.")
			}
			p.expect("=", "after \"get\" or \"set\"")
			p.ident("function name")
			if !p.accept(",") {
				break
			}
		}
	}
	p.endStatement("variable declaration")
}

// property parses a get/set block at indent in.
func (p *parser) property(in int) {
	p.lines(in, false, func(nl token) {
		p.fail(nl, "Unindent doesn't match the previous indentation level.")
	}, func() {
		name := p.ident("\"get\" or \"set\"")
		if name.text != "get" && name.text != "set" {
			p.fail(name, "Expected \"get\" or \"set\" for property declaration.")
		}
		if p.isOp("(") {
			p.params(")", "setter parameter")
		}
		p.expect(":", "after \""+name.text+"\"")
		p.block(in, p.suite, name.text)
	})
}

func (p *parser) function(indent int) {
	p.ident("function name after \"func\"")
	if !p.isOp("(") {
		p.fail(p.peek(), "Expected opening \"(\" after function name.")
	}
	p.params(")", "function parameters")
	if p.accept("->") {
		p.typeHint()
	}
	if !p.isOp(":") && p.abstract {
		// An @abstract function (Godot 4.5+) has no body.
		p.endStatement("abstract function declaration")
		return
	}
	if !p.isOp(":") {
		// Godot 4.5+ parses a header without ":" at the end of a line as
		// a bodiless (abstract) declaration, so the body that follows is
		// an unexpected indent in the class body. Report what it reports.
		t := p.cur()
		if t.kind == tNewline && t.indent > indent {
			p.fail(p.next(), "Unexpected \"Indent\" in class body.")
		}
		p.fail(t, "Expected \":\" after function declaration.")
	}
	p.pos++
	p.block(indent, p.suite, "function declaration")
}

// params parses "(name[: type][= default], ...)".
func (p *parser) params(closer, what string) {
	p.pos++ // "("
	if !p.list(closer, func() {
		p.accept("...")
		p.ident("parameter name")
		p.initializer(true, "")
	}) {
		p.fail(p.closing(), "Expected closing %q after %s.", closer, what)
	}
}

// block parses what follows ":": statements on the same line, or an
// indented block on the next lines.
func (p *parser) block(indent int, body func(int), what string) {
	saved := p.nest
	p.nest = 0 // a block restores newlines, even in a lambda inside brackets
	defer func() { p.nest = saved }()
	t := p.cur()
	if t.kind != tNewline {
		if t.kind == tEOF {
			p.fail(t, "Expected indented block after %s.", what)
		}
		p.simpleStatements()
		return
	}
	// A compound statement written after another's ":" (else: if c:)
	// opens its block relative to the line it is on.
	if indent < 0 {
		indent = p.indent
	}
	// Godot reports both of these at the line break that precedes the
	// offending line, i.e. on the line before it.
	if t.indent <= indent {
		p.fail(t, "Expected indented block after %s.", what)
	}
	in := t.indent
	p.pos++
	outer := p.indent
	p.indent = in
	body(in)
	p.indent = outer
	// The block ends at a line indented less than it; that line must
	// match an outer level, which its own parser checks.
	if n := p.cur(); n.kind == tNewline && n.indent > indent && n.indent < in && saved == 0 {
		p.fail(n, "Unindent doesn't match the previous indentation level.")
	}
}

// simpleStatements parses statements separated by ";" on one line.
func (p *parser) simpleStatements() {
	for {
		p.statement(-1)
		t := p.cur()
		if t.kind == tNewline || t.kind == tEOF || t.is(tOp, ")") || t.is(tOp, "]") || t.is(tOp, "}") || t.is(tOp, ",") {
			return
		}
	}
}

// closer reports whether t ends a lambda body inside brackets.
func (p *parser) closer(t token) bool {
	return p.inline > 0 && (t.is(tOp, ")") || t.is(tOp, "]") || t.is(tOp, "}") || t.is(tOp, ","))
}

// suite parses statements at indent in.
func (p *parser) suite(in int) {
	p.lines(in, true, p.unexpectedIndent, func() { p.statement(in) })
}

// unexpectedIndent fails on the line after the line break nl, which is
// indented past its block.
func (p *parser) unexpectedIndent(nl token) {
	p.fail(p.next(), "Unexpected \"Indent\".")
}

// statement parses one statement; indent is the suite's (-1 on one line).
func (p *parser) statement(indent int) {
	t := p.cur()
	if t.kind == tAnnotation {
		p.annotation()
		if p.cur().kind == tNewline {
			return
		}
		p.statement(indent)
		return
	}
	if t.is(tOp, ";") {
		p.pos++
		return
	}
	if t.kind == tKeyword {
		switch t.text {
		case "pass", "break", "continue", "breakpoint":
			p.pos++
			p.endStatement(fmt.Sprintf("%q", t.text))
			return
		case "return":
			p.pos++
			if c := p.cur(); c.kind != tNewline && c.kind != tEOF && !c.is(tOp, ";") {
				p.expr()
			}
			p.endStatement("return")
			return
		case "var":
			p.pos++
			p.varDecl(indent, false)
			return
		case "const":
			p.pos++
			p.constDecl()
			return
		case "if":
			p.pos++
			p.expr()
			p.expect(":", "after \"if\" condition")
			p.block(indent, p.suite, "\"if\" block")
			for p.elseLine(indent, "elif") {
				p.expr()
				p.expect(":", "after \"elif\" condition")
				p.block(indent, p.suite, "\"elif\" block")
			}
			if p.elseLine(indent, "else") {
				p.expect(":", "after \"else\"")
				p.block(indent, p.suite, "\"else\" block")
			}
			return
		case "while":
			p.pos++
			p.expr()
			p.expect(":", "after \"while\" condition")
			p.block(indent, p.suite, "\"while\" block")
			return
		case "for":
			p.pos++
			p.ident("loop variable name after \"for\"")
			if p.accept(":") {
				p.typeHint()
			}
			p.expect("in", "after \"for\" variable name")
			p.expr()
			p.expect(":", "after \"for\" condition")
			p.block(indent, p.suite, "\"for\" block")
			return
		case "match":
			p.pos++
			p.expr()
			p.expect(":", "after \"match\" expression")
			p.block(indent, p.matchBody, "\"match\" statement")
			return
		case "elif", "else":
			p.fail(t, "Unexpected %q without a matching \"if\".", t.text)
		case "func", "class", "signal", "enum", "extends", "class_name", "static":
			if t.text != "func" || p.next().kind == tIdent {
				p.fail(t, "Unexpected %q in function body.", t.text)
			}
		}
	}
	p.exprStatement()
}

// elseLine consumes the newline before an elif/else at the same indent.
func (p *parser) elseLine(indent int, kw string) bool {
	if indent < 0 {
		if p.cur().is(tKeyword, kw) {
			p.pos++
			return true
		}
		// An if written after another's ":" (else: if c:) whose block
		// is on the next lines takes an else at the line's indentation.
		if t := p.cur(); t.kind == tNewline && t.indent == p.indent && p.next().is(tKeyword, kw) && p.pos > 0 {
			p.pos += 2
			return true
		}
		return false
	}
	if t := p.cur(); t.kind == tNewline && t.indent == indent && p.next().is(tKeyword, kw) {
		p.pos += 2
		return true
	}
	if t := p.cur(); t.is(tKeyword, kw) {
		p.pos++
		return true
	}
	return false
}

var assignOps = map[string]bool{"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true,
	"**=": true, "&=": true, "|=": true, "^=": true, "<<=": true, ">>=": true}

func (p *parser) exprStatement() {
	start := p.peek()
	target := p.expr()
	if t := p.peek(); t.kind == tOp && assignOps[t.text] {
		if !target.assignable {
			p.fail(start, "Cannot assign a new value to this expression.")
		}
		p.pos++
		p.expr()
	}
	p.endStatement("expression")
}

func (p *parser) matchBody(in int) {
	p.lines(in, false, p.unexpectedIndent, func() {
		if p.cur().kind == tAnnotation {
			p.annotation()
			return
		}
		p.pattern()
		for p.accept(",") {
			p.pattern()
		}
		if p.isKw("when") {
			p.pos++
			p.expr()
		}
		p.expect(":", "after \"match\" patterns")
		p.block(in, p.suite, "\"match\" branch")
	})
}

func (p *parser) pattern() {
	t := p.peek()
	switch {
	case t.is(tKeyword, "var"):
		p.pos++
		p.ident("binding name after \"var\"")
	case t.is(tOp, ".."):
		p.pos++
	case t.is(tOp, "["):
		p.pos++
		if !p.list("]", p.pattern) {
			p.fail(p.peek(), "Expected \"]\" to end array pattern.")
		}
	case t.is(tOp, "{"):
		p.pos++
		if !p.list("}", func() {
			if p.isOp("..") {
				p.pos++
			} else {
				p.expr()
				if p.accept(":") {
					p.pattern()
				}
			}
		}) {
			p.fail(p.peek(), "Expected \"}\" to end dictionary pattern.")
		}
	default:
		p.binary(precBitOr)
	}
}
