// Package fakeaddon is a stand-in for the godot-mcp editor addon
// (addons/godot_mcp in a Godot project), written in Go for tests. It dials
// the host's bridge over a real WebSocket and speaks the addon's wire
// contract byte for byte, quirks included:
//
//   - it dials out and redials forever with the addon's backoff (0.5 s
//     doubling to 5 s; shorter in tests through Options), and on every open
//     sends cmd_auth (when it has a token) and then cmd_peer_hello;
//   - it answers in "frames": every Options.Frame it handles the frames that
//     arrived, Options.PerFrame at most (0: all of them, as the addon's
//     _process does), one at a time, in arrival order;
//   - JSON numbers reach handlers as float64, as Godot's JSON parser makes
//     every number a float; the reply's id is the request's id as Godot's
//     str() renders it ("7" stays "7", a numeric 7 becomes "7.0");
//   - replies are serialised with sorted keys and no spaces, like Godot's
//     JSON.stringify;
//   - a frame that is not a JSON object gets
//     {"error":"VALIDATION_ERROR","hint":"Malformed JSON envelope.","id":"","ok":false};
//   - an object with "ok" and no "command" is a notice: ok:false is logged
//     and the socket closed (the addon then reconnects), PEER_REPLACED also
//     stops it reconnecting (status Replaced); notices are never answered;
//   - router errors: a missing command, an unknown command, params that are
//     not an object, and the INTERNAL_ERROR a crashed handler produces.
//
// Commands are scripted per name with Handle. The handshake commands
// (cmd_ping, cmd_get_addon_info, cmd_server_hello, cmd_toolsets_update) and
// the undo history (cmd_undo, cmd_redo, cmd_list_history over SetHistory)
// answer as the addon does unless a test replaces them. Every command
// received is recorded (Calls), so tests assert exactly what the host sent.
//
//	a := fakeaddon.Start(fakeaddon.Options{URL: "ws://" + b.Addr(), GodotVersion: "4.4.1-stable"})
//	defer a.Close()
//	a.Handle("cmd_get_scene_tree", func(p map[string]any) fakeaddon.Reply {
//		return fakeaddon.OK(map[string]any{"tree": nil})
//	})
package fakeaddon

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// BufferSize is the addon's WebSocket buffer size in both directions.
const BufferSize = 32 << 20

// Status mirrors the addon's connection status.
type Status string

// The addon's statuses.
const (
	Disconnected Status = "DISCONNECTED"
	Connecting   Status = "CONNECTING"
	Connected    Status = "CONNECTED"
	Replaced     Status = "REPLACED"
)

// Options describe the fake editor.
type Options struct {
	// URL is the host's bridge, e.g. "ws://127.0.0.1:9080".
	URL string
	// Token is the addon's GODOT_MCP_BRIDGE_TOKEN; "" sends no cmd_auth.
	Token string
	// ProjectPath, GodotVersion and AddonVersion are announced in
	// cmd_peer_hello and cmd_get_addon_info. Defaults: "/projects/fake/",
	// "4.4.1-stable", "0.0.0-fake".
	ProjectPath, GodotVersion, AddonVersion string
	// NoHello makes an addon older than cmd_peer_hello (no hello is sent).
	NoHello bool
	// NoAddonInfo makes an addon older than cmd_get_addon_info.
	NoAddonInfo bool
	// Frame is the editor's frame time; 0 handles each frame as soon as it
	// arrives (fast tests and benchmarks).
	Frame time.Duration
	// PerFrame is how many commands one frame handles; 0 means all that
	// arrived, as the addon does. 1 makes a slow editor.
	PerFrame int
	// RetryMin and RetryMax bound the reconnect backoff; 0 means the
	// addon's 0.5 s and 5 s.
	RetryMin, RetryMax time.Duration
	// Handlers are registered before the first dial (see Handle), so that
	// the command list in cmd_get_addon_info includes them.
	Handlers map[string]Handler
	// Logf, when set, receives the dock's log lines.
	Logf func(format string, args ...any)
}

// Handler answers one command. params holds the command's params with
// every number as float64.
type Handler func(params map[string]any) Reply

// Reply is a handler's answer; build it with OK, Fail, Raw, Crash or None.
type Reply struct {
	result   any
	code     string
	hint     string
	required string
	raw      *string
	none     bool
	crash    bool
}

// OK answers {"ok":true,"result":result}; result should be an object.
func OK(result any) Reply { return Reply{result: result} }

// Fail answers {"ok":false,"error":code,"hint":hint}, plus "required" when
// required is not empty (the addon adds it only then).
func Fail(code, hint string, required ...string) Reply {
	r := Reply{code: code, hint: hint}
	if len(required) > 0 {
		r.required = required[0]
	}
	return r
}

