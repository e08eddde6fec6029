package catalog

import (
	"os"
	"testing"
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
