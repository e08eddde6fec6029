// Package events carries the host's decisions to whoever wants to know: the
// log, MCP logging notifications, the diagnostics ring buffer and the editor
// dock. Every decision an operator may ask "why?" about is an Event.
//
//	bus := events.NewBus(logger)
//	ring := events.NewRing(100)
//	bus.Subscribe(ring)
//	bus.Emit(events.Event{Kind: events.ToolsetEnabled, Toolset: "scene_edit"})
//
// Emit never blocks on a sink and never fails: each sink has its own bounded
// queue drained by its own goroutine, and a sink that errors, panics or falls
// behind loses events (counted and logged), never the action that emitted
// them.
package events

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
)

// Kind names what happened.
type Kind string

// The event kinds.
const (
	ToolsetEnabled  Kind = "toolset_enabled"
	ToolsetDisabled Kind = "toolset_disabled"
	ToolsetRefused  Kind = "toolset_refused"
	PluginStarted   Kind = "plugin_started"
	PluginExited    Kind = "plugin_exited"
	PluginCrashed   Kind = "plugin_crashed"
	PluginRestarted Kind = "plugin_restarted"
	ToolsFiltered   Kind = "tools_filtered"
	ListChanged     Kind = "list_changed"
	PeerAttached    Kind = "peer_attached"
	PeerReplaced    Kind = "peer_replaced"
	PeerDetached    Kind = "peer_detached"
	PeerRefused     Kind = "peer_refused"
	VersionChanged  Kind = "godot_version_changed"
	CallRefused     Kind = "call_refused"
)

// Level says how loudly an event is reported.
type Level string

// The levels, matching MCP logging levels.
const (
	Debug   Level = "debug"
	Info    Level = "info"
	Warning Level = "warning"
	Error   Level = "error"
)

// Event is one thing that happened. Fields carries kind-specific detail with
// JSON-friendly values (exposure.FilteredEvents builds the ToolsFiltered ones).
type Event struct {
	Seq     uint64         `json:"seq"`
	Time    time.Time      `json:"time"`
	Kind    Kind           `json:"kind"`
	Level   Level          `json:"level"`
	Toolset string         `json:"toolset,omitempty"`
	Message string         `json:"message"`
	Fields  map[string]any `json:"fields,omitempty"`
}

// String renders the event for humans.
func (e Event) String() string {
	if e.Toolset != "" {
		return fmt.Sprintf("%s [%s]: %s", e.Kind, e.Toolset, e.Message)
	}
	return fmt.Sprintf("%s: %s", e.Kind, e.Message)
}

// Sink receives events. Handle is called from the sink's own goroutine, one
// event at a time, in emission order. An error is logged and counted.
type Sink interface {
	Handle(Event) error
}

// SinkFunc adapts a function to a Sink.
type SinkFunc func(Event) error

// Handle calls f.
func (f SinkFunc) Handle(e Event) error { return f(e) }

// queueSize bounds the events waiting for one slow sink.
const queueSize = 1024

// Bus fans events out to sinks.
type Bus struct {
	log     hclog.Logger
	seq     atomic.Uint64
	mu      sync.RWMutex
	subs    []*subscription
	closed  bool
	wg      sync.WaitGroup
	dropped atomic.Uint64
}

type subscription struct {
	sink Sink
	ch   chan Event
}

// NewBus returns a bus that logs sink failures to log (nil: discard).
func NewBus(log hclog.Logger) *Bus {
	if log == nil {
		log = hclog.NewNullLogger()
	}
	return &Bus{log: log}
}

// Subscribe adds a sink. It returns a function that removes it again.
func (b *Bus) Subscribe(s Sink) (unsubscribe func()) {
	sub := &subscription{sink: s, ch: make(chan Event, queueSize)}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return func() {}
	}
	b.subs = append(b.subs, sub)
	b.wg.Add(1)
	b.mu.Unlock()
	go b.drain(sub)
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			for i, x := range b.subs {
				if x == sub {
					b.subs = append(b.subs[:i:i], b.subs[i+1:]...)
					close(sub.ch)
					return
				}
			}
		})
	}
}

func (b *Bus) drain(sub *subscription) {
	defer b.wg.Done()
	for e := range sub.ch {
		b.deliver(sub.sink, e)
	}
}

func (b *Bus) deliver(s Sink, e Event) {
	defer func() {
		if r := recover(); r != nil {
			b.log.Error("event sink panicked; event dropped for that sink", "kind", e.Kind, "panic", r)
		}
	}()
	if err := s.Handle(e); err != nil {
		b.log.Warn("event sink failed; the action that emitted the event is unaffected", "kind", e.Kind, "error", err)
	}
}

// Emit stamps e with a sequence number and time and queues it for every sink.
// It never blocks: a sink whose queue is full misses the event, which is
// counted (Dropped) and logged.
func (b *Bus) Emit(e Event) Event {
	e.Seq = b.seq.Add(1)
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	if e.Level == "" {
		e.Level = Info
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		return e
	}
	for _, sub := range b.subs {
		select {
		case sub.ch <- e:
		default:
			b.dropped.Add(1)
			b.log.Warn("event sink is behind; event dropped for that sink", "kind", e.Kind, "seq", e.Seq)
		}
	}
	return e
}

// Dropped returns how many deliveries were dropped because a sink was behind.
func (b *Bus) Dropped() uint64 { return b.dropped.Load() }

// Close stops accepting events, lets every sink drain its queue and waits for
// the sink goroutines to end.
func (b *Bus) Close() {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return
	}
	b.closed = true
	for _, sub := range b.subs {
		close(sub.ch)
	}
	b.subs = nil
	b.mu.Unlock()
	b.wg.Wait()
}
