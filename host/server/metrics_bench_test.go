package server

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/metrics"
)

// BenchmarkCallMetrics measures what metrics add to one tools/call: the
// same plugin call (a fake supervisor answering at once, so the host's own
// path is all that is timed) on a server without metrics and on one with
// them, interleaved call by call (alternating which goes first) so both sides
// see the same machine load.
// It reports the time per call of each side and their difference, the
// per-call overhead docs/PERFORMANCE.md records.
func BenchmarkCallMetrics(b *testing.B) {
	off := newEnv(b, envOptions{godot: "4.5", seed: []string{"inspection"}})
	on := newEnv(b, envOptions{godot: "4.5", seed: []string{"inspection"}, metrics: metrics.New()})
	req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "godot_inspection_scene_tree", Arguments: json.RawMessage(`{}`)}}
	ctx := context.Background()
	call := func(e *env) time.Duration {
		start := time.Now()
		res, err := e.srv.observedCall(ctx, req)
		d := time.Since(start)
		if err != nil || res.(*mcp.CallToolResult).IsError {
			b.Fatalf("call: %v %+v", err, res)
		}
		return d
	}
	var tOff, tOn time.Duration
	n := 0
	for b.Loop() {
		// Alternate which side goes first, so that neither always runs
		// right after the other (caches, the scheduler).
		if n%2 == 0 {
			tOff += call(off)
			tOn += call(on)
		} else {
			tOn += call(on)
			tOff += call(off)
		}
		n++
	}
	b.ReportMetric(float64(tOff.Nanoseconds())/float64(n), "off-ns/call")
	b.ReportMetric(float64(tOn.Nanoseconds())/float64(n), "on-ns/call")
	b.ReportMetric(float64((tOn-tOff).Nanoseconds())/float64(n), "overhead-ns/call")
}
