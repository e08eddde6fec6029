package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/syncbuf"
	"github.com/hashicorp/go-hclog"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveHTTP runs ListenAndServe on a free loopback port with o and returns
// the endpoint URL; the server stops when the test ends.
func serveHTTP(t *testing.T, e *env, o HTTPOptions) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan net.Addr, 1)
	o.Addr = "127.0.0.1:0"
	o.Ready = func(a net.Addr) { addrc <- a }
	done := make(chan error, 1)
	go func() { done <- e.srv.ListenAndServe(ctx, o) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ListenAndServe: %v", err)
		}
	})
	select {
	case a := <-addrc:
		return "http://" + a.String() + "/mcp"
	case err := <-done:
		t.Fatalf("ListenAndServe: %v", err)
	}
	return ""
}

func post(t *testing.T, url, body string, header map[string]string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func readBody(t *testing.T, resp *http.Response) string {
	t.Helper()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return string(b)
}

// RFC 6750: a 401 names the scheme the client must use.
func TestUnauthorizedCarriesBearerChallenge(t *testing.T) {
	e := newEnv(t, envOptions{})
	url := serveHTTP(t, e, HTTPOptions{Token: "operator-secret"})
	for name, hdr := range map[string]map[string]string{
		"no token":    nil,
		"wrong token": {"Authorization": "Bearer nope"},
	} {
		resp := post(t, url, initializeLine, hdr)
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("%s: status %d, want 401", name, resp.StatusCode)
		}
		if got := resp.Header.Get("WWW-Authenticate"); !strings.HasPrefix(got, "Bearer") {
			t.Errorf("%s: WWW-Authenticate %q, want a Bearer challenge", name, got)
		}
	}
}

