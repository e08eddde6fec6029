package sdk

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/godot-mcp/godot-mcp/sdk/proctree"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
	"github.com/godot-mcp/godot-mcp/sdk/wire"
	"github.com/godot-mcp/godot-mcp/sdk/wire/callpipe"
)

// Serve runs the toolset as a godot-mcp plugin. It is the only thing main
// should call, and it does not return.
//
//   - With --describe it prints the manifest as JSON on stdout and exits 0.
//     The host uses this to catalog a plugin without starting it.
//   - Run by hand (no handshake cookie in the environment, or --help) it
//     explains on stderr what the binary is and exits 1.
//   - Started by the host, it serves the toolset over gRPC until the host
//     stops it or dies.
//
// An invalid toolset (see [Toolset.Manifest]) exits 1 with every problem on
// stderr, whatever the arguments.
//
// Standard output belongs to the go-plugin handshake: nothing may be printed
// to it before Serve runs, so init functions and package variables must not
// print. Log with [Call.Logger] or write to stderr.
func Serve(ts *Toolset) {
	os.Exit(run(ts, os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

// run is Serve without the exit, for tests.
func run(ts *Toolset, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	impl, err := newServer(ts, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", progName(), err)
		return 1
	}
	for _, a := range args {
		switch a {
		case "--describe", "-describe":
			m, _ := ts.Manifest() // validated by newServer
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false) // keep ">= 4.2" readable
			if err := enc.Encode(m); err != nil {
				fmt.Fprintf(stderr, "%s: writing manifest: %v\n", progName(), err)
				return 1
			}
			return 0
		case "--help", "-help", "-h", "help":
			usage(stderr, ts)
			return 1
		}
	}
	if getenv(wire.Handshake.MagicCookieKey) != wire.Handshake.MagicCookieValue {
		usage(stderr, ts)
		return 1
	}

	logger := hclog.New(&hclog.LoggerOptions{
		Name:       "plugin",
		Level:      hclog.Info,
		Output:     stderr,
		JSONFormat: true, // the host's go-plugin client parses levels from JSON lines
	})
	// Descendants that detach (setsid, double fork) are re-parented to the
	// plugin rather than to init, so the host (when it stops the plugin)
	// and exitHostGone can still find and kill them.
	if err := proctree.SetSubreaper(); err != nil {
		logger.Debug("cannot become a child subreaper; detached descendants may outlive the plugin", "error", err)
	}
	leaveTheEndToTheLifeline()
	if fd := getenv(wire.LifelineFDEnv); fd != "" {
		// The number means something in this process only; a process the
		// plugin starts must not take some fd of its own for a lifeline.
		_ = os.Unsetenv(wire.LifelineFDEnv)
		if err := watchLifeline(fd, stderr); err != nil {
			logger.Error("ignoring the lifeline", "env", wire.LifelineFDEnv, "error", err)
		}
	}
	if fd := getenv(callpipe.FDEnv); fd != "" {
		// Like the lifeline, the number is this process's only.
		_ = os.Unsetenv(callpipe.FDEnv)
		impl.serveCallPipe(fd, logger)
	}
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig:  wire.Handshake,
		VersionedPlugins: wire.PluginSets(impl),
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			opts = append(opts, wire.GRPCServerOptions()...)
			// Long-lived worker goroutines instead of a new goroutine per
			// call: a new one starts with a small stack and grows it,
			// copying it each time, on every call. Measured on a small
			// tool: 30 µs to 18 µs from request to result in the plugin.
			opts = append(opts, grpc.NumStreamWorkers(uint32(runtime.GOMAXPROCS(0))))
			return grpc.NewServer(opts...)
		},
		Logger: logger,
	})
	_ = impl.Close()
	return 0
}

// serveCallPipe answers calls on the call pipe the host passed (package
// callpipe), beside gRPC, so that Configure can tell the host to use it.
// Calls then skip grpc-go's goroutine hand-offs: about 100 µs less per call
// on a two-CPU machine (docs/PERFORMANCE.md). Without a usable pipe every
// call comes over gRPC, which is always served.
func (s *server) serveCallPipe(fdText string, logger hclog.Logger) {
	conn, err := callPipeConn(fdText)
	if err != nil {
		logger.Warn("ignoring the call pipe; calls come over gRPC", "env", callpipe.FDEnv, "error", err)
		return
	}
	s.mu.Lock()
	s.callPipe = true
	s.mu.Unlock()
	pipe := callpipe.NewServer(conn)
	go func() {
		// A call that came over the pipe sends its workspace and editor
		// requests back over it too (Call.hostServices): no broker hop.
		err := pipe.Serve(func(ctx context.Context, req *pb.CallRequest, send func(*pb.CallEvent) error) (*pb.CallResult, error) {
			return s.call(ctx, req, send, pipe)
		})
		if err != nil {
			logger.Error("the call pipe failed", "error", err)
		}
	}()
}

// watchLifeline reads the lifeline pipe the host passed and exits the process
// (with its process group, see exitHostGone) when it reports EOF or an error:
// the host is gone, so is the plugin. The goroutine lives as long as the
// process.
func watchLifeline(fdText string, stderr io.Writer) error {
	fd, err := strconv.Atoi(fdText)
	if err != nil || fd < 3 {
		return fmt.Errorf("%q is not a file descriptor number above 2", fdText)
	}
	if err := checkLifeline(fd); err != nil {
		return err
	}
	f := os.NewFile(uintptr(fd), "lifeline")
	go func() {
		buf := make([]byte, 64)
		for {
			if _, err := f.Read(buf); err != nil {
				if s, ok := stderr.(interface{ Sync() error }); ok {
					_ = s.Sync()
				}
				exitHostGone()
			}
		}
	}()
	return nil
}

func progName() string {
	name := "godot-mcp toolset"
	if len(os.Args) > 0 && os.Args[0] != "" {
		name = os.Args[0]
	}
	return name
}

func usage(w io.Writer, ts *Toolset) {
	name := ts.Name
	var b strings.Builder
	fmt.Fprintf(&b, "This is the %q toolset (version %s), a godot-mcp toolset plugin.\n\n", name, ts.Version)
	fmt.Fprintf(&b, "It is not meant to be run by hand: the godot-mcp host (`godot-mcp serve`)\n")
	fmt.Fprintf(&b, "starts it when the toolset is enabled and stops it when it is disabled.\n\n")
	fmt.Fprintf(&b, "To install it, copy this binary into the host's plugins directory as\n")
	fmt.Fprintf(&b, "    godot-mcp-toolset-%s\n", name)
	fmt.Fprintf(&b, "then run `godot-mcp plugins lock` if you pin plugins.\n\n")
	fmt.Fprintf(&b, "Run it with --describe to print its manifest (name, version, tools) as JSON.\n")
	_, _ = io.WriteString(w, b.String())
}
