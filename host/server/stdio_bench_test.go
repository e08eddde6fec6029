package server

import (
	"bufio"
	"context"
	"io"
	"testing"
)

// BenchmarkStdioPing measures the host's stdio path alone: a ping line in,
// its reply line out, through the screen and the go-sdk session (no tool,
// no plugin). Allocations per request are the stable figure on a busy
// machine; docs/PERFORMANCE.md compares them before and after the screen
// became the session's connection.
func BenchmarkStdioPing(b *testing.B) {
	e := newEnv(b, envOptions{})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.srv.serveScreened(ctx, inR, outW); outW.Close() }()
	out := bufio.NewReader(outR)
	roundTrip := func(line string) {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			b.Fatal(err)
		}
		if _, err := out.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
	}
	roundTrip(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`)
	if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		b.Fatal(err)
	}
	ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	for range 100 {
		roundTrip(ping)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		roundTrip(ping)
	}
	b.StopTimer()
	inW.Close()
	<-done
	cancel()
}
