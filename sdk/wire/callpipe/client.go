package callpipe

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"sync"

	"google.golang.org/protobuf/proto"

	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
)

// Client is the host's end of a call pipe. Its methods may be called from
// any number of goroutines; one reader goroutine, started by NewClient,
// delivers what the plugin sends to the call it belongs to.
type Client struct {
	w        frameWriter
	services *Services
	served   inbound       // the plugin's host-service requests being served
	done     chan struct{} // closed once the connection is gone
	readDone chan struct{} // closed when the reader returns

	mu      sync.Mutex
	nextID  uint64
	pending map[uint64]*pending
	err     error // why the connection is gone; set before done is closed
}

// pending is one call in flight. The reader never blocks on it, so one slow
// caller cannot hold up the results of the others: progress events queue
// here until the caller takes them (beyond maxQueuedProgress the oldest
// is dropped; only a caller that stopped reading falls that far behind),
// and the outcome is set once.
type pending struct {
	limit int           // largest event payload the caller accepts
	ready chan struct{} // capacity 1: something new is there

	mu       sync.Mutex
	progress []*pb.Progress
	result   *pb.CallResult
	err      error
}

// maxQueuedProgress bounds the progress events waiting for one caller.
const maxQueuedProgress = 256

func (p *pending) post(progress *pb.Progress, result *pb.CallResult, err error) {
	p.mu.Lock()
	if progress != nil {
		if len(p.progress) == maxQueuedProgress {
			p.progress = append(p.progress[:0], p.progress[1:]...)
		}
		p.progress = append(p.progress, progress)
	}
	if result != nil || err != nil {
		p.result, p.err = result, err
	}
	p.mu.Unlock()
	select {
	case p.ready <- struct{}{}:
	default:
	}
}

func (p *pending) take() (progress []*pb.Progress, result *pb.CallResult, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	progress, p.progress = p.progress, nil
	return progress, p.result, p.err
}

// NewClient starts using conn, the host's end of a call pipe, and answers
// the plugin's host calls with services (nil: none). The Client owns conn
// from now on and closes it when the connection fails or Close is called.
func NewClient(conn net.Conn, services *Services) *Client {
	if services == nil {
		services = NewServices()
	}
	c := &Client{
		w:        frameWriter{conn: conn},
		services: services,
		done:     make(chan struct{}),
		readDone: make(chan struct{}),
		pending:  map[uint64]*pending{},
	}
	go c.read()
	return c
}

// Wait returns once the connection is gone, its reader has returned and
// every host call the plugin made has returned (their contexts end with the
// connection).
func (c *Client) Wait() {
	<-c.done
	<-c.readDone
	c.served.wait()
}

// TooLargeError is the error of a call whose plugin sent a result or
// progress event larger than the caller accepts. The payload was skipped
// unread: it cost the host no memory.
type TooLargeError struct {
	Size, Limit int
	// Detail, when set, is the transport's own account, for a transport
	// that does not say the size (gRPC's "received message larger than
	// max").
	Detail string
}

func (e *TooLargeError) Error() string {
	if e.Detail != "" {
		return e.Detail
	}
	return fmt.Sprintf("the plugin sent %d bytes, more than the %d bytes accepted", e.Size, e.Limit)
}

// PluginError is the error of a call the plugin refused to run (a KindFail
// frame), or answered with an event that cannot be decoded.
type PluginError struct {
	Message string
}

func (e *PluginError) Error() string { return e.Message }

// Call sends req to the plugin and waits for its result. Progress events
// are passed to onProgress (may be nil), in order, on the caller's
// goroutine while the call runs. A result or event larger than maxResult bytes fails the call
// with *TooLargeError.
//
// When ctx ends first the plugin is told to cancel the call, and Call
// returns ctx.Err(). When the connection is gone the error wraps ErrClosed.
func (c *Client) Call(ctx context.Context, req *pb.CallRequest, maxResult int, onProgress func(*pb.Progress)) (*pb.CallResult, error) {
	payload, err := proto.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encoding the call: %w", err)
	}
	p := &pending{limit: maxResult, ready: make(chan struct{}, 1)}
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return nil, err
	}
	c.nextID++
	id := c.nextID
	c.pending[id] = p
	c.mu.Unlock()

	if err := c.w.write(KindCall, id, payload); err != nil {
		c.remove(id)
		return nil, c.fail(fmt.Errorf("sending the call: %w", err))
	}
	for {
		select {
		case <-p.ready:
			progress, result, err := p.take()
			if onProgress != nil {
				for _, pr := range progress {
					onProgress(pr)
				}
			}
			if result != nil || err != nil {
				return result, err
			}
		case <-ctx.Done():
			if c.remove(id) {
				// Best effort: if this fails the connection is gone,
				// and so is the call.
				_ = c.w.write(KindCancel, id, nil)
			}
			return nil, ctx.Err()
		}
	}
}

