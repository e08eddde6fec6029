package gdscript

// Expressions, by precedence from loosest to tightest, as in GDScript 2:
// ternary "a if c else b", or, and, not, in/not in, comparisons, |, ^, &,
// shifts, + -, * / %, unary - +, ~, **, is/as, await, then postfix calls,
// subscripts and attributes on a primary.

type exprInfo struct{ assignable bool }

const (
	precOr = iota
	precAnd
	precNot
	precIn
	precCompare
	precBitOr
	precBitXor
	precBitAnd
	precShift
	precAdd
	precMul
	precUnary
	precBitNot
	precPow
	precIs
)

var binaryOps = map[string]int{
	"or": precOr, "||": precOr, "and": precAnd, "&&": precAnd, "in": precIn,
	"==": precCompare, "!=": precCompare, "<": precCompare, ">": precCompare, "<=": precCompare, ">=": precCompare,
	"|": precBitOr, "^": precBitXor, "&": precBitAnd, "<<": precShift, ">>": precShift,
	"+": precAdd, "-": precAdd, "*": precMul, "/": precMul, "%": precMul, "**": precPow,
	"is": precIs, "as": precIs,
}

func (p *parser) expr() exprInfo {
	e := p.binary(precOr)
	if p.isKw("if") {
		// Ternary: the condition binds tighter than the branches.
		p.pos++
		p.binary(precOr)
		p.expect("else", "after ternary condition")
		p.expr()
		return exprInfo{}
	}
	return e
}

func (p *parser) binary(min int) exprInfo {
	left := p.unary(min)
	for {
		t := p.peek()
		if t.kind != tOp && t.kind != tKeyword {
			return left
		}
		op := t.text
		if t.is(tKeyword, "not") && p.next().is(tKeyword, "in") && precIn >= min {
			p.pos += 2
			p.binary(precIn + 1)
			left = exprInfo{}
			continue
		}
		prec, ok := binaryOps[op]
		if !ok || prec < min {
			return left
		}
		p.pos++
		switch op {
		case "is":
			p.accept("not")
			p.typeHint()
		case "as":
			p.typeHint()
		default:
			p.binary(prec + 1)
		}
		left = exprInfo{}
	}
}

func (p *parser) unary(min int) exprInfo {
	t := p.peek()
	switch {
	case (t.is(tKeyword, "not") || t.is(tOp, "!")) && min <= precNot:
		p.pos++
		p.binary(precNot)
		return exprInfo{}
	case (t.is(tOp, "-") || t.is(tOp, "+")) && min <= precUnary:
		p.pos++
		p.binary(precUnary)
		return exprInfo{}
	case t.is(tOp, "~") && min <= precBitNot:
		p.pos++
		p.binary(precBitNot)
		return exprInfo{}
	case t.is(tKeyword, "not") || t.is(tOp, "!") || t.is(tOp, "-") || t.is(tOp, "+") || t.is(tOp, "~"):
		// A prefix operator where a tighter operand is expected, as in
		// "a * -b": Godot accepts it.
		p.pos++
		p.binary(precUnary)
		return exprInfo{}
	case t.is(tKeyword, "await"):
		p.pos++
		p.binary(precIs)
		return exprInfo{}
	}
	return p.postfix()
}

func (p *parser) postfix() exprInfo {
	e := p.primary()
	for {
		t := p.peek()
		switch {
		case t.is(tOp, "("):
			p.args(")")
			e = exprInfo{}
		case t.is(tOp, "["):
			p.pos++
			if !p.bracketed("]", func() { p.expr() }) {
				p.fail(p.closing(), "Expected closing \"]\" after subscription index.")
			}
			e = exprInfo{assignable: true}
		case t.is(tOp, "."):
			p.pos++
			n := p.peek()
			if n.kind != tIdent && n.kind != tKeyword {
				p.fail(n, "Expected identifier after \".\" for attribute access.")
			}
			p.pos++
			e = exprInfo{assignable: true}
		default:
			return e
		}
	}
}

