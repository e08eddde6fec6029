package bridge_test

import (
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"go.uber.org/goleak"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/events"
	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
	"github.com/godot-mcp/godot-mcp/internal/syncbuf"
	"github.com/godot-mcp/godot-mcp/sdk"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// recorder collects events from the bus.
type recorder struct {
	mu     sync.Mutex
	events []events.Event
}

func (r *recorder) Handle(e events.Event) error {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
	return nil
}

func (r *recorder) of(k events.Kind) []events.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []events.Event
	for _, e := range r.events {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// rig is a bridge listening on a free loopback port, with its log, events
// and peer changes recorded.
type rig struct {
	t   *testing.T
	b   *bridge.Bridge
	url string
	log *syncbuf.Buffer
	ev  *recorder

	mu    sync.Mutex
	peers []*bridge.Peer
}

// newRig starts a bridge; opts.URL defaults to a free port.
func newRig(t *testing.T, opts bridge.Options) *rig {
	t.Helper()
	if opts.URL == "" {
		opts.URL = "ws://" + freeAddr(t)
	}
	r := &rig{t: t, url: opts.URL, log: &syncbuf.Buffer{}, ev: &recorder{}}
	opts.Logger = hclog.New(&hclog.LoggerOptions{Output: r.log, Level: hclog.Debug})
	bus := events.NewBus(nil)
	bus.Subscribe(r.ev)
	opts.Bus = bus
	user := opts.OnPeer
	opts.OnPeer = func(p *bridge.Peer) {
		r.mu.Lock()
		r.peers = append(r.peers, p)
		r.mu.Unlock()
		if user != nil {
			user(p)
		}
	}
	b, err := bridge.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(bridge.Hooks{}); err != nil {
		t.Fatal(err)
	}
	r.b = b
	t.Cleanup(func() {
		_ = b.Close()
		bus.Close()
	})
	return r
}

// lastPeer is the latest OnPeer delivery; ok is false before the first.
func (r *rig) lastPeer() (p *bridge.Peer, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.peers) == 0 {
		return nil, false
	}
	return r.peers[len(r.peers)-1], true
}

// addon starts a fake editor dialing the rig, with a short backoff.
func (r *rig) addon(opts fakeaddon.Options) *fakeaddon.Addon {
	r.t.Helper()
	if opts.URL == "" {
		opts.URL = r.url
	}
	return startAddon(r.t, opts)
}

func startAddon(t *testing.T, opts fakeaddon.Options) *fakeaddon.Addon {
	if opts.RetryMin == 0 {
		opts.RetryMin, opts.RetryMax = 10*time.Millisecond, 50*time.Millisecond
	}
	a := fakeaddon.Start(opts)
	t.Cleanup(a.Close)
	return a
}

// attached waits until the bridge has announced an editor.
func (r *rig) attached() {
	r.t.Helper()
	waitFor(r.t, "an editor to attach", func() bool {
		p, ok := r.lastPeer()
		return ok && p != nil
	})
}

// freeAddr returns a loopback address nobody listens on (right now).
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}

// waitFor polls cond for up to 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// sdkErr asserts err is an *sdk.Error with code and returns it.
func sdkErr(t *testing.T, err error, code string) *sdk.Error {
	t.Helper()
	var e *sdk.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *sdk.Error", err, err)
	}
	if e.Code != code {
		t.Fatalf("error code %s (%v), want %s", e.Code, e, code)
	}
	if e.Hint == "" {
		t.Errorf("error %v has no hint", e)
	}
	return e
}

func hasLine(log, substr string) bool {
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, substr) {
			return true
		}
	}
	return false
}

func runtimeGosched() { time.Sleep(time.Millisecond) }
