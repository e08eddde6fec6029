package godot

import (
	"bytes"
	"math"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// tokKind is the lexical class of a token (VariantParser::get_token).
type tokKind uint8

const (
	tokEOF tokKind = iota
	tokLBrace
	tokRBrace
	tokLBracket
	tokRBracket
	tokLParen
	tokRParen
	tokColon
	tokComma
	tokPeriod
	tokEqual
	tokString
	tokStringName
	tokNumber
	tokIdent
	tokColor
)

// token is one lexeme. pos/end delimit its source text; the decoded payload
// depends on kind. Identifiers carry no string: callers compare the source
// bytes directly, which avoids an allocation per constructor name.
type token struct {
	kind    tokKind
	isFloat bool
	pos     int
	end     int
	str     string // decoded string / string-name text
	i       int64
	f       float64
}

// lexer turns source bytes into tokens. It never allocates except to decode
// strings that contain escapes.
//
// Invariant: src is the parser's private copy of the input and is never
// written after parsing starts. That lets identifiers, keys and strings
// without escapes be views of src instead of copies (see view), which removes
// most allocations from parsing. The cost is that any string taken from a
// parsed file keeps the file's buffer alive, which is the same lifetime the
// lossless raw spans already need.
type lexer struct {
	src   []byte
	pos   int
	color Color // value of the last color token; kept out of token to keep tokens small
}

// view returns b as a string without copying; see the lexer invariant.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isIdentStart(c byte) bool {
	return isAlpha(c) || c == '_'
}
func isIdentChar(c byte) bool { return isAlpha(c) || isDigit(c) || c == '_' }

func hexVal(c byte) (int, bool) {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0'), true
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10, true
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10, true
	}
	return 0, false
}

// skipTrivia skips whitespace (every byte <= 32, as in the engine) and ';'
// comments, returning the offset of the next significant byte.
func skipTrivia(src []byte, i int) int {
	for i < len(src) {
		c := src[i]
		if c <= ' ' {
			i++
			continue
		}
		if c == ';' {
			j := bytes.IndexByte(src[i:], '\n')
			if j < 0 {
				return len(src)
			}
			i += j + 1
			continue
		}
		break
	}
	return i
}

func (lx *lexer) next() (token, *parseError) {
	src := lx.src
	i := skipTrivia(src, lx.pos)
	lx.pos = i
	if i >= len(src) {
		return token{kind: tokEOF, pos: i, end: i}, nil
	}
	c := src[i]
	var k tokKind
	switch c {
	case '{':
		k = tokLBrace
	case '}':
		k = tokRBrace
	case '[':
		k = tokLBracket
	case ']':
		k = tokRBracket
	case '(':
		k = tokLParen
	case ')':
		k = tokRParen
	case ':':
		k = tokColon
	case ',':
		k = tokComma
	case '.':
		k = tokPeriod
	case '=':
		k = tokEqual
	case '"':
		return lx.lexString(i, i+1, tokString)
	case '&', '@':
		// &"name" is a StringName; @"name" is the 3.x spelling of the same.
		if i+1 < len(src) && src[i+1] == '"' {
			return lx.lexString(i, i+2, tokStringName)
		}
		return token{}, errAt(i, "expected '\"' after '%c'", c)
	case '#':
		return lx.lexColor(i)
	default:
		if isDigit(c) || (c == '-' && i+1 < len(src) && isDigit(src[i+1])) {
			return lx.lexNumber(i)
		}
		if isIdentStart(c) || (c == '-' && i+1 < len(src) && isIdentStart(src[i+1])) {
			j := i + 1
			for j < len(src) && isIdentChar(src[j]) {
				j++
			}
			lx.pos = j
			return token{kind: tokIdent, pos: i, end: j}, nil
		}
		return token{}, errAt(i, "unexpected character %s", describeChar(src[i:]))
	}
	lx.pos = i + 1
	return token{kind: k, pos: i, end: i + 1}, nil
}

// describeChar quotes the character at the start of b for an error message.
func describeChar(b []byte) string {
	r, size := utf8.DecodeRune(b)
	if r == utf8.RuneError && size <= 1 {
		return "byte " + strconv.Quote(string(b[:1]))
	}
	return strconv.QuoteRune(r)
}