// args parses "(expr, ...)" with an optional trailing comma; the opening
// bracket is the current token.
func (p *parser) args(closer string) {
	p.pos++
	if !p.list(closer, func() {
		if t := p.peek(); closer == ")" && (t.kind == tNewline || t.kind == tEOF || (t.kind == tKeyword && !exprKeywords[t.text])) {
			p.fail(t, "Expected expression as the function argument.")
		}
		p.expr()
	}) {
		p.fail(p.closing(), "Expected closing %q after call arguments.", closer)
	}
}

// exprKeywords are the keywords that can start an expression.
var exprKeywords = map[string]bool{"true": true, "false": true, "null": true, "PI": true, "TAU": true, "INF": true, "NAN": true,
	"self": true, "super": true, "preload": true, "assert": true, "yield": true, "when": true, "void": true, "func": true,
	"not": true, "await": true, "match": true}

func (p *parser) primary() exprInfo {
	t := p.peek()
	switch t.kind {
	case tNumber, tString, tNodePath:
		p.pos++
		return exprInfo{}
	case tIdent:
		p.pos++
		return exprInfo{assignable: true}
	case tKeyword:
		switch t.text {
		case "true", "false", "null", "PI", "TAU", "INF", "NAN":
			p.pos++
			return exprInfo{}
		case "self":
			p.pos++
			return exprInfo{}
		case "super":
			p.pos++
			if !p.isOp("(") && !p.isOp(".") {
				p.fail(p.peek(), "Expected \".\" or \"(\" after \"super\".")
			}
			return exprInfo{}
		case "preload", "assert", "yield", "when", "void", "match":
			// match names a variable or function in an expression.
			p.pos++
			return exprInfo{assignable: true}
		case "func":
			p.pos++
			p.lambda(t)
			return exprInfo{}
		}
	case tOp:
		switch t.text {
		case "(":
			p.pos++
			if !p.bracketed(")", func() { p.expr() }) {
				p.fail(p.closing(), "Expected closing \")\" after grouping expression.")
			}
			return exprInfo{}
		case "[":
			p.args("]")
			return exprInfo{}
		case "{":
			p.dict()
			return exprInfo{}
		}
	case tNewline, tEOF:
		p.fail(t, "Expected expression.")
	}
	p.fail(t, "Expected expression, found %s.", t)
	return exprInfo{}
}

func (p *parser) dict() {
	p.pos++
	if !p.list("}", func() {
		key := p.peek()
		p.expr()
		switch {
		case p.accept(":"):
		case p.isOp("="):
			if key.kind != tIdent && key.kind != tString {
				p.fail(p.peek(), "Expected \":\" after dictionary key.")
			}
			p.pos++
		default:
			p.fail(p.peek(), "Expected \":\" or \"=\" after dictionary key.")
		}
		p.expr()
	}) {
		p.fail(p.closing(), "Expected closing \"}\" after dictionary elements.")
	}
}

// lambda parses "func [name](params) [-> type]: body" after "func". A body
// on the next lines is indented past the line the lambda starts on.
func (p *parser) lambda(fn token) {
	if t := p.peek(); t.kind == tIdent {
		p.pos++
	}
	if !p.isOp("(") {
		p.fail(p.peek(), "Expected opening \"(\" after lambda.")
	}
	p.params(")", "lambda parameters")
	if p.accept("->") {
		p.typeHint()
	}
	p.expect(":", "after lambda declaration")
	// The body must be indented past the block the lambda's statement is
	// in (not past the line "func" is on, which may be a continuation).
	indent := p.indent
	if p.nest > 0 {
		// Inside brackets the body may end at a closing bracket or a comma.
		p.inline++
		defer func() { p.inline-- }()
	}
	p.block(indent, p.suite, "lambda declaration")
	p.afterLambda = p.pos + 1
}
