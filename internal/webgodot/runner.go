package webgodot

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/godot-mcp/godot-mcp/sdk"
)

//go:embed page.html
var pageHTML []byte

// Stream says where a console line came from.
type Stream string

// The streams of a Line.
const (
	Stdout Stream = "out" // print()
	Stderr Stream = "err" // printerr(), push_error(), engine errors
	// Page is a line from the page or the browser rather than the engine:
	// an uncaught JavaScript exception, or the page failing to start the
	// engine.
	Page Stream = "page"
)

// Line is one line the engine printed.
type Line struct {
	Stream Stream
	Text   string
}

// Result is what one engine run printed and how it ended.
type Result struct {
	Lines []Line
	// Exited is true when the engine exited by itself; ExitCode is its
	// status then.
	Exited   bool
	ExitCode int
	// Aborted is true when the engine died of a WebAssembly trap or abort
	// (the page saw an uncaught RuntimeError); Lines hold what it printed
	// until then.
	Aborted bool
	// Elapsed is the time from opening the page to the exit line (or the abort, or the
	// deadline).
	Elapsed time.Duration
}

// Stdout returns the stdout lines only.
func (r *Result) Stdout() []string { return r.stream(Stdout) }

// Stderr returns the stderr lines only.
func (r *Result) Stderr() []string { return r.stream(Stderr) }

func (r *Result) stream(s Stream) []string {
	var out []string
	for _, l := range r.Lines {
		if l.Stream == s {
			out = append(out, l.Text)
		}
	}
	return out
}

// Runner runs Godot packs in one headless Chromium, which it starts on the
// first Run and keeps for later runs (a browser start costs about a
// second; a reused browser also keeps the compiled engine in its cache).
// Runs may be concurrent: each gets its own tab. Close stops the browser
// and every process it started. A Runner is safe for concurrent use.
type Runner struct {
	setup Setup

	mu          sync.Mutex
	browserCtx  context.Context // nil until the first Run, and after a reset
	cancelAlloc context.CancelFunc
	cancelBr    context.CancelFunc
	closed      bool

	srv   *http.Server
	base  string   // http://127.0.0.1:port
	packs sync.Map // run id -> pack bytes, while the run lasts
}

// New returns a Runner using the given parts (see Locate). It starts the
// HTTP server on 127.0.0.1 at once and the browser on the first Run.
func New(setup Setup) (*Runner, error) {
	if err := VerifyRuntime(setup.RuntimeDir); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("webgodot: cannot listen on 127.0.0.1: %w", err)
	}
	r := &Runner{setup: setup, base: "http://" + ln.Addr().String()}
	r.srv = &http.Server{Handler: r.handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = r.srv.Serve(ln) }()
	return r, nil
}

// handler serves the page, the engine files and the packs of current runs.
// The engine is single-threaded, so it needs no cross-origin isolation;
// the headers are sent anyway so that a threaded build would work too.
func (r *Runner) handler() http.Handler {
	mux := http.NewServeMux()
	engine := http.StripPrefix("/engine/", http.FileServer(http.Dir(r.setup.RuntimeDir)))
	mux.Handle("/engine/", http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		// Let the browser cache the 37 MB engine between runs; it never
		// changes under one Runner (VerifyRuntime pinned it).
		w.Header().Set("Cache-Control", "max-age=86400")
		engine.ServeHTTP(w, req)
	}))
	mux.HandleFunc("/run.html", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(pageHTML)
	})
	mux.HandleFunc("/warm.html", serveWarmPage)
	mux.HandleFunc("/game.html", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(gameHTML)
	})
	mux.HandleFunc("/pack/", func(w http.ResponseWriter, req *http.Request) {
		id := strings.TrimSuffix(strings.TrimPrefix(req.URL.Path, "/pack/"), ".pck")
		v, ok := r.packs.Load(id)
		if !ok {
			http.NotFound(w, req)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(v.([]byte))
	})
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Cross-Origin-Opener-Policy", "same-origin")
		w.Header().Set("Cross-Origin-Embedder-Policy", "require-corp")
		mux.ServeHTTP(w, req)
	})
}

// allocatorOptions are the Chromium flags that work headless as root in a
// container; without the background-networking ones Chromium makes
// outgoing connections that fail in bulk on a closed network.
func (r *Runner) allocatorOptions() []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(r.setup.Chromium),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("mute-audio", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-breakpad", true),
	}
}

