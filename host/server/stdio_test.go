package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// stdioPeer drives serveScreened over pipes, as a client on stdio would.
type stdioPeer struct {
	in    *io.PipeWriter
	lines chan string
	done  chan error
}

func newStdioPeer(t *testing.T, e *env) *stdioPeer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &stdioPeer{in: inW, lines: make(chan string, 64), done: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { p.done <- e.srv.serveScreened(ctx, inR, outW); outW.Close() }()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
			t.Error("the stdio session did not end after stdin closed")
		}
		cancel()
	})
	return p
}

func (p *stdioPeer) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		t.Fatalf("writing %q: %v", line, err)
	}
}

// reply waits for the next line the server writes and decodes it.
func (p *stdioPeer) reply(t *testing.T) map[string]any {
	t.Helper()
	select {
	case l, ok := <-p.lines:
		if !ok {
			t.Fatal("the server closed stdout: the session died")
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("server wrote a line that is not JSON: %q", l)
		}
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no reply from the server")
	}
	return nil
}

const initializeLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// A stray line on stdio used to end the session and, with it, the server
// and every plugin. Now each bad line gets a JSON-RPC error and the session
// keeps serving.
func TestStdioSurvivesMalformedLines(t *testing.T) {
	e := newEnv(t, envOptions{})
	p := newStdioPeer(t, e)

	cases := []struct {
		line string
		code float64
		id   any
	}{
		{`{"jsonrpc":"2.0","id":7,"method":`, rpcParseError, nil},
		{`this is not json`, rpcParseError, nil},
		{`{"foo":1}`, rpcInvalidRequest, nil},
		{`{"id":9,"method":"tools/list"}`, rpcInvalidRequest, 9.0},
		{`{"jsonrpc":"2.0","id":{},"method":"x"}`, rpcInvalidRequest, nil},
		{`[]`, rpcInvalidRequest, nil},
	}
	for _, c := range cases {
		p.send(t, c.line)
		m := p.reply(t)
		errObj, _ := m["error"].(map[string]any)
		if errObj == nil || errObj["code"] != c.code {
			t.Fatalf("line %q: reply %v, want error code %v", c.line, m, c.code)
		}
		if m["id"] != c.id {
			t.Errorf("line %q: reply id %v, want %v", c.line, m["id"], c.id)
		}
		if msg, _ := errObj["message"].(string); msg == "" {
			t.Errorf("line %q: error without a message", c.line)
		}
	}
	// Blank lines are ignored, not answered.
	p.send(t, "   ")
	p.send(t, initializeLine)
	m := p.reply(t)
	if m["id"] != 1.0 || m["result"] == nil {
		t.Fatalf("initialize after bad lines: %v", m)
	}
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	p.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if m := p.reply(t); m["id"] != 2.0 || m["result"] == nil {
		t.Fatalf("tools/list after bad lines: %v", m)
	}
}

// An oversized line is skipped (without holding it in memory) and answered;
// the next line is served.
func TestStdioScreenSkipsOversizedLine(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := newStdioConn(ctx, inR, outW, 100)
	go func() {
		io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"x","params":{"pad":"`+strings.Repeat("a", 100_000)+`"}}`+"\n")
		io.WriteString(inW, `{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n")
		inW.Close()
	}()
	// The screen's own reply arrives on the writer side.
	errLine := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(outR)
		if sc.Scan() {
			errLine <- sc.Text()
		}
		close(errLine)
	}()
	var passed []string
	for {
		msg, err := c.Read(ctx)
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			break
		}
		req, ok := msg.(*jsonrpc.Request)
		if !ok {
			t.Fatalf("passed on %#v", msg)
		}
		passed = append(passed, fmt.Sprint(req.Method, " ", req.ID.Raw()))
	}
	if len(passed) != 1 || passed[0] != "ping 2" {
		t.Fatalf("passed on %q, want only the ping", passed)
	}
	line := <-errLine
	if !strings.Contains(line, `"code":-32600`) || !strings.Contains(line, "longer than 100 bytes") {
		t.Fatalf("oversized line answered with %q", line)
	}
	c.Close()
	outW.Close()
}

// Lines the decoder might take leniently: each is answered, none passed on
// as a message the client did not mean.
func TestStdioScreenDecodesOnce(t *testing.T) {
	for _, c := range []struct {
		line string
		ok   bool
		code int
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, true, 0},
		{`  {"jsonrpc":"2.0","id":"a","method":"ping","params":{}}  `, true, 0},
		{`{"jsonrpc":"2.0","id":1,"method":"ping"} x`, false, rpcParseError},
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}{}`, false, rpcParseError},
		{`{"jsonrpc":"2.0","id":1,"method":"ping",}`, false, rpcParseError},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, false, rpcInvalidRequest},
		{`{"jsonrpc":"1.0","id":1,"method":"ping"}`, false, rpcInvalidRequest},
	} {
		msg, _, code, text := screen([]byte(c.line))
		if (msg != nil) != c.ok || code != c.code {
			t.Errorf("%s: message %v, code %d (%s); want ok=%v code %d", c.line, msg, code, text, c.ok, c.code)
		}
	}
}

func TestLockedLineWriterKeepsLinesWhole(t *testing.T) {
	var sb strings.Builder
	l := &lockedLineWriter{w: &sb}
	l.Write([]byte(`{"a":`))
	if sb.Len() != 0 {
		t.Fatalf("a partial line was written: %q", sb.String())
	}
	l.Write([]byte("1}\n{\"b\""))
	l.Write([]byte(":2}\n"))
	if got := sb.String(); got != "{\"a\":1}\n{\"b\":2}\n" {
		t.Fatalf("got %q", got)
	}
}

// decodeMessage must take exactly what the go-sdk's decoder takes, and
// decode it to the same message: it stands in for it on every request.
func FuzzDecodeMessageMatchesTheSDK(f *testing.F) {
	for _, s := range []string{
		initializeLine,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","arguments":{"path":"res://a"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"s","method":null}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":[],"method":"ping"}`,
		`{"jsonrpc":"1.0","id":1,"method":"ping"}`,
		`{"JSONRPC":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"Method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":"a","method":"b"}`,
		`{"jsonrpc":"2.0","id":1,"method":5}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"p","params":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`,
		`{"jsonrpc":"2.0","id":1,"method":"p\u00e9\"","params":"\ud800"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return // the screen answers those before decoding
		}
		want, werr := jsonrpc.DecodeMessage(data)
		got, gerr := decodeMessage(data)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("%s: the go-sdk says %v, decodeMessage says %v", data, werr, gerr)
		}
		if werr != nil {
			return
		}
		wb, _ := jsonrpc.EncodeMessage(want)
		gb, _ := jsonrpc.EncodeMessage(got)
		if string(wb) != string(gb) {
			t.Fatalf("%s: the go-sdk decodes %s, decodeMessage %s", data, wb, gb)
		}
	})
}
