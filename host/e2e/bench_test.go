package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host"
	"github.com/godot-mcp/godot-mcp/host/catalog"
	"github.com/godot-mcp/godot-mcp/host/gate"
	"github.com/godot-mcp/godot-mcp/host/supervisor"
)

// Benchmarks of the real binary. Run them with
//
//	go test ./host/e2e -run '^$' -bench . -benchtime 200x
//
// They report the figures docs/PERFORMANCE.md records; no test
// asserts a time.

// percentile returns the p-th percentile (0..100) of ds.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(float64(len(s)-1) * p / 100)
	return s[i]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// BenchmarkEnable measures godot_enable_toolset from request to result,
// over stdio, including the plugin's start (process, handshake, Configure)
// and the registration of its tools. The toolset is disabled between
// iterations, outside the timer, so every enable starts a new process.
func BenchmarkEnable(b *testing.B) {
	for _, v := range protocols {
		b.Run(v, func(b *testing.B) {
			s := stdioHost(b, v, "--godot-version", "4.5", "--log-level", "warn")
			enable := map[string]any{"toolsets": []string{"gatetest"}}
			disable := map[string]any{"toolsets": []string{"gatetest"}}
			var lat []time.Duration
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				res := s.call(b, "godot_enable_toolset", enable)
				lat = append(lat, time.Since(start))
				b.StopTimer()
				if res.IsError {
					b.Fatalf("enable: %s", text(res))
				}
				s.ok(b, "godot_disable_toolset", disable, nil)
				b.StartTimer()
			}
			b.ReportMetric(ms(percentile(lat, 50)), "p50-ms/enable")
			b.ReportMetric(ms(percentile(lat, 90)), "p90-ms/enable")
		})
	}
}

// benchHostEnv names a variable holding space-separated VAR=value pairs that
// BenchmarkToolsCall adds to the host's environment, for A/B runs of one
// build: GODOT_MCP_BENCH_HOST_ENV=GOGC=100 shows what the host's own GC
// setting (cmd/godot-mcp/gc.go) buys.
const benchHostEnv = "GODOT_MCP_BENCH_HOST_ENV"

// BenchmarkToolsCall compares one tools/call through the host (gate,
// policy, schema validation, gRPC to the plugin process) with the same tool
// registered in-process on a plain go-sdk server, both over stdio, calls
// interleaved so both see the same machine load. ratio-p50 is host/plain.
func BenchmarkToolsCall(b *testing.B) {
	for _, v := range protocols {
		b.Run(v, func(b *testing.B) {
			// No call log: the plain server writes no file per call either.
			env := append([]string{callLogEnv + "="}, strings.Fields(os.Getenv(benchHostEnv))...)
			host := stdioHostEnv(b, v, env, "--godot-version", "4.5", "--log-level", "warn")
			host.ok(b, "godot_enable_toolset", map[string]any{"toolsets": []string{"gatetest"}}, nil)
			// The same host with every plugin call over gRPC instead of
			// the call pipe, for the comparison in one run.
			grpcHost := stdioHostEnv(b, v, append(env, supervisor.CallsEnv+"=grpc"), "--godot-version", "4.5", "--log-level", "warn")
			grpcHost.ok(b, "godot_enable_toolset", map[string]any{"toolsets": []string{"gatetest"}}, nil)
			plain := plainSession(b, v)
			ctx := context.Background()
			call := func(cs *mcp.ClientSession, name string) time.Duration {
				start := time.Now()
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{"path": "res://main.tscn"}})
				d := time.Since(start)
				if err != nil || res.IsError {
					b.Fatalf("%s: %v %v", name, err, res)
				}
				return d
			}
			for range 50 { // warm up all: connections, caches, the plugin's first call
				call(host.ClientSession, "godot_gatetest_read")
				call(grpcHost.ClientSession, "godot_gatetest_read")
				call(plain, "read")
			}
			var hostLat, grpcLat, plainLat []time.Duration
			b.ResetTimer()
			for range b.N {
				hostLat = append(hostLat, call(host.ClientSession, "godot_gatetest_read"))
				grpcLat = append(grpcLat, call(grpcHost.ClientSession, "godot_gatetest_read"))
				plainLat = append(plainLat, call(plain, "read"))
			}
			hp, gp, pp := percentile(hostLat, 50), percentile(grpcLat, 50), percentile(plainLat, 50)
			b.ReportMetric(us(hp), "host-p50-µs")
			b.ReportMetric(us(percentile(hostLat, 90)), "host-p90-µs")
			b.ReportMetric(us(gp), "grpc-host-p50-µs")
			b.ReportMetric(us(pp), "plain-p50-µs")
			b.ReportMetric(us(percentile(plainLat, 90)), "plain-p90-µs")
			b.ReportMetric(float64(hp)/float64(pp), "ratio-p50")
			b.ReportMetric(float64(gp)/float64(pp), "grpc-ratio-p50")
		})
	}
}

