//go:build unix

package plugintest

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// Mkfifo makes a named pipe at p and returns p.
func Mkfifo(t testing.TB, p string) string {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// CallWithin calls tool with a deadline, so that a call that blocks on one
// of the named pipes fifos fails the test instead of hanging it. On the
// deadline it opens each pipe for writing once, which releases a reader
// stuck in its open, so the harness can shut down.
func CallWithin(t testing.TB, h *sdktest.Host, fifos []string, tool string, args map[string]any, opts ...sdktest.CallOption) *sdktest.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res := h.Call(ctx, tool, args, opts...)
	if ctx.Err() != nil {
		for _, p := range fifos {
			if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				_ = f.Close()
			}
		}
		t.Fatalf("%s %v blocked on a named pipe", tool, args)
	}
	if res.Err != nil {
		t.Fatalf("%s: %v", tool, res.Err)
	}
	return res
}
