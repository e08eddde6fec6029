package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// BenchmarkJournalOpenMemory is what every process pays to join a project
// whose journal is on disk: a fresh Workspace reads the journal (History,
// the first thing any call does under the lock). It reports the bytes
// allocated and the bytes still held once the journal is read, per MB of
// journal log, for a journal of 64 actions of 512 KiB (a 256 KiB file's
// before and after bytes each).
func BenchmarkJournalOpenMemory(b *testing.B) {
	dir, jdir := b.TempDir(), b.TempDir()
	w, err := Open(dir, Options{JournalDir: jdir, Sync: SyncNone})
	if err != nil {
		b.Fatal(err)
	}
	data := make([]byte, 256<<10)
	base := ""
	for i := range 65 {
		for j := range data {
			data[j] = byte(i + j)
		}
		res, err := w.Commit(bg, Change{Name: fmt.Sprint("edit ", i), Ops: []Op{{Path: "big.bin", Data: data, Base: sdk.FileVersion(base)}}})
		if err != nil {
			b.Fatal(err)
		}
		base = string(res.Files[0].VersionAfter)
	}
	fi, err := os.Stat(filepath.Join(jdir, logName))
	if err != nil {
		b.Fatal(err)
	}
	logMB := float64(fi.Size()) / (1 << 20)
	var alloc, held float64
	b.ResetTimer()
	for range b.N {
		var m0, m1, m2 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		r, err := Open(dir, Options{JournalDir: jdir, Sync: SyncNone})
		if err != nil {
			b.Fatal(err)
		}
		if h := r.History(); h.Depth != 65 {
			b.Fatalf("depth %d", h.Depth)
		}
		runtime.ReadMemStats(&m1)
		runtime.GC()
		runtime.ReadMemStats(&m2)
		alloc += float64(m1.TotalAlloc - m0.TotalAlloc)
		held += float64(int64(m2.HeapAlloc) - int64(m0.HeapAlloc))
		runtime.KeepAlive(r)
		r.Close()
	}
	b.ReportMetric(logMB, "journal-MB")
	b.ReportMetric(alloc/float64(b.N)/logMB, "alloc-B/journal-MB")
	b.ReportMetric(held/float64(b.N)/logMB, "held-B/journal-MB")
}

// BenchmarkSweepTemps is the one-time cost per process of looking for
// stray temporary files: a walk of a project of 5,000 files in 100
// directories.
func BenchmarkSweepTemps(b *testing.B) {
	dir := b.TempDir()
	for d := range 100 {
		sub := filepath.Join(dir, fmt.Sprintf("d%03d", d))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 50 {
			if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%02d.tres", f)), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	w, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		w.swept = false
		w.sweepTempsLocked(time.Now())
	}
}
