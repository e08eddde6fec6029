package bridge

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/hashicorp/go-hclog"

	"github.com/godot-mcp/godot-mcp/host/events"
	"github.com/godot-mcp/godot-mcp/internal/logsummary"
)

// Timeouts of the contract (ADDON-PROTOCOL.md §3.3).
const (
	// DefaultTimeout bounds a request when the caller names no timeout.
	DefaultTimeout = 10 * time.Second
	// authTimeout is how long a new socket has to send cmd_auth when the
	// host has a token.
	authTimeout = 2 * time.Second
	// handshakeTimeout bounds cmd_get_addon_info, cmd_server_hello and
	// cmd_toolsets_update.
	handshakeTimeout = 5 * time.Second
	// helloWait is how long an attached editor's announcement waits for its
	// cmd_peer_hello. The addon sends it in the same frame as its auth, so
	// only an addon older than the hello ever makes the announcement wait.
	helloWait = time.Second
	// preAuthReadLimit bounds what an unauthenticated socket can make the
	// host buffer; cmd_auth and cmd_peer_hello are a few hundred bytes.
	preAuthReadLimit = 64 << 10
	// floodWindow and floodBurst limit what a peer can make the host log:
	// per kind of line (junk frames, refused requests, …) the first
	// floodBurst of each floodWindow are logged, the rest counted in one
	// summary line at the window's end (logsummary).
	floodWindow = time.Minute
	floodBurst  = 5
	// rebindEvery is how often a host whose bridge address is taken tries
	// again, so that it takes over when the other listener goes away.
	rebindEvery = 5 * time.Second
)

// Options configure a Bridge. Only URL is usually set; the zero value of
// every other field is a working default.
type Options struct {
	// URL is where to listen, ws://HOST:PORT; "" means DefaultURL. The path
	// is ignored, as the addon's reference server does.
	URL string
	// Token, when set, must arrive in the editor's cmd_auth within 2 s or the
	// socket is closed. A URL whose host is not loopback requires it.
	Token string
	// TokenFile is the per-install token file Token was read from
	// (DefaultTokenFile), "" when it came from GODOT_MCP_BRIDGE_TOKEN.
	// Refusals then tell the user to start the editor with
	// GODOT_MCP_BRIDGE_TOKEN="$(godot-mcp bridge-token)".
	TokenFile string
	// HostVersion is sent to the editor in cmd_server_hello for its dock.
	HostVersion string
	// Logger receives the bridge's log lines (nil: discard).
	Logger hclog.Logger
	// Bus receives peer events: attached, replaced, detached, refused.
	Bus *events.Bus
	// OnPeer is told about every change of the attached editor: its
	// identity, or nil when no editor is attached. Calls are made one at a
	// time, in order, on a goroutine of the bridge, so OnPeer may take its
	// time (the host re-checks the enabled set there); only the latest
	// state is delivered when changes come faster than OnPeer returns.
	OnPeer func(*Peer)
	// Enabled returns the enabled toolsets to push to the editor's dock on
	// attach and after every PushToolsets. nil: the set PushToolsets was
	// last given.
	Enabled func() []string
	// Timeout is the default request timeout; 0 means DefaultTimeout.
	Timeout time.Duration
}

// Peer is the identity of the attached editor.
type Peer struct {
	// ProjectPath, GodotVersion and AddonVersion come from cmd_peer_hello;
	// GodotVersion and AddonVersion fall back to cmd_get_addon_info for
	// addons older than the hello.
	ProjectPath  string
	GodotVersion string
	AddonVersion string
	// Remote is the editor's network address.
	Remote string
	// ConnectedAt is when the editor attached.
	ConnectedAt time.Time
}

