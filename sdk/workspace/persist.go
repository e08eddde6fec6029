package workspace

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The journal on disk (Options.JournalDir): one file per action
// ("a-<id>.gob": its metadata and the before and after bytes of its files,
// written once, rewritten only when a later commit of the same call extends
// it) and "index.json", the order of the undo and redo stacks with a
// generation number. Every change takes an exclusive lock on "lock" for its
// whole duration and first reloads the journal if another process moved
// the generation, so several hosts on one project (a server and a
// `godot-mcp call`) share one history without losing each other's
// actions. Files are written to a temporary name and renamed; the index is
// written last, so a crash leaves at worst an orphan action file, removed
// at the next change.

type index struct {
	Root    string   `json:"root"`
	Gen     uint64   `json:"gen"`
	NextID  uint64   `json:"next_id"`
	Version int64    `json:"version"`
	Undo    []uint64 `json:"undo"`
	Redo    []uint64 `json:"redo"`
}

// record is an action as stored.
type record struct {
	ID      uint64
	Name    string
	Toolset string
	CallID  string
	Session string
	At      time.Time
	Files   []fileRecord
}

type fileRecord struct {
	Res, Abs      string
	Dirs          []string
	Before, After contentRecord
}

type contentRecord struct {
	Exists bool
	Data   []byte
	Mode   fs.FileMode
}

type store struct {
	dir  string
	lock *os.File
	gen  uint64 // generation this process last saw or wrote
}

