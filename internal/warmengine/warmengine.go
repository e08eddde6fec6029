// Package warmengine keeps the real engine warm for a plugin process: one
// webgodot Runner, and one warm engine per handler script (and per
// renderer choice), started on first use and restarted once when one has
// stopped. The shader and visual_shader toolsets share it.
package warmengine

import (
	"context"
	"sync"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/webgodot"
)

// Unavailable is the error when the engine's parts are missing (no
// Chromium, no engine package): callers fall back to what they can do
// without it and say so.
type Unavailable struct{ Err error }

func (u Unavailable) Error() string { return u.Err.Error() }

func (u Unavailable) Unwrap() error { return u.Err }

// Engine is a process's warm engines. The zero value is not usable: use New.
type Engine struct {
	locate func() (webgodot.Setup, error)

	mu     sync.Mutex
	runner *webgodot.Runner
	warm   map[key]*webgodot.Warm
}

type key struct {
	handler string
	render  bool
}

// New returns an Engine that finds its parts with locate (webgodot.Locate,
// or a stand-in in tests).
func New(locate func() (webgodot.Setup, error)) *Engine {
	return &Engine{locate: locate, warm: map[key]*webgodot.Warm{}}
}

// Do sends body to the warm engine running handler (see
// webgodot.WarmProject), starting it when needed and once more if it had
// stopped. A missing engine is an Unavailable error.
func (e *Engine) Do(ctx context.Context, render bool, handler, body string) ([]webgodot.Line, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.runner == nil {
		setup, err := e.locate()
		if err != nil {
			return nil, Unavailable{err}
		}
		r, err := webgodot.New(setup)
		if err != nil {
			return nil, Unavailable{err}
		}
		e.runner = r
	}
	k := key{handler, render}
	for attempt := 0; ; attempt++ {
		w := e.warm[k]
		if w == nil || !w.Alive() {
			var err error
			w, err = e.runner.StartWarm(ctx, webgodot.WarmProject(handler), webgodot.WarmOptions{Render: render, StartTimeout: 90 * time.Second})
			if err != nil {
				return nil, err
			}
			e.warm[k] = w
		}
		lines, err := w.Do(ctx, body)
		if err == nil || attempt > 0 || ctx.Err() != nil {
			return lines, err
		}
	}
}

// Close stops every engine and the browser.
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	for k, w := range e.warm {
		w.Close()
		delete(e.warm, k)
	}
	if e.runner == nil {
		return nil
	}
	err := e.runner.Close()
	e.runner = nil
	return err
}

// Engine names the engine build, for answers that say which engine ran.
func Name() string { return "Godot " + webgodot.RuntimeEngine + " (web runtime)" }
