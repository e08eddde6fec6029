package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkStartup measures the host from exec to an MCP session that has
// listed its tools, with every first-party toolset installed (and the
// default inspection toolset started): what an agent waits for when its
// client launches the host.
//
//	go test ./host/e2e -run '^$' -bench Startup -benchtime 10x
func BenchmarkStartup(b *testing.B) {
	var lat []time.Duration
	for range b.N {
		t0 := time.Now()
		s := stdioHost(b, legacy, "--plugins-dir", projectPluginsDir, "--godot-version", "4.5", "--log-level", "warn")
		s.names(b)
		lat = append(lat, time.Since(t0))
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
	b.ReportMetric(ms(percentile(lat, 50)), "p50-ms/start")
}

// BenchmarkEnableAll measures one godot_enable_toolset naming every
// first-party toolset, from request to result (every plugin process
// started, configured and its tools registered), and then the first and a
// second call to a freshly started toolset whose tools read the class
// database (scene_edit's set_node_property, headless on a copy of a real
// project): first ÷ second is what a fresh toolset costs the agent once.
//
//	go test ./host/e2e -run '^$' -bench EnableAll -benchtime 5x
func BenchmarkEnableAll(b *testing.B) {
	dir := copyFixture(b, "3d-csg")
	s := stdioHost(b, legacy, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	all := map[string]any{"toolsets": firstParty}
	set := map[string]any{"scene": "res://csg.tscn", "node_path": "CameraHolder/RotationX",
		"property": "position", "value": map[string]any{"x": 0, "y": 1, "z": 2}}
	var enable, first, second []time.Duration
	b.ResetTimer()
	for i := range b.N {
		t0 := time.Now()
		s.ok(b, "godot_enable_toolset", all, nil)
		enable = append(enable, time.Since(t0))
		b.StopTimer()
		set["value"] = map[string]any{"x": i, "y": 1, "z": 2}
		t0 = time.Now()
		s.ok(b, "godot_scene_edit_set_node_property", set, nil)
		first = append(first, time.Since(t0))
		set["value"] = map[string]any{"x": i + 1, "y": 1, "z": 2}
		t0 = time.Now()
		s.ok(b, "godot_scene_edit_set_node_property", set, nil)
		second = append(second, time.Since(t0))
		s.ok(b, "godot_disable_toolset", all, nil)
		b.StartTimer()
	}
	b.ReportMetric(ms(percentile(enable, 50)), "p50-ms/enable-all")
	b.ReportMetric(ms(percentile(first, 50)), "p50-ms/first-call")
	b.ReportMetric(ms(percentile(second, 50)), "p50-ms/second-call")
}

// BenchmarkIdleRSS measures the resident memory of every plugin process
// with every first-party toolset enabled and no call made yet: what each
// toolset costs the machine for sitting there. Each iteration enables all,
// lets the plugins settle (their Warm functions run in the background),
// reads VmRSS of every process running a binary of the plugins
// directory, and disables all again.
//
//	go test ./host/e2e -run '^$' -bench IdleRSS -benchtime 2x
func BenchmarkIdleRSS(b *testing.B) {
	s := stdioHost(b, legacy, "--plugins-dir", projectPluginsDir, "--godot-version", "4.5", "--log-level", "warn")
	all := map[string]any{"toolsets": firstParty}
	var mean, peak, total []float64
	per := map[string][]float64{}
	for range b.N {
		s.ok(b, "godot_enable_toolset", all, nil)
		b.StopTimer()
		time.Sleep(3 * time.Second)
		rss := pluginRSS(b, projectPluginsDir)
		if len(rss) < len(firstParty) {
			b.Fatalf("found %d plugin processes, want at least %d", len(rss), len(firstParty))
		}
		var sum, top float64
		for name, mb := range rss {
			per[name] = append(per[name], mb)
			sum += mb
			top = max(top, mb)
		}
		mean = append(mean, sum/float64(len(rss)))
		peak = append(peak, top)
		total = append(total, sum)
		s.ok(b, "godot_disable_toolset", all, nil)
		b.StartTimer()
	}
	names := make([]string, 0, len(per))
	for n := range per {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		b.Logf("%-40s %5.1f MB", n, median(per[n]))
	}
	b.ReportMetric(median(mean), "MB-rss/plugin")
	b.ReportMetric(median(peak), "MB-rss-max/plugin")
	b.ReportMetric(median(total), "MB-rss/all-plugins")
}

// pluginRSS returns the resident set, in MB, of every process whose
// executable lies in dir, by binary name.
func pluginRSS(t testing.TB, dir string) map[string]float64 {
	t.Helper()
	procs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, p := range procs {
		exe, err := os.Readlink(filepath.Join(p, "exe"))
		if err != nil || filepath.Dir(exe) != dir {
			continue
		}
		status, err := os.ReadFile(filepath.Join(p, "status"))
		if err != nil {
			continue // exited meanwhile
		}
		for _, line := range strings.Split(string(status), "\n") {
			if kb, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				var n float64
				if _, err := fmt.Sscanf(strings.TrimSpace(kb), "%f kB", &n); err == nil {
					out[filepath.Base(exe)] = n / 1024
				}
			}
		}
	}
	return out
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
