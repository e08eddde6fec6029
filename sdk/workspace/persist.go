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
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// The journal on disk (Options.JournalDir) is one append-only log,
// "journal.v2.log": a sequence of entries: an action committed, an action
// extended by a later commit of the same call, n actions undone or redone,
// and the intent and outcome of a change (intent.go). Replaying the log
// from the start rebuilds the journal, bounds included.
//
// An entry is a 4-byte big-endian length n, a 4-byte length m, m bytes of
// gob-encoded entry whose file contents carry only their size and version,
// and then the contents' bytes, raw, in order (each file's before, then
// after). A process replaying the log reads the small gob part of each
// entry and skips the bytes, noting where they are; it reads a content only
// when an undo or redo writes it (or recovery, or a rewrite, needs it). So
// joining a project costs memory for the history's names and versions, not
// for its megabytes of content.
//
// Version 1 of the log ("journal.log": 4-byte length and a gob entry with
// the bytes inline) is migrated once, by the first process of this version
// that takes the lock: read, rewritten as journal.v2.log, removed. A
// process of an earlier version still running keeps its own journal.log
// from then on (two histories; undo's compare-and-swap keeps either from
// clobbering the other's files).
//
// Every change takes an exclusive lock on "lock" for its whole duration.
// It first replays whatever other processes appended since this one last
// read (the log's size is the generation), then appends its own entries.
// So several hosts on one project (a server and a `godot-mcp call`) share
// one history in one order and none loses the other's actions. When the
// log grows past twice the journal's content plus 1 MiB it is rewritten
// from the current state (temp file + rename); other processes notice the
// new file and read it whole.
//
// A torn last entry (a crash mid-append) ends the replay there and is cut
// off at the next append; an unreadable log is dropped. Either way only the
// ability to undo is lost, never a project file.

const (
	logName       = "journal.v2.log"
	legacyLogName = "journal.log" // version 1, migrated
)

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
	Data   []byte // version 1 only; version 2 keeps the bytes after the entry
	Mode   fs.FileMode
	Size   int64
	Ver    sdk.FileVersion
	ref    *blobRef // where a replayed content's bytes are
}

type store struct {
	dir   string
	fsync bool // SyncFull: fsync every append
	lock  *os.File
	log   *os.File    // open for append; nil until first use or after a rewrite
	rd    *os.File    // the log as read: replayed contents are read from it
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
			Before: toContentRecord(f.before), After: toContentRecord(f.after)})
	}
	return r
}

func toContentRecord(c content) contentRecord {
	return contentRecord{Exists: c.exists, Data: c.data, Mode: c.mode, Size: c.size, Ver: c.version(), ref: c.ref}
}

func fromRecord(r *record) *action {
	a := &action{id: r.ID, name: r.Name, toolset: r.Toolset, callID: r.CallID, session: r.Session, at: r.At}
	for _, f := range r.Files {
		a.files = append(a.files, &file{res: f.Res, abs: f.Abs, dirs: f.Dirs,
			before: fromContentRecord(f.Before), after: fromContentRecord(f.After)})
	}
	return a
}

func fromContentRecord(c contentRecord) content {
	out := content{exists: c.Exists, data: c.Data, mode: c.Mode, size: c.Size, ver: c.Ver, ref: c.ref}
	if c.ref == nil { // version 1, or made by this process
		out.size = int64(len(c.Data))
		if c.Exists && out.ver == "" {
			out.ver = VersionOf(c.Data)
		}
	}
	if !c.Exists {
		out = content{}
	}
	return out
}

// blobRef is where a content's bytes are in a log this process read.
type blobRef struct {
	f   *os.File
	off int64
}

// maxMeta bounds the gob part of an entry (names, paths, versions).
const maxMeta = 16 << 20

