package callpipe

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
)

// Handler runs one call on the plugin side, as the Toolset service's Call
// does: it may send progress events with send and returns the result. An
// error means the call could not be run at all (an unknown tool); it reaches
// the host as a KindFail frame. ctx ends when the host cancels the call or
// the connection is gone.
type Handler func(ctx context.Context, req *pb.CallRequest, send func(*pb.CallEvent) error) (*pb.CallResult, error)

// Server is the plugin's end of a call pipe: it answers the host's calls
// (Serve) and carries the plugin's calls to the host's services (it is a
// grpc.ClientConnInterface, so generated clients such as
// pb.NewHostWorkspaceClient work on it unchanged).
//
// One goroutine at a time reads the connection. The one that reads a call
// runs it itself, after handing the reading to an idle worker goroutine
// (or a new one): the call starts without waiting for another goroutine
// to wake, and the worker's wake-up happens while the call runs. Workers
// are kept (up to maxIdleWorkers idle), so a call reuses a stack that has
// grown already instead of growing (and copying) a new one every time.
type Server struct {
	w      frameWriter
	r      *bufio.Reader     // used only by the goroutine that reads
	hdr    [headerBytes]byte // likewise
	h      Handler
	closed chan struct{} // closed when the connection is gone
	err    error         // why the connection is gone; set before closed is closed

	served inbound // the host's calls running here

	// read hands the reading to an idle worker; idle counts them.
	read chan struct{}
	idle atomic.Int32

	mu        sync.Mutex
	hostNext  uint64
	hostCalls map[uint64]chan hostOutcome // this plugin's calls to the host, waiting
}

type hostOutcome struct {
	reply []byte
	err   error
}

// NewServer prepares conn, the plugin's end of a call pipe; Serve starts
// reading it.
func NewServer(conn net.Conn) *Server {
	return &Server{w: frameWriter{conn: conn}, r: bufio.NewReaderSize(conn, readBufferBytes),
		closed:    make(chan struct{}),
		hostCalls: map[uint64]chan hostOutcome{}, read: make(chan struct{})}
}

// Serve answers the calls that arrive, each on a goroutine of its own with
// h, and delivers the host's answers to Invoke, until the connection fails;
// then it cancels the calls still running, fails the host calls waiting,
// and returns. It returns nil when the host closed the connection, and
// otherwise why it stopped.
func (s *Server) Serve(h Handler) error {
	s.h = h
	go s.worker(true)
	<-s.closed
	s.cancelAll()
	if errors.Is(s.err, io.EOF) {
		return nil
	}
	return s.err
}

// worker reads the connection (when reading is true, or once an idle
// worker is asked to) until a call arrives, hands the reading on, runs the
// call, and waits to read again; it returns when the connection is gone or
// enough other workers are idle.
func (s *Server) worker(reading bool) {
	for {
		if !reading {
			if s.idle.Add(1) > maxIdleWorkers {
				s.idle.Add(-1)
				return
			}
			select {
			case <-s.read:
				s.idle.Add(-1)
			case <-s.closed:
				s.idle.Add(-1)
				return
			}
		}
		j, err := s.next()
		if err != nil {
			s.stop(err)
			return
		}
		select {
		case s.read <- struct{}{}:
		default:
			go s.worker(true)
		}
		s.run(j)
		reading = false
	}
}

// stop ends serving for the reason err: it closes the connection and lets
// the host calls waiting see that it is gone; Serve then cancels the calls
// still running.
func (s *Server) stop(err error) {
	s.err = err
	_ = s.w.conn.Close()
	close(s.closed)
}

// next reads frames, delivering the host's answers and cancels, until a
// call arrives; an error means the connection is gone.
func (s *Server) next() (job, error) {
	r := s.r
	for {
		hdr, err := readHeader(r, &s.hdr)
		if err != nil {
			return job{}, err
		}
		if hdr.size > MaxFrameBytes {
			return job{}, fmt.Errorf("the host sent a frame of %d bytes, more than the %d MiB a frame may hold", hdr.size, MaxFrameBytes>>20)
		}
		switch hdr.kind {
		case KindCall:
			payload, err := readPayload(r, hdr)
			if err != nil {
				return job{}, err
			}
			ctx, ok := s.served.start(hdr.id)
			if !ok {
				_ = s.w.write(KindFail, hdr.id, fmt.Appendf(nil, "call id %d is already in use", hdr.id))
				continue
			}
			return job{ctx: ctx, id: hdr.id, payload: payload}, nil
		case KindCancel:
			if err := discard(r, hdr); err != nil {
				return job{}, err
			}
			s.served.cancel(hdr.id)
		case KindHostReply, KindHostFail:
			payload, err := readPayload(r, hdr)
			if err != nil {
				return job{}, err
			}
			out := hostOutcome{reply: payload}
			if hdr.kind == KindHostFail {
				out = hostOutcome{err: status.Error(codes.Unknown, string(payload))}
			}
			s.mu.Lock()
			ch := s.hostCalls[hdr.id]
			delete(s.hostCalls, hdr.id)
			s.mu.Unlock()
			if ch != nil {
				ch <- out // capacity 1
			}
		default:
			return job{}, fmt.Errorf("the host sent a frame of %s, which only the plugin sends", hdr.kind)
		}
	}
}