// browser returns the browser context, starting Chromium if needed.
func (r *Runner) browser(ctx context.Context) (context.Context, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, &sdk.Error{Code: sdk.CodePreconditionFailed, Message: "the engine runner is closed", Hint: "create a new Runner with webgodot.New"}
	}
	if r.browserCtx != nil {
		return r.browserCtx, nil
	}
	// The browser outlives this Run's ctx: it belongs to the Runner.
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), r.allocatorOptions()...)
	brCtx, cancelBr := chromedp.NewContext(allocCtx)
	startCtx, stop := context.WithTimeout(brCtx, 30*time.Second)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- chromedp.Do(brCtx) }() // starts the browser
	select {
	case err := <-done:
		if err != nil {
			cancelBr()
			cancelAlloc()
			return nil, &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "chromium",
				Message: fmt.Sprintf("Chromium (%s) did not start: %v", r.setup.Chromium, err),
				Hint:    "check that it runs: " + r.setup.Chromium + " --headless --no-sandbox --version"}
		}
	case <-ctx.Done():
		cancelBr()
		cancelAlloc()
		return nil, ctx.Err()
	case <-startCtx.Done():
		cancelBr()
		cancelAlloc()
		return nil, &sdk.Error{Code: sdk.CodeTimeout, Message: "Chromium did not start within 30 s", Hint: "check that " + r.setup.Chromium + " runs headless on this machine"}
	}
	r.browserCtx, r.cancelAlloc, r.cancelBr = brCtx, cancelAlloc, cancelBr
	return brCtx, nil
}

// BrowserPID returns the process id of the running browser, or 0.
func (r *Runner) BrowserPID() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.browserCtx == nil {
		return 0
	}
	if c := chromedp.FromContext(r.browserCtx); c != nil && c.Browser != nil {
		if p := c.Browser.Process(); p != nil {
			return p.Pid
		}
	}
	return 0
}

// reset stops a browser that misbehaved; the next Run starts a new one.
func (r *Runner) reset(brCtx context.Context) {
	r.mu.Lock()
	if r.browserCtx != brCtx || r.browserCtx == nil {
		r.mu.Unlock()
		return
	}
	cancelBr, cancelAlloc := r.cancelBr, r.cancelAlloc
	r.browserCtx, r.cancelBr, r.cancelAlloc = nil, nil, nil
	r.mu.Unlock()
	stopBrowser(brCtx, cancelBr, cancelAlloc)
}

// stopBrowser cancels the browser and its allocator, which kills Chromium
// and every child that used its profile directory, and waits (up to a
// few seconds) until the allocator has reaped them and removed the
// profile. Cancelling does not wait on a graceful browser close, which
// can hang.
func stopBrowser(brCtx context.Context, cancelBr, cancelAlloc context.CancelFunc) {
	cancelBr()
	cancelAlloc()
	c := chromedp.FromContext(brCtx)
	if c == nil || c.Allocator == nil {
		return
	}
	done := make(chan struct{})
	go func() {
		c.Allocator.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
	}
}

// Close stops the browser and the HTTP server, and returns once Chromium
// and its children are gone. It is safe to call twice.
func (r *Runner) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	brCtx, cancelBr, cancelAlloc := r.browserCtx, r.cancelBr, r.cancelAlloc
	r.browserCtx = nil
	r.mu.Unlock()
	if cancelBr != nil {
		stopBrowser(brCtx, cancelBr, cancelAlloc)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return r.srv.Shutdown(ctx)
}

// Run builds a pack from files and runs it until the engine exits or ctx
// ends. files must include project.godot and the main scene it names;
// see Project for a helper that writes both around a script.
//
// The error is nil when the engine exited (whatever its code) and an
// *sdk.Error with code TIMEOUT when ctx ended first; the Result then holds
// what was printed until then. The run's tab is closed either way, which
// stops an engine that still spins.
func (r *Runner) Run(ctx context.Context, files []PackFile) (*Result, error) {
	pck, err := BuildPCK(RuntimeVersion, files)
	if err != nil {
		return nil, &sdk.Error{Code: sdk.CodeInvalidArgument, Message: err.Error(), Hint: "give every pack file a relative resource path"}
	}
	return r.RunPack(ctx, pck)
}

// RunPack runs a pack built with BuildPCK; see Run.
func (r *Runner) RunPack(ctx context.Context, pck []byte) (*Result, error) {
	return r.RunPackUntil(ctx, pck, nil)
}

