package webgodot

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/godot-mcp/godot-mcp/sdk"
)

//go:embed warm.html
var warmHTML []byte

func serveWarmPage(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(warmHTML)
}

// A Warm engine stays up between requests, so a request costs a frame or
// two of the engine instead of an engine start (about a second and a half
// on a shared machine). It runs in its own tab of the Runner's browser.
//
// The engine's main script polls a queue on the page every frame (through
// JavaScriptBridge) and hands each request's body to a handler script the
// caller supplies (see WarmProject); every line printed between the
// request's begin and end markers is the request's answer. Requests are
// served one at a time.
type Warm struct {
	r        *Runner
	tabCtx   context.Context
	closeTab context.CancelFunc
	packID   string

	call sync.Mutex // one request at a time

	mu    sync.Mutex
	cur   *warmReq // the request in flight, nil between requests
	ready chan struct{}
	dead  chan struct{}
	once  sync.Once
	why   string // why the engine stopped
	lines []Line // lines printed before ready, for a failed start
}

type warmReq struct {
	id      string
	started bool
	lines   []Line
	done    chan struct{}
}

// Markers the loop script prints around each request.
const (
	warmReady = "@@godot-mcp-warm-ready"
	warmBegin = "@@godot-mcp-warm-begin "
	warmEnd   = "@@godot-mcp-warm-end "
)

// warmLoop is the main script of a warm engine: it loads the handler
// script (a Node with func handle(body: String)), adds it to the tree so it
// can render, and feeds it the page's queue. handle may await frames; the
// loop waits for it before taking the next request.
const warmLoop = `extends Node

var _handler: Node
var _busy := false

func _ready() -> void:
	_handler = load("res://webgodot/handler.gd").new()
	add_child(_handler)
	print("` + warmReady + `")

func _process(_delta: float) -> void:
	if _busy:
		return
	var raw = JavaScriptBridge.eval("window.godotMcpQueue.length ? JSON.stringify(window.godotMcpQueue.shift()) : ''", true)
	if raw == null or str(raw) == "":
		return
	var msg = JSON.parse_string(str(raw))
	_busy = true
	print("` + warmBegin + `", msg["id"])
	await _handler.handle(str(msg["body"]))
	print("` + warmEnd + `", msg["id"])
	_busy = false
`

// WarmProject returns the files of a warm engine's project whose requests
// are served by handler: GDScript source of a class extending Node with
// func handle(body: String) -> void, which prints its answer. Add the
// files handle reads to the returned slice.
func WarmProject(handler string) []PackFile {
	files := ScriptProject(warmLoop)
	return append(files, PackFile{Path: "webgodot/handler.gd", Data: []byte(handler)})
}

// WarmOptions says how a warm engine starts.
type WarmOptions struct {
	// Render starts the engine with its renderer (WebGL2 in the browser,
	// which SwiftShader provides without a GPU) instead of --headless:
	// needed to draw, not to compile shaders.
	Render bool
	// StartTimeout bounds the engine start; 0 means a minute.
	StartTimeout time.Duration
}

// StartWarm starts an engine on files (see WarmProject) in a new tab and
// returns once its handler is ready. Close it when done; closing the
// Runner closes it too.
func (r *Runner) StartWarm(ctx context.Context, files []PackFile, opts WarmOptions) (*Warm, error) {
	pck, err := BuildPCK(RuntimeVersion, files)
	if err != nil {
		return nil, &sdk.Error{Code: sdk.CodeInvalidArgument, Message: err.Error(), Hint: "give every pack file a relative resource path"}
	}
	brCtx, err := r.browser(ctx)
	if err != nil {
		return nil, err
	}
	var idb [16]byte
	_, _ = rand.Read(idb[:])
	w := &Warm{r: r, packID: hex.EncodeToString(idb[:]), ready: make(chan struct{}), dead: make(chan struct{})}
	r.packs.Store(w.packID, pck)
	w.tabCtx, w.closeTab = chromedp.NewContext(brCtx)
	chromedp.Listen(w.tabCtx, w.listen)

	url := r.base + "/warm.html?run=" + w.packID
	if opts.Render {
		url += "&render=1"
	}
	navErr := make(chan error, 1)
	go func() { navErr <- chromedp.Do(w.tabCtx, chromedp.Navigate(url)) }()
	timeout := opts.StartTimeout
	if timeout <= 0 {
		timeout = time.Minute
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		select {
		case <-w.ready:
			r.packs.Delete(w.packID)
			return w, nil
		case err := <-navErr:
			if err != nil {
				w.Close()
				return nil, &sdk.Error{Code: sdk.CodeToolError, Message: fmt.Sprintf("Chromium could not open the engine page: %v", err),
					Hint: "try again; if it repeats, check that Chromium runs headless here: " + r.setup.Chromium + " --headless --no-sandbox --dump-dom about:blank"}
			}
			navErr = nil
		case <-w.dead:
			w.Close()
			return nil, &sdk.Error{Code: sdk.CodeToolError, Message: "the engine stopped before it was ready: " + w.why + tail(w.lines),
				Hint: "check the handler script: the lines above are what the engine printed"}
		case <-ctx.Done():
			w.Close()
			return nil, &sdk.Error{Code: sdk.CodeCancelled, Message: "the engine start was cancelled", Hint: "try again"}
		case <-deadline.C:
			w.Close()
			return nil, &sdk.Error{Code: sdk.CodeTimeout, Message: fmt.Sprintf("the engine was not ready within %s%s", timeout, tail(w.lines)),
				Hint: "the machine may be overloaded; try again"}
		}
	}
}

