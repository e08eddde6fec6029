package webgodot

import (
	"bytes"
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/godot-mcp/godot-mcp/sdk"
)

//go:embed game.html
var gameHTML []byte

// ProbeScript is the GDScript of the probe a game session adds to its
// pack as an autoload (see GamePack): it answers Session.Call.
//
//go:embed probe.gd
var ProbeScript []byte

// SessionLine is one line a game session printed, numbered from 1 in the
// order the page saw them.
type SessionLine struct {
	Seq    int
	Stream Stream
	Text   string
	// At is the time since the session started.
	At time.Duration
}

// GameOptions says how to start a game session. (The scene to run is
// chosen when packing: see GamePack.)
type GameOptions struct {
	// NoProbe returns as soon as the page is open, without waiting for
	// the probe: for one-shot runs that only read the output, and for
	// games that may quit before their first frame.
	NoProbe bool
	// Args are engine arguments added after "--main-pack main.pck" (and
	// before the user arguments): a test runner's options, for example.
	Args []string
	// FixedFPS runs the engine with --fixed-fps: each frame advances game
	// time by exactly 1/FixedFPS seconds, however long it took, which
	// makes runs repeat exactly. 0 runs in real time.
	FixedFPS int
}

// maxSessionLines bounds what a session keeps of its output: the oldest
// lines go first, and Lines says how many were dropped.
const maxSessionLines = 5000

// Session is one game running in a tab of the Runner's browser, rendering
// through WebGL2 (Compatibility renderer), with the probe of GamePack
// answering Call. It runs until Stop, until the engine exits, or until the
// Runner closes.
type Session struct {
	r        *Runner
	packID   string
	brCtx    context.Context
	tabCtx   context.Context
	closeTab context.CancelFunc
	start    time.Time

	mu       sync.Mutex
	lines    []SessionLine
	seq      int
	dropped  int
	exited   bool
	exitCode int
	failure  string // why the page could not start the engine
	done     chan struct{}
	doneOnce sync.Once
	stopped  bool
}

// StartGame opens a tab that runs the pack (built with GamePack, so that
// it holds the probe) and returns once the probe answers, the engine
// exits, or ctx ends. A game that exits or fails before its probe answers
// is an error holding the last lines it printed.
func (r *Runner) StartGame(ctx context.Context, pck []byte, opts GameOptions) (*Session, error) {
	brCtx, err := r.browser(ctx)
	if err != nil {
		return nil, err
	}
	var idb [16]byte
	_, _ = rand.Read(idb[:])
	id := hex.EncodeToString(idb[:])
	// The page fetches the pack once, while starting; it is dropped once
	// the probe answers or the game ends.
	r.packs.Store(id, pck)

	tabCtx, closeTab := chromedp.NewContext(brCtx)
	s := &Session{r: r, packID: id, brCtx: brCtx, tabCtx: tabCtx, closeTab: closeTab, start: time.Now(), done: make(chan struct{})}
	chromedp.Listen(tabCtx, s.listen)

	q := url.Values{"run": {id}}
	if len(opts.Args) > 0 {
		q["arg"] = opts.Args
	}
	if opts.FixedFPS > 0 {
		q.Set("fixed_fps", strconv.Itoa(opts.FixedFPS))
	}
	if err := chromedp.Do(tabCtx, chromedp.Navigate(r.base+"/game.html?"+q.Encode())); err != nil {
		s.Stop()
		return nil, &sdk.Error{Code: sdk.CodeToolError, Message: fmt.Sprintf("Chromium could not open the game page: %v", err),
			Hint: "start the game again; if it repeats, check that Chromium runs headless here: " + r.setup.Chromium + " --headless --no-sandbox --dump-dom about:blank"}
	}
	if opts.NoProbe {
		return s, nil
	}
	if err := s.Call(ctx, "ping", nil, nil); err != nil {
		s.Stop()
		return nil, err
	}
	r.packs.Delete(id)
	return s, nil
}

func (s *Session) listen(ev any) {
	pageEvents{
		line: s.add,
		exit: func(code string) {
			c, _ := strconv.Atoi(code)
			s.mu.Lock()
			s.exited, s.exitCode = true, c
			s.mu.Unlock()
			s.finish()
		},
		fail: func(reason string) {
			s.add(Page, "the page could not start the engine: "+reason)
			s.mu.Lock()
			s.failure = reason
			s.mu.Unlock()
			s.finish()
		},
	}.handle(ev)
}

func (s *Session) add(st Stream, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	at := time.Since(s.start)
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		s.seq++
		s.lines = append(s.lines, SessionLine{Seq: s.seq, Stream: st, Text: l, At: at})
	}
	if over := len(s.lines) - maxSessionLines; over > 0 {
		s.lines = append(s.lines[:0:0], s.lines[over:]...)
		s.dropped += over
	}
}

func (s *Session) finish() {
	s.doneOnce.Do(func() {
		s.r.packs.Delete(s.packID)
		close(s.done)
	})
}

// Done is closed when the game has ended: it exited, the page failed, or
// Stop was called.
func (s *Session) Done() <-chan struct{} { return s.done }

// Lines returns the lines after seq since (0: all that are kept), the
// number of the last line, and how many old lines were dropped to bound
// memory.
func (s *Session) Lines(since int) (lines []SessionLine, last, dropped int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range s.lines {
		if l.Seq > since {
			lines = append(lines, l)
		}
	}
	return lines, s.seq, s.dropped
}

