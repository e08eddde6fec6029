package metrics

import (
	"math"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
)

func TestSnapshotSumsToolsIntoToolsetsAndFilters(t *testing.T) {
	r := New()
	a := r.Tool("scene", "godot_scene_add")
	for i := range 100 {
		a.Observe(time.Duration(i+1)*time.Millisecond, "", 10, 100)
	}
	a.Observe(time.Millisecond, "NOT_FOUND", 5, 0)
	r.Tool("scene", "godot_scene_del").Observe(2*time.Millisecond, "PRECONDITION_FAILED", 7, 3)
	r.Tool("runtime", "godot_runtime_play").Observe(time.Second, "", 1, 1)
	r.PluginEvent("scene", PluginStart)
	r.PluginEvent("scene", PluginCrash)
	r.PluginEvent("scene", PluginRestart)
	r.PluginEvent("runtime", PluginStart)

	snap := r.Snapshot(func(ts, _ string) bool { return ts == "scene" })
	if len(snap.Tools) != 2 || len(snap.Toolsets) != 1 {
		t.Fatalf("filter: %+v", snap)
	}
	add := snap.Tools[0]
	if add.Name != "godot_scene_add" || add.Calls != 101 || add.Errors["NOT_FOUND"] != 1 || add.BytesIn != 1005 || add.BytesOut != 10000 {
		t.Errorf("add = %+v", add)
	}
	// 100 calls of 1..100 ms (plus one of 1 ms): the true p50 is 50 ms,
	// p95 95 ms, p99 99 ms; the estimate lies in the same bucket, whose
	// bounds are a factor 1.46 apart.
	for _, c := range []struct{ got, want float64 }{{add.Latency.P50, 50}, {add.Latency.P95, 95}, {add.Latency.P99, 99}} {
		if r := c.got / c.want; r > 1.46 || r < 1/1.46 {
			t.Errorf("quantile %v ms, want about %v ms (%+v)", c.got, c.want, add.Latency)
		}
	}
	s := snap.Toolsets[0]
	if s.Name != "scene" || s.Calls != 102 || s.Errors["NOT_FOUND"] != 1 || s.Errors["PRECONDITION_FAILED"] != 1 ||
		s.BytesIn != 1012 || s.Plugin[PluginStart] != 1 || s.Plugin[PluginCrash] != 1 || s.Plugin[PluginRestart] != 1 || s.Plugin[PluginUpgrade] != 0 {
		t.Errorf("toolset = %+v", s)
	}
	if s.Latency.P50 <= 0 {
		t.Errorf("toolset latency = %+v", s.Latency)
	}
}

func TestToolIsCachedAndMovesWithItsToolset(t *testing.T) {
	r := New()
	first, again := r.Tool("a", "godot_x"), r.Tool("a", "godot_x")
	if first != again {
		t.Error("Tool is not cached")
	}
	// A tool name that moves to another toolset (a renamed toolset after a
	// reinstall) gets its own series.
	if r.Tool("b", "godot_x").toolset != "b" {
		t.Error("tool kept its old toolset")
	}
}

func TestQuantileEdges(t *testing.T) {
	if q := quantile(&dto.Histogram{}, 0.5); q != 0 {
		t.Errorf("empty = %v", q)
	}
	r := New()
	r.Tool("a", "t").Observe(10*time.Minute, "", 0, 0) // beyond the last bound
	snap := r.Snapshot(func(string, string) bool { return true })
	if p := snap.Tools[0].Latency.P99; p != math.Round(LatencyBuckets[len(LatencyBuckets)-1]*1e6)/1000 {
		t.Errorf("overflow p99 = %v", p)
	}
}

// BenchmarkObserve is the metrics work of one call, alone.
func BenchmarkObserve(b *testing.B) {
	r := New()
	tl := r.Tool("scene", "godot_scene_add")
	b.ReportAllocs()
	for b.Loop() {
		tl.Observe(3*time.Millisecond, "", 40, 400)
	}
}

// BenchmarkObserveParallel is Observe from every core at once, on one tool.
func BenchmarkObserveParallel(b *testing.B) {
	r := New()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			r.Tool("scene", "godot_scene_add").Observe(3*time.Millisecond, "NOT_FOUND", 40, 400)
		}
	})
}
