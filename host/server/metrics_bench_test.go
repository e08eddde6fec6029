package server

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/metrics"
)

// BenchmarkCallMetrics measures what metrics add to one tools/call: the
// same plugin call (a fake supervisor answering at once, so the host's own
// path is all that is timed) without metrics and with them, side by side.
// The difference of the two is the per-call overhead docs/PERFORMANCE.md
// records.
func BenchmarkCallMetrics(b *testing.B) {
	for _, tc := range []struct {
		name string
		m    *metrics.Registry
	}{{"off", nil}, {"on", metrics.New()}} {
		b.Run(tc.name, func(b *testing.B) {
			e := newEnv(b, envOptions{godot: "4.5", seed: []string{"inspection"}, metrics: tc.m})
			req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "godot_inspection_scene_tree", Arguments: json.RawMessage(`{}`)}}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				res, err := e.srv.observedCall(ctx, req)
				if err != nil || res.(*mcp.CallToolResult).IsError {
					b.Fatalf("call: %v %+v", err, res)
				}
			}
		})
	}
}