// Raw sends text as the whole frame instead of an envelope: the way to make
// a broken reply. Every "{{id}}" in text becomes the request's id.
func Raw(text string) Reply { return Reply{raw: &text} }

// None sends nothing: the host's request times out.
func None() Reply { return Reply{none: true} }

// Crash answers what the addon's router answers for a handler that died on
// a GDScript error (its missing-ok guard).
func Crash() Reply { return Reply{crash: true} }

// Call is one command the fake editor received.
type Call struct {
	ID      string
	Command string
	Params  map[string]any
}

// Notice is a server notice the fake editor received.
type Notice struct {
	ID, Error, Hint, Required string
}

// Addon is a running fake editor. All methods are safe for concurrent use.
type Addon struct {
	opts   Options
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}

	mu          sync.Mutex
	handlers    map[string]Handler
	status      Status
	conn        *websocket.Conn
	connects    int
	calls       []Call
	notices     []Notice
	log         []string
	serverVer   string
	toolsets    []string
	pushes      int
	undo, redo  []string
	statusWatch chan struct{} // closed and replaced at every status change
}

// Start starts the fake editor: it dials at once and keeps redialing until
// Close or a PEER_REPLACED notice.
func Start(opts Options) *Addon {
	if opts.ProjectPath == "" {
		opts.ProjectPath = "/projects/fake/"
	}
	if opts.GodotVersion == "" {
		opts.GodotVersion = "4.4.1-stable"
	}
	if opts.AddonVersion == "" {
		opts.AddonVersion = "0.0.0-fake"
	}
	if opts.RetryMin <= 0 {
		opts.RetryMin = 500 * time.Millisecond
	}
	if opts.RetryMax <= 0 {
		opts.RetryMax = 5 * time.Second
	}
	a := &Addon{
		opts:        opts,
		done:        make(chan struct{}),
		handlers:    map[string]Handler{},
		status:      Disconnected,
		statusWatch: make(chan struct{}),
	}
	a.ctx, a.cancel = context.WithCancel(context.Background())
	a.builtins()
	for name, h := range opts.Handlers {
		a.handlers[name] = h
	}
	go a.run()
	return a
}

// Handle sets the handler of command, replacing any built-in one. A command
// added after the host asked for cmd_get_addon_info is not in the list the
// host holds (the host then refuses it as drift): add new commands through
// Options.Handlers, and use Handle to change what a command answers.
func (a *Addon) Handle(command string, h Handler) {
	a.mu.Lock()
	a.handlers[command] = h
	a.mu.Unlock()
}

// Remove unregisters command: the addon then answers "Unknown command".
func (a *Addon) Remove(command string) {
	a.mu.Lock()
	delete(a.handlers, command)
	a.mu.Unlock()
}

// Close stops the fake editor, as disabling the plugin does, and waits for
// its goroutines.
func (a *Addon) Close() {
	a.cancel()
	<-a.done
}

// Status returns the connection status.
func (a *Addon) Status() Status {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.status
}

// WaitStatus waits until the status is s, or timeout passes.
func (a *Addon) WaitStatus(s Status, timeout time.Duration) error {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		a.mu.Lock()
		cur, ch := a.status, a.statusWatch
		a.mu.Unlock()
		if cur == s {
			return nil
		}
		select {
		case <-ch:
		case <-deadline.C:
			return fmt.Errorf("fake addon: status is %s after %s, want %s", cur, timeout, s)
		}
	}
}

// Connects counts the connections that opened.
func (a *Addon) Connects() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.connects
}

// Calls returns every command received, in order; with names, only those.
func (a *Addon) Calls(names ...string) []Call {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []Call
	for _, c := range a.calls {
		if len(names) == 0 || slices.Contains(names, c.Command) {
			out = append(out, c)
		}
	}
	return out
}

// Notices returns the server notices received.
func (a *Addon) Notices() []Notice {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]Notice(nil), a.notices...)
}

// DockLog returns the lines the addon would have written to its dock log.
func (a *Addon) DockLog() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.log...)
}

// Toolsets returns what the dock's "Toolsets:" row shows (nil until the
// first cmd_toolsets_update) and how many pushes arrived.
func (a *Addon) Toolsets() (enabled []string, pushes int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.toolsets...), a.pushes
}

// ServerVersion returns the version the host sent in cmd_server_hello.
func (a *Addon) ServerVersion() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.serverVer
}

// SetHistory replaces the editor's undo history: done lists the actions
// that can be undone, oldest first; the redo stack is emptied.
func (a *Addon) SetHistory(done ...string) {
	a.mu.Lock()
	a.undo, a.redo = append([]string(nil), done...), nil
	a.mu.Unlock()
}

