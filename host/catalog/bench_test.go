package catalog

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkVerify measures what the supervisor pays before every start: a
// full sha256 of a toolset binary (the echo test plugin, built with the SDK).
func BenchmarkVerify(b *testing.B) {
	info, err := os.Stat(echoBin)
	if err != nil {
		b.Fatal(err)
	}
	sum, err := HashFile(echoBin)
	if err != nil {
		b.Fatal(err)
	}
	c := &Catalog{}
	e := Entry{Name: "echo", Path: echoBin, SHA256: sum}
	b.SetBytes(info.Size())
	for b.Loop() {
		if err := c.Verify(e); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(info.Size())/(1<<20), "MiB-binary")
}

// BenchmarkOpen measures opening a catalog of twelve toolset binaries (the
// echo plugin, about the size of a first-party one) the way a host start
// does, with the digests cached by stat, against reading every binary
// (FullHash, what `plugins verify` does and what every start did before),
// interleaved so both see the same machine. ratio is cached ÷ full.
func BenchmarkOpen(b *testing.B) {
	dir, cache := b.TempDir(), b.TempDir()
	data, err := os.ReadFile(echoBin)
	if err != nil {
		b.Fatal(err)
	}
	for i := range 12 {
		name := filepath.Join(dir, fmt.Sprintf("%secho%d", BinaryPrefix, i))
		if err := os.WriteFile(name, data, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	open := func(full bool) time.Duration {
		t0 := time.Now()
		// Twelve binaries of one manifest clash, which costs nothing
		// here: every one is hashed first.
		if _, err := Open(Options{Dir: dir, CacheDir: cache, IgnoreLock: true, FullHash: full}); err != nil {
			b.Fatalf("open: %v", err)
		}
		return time.Since(t0)
	}
	open(false) // describe and cache every manifest and digest once
	var cached, full []time.Duration
	for b.Loop() {
		cached = append(cached, open(false))
		full = append(full, open(true))
	}
	slices.Sort(cached)
	slices.Sort(full)
	c50, f50 := cached[len(cached)/2], full[len(full)/2]
	b.ReportMetric(float64(c50)/float64(time.Millisecond), "p50-ms/cached")
	b.ReportMetric(float64(f50)/float64(time.Millisecond), "p50-ms/full")
	b.ReportMetric(float64(c50)/float64(f50), "ratio")
}
