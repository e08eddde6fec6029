// Package godotlog reads what a Godot process prints and finds the errors
// and warnings in it, with the res:// file, line and function an agent can
// act on.
//
// Godot 3 and Godot 4 print the same kinds of message in two layouts. Godot 3
// (core/io/logger.cpp, 3.x) names the function on the first line and the
// place on the second, capital "At:", with a trailing period:
//
//	SCRIPT ERROR: helper: Invalid get index 'missing' (on base: 'Dictionary').
//	   At: res://main.gd:12.
//
// Godot 4 (the Unix terminal logger, drivers/unix/os_unix.cpp) puts the
// message alone on the first line and "at: function (file:line)" below it,
// indented by a width that depends on the kind; 4.5 and later may follow it
// with a GDScript backtrace whose frames name the script that called an
// engine function such as push_error:
//
//	ERROR: the message
//	   at: push_error (core/variant/variant_utility.cpp:1024)
//	   GDScript backtrace (most recent call first):
//	       [0] _ready (res://main.gd:5)
//
// The kinds are ERROR, WARNING, SCRIPT ERROR and SHADER ERROR, each possibly
// prefixed by "USER " (push_error/push_warning in some 4.x releases). Parse
// and compile errors are SCRIPT ERRORs whose message starts with "Parse
// Error:" or "Compile Error:"; a bare "res://x.gd:3 - Parse Error: …" line is
// understood too. Colour codes (printed when stdout is a terminal) are
// stripped first.
//
// The parser is a line-at-a-time state machine ([Parser]), so a runner can
// feed it a stream of any length while keeping only a bounded part of the
// text itself.
package godotlog

import (
	"regexp"
	"strconv"
	"strings"
)

// Entry is one error or warning Godot printed.
type Entry struct {
	// Kind is what Godot called it: "SCRIPT ERROR", "ERROR", "WARNING",
	// "SHADER ERROR", "USER ERROR", …, or "PARSE ERROR" for a parse or
	// compile error of a script.
	Kind string `json:"kind"`
	// Message is the text of the error, without the kind and (Godot 3) the
	// function.
	Message string `json:"message"`
	// File is the res:// script the error is about, when Godot named one
	// (directly, or in the first script frame of a backtrace).
	File string `json:"file,omitempty"`
	// Line is the line in File, when known.
	Line int `json:"line,omitempty"`
	// Function is the script function, when known.
	Function string `json:"function,omitempty"`
	// Engine is the engine source location Godot printed when it is not a
	// script ("core/io/resource_loader.cpp:278"): useful in a bug report,
	// not something the agent can edit.
	Engine string `json:"engine,omitempty"`
}

// IsWarning reports whether the entry is a warning rather than an error.
func (e Entry) IsWarning() bool { return strings.HasSuffix(e.Kind, "WARNING") }

// Limits of what a Parser keeps.
const (
	// MaxEntries is how many errors plus warnings a Parser keeps; the rest
	// are only counted.
	MaxEntries = 200
	// maxMessage caps one message, so one absurd line cannot fill a result.
	maxMessage = 2000
)

