package bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/hashicorp/go-hclog"

	"github.com/godot-mcp/godot-mcp/host/events"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/addonerr"
)

// peer is one editor socket, from accept to close. At most one peer is
// attached (Bridge.active) at a time; a peer that is still authenticating,
// or that was replaced, is open but never receives requests.
type peer struct {
	b           *Bridge
	conn        *websocket.Conn
	remote      string
	connectedAt time.Time

	ctx    context.Context // ends when the socket is done
	cancel context.CancelFunc

	helloCh    chan struct{} // closed at the first cmd_peer_hello
	helloOnce  sync.Once
	pushCh     chan struct{} // wakes the dock push (capacity 1)
	announced  atomic.Bool   // the attach was announced (event, OnPeer)
	replacedBy atomic.Bool   // another editor took over

	// Writes started and finished, for the watchdog.
	writesStarted, writesDone atomic.Uint64
	writeMu                   sync.Mutex // serialises requests' writes

	mu       sync.Mutex
	hello    Hello
	info     *addonInfo // nil until cmd_get_addon_info answered
	missing  map[string]bool
	pending  map[string]*waiter
	failed   *sdk.Error // set when the peer can take no more requests
	inFlight int
}

// addonInfo is the result of cmd_get_addon_info.
type addonInfo struct {
	AddonVersion string   `json:"addon_version"`
	GodotVersion string   `json:"godot_version"`
	Commands     []string `json:"commands"`
	has          map[string]bool
}

// waiter is one request waiting for its reply.
type waiter struct {
	ch      chan reply // capacity 1: the reader never blocks on it
	command string
}

// waiterPool recycles waiters: a request's waiter is free again once the
// request has its outcome, as nobody else can send to it by then.
var waiterPool = sync.Pool{New: func() any { return &waiter{ch: make(chan reply, 1)} }}

type reply struct {
	f   frame
	err *sdk.Error
}

func newPeer(b *Bridge, c *websocket.Conn, remote string) *peer {
	p := &peer{
		b:           b,
		conn:        c,
		remote:      remote,
		connectedAt: time.Now(),
		helloCh:     make(chan struct{}),
		pushCh:      make(chan struct{}, 1),
		pending:     map[string]*waiter{},
		missing:     map[string]bool{},
	}
	p.ctx, p.cancel = context.WithCancel(b.ctx)
	return p
}

// serve runs the socket: authentication, attach, then the read loop.
func (p *peer) serve() {
	defer p.closeNow()
	if !p.authenticate() {
		return
	}
	p.conn.SetReadLimit(MaxFrame)
	old := p.b.attach(p)
	if p.b.active.Load() != p {
		return // the bridge closed meanwhile
	}
	p.b.wg.Add(2)
	go p.handshake(old)
	go p.watchdog()
	err := p.readLoop()
	p.b.detach(p, err)
	p.fail(disconnected("the Godot editor disconnected"))
}

// authenticate waits for cmd_auth when the host has a token. Frames before
// it are dropped, except the hello, which is kept: the addon sends auth
// first, but the order of two frames is no reason to lose an identity.
func (p *peer) authenticate() bool {
	b := p.b
	if b.opts.Token == "" {
		return true
	}
	p.conn.SetReadLimit(preAuthReadLimit)
	budget := min(authTimeout, b.opts.Timeout)
	ctx, cancel := context.WithTimeout(p.ctx, budget)
	defer cancel()
	for {
		_, data, err := p.conn.Read(ctx)
		if err != nil {
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				// The socket is closed without a message: an addon with no
				// token configured never sends cmd_auth, and the reference
				// server does the same.
				p.refused("no_token", fmt.Sprintf("closed an editor connection that sent no cmd_auth within %s: the host requires a bridge token; %s", budget, b.tokenFix()))
			}
			return false
		}
		f := decodeFrame(data)
		switch f.kind {
		case frameAuth:
			if b.tokenOK(f.token) {
				return true
			}
			p.refused("wrong_token", "refused an editor connection: its "+TokenEnv+" does not match the host's (the token is never logged); "+b.tokenFix())
			hint := "Bridge auth failed: the " + TokenEnv + " this editor sent does not match the server's. To fix it, " + b.tokenFix() + "."
			p.closeWithNotice(notice("auth", wireValidationError, hint, requiredBridgeToken), true)
			return false
		case frameHello:
			p.setHello(f.hello)
		default:
			b.lim.Log(hclog.Debug, "pre_auth_frame", "editor bridge: frame before cmd_auth dropped", "remote", p.remote, "frame", excerpt(data))
		}
	}
}

