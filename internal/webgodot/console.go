package webgodot

import (
	"encoding/json"
	"strings"

	"github.com/chromedp/cdproto/runtime"
)

// pageEvents turns what an engine page (run.html, game.html, warm.html)
// says on the browser console into calls: the three pages speak the same
// "[OUT] / [ERR] / [EXIT] / [FAIL]" prefixes, and only what each caller
// does with them differs.
type pageEvents struct {
	// line receives printed text and uncaught JavaScript exceptions
	// (the latter as Page lines).
	line func(s Stream, text string)
	// exit receives the engine's exit code as the page printed it, trimmed.
	exit func(code string)
	// fail receives the reason the page could not start the engine.
	fail func(reason string)
	// abort, when set, is called after line for an uncaught WebAssembly
	// RuntimeError (a trap such as "unreachable", or an Emscripten abort):
	// the engine is dead then and never prints its exit.
	abort func(reason string)
}

// handle is a chromedp.Listen callback.
func (p pageEvents) handle(ev any) {
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if len(ev.Args) == 0 {
			return
		}
		var msg string
		if err := json.Unmarshal(ev.Args[0].Value, &msg); err != nil {
			return
		}
		switch {
		case strings.HasPrefix(msg, "[OUT] "):
			p.line(Stdout, msg[6:])
		case strings.HasPrefix(msg, "[ERR] "):
			p.line(Stderr, msg[6:])
		case strings.HasPrefix(msg, "[EXIT] "):
			p.exit(strings.TrimSpace(msg[7:]))
		case strings.HasPrefix(msg, "[FAIL] "):
			p.fail(msg[7:])
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		text := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			text += " " + d.Exception.Description
		}
		p.line(Page, "uncaught JavaScript exception: "+text)
		if p.abort != nil && strings.Contains(text, "RuntimeError") {
			p.abort(text)
		}
	}
}
