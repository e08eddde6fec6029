package callpipe

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
)

// Client is the host's end of a call pipe. Its methods may be called from
// any number of goroutines.
//
// No goroutine reads the connection for the callers. A caller waiting for
// its outcome reads it itself while no other goroutine does (it leads),
// delivering whatever else arrives to the calls it belongs to and serving
// the plugin's host calls, until its own outcome (or a progress event of
// its own) is there; then it lets another waiting caller lead. With one
// call in flight, the result wakes the goroutine that waits for it and no
// other: a hand-off from a reader goroutine to the caller cost a thread
// wake-up per call. Wait leads too, so a connection nobody calls is still
// read to its end.
type Client struct {
	w        frameWriter
	services *Services
	served   inbound       // the plugin's host-service requests being served
	done     chan struct{} // closed once the connection is gone

	// Only the goroutine that leads uses r and hdr.
	r   *bufio.Reader
	hdr [headerBytes]byte

	// rmu guards the interruption of a leader blocked waiting for a
	// frame when its call's context ends.
	rmu         sync.Mutex
	generation  uint64 // of the current lead; an older lead's interrupt is ignored
	awaiting    bool   // the leader waits for the first byte of a frame
	interrupted bool   // the read deadline was moved to wake it

	mu      sync.Mutex
	nextID  uint64
	pending map[uint64]*pending
	leading bool          // a goroutine reads the connection
	waiters int           // Wait calls ready to lead
	idle    chan struct{} // capacity 1: nobody leads, no call waits, a Wait may lead
	err     error         // why the connection is gone; set before done is closed
}

// pending is one call in flight. The leader never blocks on it, so one slow
// caller cannot hold up the results of the others: progress events queue
// here until the caller takes them (beyond maxQueuedProgress the oldest
// is dropped; only a caller that stopped reading falls that far behind),
// and the outcome is set once.
type pending struct {
	limit int           // largest event payload the caller accepts
	ready chan struct{} // capacity 1: something new is there, or nobody leads

	// parked (guarded by Client.mu) says the caller waits in Call for its
	// outcome while another goroutine leads: only a parked caller is asked
	// to lead, never one busy in its progress callback, during which
	// nobody would read.
	parked bool

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
	p.signal()
}

// signal wakes the caller, if it waits.
func (p *pending) signal() {
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
	return &Client{
		w:        frameWriter{conn: conn},
		services: services,
		done:     make(chan struct{}),
		r:        bufio.NewReaderSize(conn, readBufferBytes),
		pending:  map[uint64]*pending{},
		idle:     make(chan struct{}, 1),
	}
}

