package supervisor

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"go.uber.org/goleak"

	"github.com/godot-mcp/godot-mcp/host/catalog"
	"github.com/godot-mcp/godot-mcp/internal/syncbuf"
	"github.com/godot-mcp/godot-mcp/internal/testplugins"
)

// Built once in TestMain: the test plugins and the test host.
var (
	bins    map[string]string // toolset name → binary
	hostBin string
)

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "supervisor-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	bins, err = testplugins.Build(dir, "echo", "noisy", "bare")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	host := testplugins.Module + "/internal/testhost"
	hosts, err := testplugins.BuildCommands(dir, map[string]string{host: "testhost"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	hostBin = hosts[host]
	code := m.Run()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goroutines leaked:", err)
			return 1
		}
	}
	return code
}

// entry returns a catalog entry serving the toolset name from the binary of
// test plugin bin. The supervisor does not care whether the names match,
// which lets tests run two toolsets from one binary.
func entry(t testing.TB, name, bin string) catalog.Entry {
	t.Helper()
	path, ok := bins[bin]
	if !ok {
		t.Fatalf("no test plugin %q", bin)
	}
	sum, err := catalog.HashFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return catalog.Entry{Name: name, Path: path, SHA256: sum}
}

// recorder collects events.
type recorder struct {
	mu     sync.Mutex
	events []Event
}

func (r *recorder) add(e Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) kinds() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		out = append(out, e.Toolset+":"+e.Kind)
	}
	return out
}

type harness struct {
	*Supervisor
	log    *syncbuf.Buffer
	events *recorder
}

// newSupervisor returns a supervisor whose log is shown when the test fails
// and which is shut down (and checked for leaked goroutines) at the end.
func newSupervisor(t *testing.T, opts Options) *harness {
	t.Helper()
	h := &harness{log: &syncbuf.Buffer{}, events: &recorder{}}
	if opts.Logger == nil {
		opts.Logger = hclog.New(&hclog.LoggerOptions{Name: "host", Level: hclog.Debug, Output: h.log})
	}
	opts.OnEvent = h.events.add
	h.Supervisor = New(opts)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		h.Shutdown(ctx)
		if t.Failed() {
			t.Logf("host log:\n%s", h.log.String())
		}
		goleak.VerifyNone(t)
	})
	return h
}

// alive and waitDead are the shared process checks of the test plugins.
var (
	alive    = testplugins.Alive
	waitDead = testplugins.WaitDead
)
