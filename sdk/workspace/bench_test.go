package workspace

import (
	"strings"
	"testing"
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
		b.Run(m.name, func(b *testing.B) { benchCommit(b, m.mode) })
	}
}

func benchCommit(b *testing.B, mode SyncMode) {
	w, _ := newWS(b, Options{Sync: mode})
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