var (
	ansiRE = regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`)
	// headRE matches the first line of an error block.
	headRE = regexp.MustCompile(`^(USER )?(SCRIPT ERROR|SHADER ERROR|ERROR|WARNING): ?(.*)$`)
	// bareParseRE is "res://x.gd:3 - Parse Error: message".
	bareParseRE = regexp.MustCompile(`^(res://[^:]+):(\d+) - ((?:Parse|Compile) Error): ?(.*)$`)
	// godot3FuncRE splits Godot 3's "function: message"; a function is an
	// identifier, possibly qualified with "::".
	godot3FuncRE = regexp.MustCompile(`(?s)^([A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*): (.*)$`)
)

// Parser collects entries from output fed one line at a time.
type Parser struct {
	entries []Entry
	dropped int // entries beyond MaxEntries
	cur     *Entry
	// head is the raw text after the kind on the current block's first
	// line; Godot 3's function is split from it once its At: line shows
	// the block is in Godot 3's layout.
	head string
	// state: 0 outside a block, 1 after the head line, 2 after the
	// location line, 3 inside a backtrace.
	state int
	// frame is set once a backtrace frame has given the script location.
	frame bool
	// pending holds lines between a head and its location line: the rest
	// of a message that spans lines (export errors list one problem per
	// line). If no location line follows, they are fed again as ordinary
	// lines.
	pending []string
}

// maxPending bounds how many lines a message may span.
const maxPending = 20

// Line feeds one line of output, without its newline.
func (p *Parser) Line(line string) {
	if strings.IndexByte(line, 0x1b) >= 0 {
		line = ansiRE.ReplaceAllString(line, "")
	}
	line = strings.TrimRight(line, "\r")
	if p.cur != nil {
		if p.continueBlock(line) {
			return
		}
		if p.state == 1 && len(p.pending) < maxPending && !headRE.MatchString(line) {
			p.pending = append(p.pending, line)
			return
		}
		p.flushAndReplay()
	}
	if !maybeStart(line) {
		return // most lines are the game's own prints: skip the regexps
	}
	if m := headRE.FindStringSubmatch(line); m != nil {
		kind := m[2]
		if m[1] != "" {
			kind = "USER " + kind
		}
		p.cur = &Entry{Kind: kind, Message: clip(m[3])}
		p.head = m[3]
		p.state = 1
		p.frame = false
		p.classify()
		return
	}
	if m := bareParseRE.FindStringSubmatch(line); m != nil {
		n, _ := strconv.Atoi(m[2])
		p.add(Entry{Kind: "PARSE ERROR", Message: clip(m[4]), File: m[1], Line: n})
	}
}

// The location lines are parsed by hand: regexps with two open-ended
// groups backtrack on every line of a block, which made them most of the
// cost of capturing a run.

// at4 parses Godot 4's "   at: function (file:line)" into
// {line, function, file, number}.
func at4(line string) []string {
	t, ok := indented(line, "at: ")
	if !ok {
		return nil
	}
	return place(t)
}

// at3 parses Godot 3's "   At: file:line." into {line, file, number}.
func at3(line string) []string {
	t, ok := indented(line, "At: ")
	if !ok {
		return nil
	}
	t = strings.TrimSuffix(strings.TrimRight(t, " \t"), ".")
	i := strings.LastIndexByte(t, ':')
	if i < 0 || !digits(t[i+1:]) {
		return nil
	}
	return []string{line, t[:i], t[i+1:]}
}

// frame parses a backtrace frame "   [0] function (file:line)".
func frame(line string) []string {
	t, ok := indented(line, "[")
	if !ok {
		return nil
	}
	i := strings.Index(t, "] ")
	if i < 1 || !digits(t[:i]) {
		return nil
	}
	return place(t[i+2:])
}

// indented returns what follows prefix on a line indented by whitespace.
func indented(line, prefix string) (string, bool) {
	t := strings.TrimLeft(line, " \t")
	if len(t) == len(line) {
		return "", false
	}
	return strings.CutPrefix(t, prefix)
}

// place parses "function (file:line)", the function possibly empty or
// itself holding spaces and parentheses.
func place(t string) []string {
	t = strings.TrimRight(t, " \t")
	if !strings.HasSuffix(t, ")") {
		return nil
	}
	i := strings.LastIndex(t, " (")
	if i < 0 {
		return nil
	}
	inner := t[i+2 : len(t)-1]
	j := strings.LastIndexByte(inner, ':')
	if j < 0 || !digits(strings.TrimPrefix(inner[j+1:], "-")) {
		return nil
	}
	return []string{t, t[:i], inner[:j], inner[j+1:]}
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// maybeStart reports whether line can begin an entry: a cheap test that
// spares the regexps the lines that cannot.
func maybeStart(line string) bool {
	if len(line) < 6 {
		return false
	}
	switch line[0] {
	case 'E', 'W', 'S', 'U':
		return strings.HasPrefix(line, "ERROR") || strings.HasPrefix(line, "WARNING") ||
			strings.HasPrefix(line, "SCRIPT ERROR") || strings.HasPrefix(line, "SHADER ERROR") || strings.HasPrefix(line, "USER ")
	case 'r':
		return strings.HasPrefix(line, "res://")
	}
	return false
}

// continueBlock takes a line that may belong to the current block and
// reports whether it did.
func (p *Parser) continueBlock(line string) bool {
	e := p.cur
	switch p.state {
	case 1:
		if m := at4(line); m != nil {
			p.claimPending()
			p.setPlace(m[1], m[2], m[3])
			p.state = 2
			return true
		}
		if m := at3(line); m != nil {
			p.claimPending()
			// Godot 3: the head is "function: message".
			if f := godot3FuncRE.FindStringSubmatch(p.head); f != nil {
				e.Message = clip(f[2])
				p.classify()
				p.setPlace(f[1], m[1], m[2])
			} else {
				p.setPlace("", m[1], m[2])
			}
			p.state = 2
			return true
		}
	case 2, 3:
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "GDScript backtrace") {
			p.state = 3
			return true
		}
		if p.state == 3 {
			if m := frame(line); m != nil {
				if !p.frame && e.File == "" && strings.HasPrefix(m[2], "res://") {
					n, _ := strconv.Atoi(m[3])
					e.File, e.Line, e.Function = m[2], n, m[1]
					p.frame = true
				}
				return true
			}
		}
	}
	return false
}

// setPlace records a location line: a res:// file is the entry's place,
// anything else is the engine's.
func (p *Parser) setPlace(function, file, line string) {
	e := p.cur
	n, _ := strconv.Atoi(line)
	if strings.HasPrefix(file, "res://") {
		e.File, e.Line = file, n
		// Godot 4 names the parser "GDScript::reload" for parse errors:
		// not a function of the script.
		if !strings.Contains(function, "::") {
			e.Function = function
		}
		return
	}
	// An engine location: its function (push_error, load) is the engine's
	// too, so the entry keeps none unless a backtrace frame names a script.
	e.Engine = file + ":" + line
}

// classify turns a script error whose message says it is a parse or
// compile error into a PARSE ERROR.
func (p *Parser) classify() {
	e := p.cur
	for _, pre := range []string{"Parse Error:", "Compile Error:"} {
		if strings.HasPrefix(e.Message, pre) && strings.HasSuffix(e.Kind, "SCRIPT ERROR") {
			e.Kind = "PARSE ERROR"
			e.Message = strings.TrimSpace(strings.TrimPrefix(e.Message, pre))
		}
	}
}

func (p *Parser) flush() {
	if p.cur != nil {
		p.add(*p.cur)
	}
	p.cur, p.state, p.head, p.pending = nil, 0, "", nil
}

// flushAndReplay ends the current block; lines held as a possible message
// continuation that no location line claimed are parsed on their own.
func (p *Parser) flushAndReplay() {
	held := p.pending
	p.flush()
	for _, l := range held {
		p.Line(l)
	}
}

// claimPending appends the held lines to the message: a location line
// showed they were part of it.
func (p *Parser) claimPending() {
	if len(p.pending) == 0 {
		return
	}
	var b strings.Builder
	b.WriteString(p.head)
	for _, l := range p.pending {
		if t := strings.TrimSpace(l); t != "" {
			b.WriteByte('\n')
			b.WriteString(t)
		}
	}
	p.head = b.String()
	p.cur.Message = clip(p.head)
	p.pending = nil
}

func (p *Parser) add(e Entry) {
	if len(p.entries) >= MaxEntries {
		p.dropped++
		return
	}
	p.entries = append(p.entries, e)
}

// Finish ends the input and returns the errors and warnings in the order
// Godot printed them, and how many were dropped beyond MaxEntries.
func (p *Parser) Finish() (errors, warnings []Entry, dropped int) {
	p.flushAndReplay()
	p.flush()
	errors, warnings = []Entry{}, []Entry{}
	for _, e := range p.entries {
		if e.IsWarning() {
			warnings = append(warnings, e)
		} else {
			errors = append(errors, e)
		}
	}
	return errors, warnings, p.dropped
}

// Parse parses a whole output.
func Parse(output string) (errors, warnings []Entry, dropped int) {
	var p Parser
	for line := range strings.Lines(output) {
		p.Line(strings.TrimSuffix(line, "\n"))
	}
	return p.Finish()
}

func clip(s string) string {
	if len(s) <= maxMessage {
		return s
	}
	cut := maxMessage
	for cut > 0 && cut < len(s) && s[cut]&0xC0 == 0x80 {
		cut-- // do not split a UTF-8 sequence
	}
	return s[:cut] + "…"
}
