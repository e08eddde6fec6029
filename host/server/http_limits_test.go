package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
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
// to the wrong handler; now it is refused, naming the versions spoken, and
// a huge value is not echoed back whole.
func TestUnsupportedProtocolVersionIsRefusedClearly(t *testing.T) {
	e := newEnv(t, envOptions{})
	url := serveHTTP(t, e, HTTPOptions{})
	for _, v := range []string{"zzzz", "2099-01-01", strings.Repeat("9", 200_000)} {
		resp := post(t, url, initializeLine, map[string]string{"Mcp-Protocol-Version": v})
		body := readBody(t, resp)
		if resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("version %.20q: status %d, want 400 (%s)", v, resp.StatusCode, body)
		}
		if !strings.Contains(body, "2025-11-25") || !strings.Contains(body, "2026-07-28") {
			t.Errorf("version %.20q: body %q does not name the versions spoken", v, body)
		}
		if len(body) > 1024 {
			t.Errorf("version %.20q: %d-byte answer echoes the input", v, len(body))
		}
	}
}

// Abandoned sessions used to stay resident forever; now idle ones expire
// and their number is capped.
func TestHTTPSessionsExpireAndAreCapped(t *testing.T) {
	e := newEnv(t, envOptions{})
	url := serveHTTP(t, e, HTTPOptions{SessionTimeout: 300 * time.Millisecond, MaxSessions: 3})
	for i := 0; i < 3; i++ {
		resp := post(t, url, initializeLine, nil)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Mcp-Session-Id") == "" {
			t.Fatalf("session %d: status %d: %s", i, resp.StatusCode, readBody(t, resp))
		}
	}
	resp := post(t, url, initializeLine, nil)
	if body := readBody(t, resp); resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "--max-sessions") {
		t.Fatalf("fourth session: status %d %q, want 503 naming the limit", resp.StatusCode, body)
	}
	deadline := time.Now().Add(10 * time.Second)
	for e.srv.sessionCount() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d idle sessions still open", e.srv.sessionCount())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if resp := post(t, url, initializeLine, nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("after expiry a new session was refused: %d", resp.StatusCode)
	}
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
