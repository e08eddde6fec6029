package workspace

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// The journal on disk (Options.JournalDir) is one append-only log,
// "journal.log": a sequence of entries, each a 4-byte big-endian length and
// a gob-encoded entry: an action committed (with the before and after bytes
// of its files), an action extended by a later commit of the same call, or
// n actions undone or redone. Replaying the log from the start rebuilds
// the journal, bounds included.
//
// Every change takes an exclusive lock on "lock" for its whole duration.
// It first replays whatever other processes appended since this one last
// read (the log's size is the generation), then appends its own entries
// with one write. So several hosts on one project (a server and a
// `godot-mcp call`) share one history in one order and none loses the
// other's actions. When the log grows past twice the journal's content
// plus 1 MiB it is rewritten from the current state (temp file + rename);
// other processes notice the new file and read it whole.
//
// A torn last entry (a crash mid-append) ends the replay there and is cut
// off at the next append; an unreadable log is dropped. Either way only the
// ability to undo is lost, never a project file.

const logName = "journal.log"

// scenesName holds the headless open and active scenes, shared by the
// processes like the journal (read at every lock, written when changed).
const scenesName = "scenes.json"

type sceneState struct {
	Active string   `json:"active"`
	Open   []string `json:"open"`
}

// loadScenesLocked takes the shared open and active scenes, if any were
// saved; an unreadable file leaves this process's own.
func (w *Workspace) loadScenesLocked() {
	b, err := os.ReadFile(filepath.Join(w.store.dir, scenesName))
	if err != nil {
		return
	}
	var st sceneState
	if json.Unmarshal(b, &st) != nil {
		return
	}
	w.active, w.open = st.Active, st.Open
}

// writeFileAtomic replaces a small state file by temp file and rename.
func writeFileAtomic(path string, data []byte, fsync bool) error {
	t, err := writeTemp(path, content{exists: true, data: data, mode: 0o600}, fsync)
	if err != nil {
		return err
	}
	if err := os.Rename(t, path); err != nil {
		_ = os.Remove(t)
		return err
	}
	return nil
}

// entry kinds.
const (
	entryAction = iota + 1 // push Action (a commit)
	entryExtend            // replace the newest action with Action (same call)
	entryUndo              // move N actions from undo to redo
	entryRedo              // move N actions from redo to undo
)

