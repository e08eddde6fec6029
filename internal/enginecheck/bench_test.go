package enginecheck_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/internal/webgodot/loadcheck"
)

// BenchmarkCheckProject measures a whole-project engine check of the
// largest shared fixture project (by the files the engine loads), as
// check --engine and check_project run it, two ways interleaved in one
// loop so that the noise of a shared machine hits both alike:
//
//   - cold: a new Runner per check, so each pays the browser start and an
//     empty cache (one check --engine invocation);
//   - warm: one Runner for every check (check_project in a running host).
//
// Reported: the median of each in seconds, and the files checked.
//
//	go test -run '^$' -bench BenchmarkCheckProject -benchtime 3x ./internal/enginecheck/
func BenchmarkCheckProject(b *testing.B) {
	setup, err := webgodot.Locate()
	if err != nil {
		testenv.Missing(b, "the Godot web engine (Chromium and the npm package "+webgodot.RuntimePackage+")", err.Error())
	}
	root := filepath.Join(testenv.RepoRoot(), "..", "shared", "fixtures", "projects")
	entries, err := os.ReadDir(root)
	if err != nil {
		testenv.Missing(b, "the shared fixture projects ("+root+")", err.Error())
	}
	var name string
	var files map[string][]byte
	size, most := 0, 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		f, err := loadcheck.ReadProject(filepath.Join(root, e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		n, checked := 0, 0
		for p, d := range f {
			n += len(d)
			if loadcheck.KindOf(p) != "" {
				checked++
			}
		}
		if checked > most {
			name, files, size, most = e.Name(), f, n, checked
		}
	}
	b.Logf("%s: %d files, %d KB packed", name, len(files), size>>10)

	check := func(r *webgodot.Runner) (time.Duration, int) {
		start := time.Now()
		rep, err := loadcheck.Check(context.Background(), r, files, loadcheck.Options{Timeout: 5 * time.Minute})
		if err != nil {
			b.Fatalf("check %s: %v", name, err)
		}
		return time.Since(start), len(rep.Files)
	}
	warm := enginecheck.Runner(b)
	_, checked := check(warm) // start the browser and fill its cache; not measured
	var tCold, tWarm []time.Duration
	i := 0
	for b.Loop() {
		steps := []func(){
			func() {
				d, _ := check(warm)
				tWarm = append(tWarm, d)
			},
			func() {
				start := time.Now()
				r, err := webgodot.New(setup)
				if err != nil {
					b.Fatal(err)
				}
				check(r)
				tCold = append(tCold, time.Since(start))
				_ = r.Close()
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
	b.ReportMetric(medianSeconds(tCold), "s/check-cold")
	b.ReportMetric(medianSeconds(tWarm), "s/check-warm")
	b.ReportMetric(float64(checked), "files")
}

func medianSeconds(d []time.Duration) float64 {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2].Seconds()
}
