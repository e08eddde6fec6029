//lint:file-ignore SA1019 the test checks where the deprecated logging capability is declared.

package server

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The server declares tools, prompts, resources (and, for 2025-11-25
// sessions, logging) and serves exactly that: completions and resource
// subscriptions, which it does not declare, answer "method not found", and
// stateless discovery (2026-07-28) does not declare logging, which only
// reaches 2025-11-25 sessions.
func TestCapabilitiesDeclaredAreServed(t *testing.T) {
	e := newEnv(t, envOptions{godot: "4.5"})
	ctx := context.Background()
	for _, v := range protocols {
		c := e.connect(t, v)
		caps := c.cs.InitializeResult().Capabilities
		if caps.Tools == nil || caps.Prompts == nil || caps.Resources == nil || caps.Resources.Subscribe || caps.Completions != nil {
			t.Errorf("%s: capabilities %+v", v, caps)
		}
		if (caps.Logging != nil) != (v == legacy) {
			t.Errorf("%s: logging declared = %v", v, caps.Logging != nil)
		}
	}
	// The go-sdk client does not send requests for capabilities the server
	// did not declare; other clients (and the conformance suite) do.
	ct, st := mcp.NewInMemoryTransports()
	ss, err := e.srv.Connect(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	conn, err := ct.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	send := func(id int64, method, params string) *jsonrpc.Response {
		t.Helper()
		msg := &jsonrpc.Request{Method: method, Params: json.RawMessage(params)}
		if id != 0 {
			msg.ID, _ = jsonrpc.MakeID(float64(id))
		}
		if err := conn.Write(ctx, msg); err != nil {
			t.Fatal(err)
		}
		if id == 0 {
			return nil
		}
		for {
			m, err := conn.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if r, ok := m.(*jsonrpc.Response); ok {
				return r
			}
		}
	}
	send(1, "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`)
	send(0, "notifications/initialized", `{}`)
	stateless := `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}`
	id := int64(2)
	for _, params := range []string{`{}`, stateless} {
		for _, m := range []string{"prompts/list", "resources/list", "resources/templates/list"} {
			if r := send(id, m, params); r.Error != nil {
				t.Errorf("%s %s: %v", m, params, r.Error)
			}
			id++
		}
		for _, m := range []struct{ method, params string }{
			{"completion/complete", `{"ref":{"type":"ref/prompt","name":"build_scene"},"argument":{"name":"scene_path","value":"res://"}}`},
			{"resources/subscribe", `{"uri":"godot://project/info"}`},
		} {
			p := m.params
			if params != `{}` {
				p = params[:len(params)-1] + "," + m.params[1:]
			}
			r := send(id, m.method, p)
			id++
			var werr *jsonrpc.Error
			if !errors.As(r.Error, &werr) || werr.Code != jsonrpc.CodeMethodNotFound {
				t.Errorf("%s %s: %+v (result %s), want method not found", m.method, p, r.Error, r.Result)
			}
		}
	}
}