// remove forgets a call; it reports whether the call was still pending.
func (c *Client) remove(id uint64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.pending[id]
	delete(c.pending, id)
	return ok
}

// lookup returns the pending call with id, or nil when it is not (any
// more) waiting: cancelled, or an id the host never used.
func (c *Client) lookup(id uint64) *pending {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pending[id]
}

// Done is closed once the connection is gone.
func (c *Client) Done() <-chan struct{} { return c.done }

// Close closes the connection; calls in flight fail with ErrClosed.
func (c *Client) Close() error {
	_ = c.fail(fmt.Errorf("closed by the host"))
	return nil
}

// fail marks the connection gone for the reason cause, fails every pending
// call, and returns the error they got. Only the first reason is kept.
func (c *Client) fail(cause error) error {
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return err
	}
	c.err = fmt.Errorf("%w: %w", ErrClosed, cause)
	calls := c.pending
	c.pending = map[uint64]*pending{}
	err := c.err
	c.mu.Unlock()
	c.served.close()
	_ = c.w.conn.Close()
	for _, p := range calls {
		p.post(nil, nil, err)
	}
	close(c.done)
	return err
}

// read delivers the plugin's frames until the connection fails.
func (c *Client) read() {
	defer close(c.readDone)
	r := bufio.NewReaderSize(c.w.conn, readBufferBytes)
	var buf [headerBytes]byte
	for {
		h, err := readHeader(r, &buf)
		if err != nil {
			_ = c.fail(err)
			return
		}
		if h.size > MaxFrameBytes {
			_ = c.fail(fmt.Errorf("the plugin sent a frame of %d bytes, more than the %d MiB a frame may hold", h.size, MaxFrameBytes>>20))
			return
		}
		switch h.kind {
		case KindEvent, KindFail:
		case KindHostCall:
			payload, err := readPayload(r, h)
			if err != nil {
				_ = c.fail(err)
				return
			}
			ctx, ok := c.served.start(h.id)
			if !ok {
				_ = c.w.write(KindHostFail, h.id, fmt.Appendf(nil, "host call id %d is already in use", h.id))
				continue
			}
			go c.serveHost(ctx, h.id, payload)
			continue
		case KindHostCancel:
			if err := discard(r, h); err != nil {
				_ = c.fail(err)
				return
			}
			c.served.cancel(h.id)
			continue
		default:
			_ = c.fail(fmt.Errorf("the plugin sent a frame of %s, which only the host sends", h.kind))
			return
		}
		p := c.lookup(h.id)
		if p == nil || int(h.size) > p.limit {
			if err := discard(r, h); err != nil {
				_ = c.fail(err)
				return
			}
			if p != nil && c.remove(h.id) {
				p.post(nil, nil, &TooLargeError{Size: int(h.size), Limit: p.limit})
			}
			continue
		}
		payload, err := readPayload(r, h)
		if err != nil {
			_ = c.fail(err)
			return
		}
		if h.kind == KindFail {
			if c.remove(h.id) {
				p.post(nil, nil, &PluginError{Message: string(payload)})
			}
			continue
		}
		var ev pb.CallEvent
		if err := proto.Unmarshal(payload, &ev); err != nil {
			if c.remove(h.id) {
				p.post(nil, nil, &PluginError{Message: "the plugin sent an event that is not a CallEvent: " + err.Error()})
			}
			continue
		}
		switch e := ev.GetEvent().(type) {
		case *pb.CallEvent_Progress:
			p.post(e.Progress, nil, nil)
		case *pb.CallEvent_Result:
			if c.remove(h.id) {
				result := e.Result
				if result == nil {
					result = &pb.CallResult{}
				}
				p.post(nil, result, nil)
			}
		default:
			if c.remove(h.id) {
				p.post(nil, nil, &PluginError{Message: "the plugin sent an event with neither progress nor a result"})
			}
		}
	}
}
