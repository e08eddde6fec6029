package catalog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
)

// Hashing every binary is most of what opening a catalog costs (a toolset
// binary is about 20 MB), and a host start opens one before it can start
// its first plugin. The digest of a file that has not changed is known, so
// the cache remembers each digest with what stat says of the file — its
// device, inode, size, modification and status-change times — and a scan
// reads the file again only when any of them differs. That does not weaken
// pinning: the status-change time moves on every write and rename and
// cannot be set back from user space, and the supervisor still hashes a
// binary in full right before it runs it (Catalog.Verify), so a binary is
// never started on a remembered digest. `godot-mcp plugins verify` and
// `lock` always read every file (Options.FullHash).

// statKey is what stat says of a file, on systems where it says enough
// (statKeyOf); ok is false elsewhere and the file is always hashed.
type statKey struct {
	Dev, Ino     uint64
	Size         int64
	MTime, CTime int64 // nanoseconds
}

type sumEntry struct {
	Key    statKey `json:"key"`
	SHA256 string  `json:"sha256"`
}

// sums is the cache of digests, one JSON file beside the cached manifests.
type sums struct {
	path  string // "" disables it
	mu    sync.Mutex
	m     map[string]sumEntry // by absolute path
	dirty bool
}

const sumsFile = "binary-digests.json"

func loadSums(dir string) *sums {
	s := &sums{m: map[string]sumEntry{}}
	if dir == "" {
		return s
	}
	s.path = filepath.Join(dir, sumsFile)
	if b, err := os.ReadFile(s.path); err == nil {
		// A damaged file only costs the hashing it would have saved.
		_ = json.Unmarshal(b, &s.m)
		if s.m == nil {
			s.m = map[string]sumEntry{}
		}
	}
	return s
}

// sum returns the digest of the file at path, whose stat is info: the
// remembered one when nothing stat reports has changed, else a new hash.
func (s *sums) sum(path string, info os.FileInfo, full bool) (string, error) {
	key, ok := statKeyOf(info)
	if ok && !full {
		s.mu.Lock()
		e, hit := s.m[path]
		s.mu.Unlock()
		if hit && e.Key == key && len(e.SHA256) == 64 {
			return e.SHA256, nil
		}
	}
	sum, err := HashFile(path)
	if err != nil || !ok {
		return sum, err
	}
	// The file may have changed while it was read: remember the digest
	// only if stat still says what it said before.
	if after, err := os.Stat(path); err == nil {
		if k2, _ := statKeyOf(after); k2 == key {
			s.mu.Lock()
			s.m[path] = sumEntry{Key: key, SHA256: sum}
			s.dirty = true
			s.mu.Unlock()
		}
	}
	return sum, nil
}

// save writes the cache when it changed, atomically; failures are only
// lost time at the next start.
func (s *sums) save(present map[string]bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for p := range s.m {
		if !present[p] {
			delete(s.m, p)
			s.dirty = true
		}
	}
	if !s.dirty || s.path == "" {
		return
	}
	b, err := json.Marshal(s.m)
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.path), sumsFile+".*")
	if err != nil {
		return
	}
	if _, err := tmp.Write(b); err == nil && tmp.Close() == nil {
		if os.Rename(tmp.Name(), s.path) == nil {
			s.dirty = false
			return
		}
	}
	tmp.Close()
	os.Remove(tmp.Name())
}
