//go:build unix

package callpipe_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
	"github.com/godot-mcp/godot-mcp/sdk/wire/callpipe"
)

// logPipe is a call pipe whose host serves HostLog with svc (room for
// ended outcomes of handlers' host calls): the host's client, closed and
// waited for at the end of the test, and the plugin's server, not yet
// serving.
func logPipe(t *testing.T, ended int) (*callpipe.Client, *callpipe.Server, *logService) {
	t.Helper()
	hostEnd, pluginEnd := pair(t)
	svc := &logService{ended: make(chan error, ended)}
	services := callpipe.NewServices()
	pb.RegisterHostLogServer(services, svc)
	c := callpipe.NewClient(hostEnd, services)
	t.Cleanup(func() { c.Close(); c.Wait() })
	return c, callpipe.NewServer(pluginEnd), svc
}

// pair returns the two ends of a real socket pair, as the host makes them.
func pair(t testing.TB) (host, plugin net.Conn) {
	t.Helper()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	conn := func(fd int) net.Conn {
		f := os.NewFile(uintptr(fd), "pipe")
		defer f.Close()
		c, err := net.FileConn(f)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	host, plugin = conn(fds[0]), conn(fds[1])
	t.Cleanup(func() { host.Close(); plugin.Close() })
	return host, plugin
}

// serve runs h on the plugin end and returns a client on the host end.
// Serve's outcome arrives on the returned channel.
func serve(t testing.TB, h callpipe.Handler) (*callpipe.Client, <-chan error) {
	t.Helper()
	hostEnd, pluginEnd := pair(t)
	done := make(chan error, 1)
	go func() { done <- callpipe.NewServer(pluginEnd).Serve(h) }()
	c := callpipe.NewClient(hostEnd, nil)
	t.Cleanup(func() { c.Close() })
	return c, done
}

func text(s string) *pb.CallResult {
	return &pb.CallResult{Content: []*pb.Content{{Content: &pb.Content_Text{Text: &pb.TextContent{Text: s}}}}}
}

func textOf(r *pb.CallResult) string {
	if r == nil || len(r.GetContent()) == 0 {
		return ""
	}
	return r.GetContent()[0].GetText().GetText()
}

// echo answers every call with its tool name and arguments.
func echo(_ context.Context, req *pb.CallRequest, _ func(*pb.CallEvent) error) (*pb.CallResult, error) {
	return text(req.GetTool() + " " + string(req.GetArgumentsJson())), nil
}

func TestConcurrentCallsGetTheirOwnResults(t *testing.T) {
	c, _ := serve(t, echo)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			args := fmt.Sprintf(`{"n":%d}`, i)
			res, err := c.Call(context.Background(), &pb.CallRequest{Tool: "t", ArgumentsJson: []byte(args)}, 1<<20, nil)
			if err != nil {
				errs <- err
				return
			}
			if got, want := textOf(res), "t "+args; got != want {
				errs <- fmt.Errorf("got %q, want %q", got, want)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestProgressArrivesBeforeTheResult(t *testing.T) {
	seen := make(chan struct{})
	c, _ := serve(t, func(ctx context.Context, _ *pb.CallRequest, send func(*pb.CallEvent) error) (*pb.CallResult, error) {
		if err := send(&pb.CallEvent{Event: &pb.CallEvent_Progress{Progress: &pb.Progress{Progress: 1, Total: 2, Message: "half"}}}); err != nil {
			return nil, err
		}
		select { // the result only once the caller saw the progress
		case <-seen:
		case <-ctx.Done():
		}
		return text("done"), nil
	})
	var got []*pb.Progress
	res, err := c.Call(context.Background(), &pb.CallRequest{Tool: "t"}, 1<<20, func(p *pb.Progress) {
		got = append(got, p)
		if len(got) == 1 {
			close(seen)
		}
	})
	if err != nil || textOf(res) != "done" {
		t.Fatalf("Call = %v, %v", res, err)
	}
	if len(got) != 1 || got[0].GetProgress() != 1 || got[0].GetTotal() != 2 || got[0].GetMessage() != "half" {
		t.Fatalf("progress = %v, want one event 1/2 half", got)
	}
}

func TestCancelReachesTheHandler(t *testing.T) {
	started, ended := make(chan struct{}), make(chan error, 1)
	c, _ := serve(t, func(ctx context.Context, req *pb.CallRequest, _ func(*pb.CallEvent) error) (*pb.CallResult, error) {
		if req.GetTool() != "slow" {
			return text("fine"), nil
		}
		close(started)
		<-ctx.Done()
		ended <- ctx.Err()
		return text("too late"), nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	_, err := c.Call(ctx, &pb.CallRequest{Tool: "slow"}, 1<<20, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Call error = %v, want context.Canceled", err)
	}
	select {
	case err := <-ended:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("handler context ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the handler's context was never cancelled")
	}
	// The connection is still good for the next call.
	if res, err := c.Call(context.Background(), &pb.CallRequest{Tool: "again"}, 1<<20, nil); err != nil || textOf(res) != "fine" {
		t.Fatalf("next call = %v, %v", res, err)
	}
}

func TestResultLargerThanTheLimitIsSkippedAndTheConnectionStaysInStep(t *testing.T) {
	c, _ := serve(t, func(_ context.Context, req *pb.CallRequest, _ func(*pb.CallEvent) error) (*pb.CallResult, error) {
		if req.GetTool() == "big" {
			return text(strings.Repeat("x", 200_000)), nil
		}
		return text("small"), nil
	})
	_, err := c.Call(context.Background(), &pb.CallRequest{Tool: "big"}, 100_000, nil)
	var tl *callpipe.TooLargeError
	if !errors.As(err, &tl) || tl.Limit != 100_000 || tl.Size <= 200_000 {
		t.Fatalf("err = %v, want a TooLargeError over 200000 bytes with limit 100000", err)
	}
	res, err := c.Call(context.Background(), &pb.CallRequest{Tool: "small"}, 100_000, nil)
	if err != nil || textOf(res) != "small" {
		t.Fatalf("next call = %v, %v", res, err)
	}
}

func TestHandlerErrorIsAPluginError(t *testing.T) {
	c, _ := serve(t, func(context.Context, *pb.CallRequest, func(*pb.CallEvent) error) (*pb.CallResult, error) {
		return nil, errors.New(`toolset "x" has no tool "nope"`)
	})
	_, err := c.Call(context.Background(), &pb.CallRequest{Tool: "nope"}, 1<<20, nil)
	var pe *callpipe.PluginError
	if !errors.As(err, &pe) || pe.Message != `toolset "x" has no tool "nope"` {
		t.Fatalf("err = %v, want the handler's words as a PluginError", err)
	}
}

func TestPluginGoneFailsCallsInFlightAndAfter(t *testing.T) {
	hostEnd, pluginEnd := pair(t)
	started := make(chan struct{})
	go callpipe.NewServer(pluginEnd).Serve(func(ctx context.Context, _ *pb.CallRequest, _ func(*pb.CallEvent) error) (*pb.CallResult, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	c := callpipe.NewClient(hostEnd, nil)
	go func() { <-started; pluginEnd.Close() }() // the plugin process dies
	_, err := c.Call(context.Background(), &pb.CallRequest{Tool: "t"}, 1<<20, nil)
	if !errors.Is(err, callpipe.ErrClosed) {
		t.Fatalf("call in flight: err = %v, want ErrClosed", err)
	}
	<-c.Done()
	if _, err := c.Call(context.Background(), &pb.CallRequest{Tool: "t"}, 1<<20, nil); !errors.Is(err, callpipe.ErrClosed) {
		t.Fatalf("call after: err = %v, want ErrClosed", err)
	}
}

// frame builds a raw frame as a misbehaving peer would send it.
func frame(kind callpipe.Kind, id uint64, size uint32, payload []byte) []byte {
	b := make([]byte, 13, 13+len(payload))
	binary.BigEndian.PutUint32(b[0:4], size)
	b[4] = byte(kind)
	binary.BigEndian.PutUint64(b[5:13], id)
	return append(b, payload...)
}

func TestClientRefusesWhatOnlyTheHostSends(t *testing.T) {
	for name, raw := range map[string][]byte{
		"a call frame":        frame(callpipe.KindCall, 1, 0, nil),
		"an unknown kind":     frame(9, 1, 0, nil),
		"an oversized header": frame(callpipe.KindEvent, 1, callpipe.MaxFrameBytes+1, nil),
	} {
		t.Run(name, func(t *testing.T) {
			hostEnd, pluginEnd := pair(t)
			c := callpipe.NewClient(hostEnd, nil)
			go func() {
				buf := make([]byte, 4096)
				_, _ = pluginEnd.Read(buf) // the call
				_, _ = pluginEnd.Write(raw)
			}()
			_, err := c.Call(context.Background(), &pb.CallRequest{Tool: "t"}, 1<<20, nil)
			if !errors.Is(err, callpipe.ErrClosed) {
				t.Fatalf("err = %v, want ErrClosed", err)
			}
		})
	}
}

func TestClientFailsOnlyTheCallOfAnUndecodableEvent(t *testing.T) {
	hostEnd, pluginEnd := pair(t)
	c := callpipe.NewClient(hostEnd, nil)
	go func() {
		buf := make([]byte, 4096)
		_, _ = pluginEnd.Read(buf)
		_, _ = pluginEnd.Write(frame(callpipe.KindEvent, 1, 3, []byte{0xff, 0xff, 0xff}))
	}()
	_, err := c.Call(context.Background(), &pb.CallRequest{Tool: "t"}, 1<<20, nil)
	var pe *callpipe.PluginError
	if !errors.As(err, &pe) || errors.Is(err, callpipe.ErrClosed) {
		t.Fatalf("err = %v, want a PluginError with the connection still open", err)
	}
	select {
	case <-c.Done():
		t.Fatal("the connection was closed for one bad event")
	default:
	}
}

func TestServerRefusesWhatOnlyThePluginSends(t *testing.T) {
	hostEnd, pluginEnd := pair(t)
	done := make(chan error, 1)
	go func() { done <- callpipe.NewServer(pluginEnd).Serve(echo) }()
	if _, err := hostEnd.Write(frame(callpipe.KindEvent, 1, 0, nil)); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "only the plugin sends") {
			t.Fatalf("Serve = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not stop")
	}
}

func TestServerAnswersAnUndecodableCallWithAFailFrame(t *testing.T) {
	hostEnd, pluginEnd := pair(t)
	go callpipe.NewServer(pluginEnd).Serve(echo)
	if _, err := hostEnd.Write(frame(callpipe.KindCall, 7, 2, []byte{0xff, 0xff})); err != nil {
		t.Fatal(err)
	}
	hdr := make([]byte, 13)
	if _, err := hostEnd.Read(hdr); err != nil {
		t.Fatal(err)
	}
	if callpipe.Kind(hdr[4]) != callpipe.KindFail || binary.BigEndian.Uint64(hdr[5:13]) != 7 {
		t.Fatalf("header = %v, want a fail frame for call 7", hdr)
	}
}

func TestServeReturnsNilWhenTheHostCloses(t *testing.T) {
	c, done := serve(t, echo)
	c.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve = %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return")
	}
}

// FuzzClient feeds whatever a broken plugin might write to a client with a
// call in flight: the call must end (with a result or an error), never hang
// or panic.
func FuzzClient(f *testing.F) {
	ok := func(id uint64) []byte {
		p := []byte{0x12, 0x00} // CallEvent{result: {}}
		return frame(callpipe.KindEvent, id, uint32(len(p)), p)
	}
	f.Add(ok(1))
	f.Add(frame(callpipe.KindFail, 1, 4, []byte("nope")))
	f.Add(frame(callpipe.KindEvent, 1, 3, []byte{0xff, 0xff, 0xff}))
	f.Add(append(frame(callpipe.KindEvent, 2, 2, []byte{0x12, 0x00}), ok(1)...))
	f.Add(frame(callpipe.KindEvent, 1, 1<<30, nil))
	f.Fuzz(func(t *testing.T, raw []byte) {
		hostEnd, pluginEnd := pair(t)
		c := callpipe.NewClient(hostEnd, nil)
		go func() {
			buf := make([]byte, 4096)
			_, _ = pluginEnd.Read(buf)
			_, _ = pluginEnd.Write(raw)
			pluginEnd.Close()
		}()
		res, err := c.Call(context.Background(), &pb.CallRequest{Tool: "t"}, 1<<20, nil)
		if (res == nil) == (err == nil) {
			t.Fatalf("Call = %v, %v: want exactly one of a result and an error", res, err)
		}
	})
}

// FuzzServe feeds whatever a broken host might write to a plugin: Serve
// must return once the connection closes, never hang or panic.
func FuzzServe(f *testing.F) {
	f.Add(frame(callpipe.KindCall, 1, 0, nil))
	f.Add(frame(callpipe.KindCancel, 1, 0, nil))
	f.Add(frame(callpipe.KindCall, 1, 2, []byte{0xff, 0xff}))
	f.Add(frame(callpipe.KindEvent, 1, 0, nil))
	f.Fuzz(func(t *testing.T, raw []byte) {
		hostEnd, pluginEnd := pair(t)
		done := make(chan error, 1)
		go func() { done <- callpipe.NewServer(pluginEnd).Serve(echo) }()
		go func() { // drain the answers
			buf := make([]byte, 4096)
			for {
				if _, err := hostEnd.Read(buf); err != nil {
					return
				}
			}
		}()
		_, _ = hostEnd.Write(raw)
		_ = hostEnd.(*net.UnixConn).CloseWrite()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("Serve did not return after the host closed")
		}
	})
}

// logService is a real host service for host calls: it records lines and
// refuses the ones marked "refuse"; "block" waits for its context.
type logService struct {
	pb.UnimplementedHostLogServer
	mu    sync.Mutex
	lines []string
	ended chan error
}

func (l *logService) Log(ctx context.Context, req *pb.LogRequest) (*pb.LogResponse, error) {
	switch req.GetMessage() {
	case "refuse":
		return nil, errors.New("refused by the host")
	case "block":
		<-ctx.Done()
		l.ended <- ctx.Err()
		return nil, ctx.Err()
	}
	l.mu.Lock()
	l.lines = append(l.lines, req.GetMessage())
	l.mu.Unlock()
	return &pb.LogResponse{}, nil
}

// A call's handler reaches the host's services over the same pipe, through
// the generated client; failures and cancellation come back as statuses.
func TestHostCallsFromAHandler(t *testing.T) {
	c, srv, svc := logPipe(t, 1)
	go srv.Serve(func(ctx context.Context, req *pb.CallRequest, _ func(*pb.CallEvent) error) (*pb.CallResult, error) {
		log := pb.NewHostLogClient(srv)
		switch req.GetTool() {
		case "log":
			if _, err := log.Log(ctx, &pb.LogRequest{Message: "hello"}); err != nil {
				return text("error: " + err.Error()), nil
			}
			return text("logged"), nil
		case "refused":
			_, err := log.Log(ctx, &pb.LogRequest{Message: "refuse"})
			return text(fmt.Sprint(err)), nil
		case "cancel":
			cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
			defer cancel()
			_, err := log.Log(cctx, &pb.LogRequest{Message: "block"})
			return text(fmt.Sprint(err)), nil
		case "stream":
			_, err := srv.NewStream(ctx, &grpc.StreamDesc{}, "/x/y")
			return text(fmt.Sprint(err)), nil
		}
		err := srv.Invoke(ctx, "/godotmcp.toolset.v1.HostLog/Nope", &pb.LogRequest{}, &pb.LogResponse{})
		return text(fmt.Sprint(err)), nil
	})
	ask := func(tool string) string {
		res, err := c.Call(context.Background(), &pb.CallRequest{Tool: tool}, 1<<20, nil)
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		return textOf(res)
	}
	if got := ask("log"); got != "logged" {
		t.Fatalf("log: %s", got)
	}
	svc.mu.Lock()
	lines := slices.Clone(svc.lines)
	svc.mu.Unlock()
	if !slices.Equal(lines, []string{"hello"}) {
		t.Fatalf("the host service saw %v", lines)
	}
	if got := ask("refused"); !strings.Contains(got, "refused by the host") {
		t.Fatalf("refused: %s", got)
	}
	if got := ask("cancel"); !strings.Contains(got, "DeadlineExceeded") {
		t.Fatalf("cancel: %s", got)
	}
	select {
	case err := <-svc.ended:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("the host handler's context ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the plugin's cancel never reached the host handler")
	}
	if got := ask("stream"); !strings.Contains(got, "Unimplemented") {
		t.Fatalf("stream: %s", got)
	}
	if got := ask("unknown"); !strings.Contains(got, `serves no method "/godotmcp.toolset.v1.HostLog/Nope"`) {
		t.Fatalf("unknown method: %s", got)
	}
}

// When the host goes away, a host call waiting for its answer fails with
// Unavailable instead of hanging.
func TestHostCallFailsWhenTheHostIsGone(t *testing.T) {
	hostEnd, pluginEnd := pair(t)
	srv := callpipe.NewServer(pluginEnd)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(echo) }()
	go func() {
		buf := make([]byte, 4096)
		_, _ = hostEnd.Read(buf) // the host call
		hostEnd.Close()
	}()
	err := srv.Invoke(context.Background(), "/godotmcp.toolset.v1.HostLog/Log", &pb.LogRequest{}, &pb.LogResponse{})
	if !strings.Contains(fmt.Sprint(err), "Unavailable") {
		t.Fatalf("err = %v, want Unavailable", err)
	}
	<-done
}

// TestCallsRunAtOnceBeyondTheIdleWorkers: calls reuse idle workers, but a
// call never waits for another to finish: ten calls that each wait until
// all ten have started all complete, before and after workers are idle.
func TestCallsRunAtOnceBeyondTheIdleWorkers(t *testing.T) {
	const n = 10
	var mu sync.Mutex
	var started *sync.WaitGroup // this round's
	h := func(ctx context.Context, req *pb.CallRequest, _ func(*pb.CallEvent) error) (*pb.CallResult, error) {
		mu.Lock()
		started := started
		mu.Unlock()
		started.Done()
		done := make(chan struct{})
		go func() { started.Wait(); close(done) }()
		select {
		case <-done:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(10 * time.Second):
			return nil, fmt.Errorf("call %s waited for the others in vain", req.GetTool())
		}
		return text(req.GetTool()), nil
	}
	c, _ := serve(t, h)
	for r := range 3 {
		mu.Lock()
		started = &sync.WaitGroup{}
		started.Add(n)
		mu.Unlock()
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				tool := fmt.Sprintf("r%dc%d", r, i)
				res, err := c.Call(context.Background(), &pb.CallRequest{Tool: tool}, 1<<20, nil)
				if err != nil || textOf(res) != tool {
					t.Errorf("call %s = %q, %v", tool, textOf(res), err)
				}
			}()
		}
		wg.Wait()
	}
}

// The host's callers read the connection themselves, one at a time. When
// the one reading gives up (its context ends while it waits for a frame),
// another caller still waiting must take over: its result arrives.
func TestAnotherCallerReadsWhenTheReaderIsCancelled(t *testing.T) {
	for round := range 20 {
		started := make(chan string, 2)
		release := make(chan struct{})
		c, _ := serve(t, func(ctx context.Context, req *pb.CallRequest, _ func(*pb.CallEvent) error) (*pb.CallResult, error) {
			started <- req.GetTool()
			if req.GetTool() == "first" {
				<-ctx.Done()
				return nil, ctx.Err()
			}
			select {
			case <-release:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return text(req.GetTool()), nil
		})
		ctx, cancel := context.WithCancel(context.Background())
		firstErr := make(chan error, 1)
		go func() {
			_, err := c.Call(ctx, &pb.CallRequest{Tool: "first"}, 1<<20, nil)
			firstErr <- err
		}()
		<-started // the first call is in flight, its caller reading
		second := make(chan error, 1)
		go func() {
			res, err := c.Call(context.Background(), &pb.CallRequest{Tool: "second"}, 1<<20, nil)
			if err == nil && textOf(res) != "second" {
				err = fmt.Errorf("result %q", textOf(res))
			}
			second <- err
		}()
		<-started
		cancel()
		if err := <-firstErr; !errors.Is(err, context.Canceled) {
			t.Fatalf("round %d: first call: %v, want context.Canceled", round, err)
		}
		close(release)
		select {
		case err := <-second:
			if err != nil {
				t.Fatalf("round %d: second call: %v", round, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("round %d: the second call never got its result: nobody read it", round)
		}
	}
}

// A caller busy in its progress callback is never the one asked to read
// when the reader finishes: the result of another caller, waiting while a
// third read, must not wait for the callback. (Each round: A's callback
// starts B, then C; B leads while C waits; B's result ends B's lead, and
// C must read its own result while A's callback still runs.)
func TestBusyProgressCallbackIsNotAskedToRead(t *testing.T) {
	for range 10 {
		relB, relC, relA := make(chan struct{}), make(chan struct{}), make(chan struct{})
		started := make(chan string, 2)
		c, _ := serve(t, func(ctx context.Context, req *pb.CallRequest, send func(*pb.CallEvent) error) (*pb.CallResult, error) {
			switch req.GetTool() {
			case "A":
				if err := send(&pb.CallEvent{Event: &pb.CallEvent_Progress{Progress: &pb.Progress{Progress: 1}}}); err != nil {
					return nil, err
				}
				<-relA
			case "B":
				started <- "B"
				<-relB
			case "C":
				started <- "C"
				<-relC
			}
			return text(req.GetTool()), nil
		})
		call := func(tool string, out chan<- error) {
			_, err := c.Call(context.Background(), &pb.CallRequest{Tool: tool}, 1<<20, nil)
			out <- err
		}
		var stalled bool
		_, err := c.Call(context.Background(), &pb.CallRequest{Tool: "A"}, 1<<20, func(*pb.Progress) {
			defer close(relA)
			bDone, cDone := make(chan error, 1), make(chan error, 1)
			go call("B", bDone)
			<-started
			go call("C", cDone)
			<-started
			time.Sleep(5 * time.Millisecond) // C parks: B leads
			close(relB)
			if err := <-bDone; err != nil {
				t.Errorf("B: %v", err)
			}
			close(relC)
			select {
			case err := <-cDone:
				if err != nil {
					t.Errorf("C: %v", err)
				}
			case <-time.After(10 * time.Second):
				stalled = true
			}
		})
		if err != nil {
			t.Fatalf("A: %v", err)
		}
		if stalled {
			t.Fatal("C's result waited for A's progress callback: A, busy in it, was asked to read")
		}
	}
}

// A caller that is slow to take its progress does not hold up the results
// of the others, though it may have been the one reading the connection.
func TestSlowProgressReceiverDoesNotHoldUpOtherCalls(t *testing.T) {
	c, _ := serve(t, func(ctx context.Context, req *pb.CallRequest, send func(*pb.CallEvent) error) (*pb.CallResult, error) {
		if req.GetTool() == "chatty" {
			if err := send(&pb.CallEvent{Event: &pb.CallEvent_Progress{Progress: &pb.Progress{Progress: 1, Message: "step"}}}); err != nil {
				return nil, err
			}
		}
		return text(req.GetTool()), nil
	})
	for round := range 10 {
		otherDone := make(chan error, 1)
		res, err := c.Call(context.Background(), &pb.CallRequest{Tool: "chatty"}, 1<<20, func(*pb.Progress) {
			// While this caller sits in its progress callback, another
			// call must complete.
			go func() {
				_, err := c.Call(context.Background(), &pb.CallRequest{Tool: "other"}, 1<<20, nil)
				otherDone <- err
			}()
			select {
			case err := <-otherDone:
				if err != nil {
					t.Errorf("round %d: other call: %v", round, err)
				}
			case <-time.After(10 * time.Second):
				t.Errorf("round %d: the other call waited for a caller's progress callback", round)
			}
		})
		if err != nil || textOf(res) != "chatty" {
			t.Fatalf("round %d: chatty call = %q, %v", round, textOf(res), err)
		}
	}
}

// Many calls at once, each with progress events and a host call while it
// runs, some cancelled: every call that is not cancelled gets its own
// progress, in order, and its own result; the cancelled ones end with
// their context's error; the connection stays usable.
func TestConcurrentCallsWithProgressHostCallsAndCancels(t *testing.T) {
	c, srv, svc := logPipe(t, 64)
	go srv.Serve(func(ctx context.Context, req *pb.CallRequest, send func(*pb.CallEvent) error) (*pb.CallResult, error) {
		for i := range 3 {
			if err := send(&pb.CallEvent{Event: &pb.CallEvent_Progress{Progress: &pb.Progress{Progress: float64(i), Message: req.GetTool()}}}); err != nil {
				return nil, err
			}
			if i == 1 {
				if _, err := pb.NewHostLogClient(srv).Log(ctx, &pb.LogRequest{Message: req.GetTool()}); err != nil {
					return nil, err
				}
			}
		}
		if strings.HasPrefix(req.GetTool(), "cancel") {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return text(req.GetTool()), nil
	})
	const n = 48
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tool := fmt.Sprintf("call%d", i)
			ctx := context.Background()
			if i%4 == 0 {
				tool = fmt.Sprintf("cancel%d", i)
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, time.Duration(i)*time.Millisecond)
				defer cancel()
			}
			var got []float64
			res, err := c.Call(ctx, &pb.CallRequest{Tool: tool}, 1<<20, func(p *pb.Progress) {
				if p.GetMessage() != tool {
					t.Errorf("%s got progress of %s", tool, p.GetMessage())
				}
				got = append(got, p.GetProgress())
			})
			if i%4 == 0 {
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("%s = %q, %v; want DeadlineExceeded", tool, textOf(res), err)
				}
				return
			}
			if err != nil || textOf(res) != tool {
				t.Errorf("%s = %q, %v", tool, textOf(res), err)
			}
			if !slices.Equal(got, []float64{0, 1, 2}) {
				t.Errorf("%s: progress %v, want 0 1 2", tool, got)
			}
		}()
	}
	wg.Wait()
	svc.mu.Lock()
	logged := len(svc.lines)
	svc.mu.Unlock()
	if logged < n-n/4 {
		t.Errorf("the host served %d host calls, want at least %d", logged, n-n/4)
	}
	if res, err := c.Call(context.Background(), &pb.CallRequest{Tool: "after"}, 1<<20, nil); err != nil || textOf(res) != "after" {
		t.Fatalf("call after = %q, %v", textOf(res), err)
	}
}

// Frames that arrive for a call its caller gave up on, after the cancel and
// while no other call is in flight, are read and skipped (by the drain the
// cancel starts, or by the next call's reader), and the next call gets its
// own result.
func TestLateFramesOfACancelledCallAreSkipped(t *testing.T) {
	hostEnd, pluginEnd := pair(t)
	c := callpipe.NewClient(hostEnd, nil)
	t.Cleanup(func() { c.Close() })
	readFrame := func() (callpipe.Kind, uint64) {
		hdr := make([]byte, 13)
		if _, err := io.ReadFull(pluginEnd, hdr); err != nil {
			t.Error(err)
			return 0, 0
		}
		if _, err := io.CopyN(io.Discard, pluginEnd, int64(binary.BigEndian.Uint32(hdr[0:4]))); err != nil {
			t.Error(err)
		}
		return callpipe.Kind(hdr[4]), binary.BigEndian.Uint64(hdr[5:13])
	}
	result := func(id uint64, s string) []byte {
		p, err := proto.Marshal(&pb.CallEvent{Event: &pb.CallEvent_Result{Result: text(s)}})
		if err != nil {
			t.Fatal(err)
		}
		return frame(callpipe.KindEvent, id, uint32(len(p)), p)
	}
	plugin := make(chan error, 1)
	go func() {
		if k, id := readFrame(); k != callpipe.KindCall || id != 1 {
			plugin <- fmt.Errorf("first frame %s %d, want call 1", k, id)
			return
		}
		if k, id := readFrame(); k != callpipe.KindCancel || id != 1 {
			plugin <- fmt.Errorf("second frame %s %d, want cancel 1", k, id)
			return
		}
		// Too late: the result of call 1, with nobody waiting.
		if _, err := pluginEnd.Write(result(1, "late")); err != nil {
			plugin <- err
			return
		}
		if k, id := readFrame(); k != callpipe.KindCall || id != 2 {
			plugin <- fmt.Errorf("third frame %s %d, want call 2", k, id)
			return
		}
		_, err := pluginEnd.Write(result(2, "second"))
		plugin <- err
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := c.Call(ctx, &pb.CallRequest{Tool: "first"}, 1<<20, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("first call: %v, want DeadlineExceeded", err)
	}
	time.Sleep(20 * time.Millisecond) // let the late frame arrive unread
	res, err := c.Call(context.Background(), &pb.CallRequest{Tool: "second"}, 1<<20, nil)
	if err != nil || textOf(res) != "second" {
		t.Fatalf("second call = %q, %v", textOf(res), err)
	}
	if err := <-plugin; err != nil {
		t.Fatal(err)
	}
}

// With no call in flight no caller reads the connection; Wait does, so it
// returns once the plugin is gone.
func TestWaitReadsTheConnectionToItsEnd(t *testing.T) {
	hostEnd, pluginEnd := pair(t)
	c := callpipe.NewClient(hostEnd, nil)
	waited := make(chan struct{})
	go func() { c.Wait(); close(waited) }()
	time.Sleep(10 * time.Millisecond)
	select {
	case <-waited:
		t.Fatal("Wait returned while the connection was open")
	default:
	}
	pluginEnd.Close() // the plugin process dies
	select {
	case <-waited:
	case <-time.After(10 * time.Second):
		t.Fatal("Wait did not notice the connection's end")
	}
	select {
	case <-c.Done():
	default:
		t.Fatal("Done is not closed after Wait returned")
	}
}

// Wait while a call is in flight: the caller reads; when its result is in,
// Wait takes over and still sees the connection's end.
func TestWaitTakesOverFromACaller(t *testing.T) {
	hostEnd, pluginEnd := pair(t)
	release := make(chan struct{})
	go callpipe.NewServer(pluginEnd).Serve(func(ctx context.Context, req *pb.CallRequest, _ func(*pb.CallEvent) error) (*pb.CallResult, error) {
		<-release
		return text("done"), nil
	})
	c := callpipe.NewClient(hostEnd, nil)
	callDone := make(chan error, 1)
	go func() {
		_, err := c.Call(context.Background(), &pb.CallRequest{Tool: "t"}, 1<<20, nil)
		callDone <- err
	}()
	waited := make(chan struct{})
	time.Sleep(5 * time.Millisecond)
	go func() { c.Wait(); close(waited) }()
	time.Sleep(5 * time.Millisecond)
	close(release)
	if err := <-callDone; err != nil {
		t.Fatal(err)
	}
	select {
	case <-waited:
		t.Fatal("Wait returned while the connection was open")
	case <-time.After(10 * time.Millisecond):
	}
	pluginEnd.Close()
	select {
	case <-waited:
	case <-time.After(10 * time.Second):
		t.Fatal("Wait did not notice the connection's end")
	}
}

// A cancelled call's handler may still make a host call before it hears
// of the cancel. With no other call in flight no caller reads the
// connection, yet the host serves it now, not when the next call comes.
func TestHostCallOfACancelledCallIsServedAtOnce(t *testing.T) {
	c, srv, svc := logPipe(t, 1)
	started, hostAnswer := make(chan struct{}), make(chan error, 1)
	go srv.Serve(func(ctx context.Context, req *pb.CallRequest, _ func(*pb.CallEvent) error) (*pb.CallResult, error) {
		if req.GetTool() == "again" {
			return text("again"), nil
		}
		close(started)
		<-ctx.Done()
		// Too late, but this host call does not end with the call.
		_, err := pb.NewHostLogClient(srv).Log(context.WithoutCancel(ctx), &pb.LogRequest{Message: "after the cancel"})
		hostAnswer <- err
		return nil, ctx.Err()
	})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	if _, err := c.Call(ctx, &pb.CallRequest{Tool: "t"}, 1<<20, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("Call = %v, want context.Canceled", err)
	}
	select {
	case err := <-hostAnswer:
		if err != nil {
			t.Fatalf("the host call failed: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the host call was never served")
	}
	svc.mu.Lock()
	lines := slices.Clone(svc.lines)
	svc.mu.Unlock()
	if !slices.Equal(lines, []string{"after the cancel"}) {
		t.Fatalf("the host service saw %v", lines)
	}
	// The drain hands the connection back: calls still work.
	if res, err := c.Call(context.Background(), &pb.CallRequest{Tool: "again"}, 1<<20, nil); err != nil || textOf(res) != "again" {
		t.Fatalf("next call = %q, %v", textOf(res), err)
	}
}

// A host call made with a context that already ended is not sent.
func TestInvokeWithAnEndedContextSendsNothing(t *testing.T) {
	hostEnd, pluginEnd := pair(t)
	srv := callpipe.NewServer(pluginEnd)
	go srv.Serve(echo)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := srv.Invoke(ctx, "/godotmcp.toolset.v1.HostLog/Log", &pb.LogRequest{}, &pb.LogResponse{})
	if !strings.Contains(fmt.Sprint(err), "Canceled") {
		t.Fatalf("err = %v, want Canceled", err)
	}
	_ = hostEnd.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if n, err := hostEnd.Read(make([]byte, 64)); n != 0 || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("the host got %d bytes (%v), want none", n, err)
	}
}