type entry struct {
	Kind    int
	Action  *record
	N       int
	Version int64 // the workspace version after this entry
	// Of entryPrepare and entryDone (intent.go).
	Op    int
	Merge bool     // opCommit: join the newest action (same call)
	Temps []string // per file of the change: its temporary file, "" for a delete
	ID    uint64   // the action
	OK    bool     // entryDone: the change happened
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
	dir   string
	fsync bool // SyncFull: fsync every append
	lock  *os.File
	log   *os.File    // open for append; nil until first use or after a rewrite
	seen  fs.FileInfo // the log file this process has read
	off   int64       // how far this process has read it
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

func toRecord(a *action) *record {
	r := &record{ID: a.id, Name: a.name, Toolset: a.toolset, CallID: a.callID, Session: a.session, At: a.at}
	for _, f := range a.files {
		r.Files = append(r.Files, fileRecord{Res: f.res, Abs: f.abs, Dirs: f.dirs,
			Before: contentRecord{f.before.exists, f.before.data, f.before.mode},
			After:  contentRecord{f.after.exists, f.after.data, f.after.mode}})
	}
	return r
}

func fromRecord(r *record) *action {
	a := &action{id: r.ID, name: r.Name, toolset: r.Toolset, callID: r.CallID, session: r.Session, at: r.At}
	for _, f := range r.Files {
		a.files = append(a.files, &file{res: f.Res, abs: f.Abs, dirs: f.Dirs,
			before: content{f.Before.Exists, f.Before.Data, f.Before.Mode},
			after:  content{f.After.Exists, f.After.Data, f.After.Mode}})
	}
	return a
}

func encodeEntry(buf *bytes.Buffer, e entry) error {
	start := buf.Len()
	buf.Write([]byte{0, 0, 0, 0})
	if err := gob.NewEncoder(buf).Encode(e); err != nil {
		buf.Truncate(start)
		return err
	}
	binary.BigEndian.PutUint32(buf.Bytes()[start:], uint32(buf.Len()-start-4))
	return nil
}

// record notes a journal change to append at the next syncOut.
func (w *Workspace) record(e entry) {
	if w.store == nil {
		return
	}
	e.Version = w.version
	w.pending = append(w.pending, e)
}

// replay applies one entry to the in-memory journal.
func (w *Workspace) replay(e entry) {
	// Whatever follows a prepared change resolves it; only a prepare at the
	// end of the log is left to recover.
	defer func() {
		if e.Kind != entryPrepare {
			w.prepared = nil
		}
	}()
	switch e.Kind {
	case entryAction:
		a := fromRecord(e.Action)
		w.dropRedoLocked()
		w.undo = append(w.undo, a)
		w.bytes += a.size()
		w.nextID = max(w.nextID, a.id+1)
		w.trimLocked()
	case entryExtend:
		a := fromRecord(e.Action)
		if n := len(w.undo); n > 0 && w.undo[n-1].id == a.id {
			w.bytes += a.size() - w.undo[n-1].size()
			w.undo[n-1] = a
			w.trimLocked()
		}
	case entryPrepare:
		w.prepared = &e
		return // a change in progress: no new version yet
	case entryDone:
		if p := w.prepared; p != nil && p.ID == e.ID {
			w.replayDone(p, e.OK)
		}
	case entryUndo, entryRedo:
		from, to := &w.undo, &w.redo
		if e.Kind == entryRedo {
			from, to = &w.redo, &w.undo
		}
		for range min(e.N, len(*from)) {
			a := (*from)[len(*from)-1]
			*from = (*from)[:len(*from)-1]
			*to = append(*to, a)
		}
	}
	w.version = e.Version
}

// syncInLocked takes the journal's file lock and replays what other
// processes appended since this one last read the log.
func (w *Workspace) syncInLocked(ctx context.Context) error {
	s := w.store
	if s == nil {
		return nil
	}
	if err := s.open(); err != nil {
		// No journal directory: keep the history in memory.
		w.storeErr = fmt.Sprintf("the undo history cannot be kept in %s (%v); it lives in this process only", s.dir, err)
		w.store = nil
		return nil
	}
	if err := lockFile(ctx, s.lock); err != nil {
		return &sdk.Error{Code: sdk.CodeCancelled,
			Message: "workspace: the call ended while waiting for the journal lock (" + filepath.Join(s.dir, "lock") +
				"), which another godot-mcp process on this project holds; nothing was written",
			Hint: "retry; if it keeps happening, a godot-mcp process working on this project is stuck: stop it"}
	}
	now := time.Now()
	w.syncInLog()
	if w.prepared != nil {
		w.recoverLocked()
	}
	w.sweepTempsLocked(now)
	return nil
}

// syncInLog replays what other processes appended (under the file lock).
func (w *Workspace) syncInLog() {
	s := w.store
	w.loadScenesLocked()
	path := filepath.Join(s.dir, logName)
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		if s.seen != nil { // another process dropped the log
			w.undo, w.redo, w.bytes = nil, nil, 0
		}
		s.seen, s.off = nil, 0
		return
	}
	if err != nil {
		return
	}
	if s.seen == nil || !os.SameFile(s.seen, fi) {
		// A new log (first read, or another process rewrote it): read it
		// all, from an empty journal.
		w.undo, w.redo, w.bytes = nil, nil, 0
		s.off = 0
		if s.log != nil {
			_ = s.log.Close()
			s.log = nil
		}
	}
	s.seen = fi
	if fi.Size() == s.off {
		return
	}
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	if _, err := f.Seek(s.off, io.SeekStart); err != nil {
		return
	}
	data, err := io.ReadAll(io.LimitReader(f, fi.Size()-s.off))
	if err != nil {
		return
	}
	s.off += w.replayLog(data)
}

// replayLog applies the whole entries at the start of data and returns how
// many bytes they took; it stops at a torn or unreadable entry, which the
// next append cuts off.
func (w *Workspace) replayLog(data []byte) int64 {
	var used int64
	for len(data) >= 4 {
		n := int(binary.BigEndian.Uint32(data))
		if n > len(data)-4 {
			break
		}
		var e entry
		if gob.NewDecoder(bytes.NewReader(data[4:4+n])).Decode(&e) != nil || !e.valid() {
			break
		}
		w.replay(e)
		data = data[4+n:]
		used += int64(4 + n)
	}
	return used
}