// lexNumber follows the engine's state machine: optional '-', digits, an
// optional '.' with digits, an optional exponent. A '.' or exponent makes the
// token a float; anything else is an int64 (saturating, like String::to_int).
func (lx *lexer) lexNumber(start int) (token, *parseError) {
	src := lx.src
	i := start
	neg := false
	if src[i] == '-' {
		neg = true
		i++
	}
	digitsStart := i
	for i < len(src) && isDigit(src[i]) {
		i++
	}
	intEnd := i
	isFloat := false
	if i < len(src) && src[i] == '.' {
		isFloat = true
		i++
		for i < len(src) && isDigit(src[i]) {
			i++
		}
	}
	mantEnd := i
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		isFloat = true
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		for i < len(src) && isDigit(src[i]) {
			i++
		}
	}
	lx.pos = i
	tok := token{kind: tokNumber, pos: start, end: i, isFloat: isFloat}
	if !isFloat {
		var u uint64
		over := false
		for _, d := range src[digitsStart:intEnd] {
			if u > (math.MaxUint64-9)/10 {
				over = true
				break
			}
			u = u*10 + uint64(d-'0')
		}
		switch {
		case neg && (over || u > 1<<63):
			tok.i = math.MinInt64
		case neg:
			tok.i = -int64(u)
		case over || u > math.MaxInt64:
			tok.i = math.MaxInt64
		default:
			tok.i = int64(u)
		}
		return tok, nil
	}
	if i == mantEnd && mantEnd-digitsStart <= 16 {
		// Plain decimal with at most 15 significant digits: the mantissa and
		// the power of ten are exact doubles, so one division is correctly
		// rounded (the classic exact fast path). This covers nearly every
		// float in real files and skips strconv's general machinery.
		var m uint64
		for _, d := range src[digitsStart:intEnd] {
			m = m*10 + uint64(d-'0')
		}
		frac := 0
		if intEnd < mantEnd {
			for _, d := range src[intEnd+1 : mantEnd] {
				m = m*10 + uint64(d-'0')
			}
			frac = mantEnd - intEnd - 1
		}
		if m < 1<<53 {
			f := float64(m) / pow10[frac]
			if neg {
				f = -f
			}
			tok.f = f
			return tok, nil
		}
	}
	tok.f = parseFloatBytes(src[start:i], src[start:mantEnd])
	return tok, nil
}

var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16}