// Wait reads the connection, delivering what arrives to the calls in flight
// and serving the plugin's host calls, until the connection is gone; it
// returns once every host call the plugin made has returned too (their
// contexts end with the connection). While a caller leads, Wait waits and
// takes over when the caller is done. Once Wait leads it keeps the lead to
// the end, and the callers' results reach them through it: call it when
// the connection is ending, as the host does once the plugin has exited.
func (c *Client) Wait() {
	for {
		c.mu.Lock()
		if c.err != nil {
			c.mu.Unlock()
			break
		}
		if !c.leading {
			c.leading = true
			c.mu.Unlock()
			c.lead(context.Background(), 0, nil)
			continue
		}
		c.waiters++
		c.mu.Unlock()
		select {
		case <-c.idle:
		case <-c.done:
		}
		c.mu.Lock()
		c.waiters--
		c.mu.Unlock()
	}
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
//
// The caller may read and decode other calls' frames as well as its own,
// on its own stack: the host grows a tools/call goroutine's stack once, up
// front (host/server's growStack), rather than piecemeal in here.
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
	defer func() {
		if r := recover(); r != nil {
			c.remove(id) // onProgress panicked: nobody waits for this call any more
			panic(r)
		}
	}()
	for {
		// What ready announced so far, take sees: a token left over
		// (from the caller's own leading) would end its next lead at once.
		select {
		case <-p.ready:
		default:
		}
		progress, result, err := p.take()
		if onProgress != nil {
			for _, pr := range progress {
				onProgress(pr)
			}
		}
		if result != nil || err != nil {
			return result, err
		}
		if ctx.Err() == nil && c.tryLead(p) {
			c.lead(ctx, 0, p)
			continue
		}
		select {
		case <-p.ready:
			c.mu.Lock()
			p.parked = false
			c.mu.Unlock()
		case <-ctx.Done():
			if c.remove(id) {
				// Best effort: if this fails the connection is gone,
				// and so is the call.
				_ = c.w.write(KindCancel, id, nil)
				c.drain()
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
	c.kickLocked(nil) // it may have been the one asked to lead
	return ok
}

// drainQuiet is how long a drain waits for another frame before it stops.
const drainQuiet = 200 * time.Millisecond

// drain reads the connection on a goroutine of its own after a call was
// cancelled, when no caller reads it: until the plugin hears of the
// cancel, its handler may still send events, or host calls that must be
// served now rather than whenever the next call comes. It stops once no
// frame arrived for drainQuiet, and as soon as a call is in flight, whose
// caller then reads.
func (c *Client) drain() {
	if c.tryLead(nil) {
		go c.lead(context.Background(), drainQuiet, nil)
	}
}

// tryLead makes the calling goroutine the leader if nobody leads and the
// connection is not gone. Otherwise a caller p (nil for a drain) is parked
// in the same step, so that whoever gives up the lead asks it to lead.
func (c *Client) tryLead(p *pending) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return false
	}
	if c.leading {
		if p != nil {
			p.parked = true
		}
		return false
	}
	c.leading = true
	return true
}

// kickLocked, with mu held: when nobody leads, asks one parked caller
// other than self (which is about to lead again, or to leave), or else a
// Wait, to lead. Every path that leaves the lead free calls it, and a
// caller that is not parked tries to lead before it parks, so while calls
// are in flight someone reads, or is about to.
func (c *Client) kickLocked(self *pending) {
	if c.leading {
		return
	}
	for _, p := range c.pending {
		if p != self && p.parked {
			p.parked = false
			p.signal()
			return
		}
	}
	if c.waiters > 0 {
		select {
		case c.idle <- struct{}{}:
		default:
		}
	}
}

// release gives up the lead, which self (nil for Wait and a drain) held.
func (c *Client) release(self *pending) {
	c.mu.Lock()
	c.leading = false
	c.kickLocked(self)
	c.mu.Unlock()
}

// lookup returns the pending call with id, or nil when it is not (any
// more) waiting: cancelled, or an id the host never used.
func (c *Client) lookup(id uint64) *pending {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pending[id]
}

// Done is closed once the connection is gone, as the Client learns when
// it reads or writes: a call in flight, or Wait, reads the connection;
// between calls nobody does.
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

// lead reads and delivers frames until p (nil for Wait and drain) has
// something new, ctx ends, or the connection fails; a drain (quiet not 0)
// also stops when quiet passed without a frame or a call is in flight.
// Then it gives up the lead, which the calling goroutine holds.
func (c *Client) lead(ctx context.Context, quiet time.Duration, p *pending) {
	defer c.release(p)
	if p != nil {
		select {
		case <-p.ready:
			// The last leader delivered something to p after p last
			// looked.
			return
		default:
		}
	}
	c.rmu.Lock()
	c.generation++
	gen := c.generation
	c.rmu.Unlock()
	if ctx.Done() != nil {
		stop := context.AfterFunc(ctx, func() { c.interrupt(gen) })
		defer stop()
	}
	for {
		ok, err := c.await(ctx, quiet)
		if err != nil {
			_ = c.fail(err)
			return
		}
		if !ok || c.step(p) || quiet > 0 && !c.idleNow() {
			return
		}
	}
}

// interrupt wakes the leader of generation gen if it is blocked waiting
// for a frame: its call's context ended. A leader busy with a frame sees
// the context's end before it waits for the next.
func (c *Client) interrupt(gen uint64) {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	if c.generation != gen || !c.awaiting || c.interrupted {
		return
	}
	c.interrupted = true
	_ = c.w.conn.SetReadDeadline(time.Unix(1, 0))
}

// await waits until a frame starts to arrive; false when ctx ended first,
// or, for a drain (quiet not 0), a call is in flight or quiet passed
// without a frame. It reads nothing out of the buffer, so an interruption
// never leaves a frame half read.
func (c *Client) await(ctx context.Context, quiet time.Duration) (bool, error) {
	if c.r.Buffered() > 0 {
		return true, nil
	}
	if quiet > 0 && !c.idleNow() {
		return false, nil
	}
	c.rmu.Lock()
	if ctx.Err() != nil {
		c.rmu.Unlock()
		return false, nil
	}
	c.awaiting = true
	if quiet > 0 { // a drain: its context never ends, nothing interrupts it
		_ = c.w.conn.SetReadDeadline(time.Now().Add(quiet))
	}
	c.rmu.Unlock()
	_, err := c.r.Peek(1)
	c.rmu.Lock()
	c.awaiting = false
	interrupted := c.interrupted || quiet > 0
	if interrupted {
		c.interrupted = false
		_ = c.w.conn.SetReadDeadline(time.Time{})
	}
	c.rmu.Unlock()
	if err == nil {
		return true, nil
	}
	if interrupted && errors.Is(err, os.ErrDeadlineExceeded) {
		return false, nil
	}
	return false, err
}

// idleNow reports whether no call is in flight.
func (c *Client) idleNow() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending) == 0
}