// A garbage protocol version used to be compared as a string and routed
// to the wrong handler, then refused in plain text. The 2026-07-28 schema
// (SEP-2575, conformance sep-2575-server-unsupported-version-error) wants
// HTTP 400 with a JSON-RPC error -32022 for the request's id whose data
// lists the supported versions; a huge value is not echoed back whole.
func TestUnsupportedProtocolVersionIsRefusedClearly(t *testing.T) {
	e := newEnv(t, envOptions{})
	url := serveHTTP(t, e, HTTPOptions{})
	for _, tc := range []struct {
		version, body, wantID string
	}{
		{"zzzz", initializeLine, `1`},
		{"2099-01-01", `{"jsonrpc":"2.0","id":"abc","method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01"}}}`, `"abc"`},
		{"2024-01-01", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, `null`},
		{strings.Repeat("9", 200_000), `not json`, `null`},
	} {
		resp := post(t, url, tc.body, map[string]string{"Mcp-Protocol-Version": tc.version})
		body := readBody(t, resp)
		if resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("version %.20q: status %d, want 400 (%s)", tc.version, resp.StatusCode, body)
		}
		if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("version %.20q: Content-Type %q, want application/json", tc.version, ct)
		}
		var got struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   struct {
				Code    int64  `json:"code"`
				Message string `json:"message"`
				Data    struct {
					Supported []string `json:"supported"`
					Requested string   `json:"requested"`
				} `json:"data"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(body), &got); err != nil {
			t.Fatalf("version %.20q: body is not JSON-RPC: %v: %.300s", tc.version, err, body)
		}
		if got.JSONRPC != "2.0" || string(got.ID) != tc.wantID || got.Error.Code != -32022 {
			t.Errorf("version %.20q: jsonrpc %q id %s code %d, want 2.0, %s, -32022", tc.version, got.JSONRPC, got.ID, got.Error.Code, tc.wantID)
		}
		if !slices.Equal(got.Error.Data.Supported, mcp.SupportedProtocolVersions()) || !slices.Contains(got.Error.Data.Supported, "2026-07-28") {
			t.Errorf("version %.20q: data.supported %v, want %v", tc.version, got.Error.Data.Supported, mcp.SupportedProtocolVersions())
		}
		if !strings.Contains(got.Error.Message, "2025-11-25") || !strings.HasPrefix(tc.version, strings.TrimSuffix(got.Error.Data.Requested, "…")) {
			t.Errorf("version %.20q: message %q / requested %.80q", tc.version, got.Error.Message, got.Error.Data.Requested)
		}
		if len(body) > 1024 {
			t.Errorf("version %.20q: %d-byte answer echoes the input", tc.version, len(body))
		}
	}
}

// Abandoned sessions used to stay resident forever; now idle ones expire.
func TestHTTPSessionsExpire(t *testing.T) {
	e := newEnv(t, envOptions{})
	url := serveHTTP(t, e, HTTPOptions{SessionTimeout: 300 * time.Millisecond})
	for i := 0; i < 3; i++ {
		openSession(t, url, nil)
	}
	deadline := time.Now().Add(10 * time.Second)
	for e.srv.sessionCount() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d idle sessions still open", e.srv.sessionCount())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// closeSessions ends the sessions a test left open when it ends.
func closeSessions(t *testing.T, e *env) {
	t.Cleanup(func() {
		for ss := range e.srv.MCP().Sessions() {
			ss.Close()
		}
	})
}

// openSession initializes a 2025-11-25 session and returns its id.
func openSession(t *testing.T, url string, hdr map[string]string) string {
	t.Helper()
	resp := post(t, url, initializeLine, hdr)
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("initialize: status %d: %s", resp.StatusCode, readBody(t, resp))
	}
	readBody(t, resp)
	return id
}

// sessionAlive reports whether the server still knows session id: a ping
// on it answers 200, an evicted or expired one 404.
func sessionAlive(t *testing.T, url, id string, hdr map[string]string) bool {
	t.Helper()
	h := map[string]string{"Mcp-Session-Id": id, "Mcp-Protocol-Version": legacy}
	for k, v := range hdr {
		h[k] = v
	}
	resp := post(t, url, `{"jsonrpc":"2.0","id":7,"method":"ping"}`, h)
	readBody(t, resp)
	switch resp.StatusCode {
	case http.StatusOK:
		return true
	case http.StatusNotFound:
		return false
	}
	t.Fatalf("ping on session %s: status %d", id, resp.StatusCode)
	return false
}

// listen opens the session's GET stream, the request a listening client
// keeps in flight, until the test ends.
func listen(t *testing.T, url, id string, hdr map[string]string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", id)
	req.Header.Set("Mcp-Protocol-Version", legacy)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); resp.Body.Close() })
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET stream of %s: status %d", id, resp.StatusCode)
	}
}

// One low-privilege token used to be able to open the shared cap's worth
// of sessions and lock everyone else, the operator included, out until
// its sessions idled out 30 minutes later (while the 503 said to retry in
// 30 s). Now each principal has its own cap, a new session past a cap
// evicts the least recently used idle session, and only a server whose
// sessions are all busy refuses one.
func TestHTTPSessionCapsPerPrincipalAndEviction(t *testing.T) {
	const op, low = "operator-secret", "low-secret"
	opts := HTTPOptions{
		Token: op, HasPrincipals: true, MaxSessions: 4, MaxSessionsPerPrincipal: 2,
		Principal: func(tok string) (string, string, bool) { return "ci-bot", "", tok == low },
	}
	bearer := func(tok string) map[string]string { return map[string]string{"Authorization": "Bearer " + tok} }

	t.Run("a flood of one token evicts its own idle sessions", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		url := serveHTTP(t, e, opts)
		closeSessions(t, e)
		opFirst := openSession(t, url, bearer(op))
		var ids []string
		for range 20 {
			ids = append(ids, openSession(t, url, bearer(low)))
		}
		for i, id := range ids {
			if want := i >= len(ids)-2; sessionAlive(t, url, id, bearer(low)) != want {
				t.Errorf("ci-bot session %d alive = %v, want %v (only its 2 newest survive)", i, !want, want)
			}
		}
		if !sessionAlive(t, url, opFirst, bearer(op)) {
			t.Error("the operator's session was evicted by another principal's flood")
		}
		openSession(t, url, bearer(op))
	})

	t.Run("busy sessions are kept and the refusal names the cap", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		url := serveHTTP(t, e, opts)
		closeSessions(t, e)
		for range 2 {
			listen(t, url, openSession(t, url, bearer(low)), bearer(low))
		}
		resp := post(t, url, initializeLine, bearer(low))
		body := readBody(t, resp)
		if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "--max-sessions-per-principal") ||
			!strings.Contains(body, `"ci-bot"`) || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("third busy ci-bot session: status %d %q, want 503 naming the per-principal limit", resp.StatusCode, body)
		}
		// The shared cap: the operator fills the last two slots, busy
		// too, so a fifth session has nothing to evict.
		for range 2 {
			listen(t, url, openSession(t, url, bearer(op)), bearer(op))
		}
		resp = post(t, url, initializeLine, bearer(op))
		if body := readBody(t, resp); resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "--max-sessions") {
			t.Fatalf("fifth session with every session busy: status %d %q, want 503 naming the limit", resp.StatusCode, body)
		}
	})

	t.Run("the shared cap evicts the least recently used idle session", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		url := serveHTTP(t, e, HTTPOptions{MaxSessions: 3})
		closeSessions(t, e)
		a, b, c := openSession(t, url, nil), openSession(t, url, nil), openSession(t, url, nil)
		sessionAlive(t, url, a, nil) // a is now more recently used than b
		d := openSession(t, url, nil)
		for _, tc := range []struct {
			name, id string
			alive    bool
		}{{"a", a, true}, {"b", b, false}, {"c", c, true}, {"d", d, true}} {
			if got := sessionAlive(t, url, tc.id, nil); got != tc.alive {
				t.Errorf("session %s alive = %v, want %v", tc.name, got, tc.alive)
			}
		}
	})
}

// A client that sends its body slowly is cut off after the body timeout
// instead of holding a connection open.
func TestSlowBodyIsCutOff(t *testing.T) {
	e := newEnv(t, envOptions{})
	url := serveHTTP(t, e, HTTPOptions{BodyTimeout: 200 * time.Millisecond})
	host := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "POST /mcp HTTP/1.1\r\nHost: "+host+"\r\nContent-Type: application/json\r\n"+
		"Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":")
	conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	var got bytes.Buffer
	_, err = io.Copy(&got, conn) // returns when the server closes the connection
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("the server held a slow-body connection open")
	}
}

// The body deadline is lifted once the body is read: a long-lived stream
// (here the 2025-11-25 GET stream) still delivers list_changed after it.
func TestBodyDeadlineSparesResponseStreams(t *testing.T) {
	e := newEnv(t, envOptions{godot: "4.5"})
	url := serveHTTP(t, e, HTTPOptions{BodyTimeout: 100 * time.Millisecond})
	changed := make(chan struct{}, 4)
	mc := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	cs, err := mc.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	time.Sleep(400 * time.Millisecond) // well past the body deadline
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "godot_enable_toolset", Arguments: map[string]any{"toolsets": []string{"runtime"}}})
	if err != nil || res.IsError {
		t.Fatalf("enable: %v %+v", err, res)
	}
	waitFor(t, changed, "list_changed on the GET stream")
}

// The SDK warns once per session for each undelivered notification; a
// toggle with thousands of dead sessions must cost one summary line.
func TestUndeliveredNotificationsAreSummarised(t *testing.T) {
	var buf syncbuf.Buffer
	log := hclog.New(&hclog.LoggerOptions{Output: &buf, Level: hclog.Debug})
	h := newSlogHandler(log)
	// The window is long so a loaded machine cannot split the burst; the
	// test flushes by hand, as the timer would at the window's end.
	h.fails = newNotifyFailures(log, time.Hour)
	sl := slog.New(h)
	for i := 0; i < 3000; i++ {
		sl.Warn(fmt.Sprintf("calling notifications/tools/list_changed: session %d: connection closed", i))
	}
	sl.Warn("something else") // other warnings pass through untouched
	if strings.Contains(buf.String(), "calling notifications/") {
		t.Fatal("a per-session warning reached the log before the summary")
	}
	h.fails.Flush()
	if !strings.Contains(buf.String(), "suppressed 3000 similar log lines") || !strings.Contains(buf.String(), "notifications could not be delivered") {
		t.Fatalf("no summary line; log:\n%.2000s", buf.String())
	}
	if n := strings.Count(buf.String(), "\n"); n != 2 {
		t.Fatalf("%d log lines, want the summary and the other warning:\n%.2000s", n, buf.String())
	}
}