// parseFloatBytes converts number text to a double. The text is already known
// to be well formed except for a possibly empty exponent ("1e", "2.5e+"),
// which the engine reads as if the exponent were absent.
func parseFloatBytes(full, mantissa []byte) float64 {
	// strconv wants a string; viewing the bytes avoids an allocation per
	// number. strconv clones its input before keeping it in an error, so the
	// view never outlives this call.
	f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(full), len(full)), 64)
	if err != nil && f == 0 && !isRangeErr(err) {
		f, _ = strconv.ParseFloat(unsafe.String(unsafe.SliceData(mantissa), len(mantissa)), 64)
	}
	return f
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// lexString reads a quoted string whose body starts at q (just past the
// opening quote). Raw newlines are allowed inside strings.
func (lx *lexer) lexString(start, q int, kind tokKind) (token, *parseError) {
	src := lx.src
	end := bytes.IndexByte(src[q:], '"')
	if end < 0 {
		if bytes.IndexByte(src[q:], '\\') < 0 {
			return token{}, errAt(start, "unterminated string")
		}
	} else if bytes.IndexByte(src[q:q+end], '\\') < 0 {
		// Fast path: no escapes, the text is the body verbatim.
		lx.pos = q + end + 1
		return token{kind: kind, pos: start, end: lx.pos, str: view(src[q : q+end])}, nil
	}
	buf := make([]byte, 0, 32)
	var lead rune // pending UTF-16 lead surrogate from a \u escape
	i := q
	for {
		if i >= len(src) {
			return token{}, errAt(start, "unterminated string")
		}
		c := src[i]
		if c == '"' {
			if lead != 0 {
				return token{}, errAt(i, "invalid UTF-16 sequence in string: unpaired lead surrogate")
			}
			i++
			break
		}
		if c != '\\' {
			if lead != 0 {
				return token{}, errAt(i, "invalid UTF-16 sequence in string: unpaired lead surrogate")
			}
			buf = append(buf, c)
			i++
			continue
		}
		escPos := i
		i++
		if i >= len(src) {
			return token{}, errAt(start, "unterminated string")
		}
		e := src[i]
		i++
		var r rune
		switch e {
		case 'b':
			r = '\b'
		case 't':
			r = '\t'
		case 'n':
			r = '\n'
		case 'f':
			r = '\f'
		case 'r':
			r = '\r'
		case 'u', 'U':
			n := 4
			if e == 'U' {
				n = 6
			}
			for k := 0; k < n; k++ {
				if i >= len(src) {
					return token{}, errAt(start, "unterminated string")
				}
				h, ok := hexVal(src[i])
				if !ok {
					return token{}, errAt(i, "malformed hex constant in string escape")
				}
				r = r<<4 | rune(h)
				i++
			}
		default:
			// Any other escaped character stands for itself (\" \\ \' ...).
			// Multi-byte characters simply continue as plain bytes.
			if lead != 0 {
				return token{}, errAt(escPos, "invalid UTF-16 sequence in string: unpaired lead surrogate")
			}
			buf = append(buf, e)
			continue
		}
		switch {
		case r&^0x3ff == 0xd800:
			if lead != 0 {
				return token{}, errAt(escPos, "invalid UTF-16 sequence in string: unpaired lead surrogate")
			}
			lead = r
			continue
		case r&^0x3ff == 0xdc00:
			if lead == 0 {
				return token{}, errAt(escPos, "invalid UTF-16 sequence in string: unpaired trail surrogate")
			}
			r = (lead-0xd800)<<10 + (r - 0xdc00) + 0x10000
			lead = 0
		case lead != 0:
			return token{}, errAt(escPos, "invalid UTF-16 sequence in string: unpaired lead surrogate")
		}
		buf = utf8.AppendRune(buf, r)
	}
	lx.pos = i
	return token{kind: kind, pos: start, end: i, str: view(buf)}, nil // buf is not reused
}

// lexColor reads '#' followed by hex digits (HTML notation: rgb, rgba,
// rrggbb or rrggbbaa). The writer never produces it, but the reader accepts it.
func (lx *lexer) lexColor(start int) (token, *parseError) {
	src := lx.src
	i := start + 1
	for i < len(src) {
		if _, ok := hexVal(src[i]); !ok {
			break
		}
		i++
	}
	lx.pos = i
	hex := src[start+1 : i]
	var comp [4]float64
	comp[3] = 1
	switch len(hex) {
	case 3, 4:
		for k := range hex {
			h, _ := hexVal(hex[k])
			comp[k] = float64(h*17) / 255
		}
	case 6, 8:
		for k := 0; k < len(hex); k += 2 {
			h, _ := hexVal(hex[k])
			l, _ := hexVal(hex[k+1])
			comp[k/2] = float64(h<<4|l) / 255
		}
	default:
		return token{}, errAt(start, "invalid color code %q: expected 3, 4, 6 or 8 hex digits", src[start:i])
	}
	lx.color = Color{comp[0], comp[1], comp[2], comp[3]}
	return token{kind: tokColor, pos: start, end: i}, nil
}

// describe names a token for "expected X, found Y" messages.
func (lx *lexer) describe(t token) string {
	switch t.kind {
	case tokEOF:
		return "end of file"
	case tokString, tokStringName, tokNumber, tokIdent, tokColor:
		text := lx.src[t.pos:t.end]
		if len(text) > 40 {
			text = append(append([]byte{}, text[:37]...), "..."...)
		}
		switch t.kind {
		case tokString:
			return "string " + string(text)
		case tokStringName:
			return "StringName " + string(text)
		case tokNumber:
			return "number " + string(text)
		case tokIdent:
			return "identifier " + string(text)
		}
		return "color " + string(text)
	}
	return "'" + string(lx.src[t.pos:t.end]) + "'"
}
