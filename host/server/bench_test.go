package server

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fanout counts list_changed deliveries across many clients and wakes the
// benchmark when a round is complete.
type fanout struct {
	got  atomic.Int64
	want atomic.Int64
	done chan struct{}
}

func newFanout() *fanout { return &fanout{done: make(chan struct{}, 1)} }

func (f *fanout) handler(context.Context, *mcp.ToolListChangedRequest) {
	if f.got.Add(1) == f.want.Load() {
		f.done <- struct{}{}
	}
}

// round triggers one change and waits until every client got its
// notification. It fails the benchmark when one is lost.
func (f *fanout) round(b *testing.B, clients int, trigger func()) time.Duration {
	b.Helper()
	f.want.Add(int64(clients))
	start := time.Now()
	trigger()
	select {
	case <-f.done:
	case <-time.After(30 * time.Second):
		b.Fatalf("lost notifications: %d of %d delivered", f.got.Load(), f.want.Load())
	}
	return time.Since(start)
}

// connectListeners connects n 2026-07-28 clients to srv, over in-memory
// transports or, when url is set, over streamable HTTP. Each opens a
// subscriptions/listen stream for tools during Connect, because it has a
// ToolListChangedHandler.
func connectListeners(b *testing.B, srv *mcp.Server, url string, n int, f *fanout) {
	b.Helper()
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "listener", Version: "1"}, &mcp.ClientOptions{ToolListChangedHandler: f.handler})
	httpClient := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	b.Cleanup(httpClient.CloseIdleConnections)
	for range n {
		var t mcp.Transport
		var ss *mcp.ServerSession
		if url != "" {
			t = &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: httpClient}
		} else {
			ct, st := mcp.NewInMemoryTransports()
			var err error
			if ss, err = srv.Connect(ctx, st, nil); err != nil {
				b.Fatal(err)
			}
			t = ct
		}
		cs, err := client.Connect(ctx, t, &mcp.ClientSessionOptions{ProtocolVersion: sessionless})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() {
			cs.Close()
			if ss != nil {
				ss.Wait()
			}
		})
	}
}

// BenchmarkListChangedFanout measures the time from a toggle to the last of
// N open subscriptions/listen streams receiving notifications/tools/list_changed,
// for the host (gate.Enable/Disable, which start a fake plugin and show or
// hide its tools) and for a bare go-sdk server adding and removing a tool,
// in the same run. Both include the SDK's 10ms notification debounce.
// ratio-p50 is host/bare; a lost notification fails the benchmark.
func BenchmarkListChangedFanout(b *testing.B) {
	for _, transport := range []string{"memory", "http"} {
		for _, n := range []int{100, 1000} {
			b.Run(fmt.Sprintf("%s/streams=%d", transport, n), func(b *testing.B) {
				benchFanout(b, transport, n)
			})
		}
	}
}

