package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/godot-mcp/godot-mcp/host"
)

// shutdownGrace bounds how long a host that was told to stop waits for its
// plugins and calls in flight before it exits anyway.
const shutdownGrace = 10 * time.Second

// signalContext is cancelled by the first SIGINT or SIGTERM. Once it is,
// the signals get their default action back, so a second one ends the
// process at once, whatever is still running (a call stuck in a plugin or
// on a file must not make the host deaf to signals).
func signalContext() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}

// closeHost shuts h down, giving its plugins and calls in flight
// shutdownGrace; past that it returns anyway (the caller then exits, and
// the plugins, which watch their host, follow).
func closeHost(ctx context.Context, h *host.Host, stderr io.Writer, name string) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.Close(cctx)
	}()
	select {
	case <-done:
	case <-time.After(shutdownGrace + time.Second):
		fmt.Fprintf(stderr, "%s: calls still running after %v; exiting without waiting for them\n", name, shutdownGrace)
	}
}
