package callpipe

import (
	"context"
	"sync"
)

// inbound tracks the requests one side serves for the other (the plugin:
// the host's calls; the host: the plugin's host-service requests), by the
// sender's id, so that a cancel frame or the end of the connection can stop
// them, and the owner can wait until every one has returned.
type inbound struct {
	mu      sync.Mutex
	cancels map[uint64]context.CancelFunc
	closed  bool
	running sync.WaitGroup
}

// start registers request id and returns its context; false (and no
// context) when the id is already in use or the connection is gone. The
// goroutine serving it calls finish when done.
func (in *inbound) start(id uint64) (context.Context, bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if _, dup := in.cancels[id]; dup || in.closed {
		return nil, false
	}
	if in.cancels == nil {
		in.cancels = map[uint64]context.CancelFunc{}
	}
	ctx, cancel := context.WithCancel(context.Background())
	in.cancels[id] = cancel
	in.running.Add(1)
	return ctx, true
}

// cancel ends request id's context, if it still runs (a cancel frame).
func (in *inbound) cancel(id uint64) {
	in.mu.Lock()
	cancel := in.cancels[id]
	delete(in.cancels, id)
	in.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// finish is called by the goroutine serving request id when it returns.
func (in *inbound) finish(id uint64) {
	in.cancel(id)
	in.running.Done()
}

// close cancels every request still running and refuses new ones.
func (in *inbound) close() {
	in.mu.Lock()
	cancels := in.cancels
	in.cancels, in.closed = nil, true
	in.mu.Unlock()
	for _, cancel := range cancels {
		cancel()
	}
}

// wait returns once every started request has finished.
func (in *inbound) wait() { in.running.Wait() }
