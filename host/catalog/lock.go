package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// LockVersion is the version of the lock file format.
const LockVersion = 1

// Lock is the content of the lock file: the binaries an operator trusts,
// each pinned by sha256 together with its manifest, so that a pinned binary
// never has to run to be listed.
type Lock struct {
	Version int            `json:"version"`
	Plugins []LockedPlugin `json:"plugins"`

	path string
}

// LockedPlugin pins one binary.
type LockedPlugin struct {
	Name     string             `json:"name"`
	File     string             `json:"file"` // file name in the plugins directory
	SHA256   string             `json:"sha256"`
	Manifest *manifest.Manifest `json:"manifest"`
}

func (l *Lock) find(file string) *LockedPlugin {
	for i := range l.Plugins {
		if l.Plugins[i].File == file {
			return &l.Plugins[i]
		}
	}
	return nil
}

// ReadLock reads the lock file at path. A missing file is not an error: it
// returns nil, nil (trust on first use). A file that cannot be parsed is an
// error, because ignoring pins the operator wrote would be unsafe.
func ReadLock(path string) (*Lock, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading lock file: %w", err)
	}
	var l Lock
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return nil, fmt.Errorf("lock file %s is not valid: %v; fix it, or delete it and run \"godot-mcp plugins lock\" to write a new one", path, err)
	}
	if l.Version != LockVersion {
		return nil, fmt.Errorf("lock file %s has version %d, this host reads version %d; run \"godot-mcp plugins lock\" with this host to rewrite it", path, l.Version, LockVersion)
	}
	seen := map[string]bool{}
	for _, p := range l.Plugins {
		if p.File == "" || filepath.Base(p.File) != p.File || seen[p.File] {
			return nil, fmt.Errorf("lock file %s pins %q more than once or not as a plain file name; run \"godot-mcp plugins lock\" to rewrite it", path, p.File)
		}
		seen[p.File] = true
	}
	l.path = path
	return &l, nil
}

// WriteLock writes l to path atomically: a reader sees the old lock file or
// the new one, never a mix, even if the writer dies midway.
func WriteLock(path string, l *Lock) error {
	sort.Slice(l.Plugins, func(i, j int) bool { return l.Plugins[i].Name < l.Plugins[j].Name })
	data, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(path, append(data, '\n'), 0o644)
}

// writeFileAtomic writes data to a temporary file beside path, syncs it and
// renames it over path.
func writeFileAtomic(path string, data []byte, perm os.FileMode) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(perm); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
