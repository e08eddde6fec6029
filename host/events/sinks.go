package events

import (
	"sync"

	"github.com/hashicorp/go-hclog"
)

// Ring keeps the most recent events for diagnostics (godot_get_server_info).
type Ring struct {
	mu   sync.Mutex
	buf  []Event
	next int
	full bool
}

// NewRing returns a ring holding the last n events.
func NewRing(n int) *Ring {
	if n < 1 {
		n = 1
	}
	return &Ring{buf: make([]Event, n)}
}

// Handle stores e, replacing the oldest event when full.
func (r *Ring) Handle(e Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf[r.next] = e
	r.next = (r.next + 1) % len(r.buf)
	if r.next == 0 {
		r.full = true
	}
	return nil
}

// Recent returns the stored events, oldest first.
func (r *Ring) Recent() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.full {
		return append([]Event(nil), r.buf[:r.next]...)
	}
	out := make([]Event, 0, len(r.buf))
	out = append(out, r.buf[r.next:]...)
	return append(out, r.buf[:r.next]...)
}

// LogSink writes events to an hclog logger at the event's level.
type LogSink struct{ Log hclog.Logger }

// Handle logs e.
func (s LogSink) Handle(e Event) error {
	args := []any{"kind", string(e.Kind), "seq", e.Seq}
	if e.Toolset != "" {
		args = append(args, "toolset", e.Toolset)
	}
	for k, v := range e.Fields {
		args = append(args, k, v)
	}
	switch e.Level {
	case Debug:
		s.Log.Debug(e.Message, args...)
	case Warning:
		s.Log.Warn(e.Message, args...)
	case Error:
		s.Log.Error(e.Message, args...)
	default:
		s.Log.Info(e.Message, args...)
	}
	return nil
}
