package supervisor

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"

	"github.com/godot-mcp/godot-mcp/host/catalog"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
	"github.com/godot-mcp/godot-mcp/sdk/wire"
)

// The benchmarks measure the supervisor against baselines in the same
// loop, interleaved, so that the noise of a shared machine hits all of them
// alike; they report medians, which a few slow outliers do not move.
//
//   - sup: the supervisor running the echo plugin (built with the SDK).
//   - bare: a plain go-plugin client (go-plugin's own Cmd runner) running
//     the bare plugin (no SDK): what go-plugin itself costs.
//   - plain: the same plain go-plugin client running the echo plugin, which
//     tells the SDK plugin's own cost apart from the supervisor's.
//
// Compare the x-bare ratios; absolute numbers depend on the machine.
// docs/PERFORMANCE.md has the method and results.
//
//	go test -run '^$' -bench . -count 5 ./host/supervisor/

var mtlsModes = []struct {
	name string
	on   bool
}{{"mtls=off", false}, {"mtls=on", true}}

// samples collects per-iteration durations and reports their median.
type samples []time.Duration

func (s samples) median() time.Duration {
	if len(s) == 0 {
		return 0
	}
	c := slices.Clone(s)
	slices.Sort(c)
	return c[len(c)/2]
}

// rotated runs the steps starting at a different one each iteration, so
// that no contestant always runs first (or right after another).
func rotated(steps []func(), i int) {
	for j := range steps {
		steps[(i+j)%len(steps)]()
	}
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }

// BenchmarkStart measures start-to-ready. sup: Start, which is process
// start, handshake, broker services and Configure (and, with
// verify=sha256, catalog.Verify as the host does). bare and plain: go-plugin
// start through the first RPC (Describe); gRPC connects lazily, so the
// first RPC is where the connection is made, as Configure is for sup. With
// verify=sha256, bare and plain use go-plugin's own checksum check
// (SecureConfig), so every contestant hashes its binary before starting it.
// Stopping is outside every measurement.
func BenchmarkStart(b *testing.B) {
	for _, m := range mtlsModes {
		for _, verify := range []string{"none", "sha256"} {
			b.Run(m.name+"/verify="+verify, func(b *testing.B) {
				opts := Options{AutoMTLS: m.on}
				e := entry(b, "echo", "echo")
				if verify == "sha256" {
					cat := openCatalogOf(b, bins["echo"])
					opts.Verify = cat.Verify
					e, _ = cat.Lookup("echo")
				}
				s := New(opts)
				defer s.Shutdown(context.Background())
				ctx := context.Background()
				var sup, bare, plain samples
				steps := []func(){
					func() {
						t0 := time.Now()
						if err := s.Start(ctx, e); err != nil {
							b.Fatal(err)
						}
						sup = append(sup, time.Since(t0))
						if err := s.Stop(ctx, "echo"); err != nil {
							b.Fatal(err)
						}
					},
					func() { bare = append(bare, plainStart(b, "bare", m.on, verify == "sha256")) },
					func() { plain = append(plain, plainStart(b, "echo", m.on, verify == "sha256")) },
				}
				for i := 0; b.Loop(); i++ {
					rotated(steps, i)
				}
				b.ReportMetric(ms(sup.median()), "ms/start")
				b.ReportMetric(ms(bare.median()), "bare-ms/start")
				b.ReportMetric(ms(plain.median()), "plain-ms/start")
				b.ReportMetric(float64(sup.median())/float64(bare.median()), "x-bare")
			})
		}
	}
}

// plainStart starts plugin with a plain go-plugin client, calls Describe,
// and returns how long that took; the kill is not measured.
func plainStart(b *testing.B, plug string, mtls, secure bool) time.Duration {
	t0 := time.Now()
	c, tc := plainClient(b, plug, mtls, secure)
	if _, err := tc.Describe(context.Background(), &pb.DescribeRequest{}); err != nil {
		c.Kill()
		b.Fatal(err)
	}
	d := time.Since(t0)
	c.Kill()
	return d
}