// Bridge is the host's link to a Godot editor running the godot-mcp addon.
// See the package documentation.
type Bridge struct {
	opts     Options
	log      hclog.Logger
	lim      *logsummary.Limiter // log lines a peer can cause, rate-limited
	url      string
	addr     string
	loopback bool // the listener is loopback-only: Host is checked (guard)
	tokenSum [sha256.Size]byte

	ctx    context.Context // ends at Close
	cancel context.CancelFunc
	wg     sync.WaitGroup // every goroutine the bridge starts

	active atomic.Pointer[peer] // the attached editor, nil when none
	nextID atomic.Uint64        // request ids, "1", "2", …
	sent   atomic.Uint64        // commands written to editors

	mu        sync.Mutex
	srv       *http.Server
	ln        net.Listener
	listenErr error
	closed    bool
	conns     map[*peer]struct{} // every open socket, attached or not
	enabled   []string           // last PushToolsets
	lastErr   string
	lastErrAt time.Time
	replaced  int
	refused   int
	// refusedRequests counts HTTP requests turned away before they became
	// a socket (guard).
	refusedRequests int

	notify chan struct{} // wakes the OnPeer goroutine (capacity 1)
}

// New checks the options and returns a bridge that is not yet listening;
// call Start. It fails for a URL it cannot listen on and for a non-loopback
// URL without a token: anyone who can reach the port could otherwise drive
// the editor.
func New(opts Options) (*Bridge, error) {
	if opts.URL == "" {
		opts.URL = DefaultURL
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	addr, loopback, err := listenAddress(opts.URL)
	if err != nil {
		return nil, err
	}
	if !loopback && opts.Token == "" {
		return nil, fmt.Errorf("bridge URL %s is not a loopback address, and %s is not set: "+
			"anyone who reaches the port could drive the editor; set %s in both the host's and the editor's environment, "+
			"or use ws://127.0.0.1:PORT", opts.URL, TokenEnv, TokenEnv)
	}
	log := opts.Logger
	if log == nil {
		log = hclog.NewNullLogger()
	}
	b := &Bridge{
		opts:     opts,
		log:      log,
		lim:      logsummary.New(log, floodWindow, floodBurst),
		url:      opts.URL,
		addr:     addr,
		loopback: loopback,
		conns:    map[*peer]struct{}{},
		notify:   make(chan struct{}, 1),
	}
	if opts.Token != "" {
		b.tokenSum = sha256.Sum256([]byte(opts.Token))
	}
	b.ctx, b.cancel = context.WithCancel(context.Background())
	b.srv = &http.Server{
		Handler:           http.HandlerFunc(b.serveHTTP),
		ReadHeaderTimeout: 5 * time.Second,
		ErrorLog:          log.StandardLogger(&hclog.StandardLoggerOptions{InferLevels: true}),
	}
	b.wg.Add(1)
	go b.notifier()
	return b, nil
}

// Hooks connect the bridge to parts of the host that are built after it
// (the supervisor needs the bridge's HostEditor, the gate needs the
// supervisor, and the bridge's peer changes drive the gate). They are given
// to Start, before the bridge listens, so no editor can attach before they
// are in place. A nil hook keeps the one given in Options.
type Hooks struct {
	// OnPeer: see Options.OnPeer.
	OnPeer func(*Peer)
	// Enabled: see Options.Enabled.
	Enabled func() []string
}

// Start listens at the bridge URL. When the address is taken (another host
// serves an editor there), Start logs why, keeps the host running without
// an editor link and tries again every few seconds in the background; the
// error is returned so the caller can say so too. It returns nil once
// listening.
func (b *Bridge) Start(h Hooks) error {
	if h.OnPeer != nil {
		b.opts.OnPeer = h.OnPeer
	}
	if h.Enabled != nil {
		b.opts.Enabled = h.Enabled
	}
	err := b.listen()
	if err == nil {
		return nil
	}
	b.log.Warn("editor bridge cannot listen; retrying in the background", "url", b.url, "error", err)
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		t := time.NewTicker(rebindEvery)
		defer t.Stop()
		for {
			select {
			case <-b.ctx.Done():
				return
			case <-t.C:
				if b.listen() == nil {
					b.log.Info("editor bridge listening", "url", b.url)
					return
				}
			}
		}
	}()
	return err
}