func benchFanout(b *testing.B, transport string, n int) {
	e := newEnv(b, envOptions{godot: "4.5"})
	bare := mcp.NewServer(&mcp.Implementation{Name: "bare", Version: "1"}, &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}},
	})
	// Count the bare server's listen streams the way the host does, so both
	// rounds start with every stream open. The count touches
	// subscriptions/listen only, not the notification path.
	var bareListeners atomic.Int64
	bare.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "subscriptions/listen" {
				bareListeners.Add(1)
				defer bareListeners.Add(-1)
			}
			return next(ctx, method, req)
		}
	})
	var hostURL, bareURL string
	if transport == "http" {
		h, err := e.srv.HTTPHandler(HTTPOptions{}, true)
		if err != nil {
			b.Fatal(err)
		}
		hs := httptest.NewServer(h)
		bs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return bare },
			&mcp.StreamableHTTPOptions{Stateless: true}))
		// Cleanups run last-in first-out: the clients (registered below)
		// close before the servers drop what is left.
		b.Cleanup(func() {
			for _, s := range []*httptest.Server{hs, bs} {
				s.CloseClientConnections()
				s.Close()
			}
		})
		hostURL, bareURL = hs.URL, bs.URL
	}
	hostF, bareF := newFanout(), newFanout()
	connectListeners(b, e.srv.MCP(), hostURL, n, hostF)
	waitListeners(b, e.srv.Listeners, n)
	connectListeners(b, bare, bareURL, n, bareF)
	waitListeners(b, bareListeners.Load, n)

	bareTool := &mcp.Tool{Name: "t", InputSchema: map[string]any{"type": "object"}}
	ctx := context.Background()
	var hostLat, bareLat []time.Duration
	b.ResetTimer()
	for i := range b.N {
		if i%2 == 0 {
			hostLat = append(hostLat, hostF.round(b, n, func() {
				if _, err := e.gate.Enable(ctx, gateReq("runtime")); err != nil {
					b.Fatal(err)
				}
			}))
			bareLat = append(bareLat, bareF.round(b, n, func() {
				bare.AddTool(bareTool, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil })
			}))
		} else {
			hostLat = append(hostLat, hostF.round(b, n, func() {
				if _, err := e.gate.Disable(ctx, gateReq("runtime")); err != nil {
					b.Fatal(err)
				}
			}))
			bareLat = append(bareLat, bareF.round(b, n, func() { bare.RemoveTools("t") }))
		}
	}
	b.StopTimer()
	hp, bp := median(hostLat), median(bareLat)
	b.ReportMetric(float64(hp)/float64(time.Millisecond), "host-p50-ms")
	b.ReportMetric(float64(bp)/float64(time.Millisecond), "bare-p50-ms")
	b.ReportMetric(float64(hp)/float64(bp), "ratio-p50")
	b.ReportMetric(float64(hostF.want.Load()-hostF.got.Load()+bareF.want.Load()-bareF.got.Load()), "lost")
}

// waitListeners waits until n listen streams are open: a client's Connect
// returns before the server has registered its stream.
func waitListeners(b *testing.B, count func() int64, n int) {
	b.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for count() < int64(n) {
		if time.Now().After(deadline) {
			b.Fatalf("%d of %d listen streams open", count(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

type pathArgs struct {
	Path string `json:"path,omitempty"`
}

// BenchmarkCallLayer compares the server's tools/call path (exposure, gate,
// schema validation, safety, result mapping) against a plain go-sdk tool,
// both in-process over in-memory transports, with a plugin that answers at
// once: what the host's own layers cost per call.
func BenchmarkCallLayer(b *testing.B) {
	ctx := context.Background()
	args := map[string]any{"path": "x"}
	run := func(b *testing.B, cs *mcp.ClientSession, name string) {
		var lat []time.Duration
		b.ResetTimer()
		for range b.N {
			start := time.Now()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
			lat = append(lat, time.Since(start))
			if err != nil || res.IsError {
				b.Fatal(err, res)
			}
		}
		b.ReportMetric(float64(median(lat))/float64(time.Microsecond), "p50-µs")
	}
	b.Run("host", func(b *testing.B) {
		e := newEnv(b, envOptions{godot: "4.5"})
		run(b, e.connect(b, legacy).cs, "godot_inspection_scene_tree")
	})
	b.Run("plain", func(b *testing.B) {
		s := mcp.NewServer(&mcp.Implementation{Name: "plain", Version: "1"}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "read"}, func(_ context.Context, _ *mcp.CallToolRequest, in pathArgs) (*mcp.CallToolResult, pathArgs, error) {
			return nil, in, nil
		})
		ct, st := mcp.NewInMemoryTransports()
		ss, err := s.Connect(ctx, st, nil)
		if err != nil {
			b.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "x"}, nil).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
		if err != nil {
			b.Fatal(err)
		}
		defer func() { cs.Close(); ss.Wait() }()
		run(b, cs, "read")
	})
}
