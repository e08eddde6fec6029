package bridge_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/events"
	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
)

// upgrade sends a WebSocket upgrade request to the bridge at addr by hand,
// with the given Host and extra headers, and returns the status and body.
// A 101 (accepted) socket is closed at once.
func upgrade(t *testing.T, addr, host string, header http.Header, websocketUpgrade bool) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, "http://"+addr+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	for k, v := range header {
		req.Header[k] = v
	}
	if websocketUpgrade {
		req.Header.Set("Connection", "Upgrade")
		req.Header.Set("Upgrade", "websocket")
		req.Header.Set("Sec-WebSocket-Version", "13")
		req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusSwitchingProtocols {
		return resp.StatusCode, ""
	}
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestRebindingRefused drives the DNS-rebinding attack: a web page at
// evil.com whose name now resolves to 127.0.0.1 opens a WebSocket to the
// bridge. Its Host and Origin name evil.com, which the WebSocket library's
// own check (Origin host == Host) lets through. Every such request must be
// refused with a status and a body saying why and how to fix it, and the
// real editor must stay attached, untouched.
func TestRebindingRefused(t *testing.T) {
	r := newRig(t, bridge.Options{})
	a := r.addon(fakeaddon.Options{ProjectPath: "/p/real/", GodotVersion: "4.5-stable"})
	r.attached()
	addr := r.b.Addr()
	_, port, _ := net.SplitHostPort(addr)
	for _, c := range []struct {
		name   string
		host   string
		origin string
		ws     bool
		status int
		body   []string
	}{
		{"rebound page", "evil.com:" + port, "http://evil.com:" + port, true, http.StatusForbidden, []string{"Origin", "addon"}},
		{"rebound name without Origin", "evil.com:" + port, "", true, http.StatusForbidden, []string{"evil.com", "127.0.0.1:" + port, bridge.URLEnv}},
		{"loopback page", "127.0.0.1:" + port, "http://127.0.0.1:" + port, true, http.StatusForbidden, []string{"Origin"}},
		{"null origin", "127.0.0.1:" + port, "null", true, http.StatusForbidden, []string{"Origin"}},
		{"loopback, another port", "127.0.0.1:1", "", true, http.StatusForbidden, []string{"127.0.0.1:1"}},
		{"no port is port 80", "localhost", "", true, http.StatusForbidden, []string{"localhost"}},
		{"plain GET", "127.0.0.1:" + port, "", false, http.StatusUpgradeRequired, []string{"editor bridge", "WebSocket"}},
		{"plain GET from a page", "evil.com:" + port, "http://evil.com:" + port, false, http.StatusForbidden, []string{"Origin"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := http.Header{}
			if c.origin != "" {
				h.Set("Origin", c.origin)
			}
			status, body := upgrade(t, addr, c.host, h, c.ws)
			if status != c.status {
				t.Fatalf("status %d, want %d; body %q", status, c.status, body)
			}
			for _, s := range c.body {
				if !strings.Contains(body, s) {
					t.Errorf("body %q does not mention %q", body, s)
				}
			}
		})
	}
	// The attack through the WebSocket library itself, as a page's script
	// would open it.
	_, resp, err := websocket.Dial(ctx, "ws://"+addr, &websocket.DialOptions{Host: "evil.com:" + port,
		HTTPHeader: http.Header{"Origin": {"http://evil.com:" + port}}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("rebound WebSocket: err %v, response %v", err, resp)
	}
	if a.Status() == fakeaddon.Replaced || len(a.Notices()) != 0 {
		t.Fatalf("the real editor was disturbed: status %v, notices %+v", a.Status(), a.Notices())
	}
	if len(r.ev.of(events.PeerReplaced)) != 0 {
		t.Fatal("a refused request replaced the editor")
	}
	if p, _ := r.lastPeer(); p == nil || p.ProjectPath != "/p/real/" {
		t.Fatalf("attached editor %+v", p)
	}
	if _, err := r.b.Request(ctx, "cmd_ping", nil, 0); err != nil {
		t.Fatalf("the real editor no longer answers: %v", err)
	}
	if got := r.b.Status().RefusedRequests; got < 9 {
		t.Errorf("status counts %d refused requests, want at least 9", got)
	}
}

// TestLoopbackNamesAccepted: the addon dials 127.0.0.1 by default, but a
// user may set GODOT_MCP_BRIDGE_URL to localhost or [::1]; all of them name
// this machine and are accepted, with the bridge's port.
func TestLoopbackNamesAccepted(t *testing.T) {
	r := newRig(t, bridge.Options{})
	_, port, _ := net.SplitHostPort(r.b.Addr())
	for _, host := range []string{"127.0.0.1:" + port, "localhost:" + port, "LocalHost:" + port, "127.1.2.3:" + port, "[::1]:" + port} {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		c, _, err := websocket.Dial(cctx, "ws://"+r.b.Addr(), &websocket.DialOptions{Host: host})
		cancel()
		if err != nil {
			t.Errorf("Host %s: %v", host, err)
			continue
		}
		_ = c.CloseNow()
	}
}

// TestNonLoopbackListenerKeepsTheOriginCheck: a bridge on a LAN address
// (token required) cannot check the Host against loopback names, but still
// refuses browsers.
func TestNonLoopbackListenerKeepsTheOriginCheck(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	_ = ln.Close()
	r := newRig(t, bridge.Options{URL: "ws://0.0.0.0:" + port, Token: "t"})
	addr := "127.0.0.1:" + port
	if status, body := upgrade(t, addr, "editor-box.lan:"+port, http.Header{"Origin": {"http://editor-box.lan:" + port}}, true); status != http.StatusForbidden {
		t.Fatalf("status %d %q", status, body)
	}
	if status, body := upgrade(t, addr, "editor-box.lan:"+port, nil, true); status != http.StatusSwitchingProtocols {
		t.Fatalf("an addon on another machine: status %d %q", status, body)
	}
	_ = r
}
