package godot

import (
	"runtime"
	"testing"
	"time"
)

// The benchmarks run over the whole fixture corpus (0.79 MiB, 119 files), so
// MB/s is throughput on real Godot 4 files rather than on a synthetic input.

func corpusBytes(files []corpusFile) int64 {
	var n int64
	for _, c := range files {
		n += int64(len(c.data))
	}
	return n
}

func parseCorpusFile(tb testing.TB, c corpusFile) interface{ Bytes() []byte } {
	if c.isConfig() {
		p, err := ParseProject(c.rel, c.data)
		if err != nil {
			tb.Fatal(err)
		}
		return p
	}
	f, err := ParseFile(c.rel, c.data)
	if err != nil {
		tb.Fatal(err)
	}
	return f
}

// benchStart records the allocation count and CPU time before the timed loop.
type benchStart struct {
	mem runtime.MemStats
	cpu time.Duration
}

func startBench(b *testing.B, bytes int64) *benchStart {
	b.SetBytes(bytes)
	b.ReportAllocs()
	s := &benchStart{}
	runtime.ReadMemStats(&s.mem)
	s.cpu = processCPUTime()
	b.ResetTimer()
	return s
}

// finish adds allocs/file (allocs/op is per pass over the whole corpus) and
// cpu-MB/s: throughput per CPU second of this process (including GC), which
// stays meaningful when other jobs compete for the machine.
func (s *benchStart) finish(b *testing.B, bytes int64, files int) {
	b.StopTimer()
	cpu := processCPUTime() - s.cpu
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.Mallocs-s.mem.Mallocs)/float64(b.N*files), "allocs/file")
	if cpu > 0 && s.cpu > 0 {
		b.ReportMetric(float64(bytes)*float64(b.N)/1e6/cpu.Seconds(), "cpu-MB/s")
	}
}

// BenchmarkParse measures parsing (tokenizing, building values and the
// lossless statement model) of every corpus file.
func BenchmarkParse(b *testing.B) {
	files := loadCorpus(b)
	n := corpusBytes(files)
	s := startBench(b, n)
	for range b.N {
		for _, c := range files {
			parseCorpusFile(b, c)
		}
	}
	s.finish(b, n, len(files))
}

// BenchmarkWriteLossless measures writing parsed, unmodified files (the raw
// spans are copied out).
func BenchmarkWriteLossless(b *testing.B) {
	files := loadCorpus(b)
	docs := make([]interface{ Bytes() []byte }, len(files))
	for i, c := range files {
		docs[i] = parseCorpusFile(b, c)
	}
	n := corpusBytes(files)
	s := startBench(b, n)
	for range b.N {
		for _, d := range docs {
			_ = d.Bytes()
		}
	}
	s.finish(b, n, len(files))
}

// BenchmarkWriteCanonical measures the canonical writer: every statement of
// every file is re-rendered from its parsed values, as if all were edited.
func BenchmarkWriteCanonical(b *testing.B) {
	files := loadCorpus(b)
	docs := make([]*document, len(files))
	for i, c := range files {
		switch d := parseCorpusFile(b, c).(type) {
		case *Project:
			docs[i] = d.doc
		case *File:
			docs[i] = d.doc
		}
	}
	for _, d := range docs {
		d.edited = true
		for _, s := range d.sections {
			s.raw = span{}
			for i := range s.fields {
				s.fields[i].raw = span{}
			}
			for i := range s.entries {
				s.entries[i].dirty = true
			}
		}
	}
	n := corpusBytes(files)
	buf := make([]byte, 0, 1<<20)
	s := startBench(b, n)
	for range b.N {
		for _, d := range docs {
			buf = d.appendTo(buf[:0])
		}
	}
	s.finish(b, n, len(files))
}