// open creates the journal directory and its lock file on first use, so a
// host that never edits leaves nothing behind.
func (s *store) open() error {
	if s.lock != nil {
		return nil
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(s.dir, "lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	s.lock = f
	return nil
}

func (s *store) actionPath(id uint64) string {
	return filepath.Join(s.dir, "a-"+strconv.FormatUint(id, 10)+".gob")
}

func (s *store) readIndex() (index, error) {
	b, err := os.ReadFile(filepath.Join(s.dir, "index.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return index{}, nil
	}
	if err != nil {
		return index{}, err
	}
	var idx index
	if err := json.Unmarshal(b, &idx); err != nil {
		return index{}, fmt.Errorf("journal index: %w", err)
	}
	return idx, nil
}

func writeFileAtomic(path string, data []byte) error {
	t, err := writeTemp(path, content{exists: true, data: data, mode: 0o600}, true)
	if err != nil {
		return err
	}
	if err := os.Rename(t, path); err != nil {
		_ = os.Remove(t)
		return err
	}
	return nil
}

func toRecord(a *action) record {
	r := record{ID: a.id, Name: a.name, Toolset: a.toolset, CallID: a.callID, Session: a.session, At: a.at}
	for _, f := range a.files {
		r.Files = append(r.Files, fileRecord{Res: f.res, Abs: f.abs, Dirs: f.dirs,
			Before: contentRecord{f.before.exists, f.before.data, f.before.mode},
			After:  contentRecord{f.after.exists, f.after.data, f.after.mode}})
	}
	return r
}

func fromRecord(r record) *action {
	a := &action{id: r.ID, name: r.Name, toolset: r.Toolset, callID: r.CallID, session: r.Session, at: r.At, saved: true}
	for _, f := range r.Files {
		a.files = append(a.files, &file{res: f.Res, abs: f.Abs, dirs: f.Dirs,
			before: content{f.Before.Exists, f.Before.Data, f.Before.Mode},
			after:  content{f.After.Exists, f.After.Data, f.After.Mode}})
	}
	return a
}

func (s *store) saveAction(a *action) error {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(toRecord(a)); err != nil {
		return err
	}
	return writeFileAtomic(s.actionPath(a.id), buf.Bytes())
}

func (s *store) loadAction(id uint64) (*action, error) {
	b, err := os.ReadFile(s.actionPath(id))
	if err != nil {
		return nil, err
	}
	var r record
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&r); err != nil {
		return nil, fmt.Errorf("journal action %d: %w", id, err)
	}
	return fromRecord(r), nil
}

// syncInLocked takes the journal's file lock and, if another process
// changed the journal since this one last saw it, reloads it. A journal
// that cannot be read is dropped (with its history): the files themselves
// are never at stake, only the ability to undo.
func (w *Workspace) syncInLocked() {
	s := w.store
	if s == nil {
		return
	}
	if err := s.open(); err != nil {
		// No journal directory: keep the history in memory.
		w.storeErr = fmt.Sprintf("the undo history cannot be kept in %s (%v); it lives in this process only", s.dir, err)
		w.store = nil
		return
	}
	lockFile(s.lock)
	idx, err := s.readIndex()
	if err != nil || (idx.Root != "" && idx.Root != w.root) {
		w.resetStoreLocked()
		return
	}
	if idx.Gen == s.gen {
		return
	}
	loaded := map[uint64]*action{}
	for _, a := range append(append([]*action{}, w.undo...), w.redo...) {
		loaded[a.id] = a
	}
	load := func(ids []uint64) ([]*action, bool) {
		out := make([]*action, 0, len(ids))
		for _, id := range ids {
			a, err := s.loadAction(id)
			if err != nil {
				return nil, false
			}
			out = append(out, a)
		}
		return out, true
	}
	undo, ok1 := load(idx.Undo)
	redo, ok2 := load(idx.Redo)
	if !ok1 || !ok2 {
		w.resetStoreLocked()
		return
	}
	w.undo, w.redo = undo, redo
	w.nextID, w.version, s.gen = max(idx.NextID, 1), idx.Version, idx.Gen
	w.bytes = 0
	for _, a := range append(append([]*action{}, undo...), redo...) {
		w.bytes += a.size()
	}
	w.trimLocked()
}

// resetStoreLocked forgets an unreadable journal.
func (w *Workspace) resetStoreLocked() {
	w.undo, w.redo, w.bytes = nil, nil, 0
	w.store.gen = ^uint64(0) // force a rewrite
	w.dirty = true
}

// syncOutLocked writes what changed and releases the file lock. A failure
// to persist loses history, not files; it is returned as a warning.
func (w *Workspace) syncOutLocked() (warning string) {
	s := w.store
	if s == nil {
		warn := w.storeErr
		w.storeErr = ""
		return warn
	}
	defer unlockFile(s.lock)
	if !w.dirty {
		return ""
	}
	w.dirty = false
	keep := map[string]bool{"lock": true, "index.json": true}
	idx := index{Root: w.root, NextID: w.nextID, Version: w.version}
	var err error
	for _, a := range w.undo {
		idx.Undo = append(idx.Undo, a.id)
	}
	for _, a := range w.redo {
		idx.Redo = append(idx.Redo, a.id)
	}
	for _, a := range append(append([]*action{}, w.undo...), w.redo...) {
		keep[filepath.Base(s.actionPath(a.id))] = true
		if !a.saved && err == nil {
			if err = s.saveAction(a); err == nil {
				a.saved = true
			}
		}
	}
	if err == nil {
		prev, _ := s.readIndex()
		idx.Gen = max(prev.Gen, s.gen) + 1
		if s.gen == ^uint64(0) {
			idx.Gen = prev.Gen + 1
		}
		var b []byte
		if b, err = json.Marshal(idx); err == nil {
			if err = writeFileAtomic(filepath.Join(s.dir, "index.json"), b); err == nil {
				s.gen = idx.Gen
			}
		}
	}
	// Drop the files of forgotten actions (and temporary leftovers).
	if ents, rerr := os.ReadDir(s.dir); rerr == nil && err == nil {
		for _, e := range ents {
			if !keep[e.Name()] && (strings.HasPrefix(e.Name(), "a-") || strings.HasPrefix(e.Name(), ".")) {
				_ = os.Remove(filepath.Join(s.dir, e.Name()))
			}
		}
	}
	if err != nil {
		s.gen = ^uint64(0)
		return "the undo history could not be saved to " + s.dir + ": " + err.Error() + "; the change is written, but another godot-mcp process may not be able to undo it"
	}
	return ""
}
