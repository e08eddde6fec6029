package bridge_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
)

// The benchmarks compare a small command's round trip through the bridge
// with a bare WebSocket exchange on the same library, with the same roles
// (the host is the server and writes first) and the same frame sizes. The
// editor side is the same minimal responder in both, so the difference is
// the bridge's own cost: encoding, the pending map, decoding the reply,
// handing it to the waiting caller, and the timeout. Compare the figures of
// one run side by side; the machine is shared and noisy.

const (
	pingFrame = `{"id":"1","command":"cmd_ping","params":{}}`
	pongFrame = `{"id":"1","ok":true,"result":{"pong":true}}`
)

// responder answers every command with the pong, echoing its id: the
// cheapest editor possible.
func responder(ctx context.Context, c *websocket.Conn) {
	prefix := []byte(`{"id":"`)
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		if !bytes.HasPrefix(data, prefix) {
			continue
		}
		rest := data[len(prefix):]
		id := rest[:bytes.IndexByte(rest, '"')]
		reply := make([]byte, 0, 64)
		reply = append(reply, prefix...)
		reply = append(reply, id...)
		reply = append(reply, `","ok":true,"result":{"pong":true}}`...)
		if err := c.Write(ctx, websocket.MessageText, reply); err != nil {
			return
		}
	}
}

// benchBridge is a bridge with the minimal responder attached.
func benchBridge(b *testing.B) *bridge.Bridge {
	br, err := bridge.New(bridge.Options{URL: "ws://127.0.0.1:0"})
	if err != nil {
		b.Fatal(err)
	}
	if err := br.Start(bridge.Hooks{}); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c, _, err := websocket.Dial(ctx, "ws://"+br.Addr(), nil)
	if err != nil {
		b.Fatal(err)
	}
	c.SetReadLimit(bridge.MaxFrame)
	done := make(chan struct{})
	go func() { defer close(done); responder(ctx, c) }()
	b.Cleanup(func() {
		cancel()
		_ = c.CloseNow()
		<-done
		_ = br.Close()
	})
	for !br.Connected() {
		runtimeGosched()
	}
	// Let the handshake finish so it does not share the timed loop.
	for br.Status().CommandsSent < 2 {
		runtimeGosched()
	}
	return br
}

// bareHost is the baseline: a WebSocket server whose handler writes the
// command and reads the reply itself, with the minimal responder dialed in.
func bareHost(b *testing.B) (ctx context.Context, host *websocket.Conn) {
	ready := make(chan *websocket.Conn, 1)
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		ready <- c
		<-stop
	}))
	ctx, cancel := context.WithCancel(context.Background())
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		b.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); responder(ctx, c) }()
	host = <-ready
	b.Cleanup(func() {
		cancel()
		_ = c.CloseNow()
		_ = host.CloseNow()
		<-done
		close(stop)
		srv.Close()
	})
	return ctx, host
}

// bareRoundTrip is one exchange on the baseline.
func bareRoundTrip(ctx context.Context, host *websocket.Conn) error {
	if err := host.Write(ctx, websocket.MessageText, []byte(pingFrame)); err != nil {
		return err
	}
	_, reply, err := host.Read(ctx)
	if err == nil && len(reply) != len(pongFrame) {
		err = fmt.Errorf("reply %s", reply)
	}
	return err
}

// BenchmarkRoundTripRatio alternates one bare exchange and one bridge
// request, so that the noise of a shared machine hits both alike, and
// reports each one's mean and the ratio.
func BenchmarkRoundTripRatio(b *testing.B) {
	ctx, host := bareHost(b)
	br := benchBridge(b)
	var bare, bridged time.Duration
	for b.Loop() {
		t0 := time.Now()
		if err := bareRoundTrip(ctx, host); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := br.Request(ctx, "cmd_ping", nil, 0); err != nil {
			b.Fatal(err)
		}
		bridged += time.Since(t1)
		bare += t1.Sub(t0)
	}
	b.ReportMetric(float64(bare.Nanoseconds())/float64(b.N), "bare-ns/op")
	b.ReportMetric(float64(bridged.Nanoseconds())/float64(b.N), "bridge-ns/op")
	b.ReportMetric(float64(bridged)/float64(bare), "ratio")
}

func BenchmarkRoundTrip(b *testing.B) {
	b.Run("bare-websocket", func(b *testing.B) {
		ctx, host := bareHost(b)
		b.ReportAllocs()
		for b.Loop() {
			if err := bareRoundTrip(ctx, host); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("bridge", func(b *testing.B) {
		br := benchBridge(b)
		ctx := context.Background()
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			if _, err := br.Request(ctx, "cmd_ping", nil, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("bridge-fakeaddon", func(b *testing.B) {
		// The same through the Go fake addon, which decodes and encodes
		// like Godot does: what a toolset test pays per command.
		br, err := bridge.New(bridge.Options{URL: "ws://127.0.0.1:0"})
		if err != nil {
			b.Fatal(err)
		}
		if err := br.Start(bridge.Hooks{}); err != nil {
			b.Fatal(err)
		}
		a := fakeaddon.Start(fakeaddon.Options{URL: "ws://" + br.Addr()})
		b.Cleanup(func() { a.Close(); _ = br.Close() })
		for br.Status().AddonCommands < 0 {
			runtimeGosched()
		}
		ctx := context.Background()
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			if _, err := br.Request(ctx, "cmd_ping", nil, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkPipelined1000 sends 1,000 commands at once and waits for all
// replies: the reported time is per batch of 1,000.
func BenchmarkPipelined1000(b *testing.B) {
	br := benchBridge(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		var wg sync.WaitGroup
		for range 1000 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := br.Request(ctx, "cmd_ping", nil, 0); err != nil {
					b.Error(err)
				}
			}()
		}
		wg.Wait()
	}
}
