package workspace

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkCommitSmall is the engine alone: read, CAS, temp file, fsync,
// rename, journal, for one 1 KB file (what a tool call costs the host
// beyond the broker round trips; compare with the end-to-end figure of
// host/e2e BenchmarkWorkspaceWrite).
func BenchmarkCommitSmall(b *testing.B) {
	for _, m := range []struct {
		name string
		mode SyncMode
	}{{"sync=file", SyncFile}, {"sync=full", SyncFull}, {"sync=none", SyncNone}} {
		b.Run(m.name, func(b *testing.B) { benchCommit(b, Options{Sync: m.mode}) })
	}
	b.Run("sync=none/journal=disk", func(b *testing.B) { benchCommit(b, Options{Sync: SyncNone, JournalDir: b.TempDir()}) })
}

func benchCommit(b *testing.B, opts Options) {
	w, _ := newWS(b, opts)
	bodies := [2][]byte{[]byte(strings.Repeat("a", 1024)), []byte(strings.Repeat("b", 1024))}
	if _, err := w.Commit(bg, Change{Name: "seed", Ops: []Op{{Path: "f.txt", Data: bodies[1]}}}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		f, err := w.Read(bg, "f.txt")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := w.Commit(bg, Change{Name: "bench", Ops: []Op{{Path: "f.txt", Data: bodies[i%2], Base: f.Version}}}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJournalCost interleaves, in one loop, the same Read+Commit on a
// workspace whose journal is in memory and on one whose journal is on disk
// (both without fsync), and reports the median of each: the cost of the
// on-disk journal, robust to the noise of a shared machine.
func BenchmarkJournalCost(b *testing.B) {
	mem, _ := newWS(b, Options{Sync: SyncNone})
	disk, _ := newWS(b, Options{Sync: SyncNone, JournalDir: b.TempDir()})
	bodies := [2][]byte{[]byte(strings.Repeat("a", 1024)), []byte(strings.Repeat("b", 1024))}
	var tm, td []time.Duration
	one := func(w *Workspace, i int) time.Duration {
		t0 := time.Now()
		f, err := w.Read(bg, "f.txt")
		base := f.Version
		if err != nil {
			base = ""
		}
		if _, err := w.Commit(bg, Change{Name: "bench", Ops: []Op{{Path: "f.txt", Data: bodies[i%2], Base: base}}}); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	b.ResetTimer()
	for i := range b.N {
		if i%2 == 0 {
			tm = append(tm, one(mem, i))
			td = append(td, one(disk, i))
		} else {
			td = append(td, one(disk, i))
			tm = append(tm, one(mem, i))
		}
	}
	med := func(ds []time.Duration) float64 {
		slices.Sort(ds)
		return float64(ds[len(ds)/2].Microseconds())
	}
	b.ReportMetric(med(tm), "memory-p50-µs")
	b.ReportMetric(med(td), "disk-p50-µs")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkCommitScene is the engine's part of one headless scene edit of a
// 20 KB file with the journal on disk: what the host does for the plugin's
// commit (CAS read and hash, temp file, rename, journal append), per
// durability mode. host/e2e BenchmarkSceneEditHeadless is the end-to-end
// figure.
func BenchmarkCommitScene(b *testing.B) {
	for _, m := range []struct {
		name string
		mode SyncMode
		mem  bool
	}{{"sync=file", SyncFile, false}, {"sync=none", SyncNone, false}, {"sync=file/journal=memory", SyncFile, true}} {
		b.Run(m.name, func(b *testing.B) {
			opts := Options{Sync: m.mode, JournalDir: b.TempDir()}
			if m.mem {
				opts.JournalDir = ""
			}
			w, _ := newWS(b, opts)
			body := []byte(strings.Repeat("[node name=\"N\" type=\"Node3D\" parent=\".\"]\n", 500))
			bodies := [2][]byte{body, append(slices.Clone(body), '\n')}
			res, err := w.Commit(bg, Change{Name: "seed", Ops: []Op{{Path: "s.tscn", Data: bodies[1]}}})
			if err != nil {
				b.Fatal(err)
			}
			base := res.Files[0].VersionAfter
			var ds []time.Duration
			b.ResetTimer()
			for i := range b.N {
				t0 := time.Now()
				res, err := w.Commit(bg, Change{Name: "bench", Ops: []Op{{Path: "s.tscn", Data: bodies[i%2], Base: base}}})
				if err != nil {
					b.Fatal(err)
				}
				ds = append(ds, time.Since(t0))
				base = res.Files[0].VersionAfter
			}
			slices.Sort(ds)
			b.ReportMetric(float64(ds[len(ds)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(ds[len(ds)*9/10].Microseconds()), "p90-µs")
		})
	}
}