// Send writes text as one frame on the open connection, unasked (tests of
// what the host does with stray frames). It fails when not connected.
func (a *Addon) Send(text string) error {
	a.mu.Lock()
	c := a.conn
	a.mu.Unlock()
	if c == nil {
		return fmt.Errorf("fake addon: not connected")
	}
	return c.Write(a.ctx, websocket.MessageText, []byte(text))
}

// Drop closes the current connection abruptly, as a crashed or killed
// editor's socket does; the addon redials as usual.
func (a *Addon) Drop() {
	a.mu.Lock()
	c := a.conn
	a.mu.Unlock()
	if c != nil {
		_ = c.CloseNow()
	}
}

func (a *Addon) logf(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	a.mu.Lock()
	a.log = append(a.log, line)
	a.mu.Unlock()
	if a.opts.Logf != nil {
		a.opts.Logf("fake addon: %s", line)
	}
}

func (a *Addon) setStatus(s Status) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.status == s {
		return
	}
	a.status = s
	close(a.statusWatch)
	a.statusWatch = make(chan struct{})
}

// run is the addon's connection state machine.
func (a *Addon) run() {
	defer close(a.done)
	defer a.setStatus(Disconnected)
	delay, attempt := a.opts.RetryMin, 0
	for a.ctx.Err() == nil {
		a.setStatus(Connecting)
		c, _, err := websocket.Dial(a.ctx, a.opts.URL, &websocket.DialOptions{CompressionMode: websocket.CompressionDisabled})
		if err == nil {
			c.SetReadLimit(BufferSize)
			if attempt > 0 {
				a.logf("reconnected (after %d attempt%s)", attempt, plural(attempt))
			}
			delay, attempt = a.opts.RetryMin, 0
			replaced := a.serve(c)
			if replaced {
				a.setStatus(Replaced)
				<-a.ctx.Done() // stays replaced until the plugin is reloaded
				return
			}
		}
		if a.ctx.Err() != nil {
			return
		}
		a.setStatus(Disconnected)
		attempt++
		a.logf("reconnecting (attempt %d, next in %.1fs)", attempt, delay.Seconds())
		t := time.NewTimer(delay)
		select {
		case <-a.ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		delay = min(delay*2, a.opts.RetryMax)
	}
}

// serve runs one open connection until it closes; it reports whether the
// host sent PEER_REPLACED.
func (a *Addon) serve(c *websocket.Conn) (replaced bool) {
	a.mu.Lock()
	a.conn = c
	a.connects++
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		a.conn = nil
		a.mu.Unlock()
		_ = c.CloseNow()
	}()
	a.setStatus(Connected)
	if a.opts.Token != "" {
		a.write(c, mustJSON(map[string]any{"id": "auth", "command": "cmd_auth", "params": map[string]any{"token": a.opts.Token}}))
	}
	if !a.opts.NoHello {
		a.write(c, mustJSON(map[string]any{"id": "peer_hello", "command": "cmd_peer_hello", "params": map[string]any{
			"project_path": a.opts.ProjectPath, "godot_version": a.opts.GodotVersion, "addon_version": a.opts.AddonVersion,
		}}))
	}

	// The socket is read on its own goroutine into a queue; the frame loop
	// below plays the editor's _process.
	in := make(chan []byte, 1<<16)
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		defer close(in)
		for {
			_, data, err := c.Read(a.ctx)
			if err != nil {
				return
			}
			in <- data
		}
	}()
	defer func() {
		_ = c.CloseNow()
		<-readDone
	}()

	var tick <-chan time.Time
	if a.opts.Frame > 0 {
		t := time.NewTicker(a.opts.Frame)
		defer t.Stop()
		tick = t.C
	}
	for {
		var batch [][]byte
		if tick != nil {
			select {
			case <-a.ctx.Done():
				return false
			case <-tick:
			}
		} else {
			select {
			case <-a.ctx.Done():
				return false
			case data, ok := <-in:
				if !ok {
					return false
				}
				batch = append(batch, data)
			}
		}
		// Drain what has arrived, up to PerFrame.
	drain:
		for a.opts.PerFrame <= 0 || len(batch) < a.opts.PerFrame {
			select {
			case data, ok := <-in:
				if !ok {
					if len(batch) == 0 {
						return false
					}
					break drain
				}
				batch = append(batch, data)
			default:
				break drain
			}
		}
		for _, data := range batch {
			switch a.handleText(c, data) {
			case closeLink:
				return false
			case closeReplaced:
				return true
			}
		}
	}
}

type verdict int

const (
	keepOpen verdict = iota
	closeLink
	closeReplaced
)