// Invoke implements grpc.ClientConnInterface: one unary call of a host
// service over the pipe. Only call it while Serve runs and from a call that
// came over the pipe (see the package documentation). Errors are gRPC
// statuses: the host's failure (Unknown, its text), the context's, or
// Unavailable when the connection is gone.
func (s *Server) Invoke(ctx context.Context, method string, args, reply any, _ ...grpc.CallOption) error {
	if err := ctx.Err(); err != nil {
		return status.FromContextError(err).Err() // the host need not hear of it
	}
	req, ok := args.(proto.Message)
	out, ok2 := reply.(proto.Message)
	if !ok || !ok2 {
		return status.Errorf(codes.Internal, "call pipe: %s: %T and %T must be protobuf messages", method, args, reply)
	}
	body, err := proto.Marshal(req)
	if err != nil {
		return status.Errorf(codes.Internal, "call pipe: encoding %s: %v", method, err)
	}
	payload, err := encodeHostCall(method, body)
	if err != nil {
		return status.Errorf(codes.Internal, "call pipe: %s: %v", method, err)
	}
	ch := make(chan hostOutcome, 1)
	s.mu.Lock()
	s.hostNext++
	id := s.hostNext
	s.hostCalls[id] = ch
	s.mu.Unlock()
	forget := func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		_, ok := s.hostCalls[id]
		delete(s.hostCalls, id)
		return ok
	}
	if err := s.w.write(KindHostCall, id, payload); err != nil {
		forget()
		return status.Errorf(codes.Unavailable, "call pipe: sending %s: %v", method, err)
	}
	select {
	case o := <-ch:
		if o.err != nil {
			return o.err
		}
		if err := proto.Unmarshal(o.reply, out); err != nil {
			return status.Errorf(codes.Internal, "call pipe: decoding the answer to %s: %v", method, err)
		}
		return nil
	case <-ctx.Done():
		if forget() {
			_ = s.w.write(KindHostCancel, id, nil)
		}
		return status.FromContextError(ctx.Err()).Err()
	case <-s.closed:
		forget()
		return status.Errorf(codes.Unavailable, "call pipe: %s: the connection to the host is gone", method)
	}
}

// NewStream implements grpc.ClientConnInterface: the pipe has no streams.
func (s *Server) NewStream(context.Context, *grpc.StreamDesc, string, ...grpc.CallOption) (grpc.ClientStream, error) {
	return nil, status.Error(codes.Unimplemented, "call pipe: no streaming host calls")
}

var _ grpc.ClientConnInterface = (*Server)(nil)

// cancelAll cancels the calls still running and lets the host calls still
// waiting see that the connection is gone.
func (s *Server) cancelAll() {
	s.served.close()
	s.mu.Lock()
	s.hostCalls = map[uint64]chan hostOutcome{}
	s.mu.Unlock()
}

// job is one call, read and about to run.
type job struct {
	ctx     context.Context
	id      uint64
	payload []byte
}

// maxIdleWorkers bounds the workers kept waiting to read; more than the
// calls a plugin usually runs at once would only hold stacks.
const maxIdleWorkers = 4

// run runs one call and sends its outcome, unless the host gave up on it.
func (s *Server) run(j job) {
	ctx, id := j.ctx, j.id
	defer s.served.finish(id)
	var req pb.CallRequest
	if err := proto.Unmarshal(j.payload, &req); err != nil {
		_ = s.w.write(KindFail, id, []byte("the host sent a call that is not a CallRequest: "+err.Error()))
		return
	}
	send := func(ev *pb.CallEvent) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return s.send(id, ev)
	}
	res, err := s.h(ctx, &req, send)
	if ctx.Err() != nil {
		return // cancelled: the host no longer listens for this id
	}
	if err != nil {
		_ = s.w.write(KindFail, id, []byte(strings.ToValidUTF8(err.Error(), "\uFFFD")))
		return
	}
	if err := s.send(id, &pb.CallEvent{Event: &pb.CallEvent_Result{Result: res}}); err != nil {
		// The result cannot be encoded or is too large to send: the
		// host must still hear that the call is over.
		_ = s.w.write(KindFail, id, []byte("sending the result: "+err.Error()))
	}
}

func (s *Server) send(id uint64, ev *pb.CallEvent) error {
	payload, err := proto.Marshal(ev)
	if err != nil {
		return err
	}
	return s.w.write(KindEvent, id, payload)
}