// refused records an auth refusal: a log line, an event, a counter.
func (p *peer) refused(reason, msg string) {
	b := p.b
	b.mu.Lock()
	b.refused++
	b.mu.Unlock()
	b.noteError(msg)
	b.lim.Log(hclog.Warn, "auth_refused", "editor bridge: "+msg, "remote", p.remote, "reason", reason)
	b.emit(events.Event{Kind: events.PeerRefused, Level: events.Warning, Message: msg,
		Fields: map[string]any{"remote": p.remote, "reason": reason, "required": requiredBridgeToken}})
}

// readLoop reads frames until the socket ends and returns why it ended.
// One frame is decoded at a time into a reused buffer: decodeFrame copies
// what it keeps.
func (p *peer) readLoop() error {
	var buf bytes.Buffer
	for {
		// No context: closeNow ends a blocked read, and a context would
		// cost a timer registration per frame.
		typ, r, err := p.conn.Reader(context.Background())
		if err != nil {
			return err
		}
		buf.Reset()
		if _, err := buf.ReadFrom(r); err != nil {
			return err
		}
		if typ != websocket.MessageText {
			p.badFrame("a binary frame (the addon sends JSON text frames only)", buf.Bytes())
		} else {
			p.handle(buf.Bytes())
		}
		if buf.Cap() > 1<<20 {
			buf = bytes.Buffer{} // do not keep a screenshot-sized buffer per editor
		}
	}
}

// handle routes one frame from the attached editor.
func (p *peer) handle(data []byte) {
	f := decodeFrame(data)
	switch f.kind {
	case frameReply:
		if w := p.take(f.id); w != nil {
			w.ch <- reply{f: f}
			return
		}
		if f.id == "" && !f.ok {
			// The addon's answer to a frame it could not parse. The host
			// never sends one; if it did, the request behind it times out.
			p.badFrame(fmt.Sprintf("the editor could not read a frame from the host (%s: %s)", f.code, f.hint), data)
			return
		}
		p.b.lim.Log(hclog.Debug, "stray_reply", "editor bridge: reply for no pending request (it timed out or was cancelled)", "id", f.id)
	case frameBadReply:
		if w := p.take(f.id); w != nil {
			w.ch <- reply{err: &sdk.Error{
				Code: sdk.CodeInternalError,
				Message: fmt.Sprintf("the Godot editor replied to %s without a valid response envelope (%s)",
					w.command, f.problem),
				Hint: "the addon's handler most likely hit a GDScript error: check the editor's Output panel, then retry",
			}}
		}
		p.badFrame("not a valid response envelope: "+f.problem, data)
	case frameHello:
		p.setHello(f.hello)
		if p.announced.Load() {
			p.b.lim.Log(hclog.Info, "hello_again", "editor announced itself again", "project", f.hello.ProjectPath, "godot", f.hello.GodotVersion)
			p.b.peerChanged()
		}
	case frameAuth:
		p.b.lim.Log(hclog.Debug, "stray_auth", "editor bridge: cmd_auth ignored (the host has no token, or the editor is already authenticated)")
	case frameCommand:
		p.badFrame(fmt.Sprintf("the editor sent command %q; the addon only answers commands", f.command), data)
	default:
		p.badFrame(f.problem, data)
	}
}

// badFrame logs a frame the host cannot use; nothing else is lost. The
// lines are rate-limited: an editor (or whatever holds its socket) can
// send them as fast as it likes.
func (p *peer) badFrame(problem string, data []byte) {
	p.b.noteError("bad frame from the editor: " + problem)
	p.b.lim.Log(hclog.Warn, "bad_frame", "editor bridge: dropped a frame from the editor", "problem", problem, "frame", excerpt(data))
}

// excerpt is the start of a frame, for the log.
func excerpt(data []byte) string {
	const n = 200
	if len(data) <= n {
		return string(data)
	}
	return fmt.Sprintf("%s… (%d bytes)", data[:n], len(data))
}

func (p *peer) setHello(h Hello) {
	p.mu.Lock()
	p.hello = h
	p.mu.Unlock()
	p.helloOnce.Do(func() { close(p.helloCh) })
}