// tail formats the last lines an engine printed, for an error message.
func tail(lines []Line) string {
	if len(lines) > 8 {
		lines = lines[len(lines)-8:]
	}
	if len(lines) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(" (last lines:")
	for _, l := range lines {
		b.WriteString(" [" + string(l.Stream) + "] " + l.Text + ";")
	}
	b.WriteString(")")
	return b.String()
}

// listen routes the tab's console lines to the request in flight.
func (w *Warm) listen(ev any) {
	pageEvents{
		line: w.line,
		exit: func(code string) { w.stop("the engine exited (" + code + ")") },
		fail: func(reason string) { w.stop("the page could not start the engine: " + reason) },
	}.handle(ev)
}

func (w *Warm) line(s Stream, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		switch {
		case s == Stdout && l == warmReady:
			select {
			case <-w.ready:
			default:
				close(w.ready)
			}
			continue
		case s == Stdout && w.cur != nil && l == warmBegin+w.cur.id:
			w.cur.started = true
			continue
		case s == Stdout && w.cur != nil && l == warmEnd+w.cur.id:
			close(w.cur.done)
			w.cur = nil
			continue
		}
		if w.cur != nil && w.cur.started {
			w.cur.lines = append(w.cur.lines, Line{Stream: s, Text: l})
		} else if len(w.lines) < 200 {
			w.lines = append(w.lines, Line{Stream: s, Text: l})
		}
	}
}

func (w *Warm) stop(why string) {
	w.once.Do(func() {
		w.mu.Lock()
		w.why = why
		w.mu.Unlock()
		close(w.dead)
	})
}

// Alive reports whether the engine is still up.
func (w *Warm) Alive() bool {
	select {
	case <-w.dead:
		return false
	default:
		return true
	}
}

// Do sends one request and returns what the handler printed for it. On a
// TIMEOUT or a stopped engine the Warm is closed: start a new one.
func (w *Warm) Do(ctx context.Context, body string) ([]Line, error) {
	w.call.Lock()
	defer w.call.Unlock()
	if !w.Alive() {
		return nil, &sdk.Error{Code: sdk.CodeToolError, Message: "the warm engine has stopped: " + w.why, Hint: "start a new one"}
	}
	var idb [8]byte
	_, _ = rand.Read(idb[:])
	req := &warmReq{id: hex.EncodeToString(idb[:]), done: make(chan struct{})}
	w.mu.Lock()
	w.cur = req
	w.mu.Unlock()
	msg, _ := json.Marshal(map[string]string{"id": req.id, "body": body})
	if _, err := chromedp.Run(w.tabCtx, chromedp.Evaluate[int]("window.godotMcpQueue.push("+string(msg)+")")); err != nil {
		w.Close()
		return nil, &sdk.Error{Code: sdk.CodeToolError, Message: fmt.Sprintf("cannot reach the warm engine's page: %v", err), Hint: "try again; a new engine is started"}
	}
	select {
	case <-req.done:
		w.mu.Lock()
		defer w.mu.Unlock()
		return req.lines, nil
	case <-w.dead:
		w.Close()
		return nil, &sdk.Error{Code: sdk.CodeToolError, Message: "the engine stopped while answering: " + w.why + tail(req.lines), Hint: "try again; a new engine is started"}
	case <-ctx.Done():
		// The handler may still be busy: this engine cannot be trusted
		// with the next request's lines.
		w.Close()
		w.mu.Lock()
		lines := req.lines
		w.mu.Unlock()
		if ctx.Err() == context.DeadlineExceeded {
			return lines, &sdk.Error{Code: sdk.CodeTimeout, Message: fmt.Sprintf("the engine did not answer in time (%d lines printed)", len(lines)), Hint: "try again with more time"}
		}
		return lines, &sdk.Error{Code: sdk.CodeCancelled, Message: "the engine request was cancelled", Hint: "try again"}
	}
}

// Close closes the engine's tab, which stops the engine. Safe to call
// twice.
func (w *Warm) Close() {
	w.stop("closed")
	w.r.packs.Delete(w.packID)
	done := make(chan struct{})
	go func() {
		cctx, cancel := context.WithTimeout(w.tabCtx, 3*time.Second)
		defer cancel()
		_ = chromedp.Cancel(cctx)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(4 * time.Second):
	}
	w.closeTab()
}