// step reads one frame and delivers it. It reports whether the leader
// should stop: p got something (progress or its outcome) or the
// connection is gone.
func (c *Client) step(p *pending) bool {
	r := c.r
	h, err := readHeader(r, &c.hdr)
	if err != nil {
		_ = c.fail(err)
		return true
	}
	if h.size > MaxFrameBytes {
		_ = c.fail(fmt.Errorf("the plugin sent a frame of %d bytes, more than the %d MiB a frame may hold", h.size, MaxFrameBytes>>20))
		return true
	}
	switch h.kind {
	case KindEvent, KindFail:
	case KindHostCall:
		payload, err := readPayload(r, h)
		if err != nil {
			_ = c.fail(err)
			return true
		}
		ctx, ok := c.served.start(h.id)
		if !ok {
			_ = c.w.write(KindHostFail, h.id, fmt.Appendf(nil, "host call id %d is already in use", h.id))
			return false
		}
		go c.serveHost(ctx, h.id, payload)
		return false
	case KindHostCancel:
		if err := discard(r, h); err != nil {
			_ = c.fail(err)
			return true
		}
		c.served.cancel(h.id)
		return false
	default:
		_ = c.fail(fmt.Errorf("the plugin sent a frame of %s, which only the host sends", h.kind))
		return true
	}
	q := c.lookup(h.id)
	if q == nil || int(h.size) > q.limit {
		if err := discard(r, h); err != nil {
			_ = c.fail(err)
			return true
		}
		if q != nil && c.remove(h.id) {
			q.post(nil, nil, &TooLargeError{Size: int(h.size), Limit: q.limit})
		}
		return q != nil && q == p
	}
	payload, err := readPayload(r, h)
	if err != nil {
		_ = c.fail(err)
		return true
	}
	if h.kind == KindFail {
		if c.remove(h.id) {
			q.post(nil, nil, &PluginError{Message: string(payload)})
		}
		return q == p
	}
	var ev pb.CallEvent
	if err := proto.Unmarshal(payload, &ev); err != nil {
		if c.remove(h.id) {
			q.post(nil, nil, &PluginError{Message: "the plugin sent an event that is not a CallEvent: " + err.Error()})
		}
		return q == p
	}
	switch e := ev.GetEvent().(type) {
	case *pb.CallEvent_Progress:
		q.post(e.Progress, nil, nil)
	case *pb.CallEvent_Result:
		if c.remove(h.id) {
			result := e.Result
			if result == nil {
				result = &pb.CallResult{}
			}
			q.post(nil, result, nil)
		}
	default:
		if c.remove(h.id) {
			q.post(nil, nil, &PluginError{Message: "the plugin sent an event with neither progress nor a result"})
		}
	}
	return q == p
}