// RunUntil is Run that also ends the run as soon as the engine prints a
// line for which done returns true, without waiting for the engine to
// exit: for a script that prints its last result and then quits, so that
// an engine that hangs or aborts on its way out costs nothing. Exited is
// false then. done is called with each line as it comes, one at a time.
func (r *Runner) RunUntil(ctx context.Context, files []PackFile, done func(Line) bool) (*Result, error) {
	pck, err := BuildPCK(RuntimeVersion, files)
	if err != nil {
		return nil, &sdk.Error{Code: sdk.CodeInvalidArgument, Message: err.Error(), Hint: "give every pack file a relative resource path"}
	}
	return r.RunPackUntil(ctx, pck, done)
}

// RunPackUntil is RunUntil for a pack built with BuildPCK; a nil done
// waits for the engine to exit, as RunPack does.
func (r *Runner) RunPackUntil(ctx context.Context, pck []byte, done func(Line) bool) (*Result, error) {
	brCtx, err := r.browser(ctx)
	if err != nil {
		return nil, err
	}
	// A random id: the pack holds the user's files, and other local
	// processes can reach 127.0.0.1 too.
	var idb [16]byte
	_, _ = rand.Read(idb[:])
	id := hex.EncodeToString(idb[:])
	r.packs.Store(id, pck)
	defer r.packs.Delete(id)

	tabCtx, closeTab := chromedp.NewContext(brCtx)
	var (
		mu     sync.Mutex
		res    = &Result{}
		exited = make(chan struct{})
		once   sync.Once
	)
	add := func(s Stream, text string) {
		mu.Lock()
		defer mu.Unlock()
		for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			line := Line{Stream: s, Text: l}
			res.Lines = append(res.Lines, line)
			if done != nil && done(line) {
				once.Do(func() { close(exited) })
			}
		}
	}
	chromedp.Listen(tabCtx, pageEvents{
		line: add,
		exit: func(code string) {
			c, _ := strconv.Atoi(code)
			mu.Lock()
			res.Exited, res.ExitCode = true, c
			mu.Unlock()
			once.Do(func() { close(exited) })
		},
		fail: func(reason string) {
			add(Page, "the page could not start the engine: "+reason)
			once.Do(func() { close(exited) })
		},
		abort: func(string) {
			mu.Lock()
			res.Aborted = true
			mu.Unlock()
			once.Do(func() { close(exited) })
		},
	}.handle)

	start := time.Now()
	navErr := make(chan error, 1)
	go func() { navErr <- chromedp.Do(tabCtx, chromedp.Navigate(r.base+"/run.html?run="+id)) }()

	var runErr error
	select {
	case <-exited:
	case err := <-navErr:
		if err != nil {
			runErr = &sdk.Error{Code: sdk.CodeToolError, Message: fmt.Sprintf("Chromium could not open the engine page: %v", err),
				Hint: "run again; if it repeats, check that Chromium runs headless here: " + r.setup.Chromium + " --headless --no-sandbox --dump-dom about:blank"}
			break
		}
		select {
		case <-exited:
		case <-ctx.Done():
			runErr = ctx.Err()
		}
	case <-ctx.Done():
		runErr = ctx.Err()
	}
	res.Elapsed = time.Since(start)

	// Close the tab, which ends its renderer even when the engine still
	// spins. A tab that does not close in time takes the whole browser
	// with it (other runs in flight then fail); the next Run starts a new
	// one.
	closed := make(chan error, 1)
	go func() {
		cctx, cancel := context.WithTimeout(tabCtx, 3*time.Second)
		defer cancel()
		closed <- chromedp.Cancel(cctx)
	}()
	select {
	case err := <-closed:
		if err != nil && !errors.Is(err, context.Canceled) {
			r.reset(brCtx)
		}
	case <-time.After(4 * time.Second):
		r.reset(brCtx)
	}
	closeTab()

	mu.Lock()
	defer mu.Unlock()
	out := &Result{Lines: res.Lines, Exited: res.Exited, ExitCode: res.ExitCode, Aborted: res.Aborted, Elapsed: res.Elapsed}
	if runErr != nil {
		if errors.Is(runErr, context.Canceled) {
			return out, &sdk.Error{Code: sdk.CodeCancelled, Message: "the engine run was cancelled", Hint: "run it again when needed"}
		}
		if errors.Is(runErr, context.DeadlineExceeded) {
			return out, &sdk.Error{Code: sdk.CodeTimeout,
				Message: fmt.Sprintf("the engine run did not finish within its deadline (%s, %d lines printed)", res.Elapsed.Round(time.Millisecond), len(res.Lines)),
				Hint:    "give it more time, or check the script for a loop that never ends or a missing get_tree().quit()"}
		}
		return out, runErr
	}
	return out, nil
}