func (b *Bridge) listen() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return errors.New("the bridge is closed")
	}
	if b.ln != nil {
		return nil
	}
	ln, err := net.Listen("tcp", b.addr)
	if err != nil {
		b.listenErr = fmt.Errorf("listening at %s: %w; another godot-mcp host may be serving the editor there: "+
			"stop it, or give each host its own port with --bridge ws://127.0.0.1:PORT and the same %s in the editor's environment",
			b.url, err, URLEnv)
		return b.listenErr
	}
	b.ln, b.listenErr = ln, nil
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		_ = b.srv.Serve(ln) // returns at Close
	}()
	return nil
}

// Addr returns the address the bridge listens at ("127.0.0.1:9080"), or ""
// while it is not listening. Tests listen on port 0 and dial Addr.
func (b *Bridge) Addr() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ln == nil {
		return ""
	}
	return b.ln.Addr().String()
}

// Close stops listening, closes every editor socket and fails every pending
// request with BRIDGE_DISCONNECTED. It waits for the bridge's goroutines.
func (b *Bridge) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	conns := make([]*peer, 0, len(b.conns))
	for p := range b.conns {
		conns = append(conns, p)
	}
	b.mu.Unlock()
	b.cancel()
	err := b.srv.Close() // the listener; hijacked sockets are ours
	for _, p := range conns {
		p.fail(disconnected("the host is shutting down"))
		p.closeNow()
	}
	b.wg.Wait()
	b.lim.Close() // the summaries of what was suppressed
	return err
}

// serveHTTP upgrades a connection from the addon and serves it until it
// closes. A request the guard refuses never becomes a socket, so it can
// neither read a command nor replace the attached editor.
func (b *Bridge) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if f := b.guard(r); f != nil {
		b.refuse(w, r, f)
		return
	}
	// No Origin reaches this point (guard), so the library's own origin
	// check has nothing left to compare; it stays on regardless.
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		// Accept has answered with the protocol error (400 and its reason).
		b.mu.Lock()
		b.refusedRequests++
		b.mu.Unlock()
		b.logRefusedRequest("editor bridge: refused a malformed WebSocket upgrade", "remote", r.RemoteAddr, "error", err)
		return
	}
	p := newPeer(b, c, r.RemoteAddr)
	if !b.track(p) {
		p.closeNow()
		return
	}
	defer b.untrack(p)
	p.serve()
}

// logRefusedRequest logs a request refused before it became a socket.
// Any web page can send them, so they are rate-limited as one kind.
func (b *Bridge) logRefusedRequest(msg string, args ...any) {
	b.lim.Log(hclog.Warn, "refused_request", msg, args...)
}

// track registers an open socket; its handler goroutine then counts in the
// wait group, so Close waits for it. It fails once the bridge is closed.
func (b *Bridge) track(p *peer) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return false
	}
	b.conns[p] = struct{}{}
	b.wg.Add(1)
	return true
}

func (b *Bridge) untrack(p *peer) {
	b.mu.Lock()
	delete(b.conns, p)
	b.mu.Unlock()
	b.wg.Done()
}

// tokenFix says how an editor gets the host's token, for refusals.
func (b *Bridge) tokenFix() string {
	if b.opts.TokenFile != "" {
		return fmt.Sprintf("start the editor with the host's token in its environment: %s=\"$(%s)\" godot --editor --path PROJECT "+
			"(the token is this user's, in %s)", TokenEnv, TokenCommand, b.opts.TokenFile)
	}
	return "set " + TokenEnv + " in the editor's environment to the same value as in the godot-mcp host's, then restart the editor"
}

// tokenOK compares a token from cmd_auth with the host's in constant time.
// Both are hashed first, so neither the content nor the length of the
// host's token leaks through timing.
func (b *Bridge) tokenOK(token string) bool {
	sum := sha256.Sum256([]byte(token))
	return subtle.ConstantTimeCompare(sum[:], b.tokenSum[:]) == 1
}