// Exited reports whether the engine exited by itself, and its code.
func (s *Session) Exited() (bool, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.exited, s.exitCode
}

// Running reports whether the game still runs.
func (s *Session) Running() bool {
	select {
	case <-s.done:
		return false
	default:
		return true
	}
}

// Uptime is the time since the session started.
func (s *Session) Uptime() time.Duration { return time.Since(s.start) }

// Call sends one call to the probe and decodes its answer into out. It
// waits until the probe answers (between frames; a screenshot after the next one),
// the game ends, or ctx ends. An answer with an "error" field only is an
// error.
func (s *Session) Call(ctx context.Context, cmd string, params any, out any) error {
	if params == nil {
		params = map[string]any{}
	}
	msg, err := json.Marshal(map[string]any{"cmd": cmd, "params": params})
	if err != nil {
		return err
	}
	lit, _ := json.Marshal(string(msg)) // a JSON string is a JS string literal
	cctx, cancel := context.WithCancel(s.tabCtx)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	go func() {
		select {
		case <-s.done:
			cancel()
		case <-cctx.Done():
		}
	}()
	text, err := chromedp.Run(cctx, chromedp.Evaluate[string]("window.__mcpCall("+string(lit)+")", chromedp.EvalAwaitPromise))
	if err != nil {
		if ended := s.endedError(cmd); ended != nil {
			return ended
		}
		if ctx.Err() != nil {
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return &sdk.Error{Code: sdk.CodeTimeout,
					Message: fmt.Sprintf("the game did not answer %q in time (it answers between frames; a game stuck in a loop never does)", cmd),
					Hint:    "check the game's output for an error or an endless loop, then retry with a longer timeout"}
			}
			return &sdk.Error{Code: sdk.CodeCancelled, Message: "the call to the game was cancelled", Hint: "call again when needed"}
		}
		return &sdk.Error{Code: sdk.CodeToolError, Message: fmt.Sprintf("the game page did not answer %q: %v", cmd, err), Hint: "stop the game and start it again"}
	}
	var probe struct {
		Error string `json:"error"`
	}
	if json.Unmarshal([]byte(text), &probe) == nil && probe.Error != "" && !strings.Contains(text, `"ready"`) {
		if ended := s.endedError(cmd); ended != nil {
			return ended
		}
		return &sdk.Error{Code: sdk.CodeToolError, Message: "the game's probe refused " + cmd + ": " + probe.Error, Hint: "check the arguments"}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal([]byte(text), out); err != nil {
		return &sdk.Error{Code: sdk.CodeToolError, Message: fmt.Sprintf("the game's probe answered %q with something that is not JSON: %v", cmd, err), Hint: "stop the game and start it again"}
	}
	return nil
}

// endedError says how the game ended, with its last lines, or nil while
// it runs.
func (s *Session) endedError(cmd string) *sdk.Error {
	if s.Running() {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var tail []string
	for i := max(0, len(s.lines)-8); i < len(s.lines); i++ {
		tail = append(tail, s.lines[i].Text)
	}
	last := ""
	if len(tail) > 0 {
		last = "; its last lines: " + strings.Join(tail, " | ")
	}
	switch {
	case s.stopped:
		return &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "play_session", Message: "the game was stopped before it answered " + cmd, Hint: "start it again with play_scene"}
	case s.failure != "":
		return &sdk.Error{Code: sdk.CodeToolError, Message: "the page could not start the engine: " + s.failure + last, Hint: "start the game again; if it repeats, the pack may be broken"}
	default:
		return &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "play_session",
			Message: fmt.Sprintf("the game exited with code %d before it answered %s%s", s.exitCode, cmd, last),
			Hint:    "read its output for the error, fix it, and start it again with play_scene"}
	}
}

// Capture grabs the next frame the game draws, scaled to width x height
// (0: keep the aspect ratio; both 0: the window's size), as an image.
func (s *Session) Capture(ctx context.Context, width, height int) (image.Image, error) {
	var shot struct {
		Base64 string
	}
	if err := s.Call(ctx, "capture", map[string]any{"width": width, "height": height}, &shot); err != nil {
		return nil, err
	}
	b, err := base64.StdEncoding.DecodeString(shot.Base64)
	if err != nil {
		return nil, fmt.Errorf("capture: the frame is not base64: %w", err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("capture: the frame is not a PNG: %w", err)
	}
	return img, nil
}

// Stop ends the game: the tab closes, which ends its renderer process. It
// returns once the tab is gone (or after a few seconds, when a tab that
// does not close takes the browser with it; the next run starts a new
// one). Stop is safe to call twice.
func (s *Session) Stop() {
	s.mu.Lock()
	already := s.stopped
	s.stopped = true
	s.mu.Unlock()
	if already {
		return
	}
	s.finish()
	closed := make(chan error, 1)
	go func() {
		cctx, cancel := context.WithTimeout(s.tabCtx, 3*time.Second)
		defer cancel()
		closed <- chromedp.Cancel(cctx)
	}()
	select {
	case err := <-closed:
		if err != nil && !errors.Is(err, context.Canceled) {
			s.r.reset(s.brCtx)
		}
	case <-time.After(4 * time.Second):
		s.r.reset(s.brCtx)
	}
	s.closeTab()
}