// encodeEntry appends e in the version 2 format.
func encodeEntry(buf *bytes.Buffer, e entry) error {
	var blobs [][]byte
	if e.Action != nil {
		r := *e.Action
		r.Files = make([]fileRecord, len(e.Action.Files))
		for i, f := range e.Action.Files {
			for _, c := range []*contentRecord{&f.Before, &f.After} {
				if !c.Exists {
					*c = contentRecord{}
					continue
				}
				data, err := (content{exists: true, data: c.Data, size: c.Size, ver: c.Ver, ref: c.ref}).bytes()
				if err != nil {
					return err
				}
				blobs = append(blobs, data)
				c.Data, c.ref, c.Size = nil, nil, int64(len(data))
				if c.Ver == "" {
					c.Ver = VersionOf(data)
				}
			}
			r.Files[i] = f
		}
		e.Action = &r
	}
	start := buf.Len()
	buf.Write(make([]byte, 8))
	if err := gob.NewEncoder(buf).Encode(e); err != nil {
		buf.Truncate(start)
		return err
	}
	m := buf.Len() - start - 8
	for _, b := range blobs {
		buf.Write(b)
	}
	n := buf.Len() - start - 4
	if int64(n) > math.MaxUint32 || m > maxMeta {
		buf.Truncate(start)
		return fmt.Errorf("journal entry too large (%d bytes)", n)
	}
	binary.BigEndian.PutUint32(buf.Bytes()[start:], uint32(n))
	binary.BigEndian.PutUint32(buf.Bytes()[start+4:], uint32(m))
	return nil
}

// decodeEntry reads the version 2 entry at off in f (whose size is end):
// its gob part, with every content's bytes located, not read. It returns
// the offset after the entry; ok false means a torn or unreadable entry.
func decodeEntry(f *os.File, off, end int64) (e entry, next int64, ok bool) {
	var hdr [8]byte
	if end-off < 8 {
		return e, off, false
	}
	if _, err := f.ReadAt(hdr[:], off); err != nil {
		return e, off, false
	}
	n, m := int64(binary.BigEndian.Uint32(hdr[:])), int64(binary.BigEndian.Uint32(hdr[4:]))
	if n < 4 || n > end-off-4 || m > n-4 || m > maxMeta {
		return e, off, false
	}
	meta := make([]byte, m)
	if _, err := f.ReadAt(meta, off+8); err != nil {
		return e, off, false
	}
	if gob.NewDecoder(bytes.NewReader(meta)).Decode(&e) != nil || !e.valid() {
		return e, off, false
	}
	blobAt, blobEnd := off+8+m, off+4+n
	if e.Action != nil {
		for i := range e.Action.Files {
			fr := &e.Action.Files[i]
			for _, c := range []*contentRecord{&fr.Before, &fr.After} {
				if !c.Exists {
					continue
				}
				if c.Data != nil || c.Size < 0 || c.Size > blobEnd-blobAt || c.Ver == "" {
					return e, off, false
				}
				c.ref = &blobRef{f: f, off: blobAt}
				blobAt += c.Size
			}
		}
	}
	if blobAt != blobEnd {
		return e, off, false
	}
	return e, blobEnd, true
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
	recovered := w.prepared != nil
	if recovered {
		w.recoverLocked()
	}
	w.sweepIfNeededLocked(now, recovered)
	return nil
}

// syncInLog replays what other processes appended (under the file lock).
func (w *Workspace) syncInLog() {
	s := w.store
	w.loadScenesLocked()
	path := filepath.Join(s.dir, logName)
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		if w.migrateLocked() {
			return
		}
		if s.seen != nil { // another process dropped the log
			w.resetJournalLocked()
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
		w.resetJournalLocked()
		if s.log != nil {
			_ = s.log.Close()
			s.log = nil
		}
		if s.rd != nil {
			_ = s.rd.Close()
			s.rd = nil
		}
	}
	if s.rd == nil {
		f, err := os.Open(path)
		if err != nil {
			return
		}
		if fi, err = f.Stat(); err != nil || !fi.Mode().IsRegular() {
			_ = f.Close()
			return
		}
		s.rd = f
	}
	s.seen = fi
	for s.off < fi.Size() {
		e, next, ok := decodeEntry(s.rd, s.off, fi.Size())
		if !ok {
			break
		}
		w.replay(e)
		s.off = next
	}
}

