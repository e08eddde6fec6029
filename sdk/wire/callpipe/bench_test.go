//go:build unix

package callpipe_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
	"github.com/godot-mcp/godot-mcp/sdk/wire/callpipe"
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

// benchPluginEnv makes the test binary, run by BenchmarkRoundTripProcess,
// serve the plugin's end of a call pipe on descriptor 3 instead of
// running tests.
const benchPluginEnv = "GODOT_MCP_CALLPIPE_BENCH_PLUGIN"

func TestMain(m *testing.M) {
	if os.Getenv(benchPluginEnv) == "1" {
		f := os.NewFile(3, "call pipe")
		conn, err := net.FileConn(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		f.Close()
		if err := callpipe.NewServer(conn).Serve(echo); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// BenchmarkRoundTripProcess measures one call to a plugin in another
// process, as the host makes it: a real socket pair, the plugin's end
// served by a child process (this test binary), the call made with a
// context that can be cancelled. It reports the median and 90th
// percentile round trip and the host end's CPU time per call.
//
//	go test ./sdk/wire/callpipe -run '^$' -bench RoundTripProcess -benchtime 20000x
func BenchmarkRoundTripProcess(b *testing.B) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		b.Fatal(err)
	}
	hostFile, pluginFile := os.NewFile(uintptr(fds[0]), "host"), os.NewFile(uintptr(fds[1]), "plugin")
	cmd := exec.Command(os.Args[0], "-test.run", "^$")
	cmd.Env = append(os.Environ(), benchPluginEnv+"=1")
	cmd.ExtraFiles = []*os.File{pluginFile}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	pluginFile.Close()
	hostConn, err := net.FileConn(hostFile)
	hostFile.Close()
	if err != nil {
		b.Fatal(err)
	}
	c := callpipe.NewClient(hostConn, nil)
	b.Cleanup(func() {
		c.Close()
		_ = cmd.Wait()
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req := &pb.CallRequest{Tool: "read", ArgumentsJson: []byte(`{"path":"res://main.tscn"}`)}
	for range 100 {
		if _, err := c.Call(ctx, req, 1<<20, nil); err != nil {
			b.Fatal(err)
		}
	}
	var lat []time.Duration
	b.ReportAllocs()
	cpu0, plugin0 := cpuTime(b), procCPU(b, cmd.Process.Pid)
	for b.Loop() {
		start := time.Now()
		if _, err := c.Call(ctx, req, 1<<20, nil); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.ReportMetric(float64((cpuTime(b)-cpu0).Microseconds())/float64(b.N), "host-cpu-µs/op")
	b.ReportMetric(float64((procCPU(b, cmd.Process.Pid)-plugin0).Microseconds())/float64(b.N), "plugin-cpu-µs/op")
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1e3, "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*9/10].Nanoseconds())/1e3, "p90-µs")
}

// procCPU is the CPU time process pid has used, user and system, as
// /proc/<pid>/stat says (in clock ticks of 10 ms).
func procCPU(t testing.TB, pid int) time.Duration {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Skip("no /proc:", err)
	}
	// The fields after the command name, which is in parentheses.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("reading %s: %v %v", b, err1, err2)
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond
}