// identity is what the bridge knows about the editor.
func (p *peer) identity() Peer {
	p.mu.Lock()
	defer p.mu.Unlock()
	id := Peer{
		ProjectPath:  p.hello.ProjectPath,
		GodotVersion: p.hello.GodotVersion,
		AddonVersion: p.hello.AddonVersion,
		Remote:       p.remote,
		ConnectedAt:  p.connectedAt,
	}
	if p.info != nil {
		if id.GodotVersion == "" {
			id.GodotVersion = p.info.GodotVersion
		}
		if id.AddonVersion == "" {
			id.AddonVersion = p.info.AddonVersion
		}
	}
	return id
}

// register adds a waiter for id, or returns the error every request to this
// peer gets once it is failing.
func (p *peer) register(id, command string) (*waiter, *sdk.Error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.failed != nil {
		return nil, p.failed
	}
	w := waiterPool.Get().(*waiter)
	w.command = command
	p.pending[id] = w
	p.inFlight++
	return w, nil
}

// take removes and returns the waiter for id, nil if there is none.
func (p *peer) take(id string) *waiter {
	p.mu.Lock()
	defer p.mu.Unlock()
	w := p.pending[id]
	if w != nil {
		delete(p.pending, id)
		p.inFlight--
	}
	return w
}

// fail completes every pending request with err and makes every later one
// fail at once with it.
func (p *peer) fail(err *sdk.Error) {
	p.mu.Lock()
	if p.failed == nil {
		p.failed = err
	}
	pending := p.pending
	p.pending = map[string]*waiter{}
	p.inFlight = 0
	p.mu.Unlock()
	for _, w := range pending {
		w.ch <- reply{err: err}
	}
}

// closeWithNotice sends an ok:false notice, gives the addon a moment to close
// the socket itself (it does on every such notice, after logging it to its
// dock), and then closes it. A socket closed at once can lose the notice:
// the addon does not read packets from a peer it already sees closed.
// ownReader says the caller is the socket's reader (auth refusal), so it
// reads until the addon closes; otherwise the read loop ends p.ctx.
func (p *peer) closeWithNotice(msg []byte, ownReader bool) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	err := p.conn.Write(ctx, websocket.MessageText, msg)
	cancel()
	if err == nil {
		ctx, cancel := context.WithTimeout(p.ctx, time.Second)
		if ownReader {
			for {
				if _, _, err := p.conn.Read(ctx); err != nil {
					break
				}
			}
		} else {
			<-ctx.Done()
		}
		cancel()
	}
	p.closeNow()
}

func (p *peer) closeNow() {
	_ = p.conn.CloseNow()
	p.cancel()
}

// stallCheck is how often the watchdog looks at the socket's writes.
const stallCheck = 250 * time.Millisecond

// watchdog closes the socket when a write has made no progress for the
// default request timeout: the editor stopped reading (frozen, or its
// machine gone without a TCP reset). Small frames are written without a
// deadline of their own, because a per-write deadline costs a timer
// registration on every command; the watchdog bounds them instead.
func (p *peer) watchdog() {
	defer p.b.wg.Done()
	t := time.NewTicker(stallCheck)
	defer t.Stop()
	var lastDone uint64
	var since time.Time
	for {
		select {
		case <-p.ctx.Done():
			return
		case now := <-t.C:
			done := p.writesDone.Load()
			if p.writesStarted.Load() == done || done != lastDone {
				lastDone, since = done, now
				continue
			}
			if now.Sub(since) >= p.b.opts.Timeout {
				msg := fmt.Sprintf("the Godot editor has not read a frame for %s; closing its connection (the addon reconnects by itself)", now.Sub(since).Round(time.Second))
				p.b.noteError(msg)
				p.b.log.Warn("editor bridge: " + msg)
				p.closeNow()
				return
			}
		}
	}
}

// wakePush asks the dock push loop to send the current set.
func (p *peer) wakePush() {
	select {
	case p.pushCh <- struct{}{}:
	default:
	}
}

// handshake announces the editor once its hello is in, asks for the addon's
// command list, says hello back, and then keeps the dock's toolset list
// current until the socket closes.
func (p *peer) handshake(old *peer) {
	defer p.b.wg.Done()
	t := time.NewTimer(helloWait)
	select {
	case <-p.helloCh:
	case <-t.C:
	case <-p.ctx.Done():
	}
	t.Stop()
	if p.ctx.Err() != nil {
		return
	}
	p.announce(old)
	p.fetchAddonInfo()
	if p.ctx.Err() != nil {
		return
	}
	if _, err := p.request(p.ctx, cmdServerHello, map[string]string{"version": p.b.opts.HostVersion}, handshakeTimeout); err != nil {
		p.b.log.Debug("editor bridge: cmd_server_hello failed (an older addon); ignored", "error", err)
	}
	p.pushLoop()
}