func (w *Workspace) resetJournalLocked() {
	w.undo, w.redo, w.bytes, w.prepared = nil, nil, 0, nil
	w.store.off = 0
}

// migrateLocked turns a version 1 log into a version 2 one, once: it is
// replayed (the old way, whole) and the journal rewritten. It reports
// whether there was one.
func (w *Workspace) migrateLocked() bool {
	s := w.store
	old := filepath.Join(s.dir, legacyLogName)
	f, _, err := sdk.OpenRegular(old)
	if err != nil {
		return false
	}
	data, err := io.ReadAll(f)
	_ = f.Close()
	if err != nil {
		return false
	}
	w.resetJournalLocked()
	w.replayLog(data)
	if err := w.rewriteLocked(); err != nil {
		return true // this process keeps what it read; the next one retries
	}
	_ = os.Remove(old)
	return true
}

// replayLog applies the whole version 1 entries at the start of data and
// returns how many bytes they took; it stops at a torn or unreadable
// entry.
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
	// A done entry needs no fsync of its own: if it is lost with the
	// power, its intent (fsynced before the change) is recovered by the
	// next process, which finds the files changed and rolls forward.
	if s.fsync && slices.ContainsFunc(pending, func(e entry) bool { return e.Kind != entryDone }) {
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
// that moves the redo actions back. It is written entry by entry to a
// temporary file (contents read from the old log one at a time), renamed
// over the log, and read back, so the journal then refers to the new log.
func (w *Workspace) rewriteLocked() error {
	s := w.store
	path := filepath.Join(s.dir, logName)
	tf, err := os.CreateTemp(s.dir, "."+logName+tempPrefix+"*")
	if err != nil {
		return err
	}
	tmp := tf.Name()
	fail := func(err error) error {
		_ = tf.Close()
		_ = os.Remove(tmp)
		return err
	}
	var buf bytes.Buffer
	put := func(e entry) error {
		buf.Reset()
		e.Version = w.version
		if err := encodeEntry(&buf, e); err != nil {
			return err
		}
		_, err := tf.Write(buf.Bytes())
		return err
	}
	for _, a := range w.undo {
		if err := put(entry{Kind: entryAction, Action: toRecord(a)}); err != nil {
			return fail(err)
		}
	}
	for i := len(w.redo) - 1; i >= 0; i-- {
		if err := put(entry{Kind: entryAction, Action: toRecord(w.redo[i])}); err != nil {
			return fail(err)
		}
	}
	if len(w.redo) > 0 {
		if err := put(entry{Kind: entryUndo, N: len(w.redo)}); err != nil {
			return fail(err)
		}
	}
	if err := tf.Chmod(0o600); err != nil {
		return fail(err)
	}
	if s.fsync {
		if err := tf.Sync(); err != nil {
			return fail(err)
		}
	}
	if err := tf.Close(); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	// Read the new log back: the same journal, its contents now located
	// in the new file (and this process's own contents out of memory).
	version := w.version
	s.seen = nil
	w.syncInLog()
	w.version = version
	return nil
}

// Close releases the files the journal holds open (its lock and log). The
// Workspace keeps working; the next change opens them again.
func (w *Workspace) Close() error {
	w.sem <- struct{}{}
	defer func() { <-w.sem }()
	s := w.store
	if s == nil {
		return nil
	}
	s.closeFiles()
	return nil
}

func (s *store) closeFiles() {
	for _, f := range []**os.File{&s.lock, &s.log, &s.rd} {
		if *f != nil {
			_ = (*f).Close()
			*f = nil
		}
	}
	s.seen, s.off = nil, 0
}