// valid rejects entries no version of this code writes.
func (e entry) valid() bool {
	switch e.Kind {
	case entryAction, entryExtend:
		return e.Action != nil
	case entryUndo, entryRedo:
		return e.N >= 0
	case entryPrepare:
		switch e.Op {
		case opCommit:
			return e.Action != nil && len(e.Temps) == len(e.Action.Files)
		case opUndo, opRedo:
			return true
		}
	case entryDone:
		return true
	}
	return false
}

// syncOutLocked appends this process's entries to the log (or rewrites it
// when it has grown too large) and releases the file lock. A failure loses
// cross-process history, not files; it is returned as a warning.
func (w *Workspace) syncOutLocked() (warning string) {
	s := w.store
	if s == nil {
		warn := w.storeErr
		w.storeErr = ""
		return warn
	}
	defer unlockFile(s.lock)
	var sceneErr error
	if w.scenesDirty {
		w.scenesDirty = false
		b, _ := json.Marshal(sceneState{Active: w.active, Open: w.open})
		sceneErr = writeFileAtomic(filepath.Join(s.dir, scenesName), b, s.fsync)
	}
	if len(w.pending) == 0 {
		if sceneErr != nil {
			return "the open scenes could not be saved to " + s.dir + ": " + sceneErr.Error()
		}
		return ""
	}
	pending := w.pending
	w.pending = nil
	var err error
	if s.off > 2*w.bytes+(1<<20) {
		err = w.rewriteLocked()
	} else {
		err = w.appendLocked(pending)
	}
	if err != nil {
		// Read the log afresh next time rather than trust a half-known state.
		s.seen = nil
		return "the undo history could not be saved to " + s.dir + ": " + err.Error() +
			"; the change is written, but another godot-mcp process may not be able to undo it"
	}
	return ""
}

func (w *Workspace) appendLocked(pending []entry) error {
	s := w.store
	var buf bytes.Buffer
	for _, e := range pending {
		if err := encodeEntry(&buf, e); err != nil {
			return err
		}
	}
	path := filepath.Join(s.dir, logName)
	if s.log == nil {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o600)
		if err != nil {
			return err
		}
		s.log = f
	}
	// Cut a torn tail (syncIn saw the file longer than its whole entries),
	// then write at the end of what was read. A log that ends where this
	// process stopped reading needs no truncate: on most file systems even
	// a truncate to the current size is a metadata update.
	if s.seen == nil || s.seen.Size() != s.off {
		if err := s.log.Truncate(s.off); err != nil {
			return err
		}
	}
	if _, err := s.log.WriteAt(buf.Bytes(), s.off); err != nil {
		return err
	}
	if s.fsync {
		if err := s.log.Sync(); err != nil {
			return err
		}
	}
	s.off += int64(buf.Len())
	fi, err := s.log.Stat()
	if err != nil {
		return err
	}
	s.seen = fi
	return nil
}

// rewriteLocked replaces the log with the current journal: every action
// pushed in order (the redo stack too, next redo last), then one undo entry
// that moves the redo actions back.
func (w *Workspace) rewriteLocked() error {
	s := w.store
	var buf bytes.Buffer
	push := func(a *action) error {
		return encodeEntry(&buf, entry{Kind: entryAction, Action: toRecord(a), Version: w.version})
	}
	for _, a := range w.undo {
		if err := push(a); err != nil {
			return err
		}
	}
	for i := len(w.redo) - 1; i >= 0; i-- {
		if err := push(w.redo[i]); err != nil {
			return err
		}
	}
	if len(w.redo) > 0 {
		if err := encodeEntry(&buf, entry{Kind: entryUndo, N: len(w.redo), Version: w.version}); err != nil {
			return err
		}
	}
	path := filepath.Join(s.dir, logName)
	t, err := writeTemp(path, content{exists: true, data: buf.Bytes(), mode: 0o600}, s.fsync)
	if err != nil {
		return err
	}
	if err := os.Rename(t, path); err != nil {
		_ = os.Remove(t)
		return err
	}
	if s.log != nil {
		_ = s.log.Close()
		s.log = nil
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	s.seen, s.off = fi, int64(buf.Len())
	return nil
}
