//go:build unix

package catalog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The digests cached by stat spare a host start the reading of every
// binary, and still never let a changed one through: the scan hashes again
// when anything stat says differs (here, a rewrite that keeps the size and
// the modification time), and the start-time Verify hashes in full
// whatever the cache says.
func TestCachedDigestsNeverVouchForAChangedBinary(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	path := install(t, dir, BinaryPrefix+"echo")
	c := open(t, Options{Dir: dir, CacheDir: cache, IgnoreLock: true})
	if err := WriteLock(c.LockPath(), c.Lock()); err != nil {
		t.Fatal(err)
	}
	e, _ := c.Lookup("echo")

	// The cache is used: a digest planted in it for the unchanged file is
	// what the scan reports...
	sumsPath := filepath.Join(cache, sumsFile)
	raw, err := os.ReadFile(sumsPath)
	if err != nil {
		t.Fatalf("no digest cache written: %v", err)
	}
	var m map[string]sumEntry
	if err := json.Unmarshal(raw, &m); err != nil || m[path].SHA256 != e.SHA256 {
		t.Fatalf("cache %s: %v", raw, err)
	}
	planted := strings.Repeat("ab", 32)
	ent := m[path]
	ent.SHA256 = planted
	m[path] = ent
	raw, _ = json.Marshal(m)
	if err := os.WriteFile(sumsPath, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	c = open(t, Options{Dir: dir, CacheDir: cache, IgnoreLock: true})
	if got, _ := c.Lookup("echo"); got.SHA256 != planted {
		t.Fatalf("scan digest %s, want the cached %s (the cache was not used)", got.SHA256, planted)
	}
	// ...but the full hash before every start refuses it, and the
	// operator's verify never trusts the cache.
	if got, _ := c.Lookup("echo"); c.Verify(got) == nil {
		t.Fatal("Verify trusted a cached digest")
	}
	c = open(t, Options{Dir: dir, CacheDir: cache, IgnoreLock: true, FullHash: true})
	if got, _ := c.Lookup("echo"); got.SHA256 != e.SHA256 {
		t.Fatalf("FullHash digest %s, want %s", got.SHA256, e.SHA256)
	}

	// A rewrite that keeps the size and the modification time still
	// changes the status-change time: the scan hashes again and the lock
	// refuses the binary.
	info, _ := os.Stat(path)
	data, _ := os.ReadFile(path)
	data[len(data)-1] ^= 0xff
	if err := os.WriteFile(path, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, time.Now(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	c = open(t, Options{Dir: dir, CacheDir: cache})
	if k := problemKinds(c)[BinaryPrefix+"echo"]; k != ProblemChanged {
		t.Fatalf("a rewritten binary with the same size and mtime: problem %q, want %q (problems %v)", k, ProblemChanged, c.Problems())
	}
}