// handleText is the addon's _handle_text.
func (a *Addon) handleText(c *websocket.Conn, data []byte) verdict {
	var parsed any
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&parsed); err != nil || dec.More() {
		parsed = nil
	}
	d, isObj := parsed.(map[string]any)
	if isObj {
		_, hasOK := d["ok"]
		_, hasCmd := d["command"]
		if hasOK && !hasCmd {
			if truthy(d["ok"]) {
				return keepOpen // ok:true notices are ignored
			}
			n := Notice{ID: godotStr(d["id"]), Error: godotStrOr(d, "error", "ERROR"), Hint: godotStrOr(d, "hint", "")}
			if r, ok := d["required"]; ok {
				n.Required = godotStr(r)
			}
			a.mu.Lock()
			a.notices = append(a.notices, n)
			a.mu.Unlock()
			a.logf("server: %s — %s", n.Error, n.Hint)
			// The addon closes its side at once.
			_ = c.CloseNow()
			if n.Error == "PEER_REPLACED" {
				return closeReplaced
			}
			return closeLink
		}
	}
	var resp map[string]any
	if !isObj {
		resp = map[string]any{"id": "", "ok": false, "error": "VALIDATION_ERROR", "hint": "Malformed JSON envelope."}
	} else {
		resp = a.route(d)
		if resp == nil {
			return keepOpen // None: no reply at all
		}
		if raw, ok := resp[rawKey].(string); ok {
			a.write(c, []byte(strings.ReplaceAll(raw, "{{id}}", godotStr(orDefault(d, "id", "")))))
			return keepOpen
		}
		resp["id"] = godotStr(orDefault(d, "id", ""))
	}
	a.write(c, mustJSON(resp))
	return keepOpen
}

// route is the addon router's handle(): the reply body without the id.
func (a *Addon) route(d map[string]any) map[string]any {
	cmdRaw, ok := d["command"]
	if !ok {
		return fail("VALIDATION_ERROR", "Envelope is missing 'command'.", "")
	}
	cmd := godotStr(cmdRaw)
	a.mu.Lock()
	h, known := a.handlers[cmd]
	a.mu.Unlock()
	params := map[string]any{}
	rawParams, has := d["params"]
	call := Call{ID: godotStr(orDefault(d, "id", "")), Command: cmd}
	if has {
		p, isObj := rawParams.(map[string]any)
		if !isObj {
			a.record(call)
			if !known {
				return fail("VALIDATION_ERROR", fmt.Sprintf("Unknown command '%s'.", cmd), "")
			}
			return fail("VALIDATION_ERROR", "'params' must be an object.", "")
		}
		params = p
	}
	call.Params = params
	a.record(call)
	if !known {
		return fail("VALIDATION_ERROR", fmt.Sprintf("Unknown command '%s'.", cmd), "")
	}
	r := h(params)
	switch {
	case r.crash:
		return fail("INTERNAL_ERROR", fmt.Sprintf("'%s' failed inside the addon without producing a response (a GDScript error — see the editor Output panel).", cmd), "")
	case r.none:
		return nil
	case r.raw != nil:
		return map[string]any{rawKey: *r.raw}
	case r.code != "":
		return fail(r.code, r.hint, r.required)
	}
	result := r.result
	if result == nil {
		result = map[string]any{}
	}
	return map[string]any{"ok": true, "result": result}
}

// rawKey marks a body to send verbatim; it cannot collide with envelope keys.
const rawKey = "\x00raw"

func (a *Addon) record(c Call) {
	a.mu.Lock()
	a.calls = append(a.calls, c)
	a.mu.Unlock()
}

func fail(code, hint, required string) map[string]any {
	m := map[string]any{"ok": false, "error": code, "hint": hint}
	if required != "" {
		m["required"] = required
	}
	return m
}

// write sends one frame.
func (a *Addon) write(c *websocket.Conn, frame []byte) {
	ctx, cancel := context.WithTimeout(a.ctx, 30*time.Second)
	defer cancel()
	if err := c.Write(ctx, websocket.MessageText, frame); err != nil {
		a.logf("send failed: %v", err)
	}
}

// mustJSON serialises like Godot's JSON.stringify: sorted keys, no spaces,
// no HTML escaping.
func mustJSON(v map[string]any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("fake addon: reply cannot be encoded: %v", err))
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// godotStr renders a parsed JSON value as GDScript's str() does.
func godotStr(v any) string {
	switch x := v.(type) {
	case nil:
		return "<null>"
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.FormatFloat(x, 'f', 1, 64)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}

func godotStrOr(d map[string]any, key, def string) string {
	if v, ok := d[key]; ok {
		return godotStr(v)
	}
	return def
}

func orDefault(d map[string]any, key string, def any) any {
	if v, ok := d[key]; ok {
		return v
	}
	return def
}

// truthy is GDScript's bool() of a parsed JSON value.
func truthy(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case float64:
		return x != 0
	case string:
		return x != ""
	case nil:
		return false
	default:
		return true
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// commandNames lists the registered commands, sorted.
func (a *Addon) commandNames() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Sorted(maps.Keys(a.handlers))
}
