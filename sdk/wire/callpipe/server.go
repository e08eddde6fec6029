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

	"google.golang.org/protobuf/proto"

	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
)

// Handler runs one call on the plugin side, as the Toolset service's Call
// does: it may send progress events with send and returns the result. An
// error means the call could not be run at all (an unknown tool); it reaches
// the host as a KindFail frame. ctx ends when the host cancels the call or
// the connection is gone.
type Handler func(ctx context.Context, req *pb.CallRequest, send func(*pb.CallEvent) error) (*pb.CallResult, error)

// Serve answers the calls that arrive on conn, the plugin's end of a call
// pipe, each on its own goroutine, until the connection fails; then it
// cancels the calls still running and returns. It returns nil when the
// host closed the connection, and otherwise why it stopped.
func Serve(conn net.Conn, h Handler) error {
	s := &server{w: frameWriter{conn: conn}, h: h, calls: map[uint64]context.CancelFunc{}}
	defer s.cancelAll()
	defer conn.Close()
	r := bufio.NewReaderSize(conn, readBufferBytes)
	var buf [headerBytes]byte
	for {
		hdr, err := readHeader(r, &buf)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if hdr.size > MaxFrameBytes {
			return fmt.Errorf("the host sent a frame of %d bytes, more than the %d MiB a frame may hold", hdr.size, MaxFrameBytes>>20)
		}
		switch hdr.kind {
		case KindCall:
			payload, err := readPayload(r, hdr)
			if err != nil {
				return err
			}
			ctx, cancel := context.WithCancel(context.Background())
			if !s.add(hdr.id, cancel) {
				cancel()
				_ = s.w.write(KindFail, hdr.id, fmt.Appendf(nil, "call id %d is already in use", hdr.id))
				continue
			}
			// The new goroutine usually runs on this thread as soon as
			// the reader blocks for the next frame: no wake-up.
			go s.run(ctx, hdr.id, payload)
		case KindCancel:
			if err := discard(r, hdr); err != nil {
				return err
			}
			s.cancel(hdr.id)
		default:
			return fmt.Errorf("the host sent a frame of %s, which only the plugin sends", hdr.kind)
		}
	}
}

type server struct {
	w frameWriter
	h Handler

	mu    sync.Mutex
	calls map[uint64]context.CancelFunc
}

func (s *server) add(id uint64, cancel context.CancelFunc) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.calls[id]; dup {
		return false
	}
	s.calls[id] = cancel
	return true
}

// cancel ends the call with id, if it still runs.
func (s *server) cancel(id uint64) {
	s.mu.Lock()
	cancel := s.calls[id]
	delete(s.calls, id)
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (s *server) cancelAll() {
	s.mu.Lock()
	calls := s.calls
	s.calls = map[uint64]context.CancelFunc{}
	s.mu.Unlock()
	for _, cancel := range calls {
		cancel()
	}
}

// run runs one call and sends its outcome, unless the host gave up on it.
func (s *server) run(ctx context.Context, id uint64, payload []byte) {
	defer s.cancel(id)
	var req pb.CallRequest
	if err := proto.Unmarshal(payload, &req); err != nil {
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

func (s *server) send(id uint64, ev *pb.CallEvent) error {
	payload, err := proto.Marshal(ev)
	if err != nil {
		return err
	}
	return s.w.write(KindEvent, id, payload)
}