func plainSession(b *testing.B, version string) *mcp.ClientSession {
	b.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).Connect(context.Background(),
		&mcp.CommandTransport{Command: exec.Command(plainBin)}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs
}

type pathIn struct {
	Path string `json:"path,omitempty"`
}

// BenchmarkCallBreakdown splits the tools/call cost without stdio: the
// supervisor's gRPC call to the plugin alone, the whole host in-process
// (MCP over an in-memory transport, gate, policy, validation, plugin), and
// a plain go-sdk server in-process. host minus plain minus supervisor is
// what the host's own layers add.
func BenchmarkCallBreakdown(b *testing.B) {
	b.Setenv("XDG_CACHE_HOME", cacheDir)
	ctx := context.Background()
	args := map[string]any{"path": "res://main.tscn"}
	measure := func(b *testing.B, f func() error) {
		for range 50 {
			if err := f(); err != nil {
				b.Fatal(err)
			}
		}
		var lat []time.Duration
		b.ResetTimer()
		for range b.N {
			start := time.Now()
			err := f()
			lat = append(lat, time.Since(start))
			if err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(us(percentile(lat, 50)), "p50-µs")
		b.ReportMetric(us(percentile(lat, 90)), "p90-µs")
	}
	b.Run("supervisor", func(b *testing.B) {
		sup := supervisor.New(supervisor.Options{})
		defer sup.Shutdown(ctx)
		if err := sup.Start(ctx, catalog.Entry{Name: "gatetest", Path: filepath.Join(pluginsDir, "godot-mcp-toolset-gatetest")}); err != nil {
			b.Fatal(err)
		}
		req := supervisor.CallRequest{Tool: "read", Args: []byte(`{"path":"res://main.tscn"}`)}
		measure(b, func() error { _, err := sup.Call(ctx, "gatetest", req, nil); return err })
	})
	b.Run("host", func(b *testing.B) {
		h, err := host.New(ctx, host.Options{PluginsDir: pluginsDir, GodotVersion: "4.5", NoSeed: true})
		if err != nil {
			b.Fatal(err)
		}
		defer h.Close(ctx)
		if _, err := h.Gate.Enable(ctx, gate.Request{Toolsets: []string{"gatetest"}}); err != nil {
			b.Fatal(err)
		}
		cs := inMemory(b, h.Server.MCP())
		measure(b, func() error { return callOK(cs, "godot_gatetest_read", args) })
	})
	b.Run("plain", func(b *testing.B) {
		s := mcp.NewServer(&mcp.Implementation{Name: "plain", Version: "1"}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "read"}, func(_ context.Context, _ *mcp.CallToolRequest, in pathIn) (*mcp.CallToolResult, pathIn, error) {
			return nil, in, nil
		})
		cs := inMemory(b, s)
		measure(b, func() error { return callOK(cs, "read", args) })
	})
}

func inMemory(b *testing.B, s *mcp.Server) *mcp.ClientSession {
	b.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

func callOK(cs *mcp.ClientSession, name string, args map[string]any) error {
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err == nil && res.IsError {
		err = fmt.Errorf("%s: %v", name, res.Content)
	}
	return err
}
