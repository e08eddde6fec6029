package webgodot

import (
	"context"
	"slices"
	"testing"
	"time"
)

// BenchmarkRun measures what an engine run costs, two ways, interleaved
// in one loop so that the noise of a shared machine hits both alike:
//
//   - reused: one Runner (one Chromium) for every run, as enginecheck
//     and check --engine use it;
//   - fresh: a new Runner per run, so each run pays the browser start
//     and an empty cache.
//
// Each iteration runs a script that prints one line and quits. Reported:
// the median of each, and the browser start alone (fresh's first page).
//
//	go test -run '^$' -bench BenchmarkRun -benchtime 6x ./internal/webgodot/
func BenchmarkRun(b *testing.B) {
	setup := requireSetup(b)
	script := ScriptProject("extends Node\nfunc _ready():\n\tprint(\"ok\")\n\tget_tree().quit()\n")
	reused, err := New(setup)
	if err != nil {
		b.Fatal(err)
	}
	defer reused.Close()
	run := func(r *Runner) time.Duration {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		start := time.Now()
		res, err := r.Run(ctx, script)
		if err != nil || !slices.Contains(res.Stdout(), "ok") {
			b.Fatalf("run: %v", err)
		}
		return time.Since(start)
	}
	run(reused) // warm the browser and its cache; not measured
	var tReused, tFresh, tStart []time.Duration
	i := 0
	for b.Loop() {
		steps := []func(){
			func() { tReused = append(tReused, run(reused)) },
			func() {
				start := time.Now()
				r, err := New(setup)
				if err != nil {
					b.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				if _, err := r.browser(ctx); err != nil {
					b.Fatal(err)
				}
				cancel()
				tStart = append(tStart, time.Since(start))
				tFresh = append(tFresh, time.Since(start)+run(r))
				r.Close()
			},
		}
		if i%2 == 1 {
			steps[0], steps[1] = steps[1], steps[0]
		}
		for _, s := range steps {
			s()
		}
		i++
	}
	b.ReportMetric(median(tReused), "ms/run-reused")
	b.ReportMetric(median(tFresh), "ms/run-fresh")
	b.ReportMetric(median(tStart), "ms/browser-start")
}

func median(d []time.Duration) float64 {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return float64(s[len(s)/2].Microseconds()) / 1000
}
