package exposure

import (
	"fmt"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// benchSetup is a realistic worst case for one tools/list: 200 candidates
// across 20 toolsets, a few unclassified and cli-scoped tools, operator
// lists, a three-level profile chain with names, classes and patterns, and a
// transport ceiling, so that every layer does work and most of them remove
// something.
func benchSetup(b *testing.B) (*Chain, Caller, []Tool) {
	b.Helper()
	var cands []Tool
	for i := range 200 {
		ts := fmt.Sprintf("toolset%02d", i%20)
		t := Tool{
			Name:    ExposedName(ts, fmt.Sprintf("tool%03d", i)),
			Toolset: ts,
			Class:   manifest.Classes[i%len(manifest.Classes)],
			Scope:   manifest.AgentScope,
		}
		if i%50 == 7 {
			t.Class = ""
		}
		if i%40 == 1 {
			t.Scope = manifest.CLIScope
		}
		cands = append(cands, t)
	}
	cfg := &config.Config{
		Operator: config.OperatorLists{
			Deny: []string{"class:destructive", "toolset19", "godot_toolset18_tool018"},
		},
		Profiles: map[string]config.Profile{
			"developer": {Deny: []string{"godot_toolset17_*"}},
			"agent":     {Inherit: "developer", Allow: []string{"class:read_only", "class:mutating", "class:runtime"}, Deny: []string{"toolset16"}},
			"subagent":  {Inherit: "agent", Allow: []string{"godot_toolset0*", "godot_toolset1*", "toolset05"}, Deny: []string{"class:runtime"}},
			"remote":    {Allow: []string{"class:read_only", "godot_toolset01_*"}},
		},
		Transport: map[string]config.Ceiling{config.TransportHTTPRemote: {Profile: "remote"}},
	}
	if err := cfg.Validate(); err != nil {
		b.Fatal(err)
	}
	c, err := NewChain(cfg)
	if err != nil {
		b.Fatal(err)
	}
	ctx := Caller{Principal: "agent-sub", Profile: "subagent", Transport: TransportHTTP}
	d := c.Evaluate(ctx, cands)
	if len(d.Filtered) != 5 {
		var by []string
		for _, f := range d.Filtered {
			by = append(by, f.By)
		}
		b.Fatalf("benchmark policy should make all 5 layers withhold something; only %v did", by)
	}
	return c, ctx, cands
}

// BenchmarkEvaluate200 measures the exposure evaluation behind one
// tools/list: 200 candidate tools, all five layers active.
func BenchmarkEvaluate200(b *testing.B) {
	c, ctx, cands := benchSetup(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_ = c.Evaluate(ctx, cands)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/list")
}

// BenchmarkCheck measures the per-call check of tools/call.
func BenchmarkCheck(b *testing.B) {
	c, ctx, cands := benchSetup(b)
	t := cands[21] // a mutating tool that passes every layer
	if ok, layer := c.Check(ctx, t); !ok {
		b.Fatalf("benchmark tool withheld by %s", layer)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_, _ = c.Check(ctx, t)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/call")
}
