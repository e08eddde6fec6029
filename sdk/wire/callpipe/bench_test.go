//go:build unix

package callpipe_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
)

// deep is a handler that uses some stack, as a real tool's JSON decoding
// and schema work does, so a call's goroutine has to grow a fresh stack.
func deep(ctx context.Context, req *pb.CallRequest, send func(*pb.CallEvent) error) (*pb.CallResult, error) {
	var pad [16 << 10]byte
	pad[len(req.GetTool())%len(pad)] = 1
	return text(req.GetTool() + string(pad[:1])), nil
}

// BenchmarkRoundTrip measures one call over a real socket pair, host end to
// plugin end and back, both in this process.
//
//	cd sdk && go test -run '^$' -bench RoundTrip -benchmem ./wire/callpipe/
func BenchmarkRoundTrip(b *testing.B) {
	for _, tt := range []struct {
		name string
		h    func(context.Context, *pb.CallRequest, func(*pb.CallEvent) error) (*pb.CallResult, error)
	}{{"echo", echo}, {"deep_stack", deep}} {
		b.Run(tt.name, func(b *testing.B) {
			c, _ := serve(b, tt.h)
			ctx := context.Background()
			req := &pb.CallRequest{Tool: "read", ArgumentsJson: []byte(`{"path":"res://main.tscn"}`)}
			b.ReportAllocs()
			cpu0 := cpuTime(b)
			for b.Loop() {
				if _, err := c.Call(ctx, req, 1<<20, nil); err != nil {
					b.Fatal(err)
				}
			}
			// CPU time, both ends together: on a loaded machine it varies
			// far less than the wall-clock time per call.
			b.ReportMetric(float64((cpuTime(b)-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
}

// cpuTime is the CPU time this process has used, user and system.
func cpuTime(t testing.TB) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
