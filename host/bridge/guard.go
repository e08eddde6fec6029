package bridge

import (
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
)

// refusal is why the bridge turns an HTTP request away before it becomes
// a socket: the status, a short reason for the log and events, and the
// body the client gets, which says how to fix it.
type refusal struct {
	status int
	reason string
	body   string
}

// guard decides whether r may become an editor socket; nil means it may.
//
// The attacker it stops is a web page. A page cannot set the Host or
// Origin headers of its WebSocket: after DNS rebinding (evil.com now
// resolving to 127.0.0.1) it reaches the loopback port with
// "Host: evil.com:PORT" and "Origin: http://evil.com:PORT", which the
// WebSocket library's own check (Origin's host equals Host) lets through.
// So, before anything is read from the socket and long before an editor
// can be replaced:
//   - any Origin header is refused: browsers always send one on a
//     WebSocket handshake, and the addon (Godot's WebSocketPeer) never
//     does, so no Origin, not even a loopback one, belongs here;
//   - on a loopback listener the Host must name this machine's loopback
//     (127.0.0.0/8, ::1, localhost) with the bridge's own port, as the
//     addon's URL does; a rebound name never passes.
//
// A non-loopback listener has a token (New insists), which stops what the
// Host check cannot.
func (b *Bridge) guard(r *http.Request) *refusal {
	if origin, ok := r.Header["Origin"]; ok {
		return &refusal{status: http.StatusForbidden, reason: "browser_origin", body: fmt.Sprintf(
			"Forbidden: this is the godot-mcp editor bridge, and it refuses requests from web pages (Origin %s). "+
				"Only the godot-mcp addon in the Godot editor connects here, and it sends no Origin header; "+
				"if this is your own client, do not send one.", quoteHeader(strings.Join(origin, ", ")))}
	}
	if !b.loopback {
		return nil
	}
	port := b.port()
	if !loopbackHostPort(r.Host, port) {
		return &refusal{status: http.StatusForbidden, reason: "host_not_loopback", body: fmt.Sprintf(
			"Forbidden: Host %s is not this editor bridge's loopback address (127.0.0.1:%s, localhost:%s or [::1]:%s); "+
				"the bridge answers only requests addressed to this machine, so that a web page cannot reach the editor through a name "+
				"it re-points at 127.0.0.1. Point the addon at ws://127.0.0.1:%s (%s in the editor's environment).",
			quoteHeader(r.Host), port, port, port, port, URLEnv)}
	}
	if !isUpgrade(r) {
		return &refusal{status: http.StatusUpgradeRequired, reason: "not_websocket", body: fmt.Sprintf(
			"Upgrade Required: this is the godot-mcp editor bridge; only the godot-mcp addon in the Godot editor connects here, "+
				"over WebSocket (ws://127.0.0.1:%s). MCP clients talk to `godot-mcp serve` over stdio, or over --http.", port)}
	}
	return nil
}

// refuse answers r with f and records it.
func (b *Bridge) refuse(w http.ResponseWriter, r *http.Request, f *refusal) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Connection", "close")
	w.WriteHeader(f.status)
	_, _ = fmt.Fprintln(w, f.body)
	b.mu.Lock()
	b.refusedRequests++
	b.mu.Unlock()
	b.logRefusedRequest("editor bridge: refused a request that is not from the addon",
		"remote", r.RemoteAddr, "reason", f.reason, "status", f.status, "host", cut(r.Host), "origin", cut(r.Header.Get("Origin")))
}

// port is the port the bridge listens on, as the addon's URL names it.
func (b *Bridge) port() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	addr := b.addr
	if b.ln != nil {
		addr = b.ln.Addr().String()
	}
	_, port, _ := net.SplitHostPort(addr)
	return port
}

// loopbackHostPort reports whether a Host header names a loopback address
// with port. A Host without a port means the scheme's default, 80.
func loopbackHostPort(hostport, port string) bool {
	host, p, err := net.SplitHostPort(hostport)
	if err != nil {
		host, p = strings.TrimSuffix(strings.TrimPrefix(hostport, "["), "]"), "80"
	}
	if n, err := strconv.Atoi(p); err != nil || strconv.Itoa(n) != port {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// isUpgrade reports whether r asks for a WebSocket at all; anything else
// gets a page saying what this port is instead of the library's protocol
// error.
func isUpgrade(r *http.Request) bool {
	return headerHas(r.Header, "Connection", "upgrade") && headerHas(r.Header, "Upgrade", "websocket")
}

func headerHas(h http.Header, key, token string) bool {
	for _, v := range h.Values(key) {
		for _, t := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}

// quoteHeader quotes a header value for a reply, cut short (cut).
func quoteHeader(s string) string { return strconv.Quote(cut(s)) }

// cut shortens a header value for a reply or a log line: it comes from
// whoever sent the request, and headers may be up to a megabyte.
func cut(s string) string {
	const n = 200
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