// attach makes p the active editor, replacing the previous one: its pending
// requests fail with BRIDGE_DISCONNECTED, it gets the PEER_REPLACED notice
// and its socket is closed. Announcing p (event, log, OnPeer) waits for its
// hello: see peer.handshake.
func (b *Bridge) attach(p *peer) (old *peer) {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	old = b.active.Swap(p)
	if old != nil {
		b.replaced++
	}
	b.mu.Unlock()
	if old != nil {
		old.replacedBy.Store(true)
		old.fail(disconnected("Replaced by a new editor connection."))
		b.wg.Add(1)
		go func() {
			defer b.wg.Done()
			hint := "Another editor took over the bridge."
			if np := p.identity().ProjectPath; np != "" {
				hint = fmt.Sprintf("Another editor (project %s) took over the bridge.", np)
			}
			old.closeWithNotice(notice("peer_replaced", wirePeerReplaced, hint, ""), false)
		}()
	}
	return old
}

// detach forgets p if it is still the active editor.
func (b *Bridge) detach(p *peer, why error) {
	if !b.active.CompareAndSwap(p, nil) {
		return
	}
	id := p.identity()
	reason := "the editor closed the connection"
	var ce websocket.CloseError
	switch {
	case errors.As(why, &ce):
		reason = fmt.Sprintf("the editor closed the connection (%d %s)", ce.Code, ce.Reason)
	case b.ctx.Err() != nil:
		reason = "the host is shutting down"
	case why != nil:
		reason = "the connection broke: " + why.Error()
	}
	p.fail(disconnected("the Godot editor disconnected: " + reason))
	if !p.announced.Load() {
		// Gone before its hello: it was never announced, so its leaving
		// is no news either.
		b.log.Debug("editor left before announcing itself", "remote", p.remote, "reason", reason)
		b.peerChanged()
		return
	}
	b.log.Info("editor detached", "project", id.ProjectPath, "reason", reason)
	b.emit(events.Event{Kind: events.PeerDetached, Message: fmt.Sprintf("Godot editor detached (project %s): %s", orUnknown(id.ProjectPath), reason),
		Fields: map[string]any{"project_path": id.ProjectPath, "reason": reason}})
	b.peerChanged()
}

// peerChanged wakes the OnPeer goroutine.
func (b *Bridge) peerChanged() {
	select {
	case b.notify <- struct{}{}:
	default: // already pending; it will read the latest state
	}
}

// notifier delivers the attached editor to OnPeer, one call at a time.
func (b *Bridge) notifier() {
	defer b.wg.Done()
	var last *Peer
	first := true
	for {
		select {
		case <-b.ctx.Done():
			return
		case <-b.notify:
		}
		var cur *Peer
		if p := b.active.Load(); p != nil && p.announced.Load() {
			id := p.identity()
			cur = &id
		}
		if !first && samePeer(last, cur) {
			continue
		}
		first, last = false, cur
		if b.opts.OnPeer != nil {
			b.opts.OnPeer(cur)
		}
	}
}

func samePeer(a, b *Peer) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// PushToolsets tells the attached editor's dock which toolsets are enabled.
// It never blocks and never fails: the push happens on the editor's own
// goroutine, pushes that come faster than the editor answers are merged
// (the dock shows only the latest set), and a failed push is logged. A newly
// attached editor gets the current set without asking.
func (b *Bridge) PushToolsets(enabled []string) {
	b.mu.Lock()
	b.enabled = append([]string(nil), enabled...)
	b.mu.Unlock()
	if p := b.active.Load(); p != nil {
		p.wakePush()
	}
}

// enabledSet is what a push sends.
func (b *Bridge) enabledSet() []string {
	if b.opts.Enabled != nil {
		return b.opts.Enabled()
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.enabled...)
}

// noteError remembers the latest failure for diagnostics.
func (b *Bridge) noteError(msg string) {
	b.mu.Lock()
	b.lastErr, b.lastErrAt = msg, time.Now()
	b.mu.Unlock()
}

func (b *Bridge) emit(e events.Event) {
	if b.opts.Bus != nil {
		b.opts.Bus.Emit(e)
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "(unknown)"
	}
	return s
}