func (p *peer) announce(old *peer) {
	b := p.b
	p.announced.Store(true)
	id := p.identity()
	if old != nil {
		was := old.identity()
		b.log.Warn("editor replaced: a new editor took over the bridge; the previous one was told and disconnected",
			"previous_project", orUnknown(was.ProjectPath), "project", orUnknown(id.ProjectPath), "godot", id.GodotVersion)
		b.emit(events.Event{Kind: events.PeerReplaced, Level: events.Warning,
			Message: fmt.Sprintf("Godot editor for %s replaced the one for %s", orUnknown(id.ProjectPath), orUnknown(was.ProjectPath)),
			Fields: map[string]any{"previous_project_path": was.ProjectPath, "project_path": id.ProjectPath,
				"godot_version": id.GodotVersion, "addon_version": id.AddonVersion}})
	} else {
		b.log.Info("editor attached", "project", orUnknown(id.ProjectPath), "godot", id.GodotVersion, "addon", id.AddonVersion, "remote", p.remote)
		b.emit(events.Event{Kind: events.PeerAttached,
			Message: fmt.Sprintf("Godot editor attached (project %s, Godot %s)", orUnknown(id.ProjectPath), orUnknown(id.GodotVersion)),
			Fields: map[string]any{"project_path": id.ProjectPath, "godot_version": id.GodotVersion,
				"addon_version": id.AddonVersion, "remote": p.remote}})
	}
	b.peerChanged()
}

// fetchAddonInfo asks the addon for its command list, once per editor.
func (p *peer) fetchAddonInfo() {
	raw, err := p.request(p.ctx, cmdGetAddonInfo, nil, handshakeTimeout)
	if err != nil {
		if isUnknownCommand(err) {
			p.b.log.Info("editor bridge: the addon predates cmd_get_addon_info; its command list is unknown")
		} else {
			p.b.log.Warn("editor bridge: cmd_get_addon_info failed; the addon's command list is unknown", "error", err)
		}
		return
	}
	var info addonInfo
	if err := json.Unmarshal(raw, &info); err != nil {
		p.b.log.Warn("editor bridge: cmd_get_addon_info answered something unreadable; the command list is unknown", "error", err)
		return
	}
	if len(info.Commands) > 0 {
		// No list at all is an unknown list, not an addon without commands.
		info.has = make(map[string]bool, len(info.Commands))
		for _, c := range info.Commands {
			info.has[c] = true
		}
	}
	p.mu.Lock()
	fallback := p.hello.GodotVersion == "" && info.GodotVersion != ""
	p.info = &info
	p.mu.Unlock()
	if fallback {
		p.b.peerChanged() // an addon without hello: the version comes from here
	}
}

// lacks reports whether the addon is known not to have command, and records
// it as drift.
func (p *peer) lacks(command string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.info == nil || p.info.has == nil || p.info.has[command] {
		return false
	}
	p.missing[command] = true
	return true
}

// noteMissing records command as drift: the addon answered that it does
// not know it.
func (p *peer) noteMissing(command string) {
	p.mu.Lock()
	p.missing[command] = true
	p.mu.Unlock()
}

func (p *peer) drift() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Sorted(maps.Keys(p.missing))
}

// pushLoop sends the enabled set to the dock now and after every wake-up.
func (p *peer) pushLoop() {
	for {
		select {
		case <-p.pushCh: // this push covers any wake-up already queued
		default:
		}
		if set := p.b.enabledSet(); set != nil {
			raw, err := p.request(p.ctx, cmdToolsetsUpdate, map[string][]string{"enabled": set}, handshakeTimeout)
			switch {
			case err == nil:
				p.b.log.Debug("editor dock told the enabled toolsets", "enabled", strings.Join(set, ","), "reply", string(raw))
			case isUnknownCommand(err):
				p.b.log.Debug("editor bridge: the addon predates cmd_toolsets_update; its dock cannot show toolsets")
			case p.ctx.Err() == nil:
				p.b.log.Warn("editor bridge: pushing the enabled toolsets to the dock failed; the toggle itself is unaffected", "error", err)
			}
		}
		select {
		case <-p.ctx.Done():
			return
		case <-p.pushCh:
		}
	}
}

// isUnknownCommand reports the addon's refusal of a command it lacks.
func isUnknownCommand(err error) bool { return addonerr.IsUnknownCommand(err) }