// BenchmarkCall measures one call round trip on running plugins. sup: Call
// of the echo tool (a server-streaming RPC: one result, then the end of
// the stream). bare: a unary Describe on the bare plugin. plain: the same
// Call RPC on the echo plugin through a plain go-plugin client, without the
// supervisor.
func BenchmarkCall(b *testing.B) {
	for _, m := range mtlsModes {
		b.Run(m.name, func(b *testing.B) {
			s := New(Options{AutoMTLS: m.on})
			defer s.Shutdown(context.Background())
			ctx := context.Background()
			if err := s.Start(ctx, entry(b, "echo", "echo")); err != nil {
				b.Fatal(err)
			}
			bc, bare := plainClient(b, "bare", m.on, false)
			defer bc.Kill()
			pc, plain := plainClient(b, "echo", m.on, false)
			defer pc.Kill()
			args := json.RawMessage(`{"text":"hi"}`)
			req := CallRequest{Tool: "echo", Args: args}
			var supS, bareS, plainS samples
			steps := []func(){
				func() {
					t0 := time.Now()
					if _, err := s.Call(ctx, "echo", req, nil); err != nil {
						b.Fatal(err)
					}
					supS = append(supS, time.Since(t0))
				},
				func() {
					t0 := time.Now()
					if _, err := bare.Describe(ctx, &pb.DescribeRequest{}); err != nil {
						b.Fatal(err)
					}
					bareS = append(bareS, time.Since(t0))
				},
				func() {
					t0 := time.Now()
					if err := plainCall(ctx, plain, args); err != nil {
						b.Fatal(err)
					}
					plainS = append(plainS, time.Since(t0))
				},
			}
			for i := 0; b.Loop(); i++ {
				rotated(steps, i)
			}
			b.ReportMetric(us(supS.median()), "us/call")
			b.ReportMetric(us(bareS.median()), "bare-us/call")
			b.ReportMetric(us(plainS.median()), "plain-us/call")
			b.ReportMetric(float64(supS.median())/float64(bareS.median()), "x-bare")
		})
	}
}

// plainCall runs the echo tool over the Call stream directly.
func plainCall(ctx context.Context, tc pb.ToolsetClient, args []byte) error {
	stream, err := tc.Call(ctx, &pb.CallRequest{Tool: "echo", ArgumentsJson: args})
	if err != nil {
		return err
	}
	for {
		_, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// BenchmarkIdleRSS measures the resident memory of a started, idle plugin:
// the echo plugin under the supervisor, and the bare plugin.
func BenchmarkIdleRSS(b *testing.B) {
	s := New(Options{})
	defer s.Shutdown(context.Background())
	ctx := context.Background()
	var sup, bare int
	for b.Loop() {
		if err := s.Start(ctx, entry(b, "echo", "echo")); err != nil {
			b.Fatal(err)
		}
		c, tc := plainClient(b, "bare", false, false)
		if _, err := tc.Describe(ctx, &pb.DescribeRequest{}); err != nil {
			b.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond) // let start-up garbage settle
		sup += rssKB(b, s.Status("echo").PID)
		pid, _ := strconv.Atoi(c.ID())
		bare += rssKB(b, pid)
		c.Kill()
		if err := s.Stop(ctx, "echo"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(sup)/float64(b.N), "KB-rss")
	b.ReportMetric(float64(bare)/float64(b.N), "bare-KB-rss")
}

// plainClient starts plugin with go-plugin's defaults (Cmd runner), as a
// host without the supervisor would.
func plainClient(b *testing.B, plug string, mtls, secure bool) (*plugin.Client, pb.ToolsetClient) {
	b.Helper()
	var sc *plugin.SecureConfig
	if secure {
		sc = &plugin.SecureConfig{Checksum: checksumOf(b, bins[plug]), Hash: sha256.New()}
	}
	c := plugin.NewClient(&plugin.ClientConfig{
		SecureConfig:     sc,
		HandshakeConfig:  wire.Handshake,
		VersionedPlugins: wire.PluginSets(nil),
		Cmd:              exec.Command(bins[plug]),
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		GRPCDialOptions:  wire.GRPCDialOptions(),
		Logger:           hclog.NewNullLogger(),
		AutoMTLS:         mtls,
	})
	rpc, err := c.Client()
	if err != nil {
		c.Kill()
		b.Fatal(err)
	}
	raw, err := rpc.Dispense(wire.PluginName)
	if err != nil {
		c.Kill()
		b.Fatal(err)
	}
	return c, raw.(*wire.Client).Toolset
}

var checksums sync.Map // path → []byte

// checksumOf returns the sha256 of the file at path, computed once.
func checksumOf(b *testing.B, path string) []byte {
	if sum, ok := checksums.Load(path); ok {
		return sum.([]byte)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	sum := sha256.Sum256(data)
	checksums.Store(path, sum[:])
	return sum[:]
}

func openCatalogOf(b *testing.B, bin string) *catalog.Catalog {
	b.Helper()
	dir := b.TempDir()
	if err := os.Symlink(bin, filepath.Join(dir, catalog.BinaryPrefix+"echo")); err != nil {
		b.Fatal(err)
	}
	cat, err := catalog.Open(catalog.Options{Dir: dir, CacheDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	if _, ok := cat.Lookup("echo"); !ok {
		b.Fatal(cat.Problems())
	}
	return cat
}

// rssKB reads VmRSS of pid from /proc.
func rssKB(b *testing.B, pid int) int {
	b.Helper()
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				b.Fatal(err)
			}
			return kb
		}
	}
	b.Fatal("no VmRSS")
	return 0
}
