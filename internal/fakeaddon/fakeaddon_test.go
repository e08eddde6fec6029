package fakeaddon_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"go.uber.org/goleak"

	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestQuirks drives the fake addon from a bare WebSocket server and checks
// its frames byte for byte against what the GDScript addon sends.
func TestQuirks(t *testing.T) {
	ctx := context.Background()
	conns := make(chan *websocket.Conn, 4)
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		conns <- c
		<-stop // hijacked: the request context never ends
	}))
	defer srv.Close()
	defer close(stop)
	a := fakeaddon.Start(fakeaddon.Options{
		URL: "ws" + strings.TrimPrefix(srv.URL, "http"), Token: "tok", ProjectPath: "/p/", GodotVersion: "4.4.1-stable", AddonVersion: "2.0",
		RetryMin: 10 * time.Millisecond, RetryMax: 20 * time.Millisecond, Logf: t.Logf,
	})
	defer a.Close()
	c := <-conns
	defer c.CloseNow()
	read := func() string {
		t.Helper()
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		_, b, err := c.Read(rctx)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	exchange := func(send, want string) {
		t.Helper()
		if err := c.Write(ctx, websocket.MessageText, []byte(send)); err != nil {
			t.Fatal(err)
		}
		if got := read(); got != want {
			t.Fatalf("sent %s\n got %s\nwant %s", send, got, want)
		}
	}
	if got := read(); got != `{"command":"cmd_auth","id":"auth","params":{"token":"tok"}}` {
		t.Fatalf("auth %s", got)
	}
	if got := read(); got != `{"command":"cmd_peer_hello","id":"peer_hello","params":{"addon_version":"2.0","godot_version":"4.4.1-stable","project_path":"/p/"}}` {
		t.Fatalf("hello %s", got)
	}
	exchange(`{"id":"1","command":"cmd_ping"}`, `{"id":"1","ok":true,"result":{"pong":true}}`)
	exchange(`{"id":7,"command":"cmd_ping","params":{}}`, `{"id":"7.0","ok":true,"result":{"pong":true}}`)
	exchange(`not json`, `{"error":"VALIDATION_ERROR","hint":"Malformed JSON envelope.","id":"","ok":false}`)
	exchange(`{"id":"2"}`, `{"error":"VALIDATION_ERROR","hint":"Envelope is missing 'command'.","id":"2","ok":false}`)
	exchange(`{"id":"3","command":"cmd_nope"}`, `{"error":"VALIDATION_ERROR","hint":"Unknown command 'cmd_nope'.","id":"3","ok":false}`)
	exchange(`{"id":"4","command":"cmd_ping","params":[]}`, `{"error":"VALIDATION_ERROR","hint":"'params' must be an object.","id":"4","ok":false}`)
	exchange(`{"id":"5","command":"cmd_undo","params":{"count":0}}`, `{"error":"VALIDATION_ERROR","hint":"count must be >= 1","id":"5","ok":false}`)
	exchange(`{"id":"6","command":"cmd_toolsets_update","params":{"enabled":["core",3,""]}}`, `{"id":"6","ok":true,"result":{"count":2,"received":true}}`)
	if got, n := a.Toolsets(); strings.Join(got, ",") != "core,3.0" || n != 1 {
		t.Fatalf("toolsets %v %d", got, n)
	}
	// An ok:true notice is ignored: the next frame is the ping's reply.
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"id":"n","ok":true}`)); err != nil {
		t.Fatal(err)
	}
	exchange(`{"id":"8","command":"cmd_ping"}`, `{"id":"8","ok":true,"result":{"pong":true}}`)

	// An ok:false notice: logged, the link dropped, and the addon redials.
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"id":"x","ok":false,"error":"VALIDATION_ERROR","hint":"go away","required":"bridge_token"}`)); err != nil {
		t.Fatal(err)
	}
	c = <-conns
	defer c.CloseNow()
	read()
	read() // auth and hello again
	if n := a.Notices(); len(n) != 1 || n[0].Required != "bridge_token" || n[0].Hint != "go away" {
		t.Fatalf("notices %+v", n)
	}

	// PEER_REPLACED: the addon stops for good.
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"id":"peer_replaced","ok":false,"error":"PEER_REPLACED","hint":"Another editor took over the bridge."}`)); err != nil {
		t.Fatal(err)
	}
	if err := a.WaitStatus(fakeaddon.Replaced, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	if a.Connects() != 2 {
		t.Fatalf("%d connects after PEER_REPLACED", a.Connects())
	}
	log := strings.Join(a.DockLog(), "\n")
	if !strings.Contains(log, "server: PEER_REPLACED — Another editor took over the bridge.") {
		t.Fatalf("dock log %q", log)
	}
}
