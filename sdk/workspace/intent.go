package workspace

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Crash safety of multi-file changes (with a journal directory).
//
// A commit, undo step or redo step that changes several files cannot be one
// rename, so a process killed between its renames would leave the project
// half changed. Each change therefore goes in this order, under the
// journal's file lock:
//
//  1. the intent: an entryPrepare appended to the log, naming every file's
//     target, its temporary file (planned names, before any exists) and,
//     for a commit, the before and after bytes (which are the action's
//     journal content anyway; an undo or redo step names the action);
//  2. the temporary files are written;
//  3. the renames (and removes);
//  4. an entryDone that says the change happened (OK) or was rolled back.
//
// A prepare without its done means the process died in steps 2–4. The
// next process to take the lock (any process: a server or the next
// `godot-mcp call`) recovers it before anything else, by this rule:
//
//   - roll forward when every file either already holds its new content or
//     still holds its old content with a complete temporary file (its hash
//     is the new content's version) or a pending delete, and the done entry
//     can be written: the remaining renames are made, and the action is in
//     the history as if the commit had returned;
//   - otherwise roll back: every file that already holds its new content
//     gets its old content back (a file changed since by someone else is
//     left alone, as undo would), and the change is not in the history.
//
// Either way the temporary files named by the intent are removed. Without
// a journal directory (journal in memory) there is no intent: a kill
// between renames can leave a commit half applied, and its undo step is
// lost with the process anyway.

// entry kinds of the crash-safe changes.
const (
	entryPrepare = iota + 5 // intent of a change: Op, Action (commit, merged undo/redo step), ID (undo/redo), Temps
	entryDone               // the prepared change happened (OK) or was undone
)

// prepared operations.
const (
	opCommit = iota + 1 // push Action, or merge it into the newest action (Merge)
	opUndo              // undo the newest action (ID)
	opRedo              // redo the next redo action (ID)
)

// tempPrefix marks the workspace's temporary files: ".<name>.godot-mcp-…".
const tempPrefix = ".godot-mcp-"

// tempRE matches the names of the workspace's temporary files: the
// planned ones (".<name>.godot-mcp-<session>-<n>.tmp") and those of
// earlier versions (".<name>.godot-mcp-<digits>", from os.CreateTemp).
var tempRE = regexp.MustCompile(`^\..+\.godot-mcp-([0-9]+|[0-9a-f]{16}-[0-9]+\.tmp)$`)

// planTemps names the temporary file of every file that gets new content
// ("" for deletes): beside its target, unique to this Workspace.
func (w *Workspace) planTemps(files []*file) []string {
	temps := make([]string, len(files))
	for i, f := range files {
		if f.after.exists {
			w.tempSeq++
			temps[i] = filepath.Join(filepath.Dir(f.abs), fmt.Sprintf(".%s%s%s-%d.tmp", filepath.Base(f.abs), tempPrefix, w.session, w.tempSeq))
		}
	}
	return temps
}

// crashPoint, when set (by tests only), is called at each step of a
// change, so a test process can kill itself there.
var crashPoint func(stage string)

func crashAt(stage string) {
	if crashPoint != nil {
		crashPoint(stage)
	}
}

// prepareLocked writes the intent of a change before its first temporary
// file: pending entries first (a recovery's done), then e, in one append.
// Without a journal directory it does nothing. ok says the intent is in
// the log; a failure is returned as a warning: the change goes ahead, as it
// did before intents, logged whole afterwards.
func (w *Workspace) prepareLocked(e entry) (ok bool, warning string) {
	if w.store == nil {
		return false, ""
	}
	e.Version = w.version
	if err := w.appendLocked(append(w.pending, e)); err != nil {
		w.store.seen = nil
		return false, "the change's intent could not be saved to " + w.store.dir + ": " + err.Error() +
			"; if this process is killed during the change, it may be left half applied"
	}
	w.pending = nil
	return true, ""
}

// transitions returns the files of a prepared change as from (before) →
// to (after), and whether the journal still holds what it names.
func (w *Workspace) transitions(p *entry) ([]*file, bool) {
	var a *action
	switch p.Op {
	case opCommit:
		a = fromRecord(p.Action)
		return a.files, true
	case opUndo:
		if n := len(w.undo); n > 0 && w.undo[n-1].id == p.ID {
			a = w.undo[n-1]
		}
	case opRedo:
		if n := len(w.redo); n > 0 && w.redo[n-1].id == p.ID {
			a = w.redo[n-1]
		}
	}
	if a == nil {
		return nil, false
	}
	if p.Action != nil {
		// A merged undo or redo step (revert.go): its own transitions.
		return fromRecord(p.Action).files, true
	}
	out := make([]*file, len(a.files))
	for i, f := range a.files {
		g := *f
		if p.Op == opUndo {
			g.before, g.after = f.after, f.before
		}
		out[i] = &g
	}
	return out, true
}

// recoverLocked finishes or rolls back the change a killed process left
// prepared (see the rule above).
func (w *Workspace) recoverLocked() {
	p := w.prepared
	w.prepared = nil
	files, ok := w.transitions(p)
	if ok && len(p.Temps) != len(files) {
		ok = false
	}
	// A tampered journal must not make recovery write outside the project
	// or rename anything but our own temporary files.
	for i, f := range files {
		if !ok {
			break
		}
		t, err := w.resolveWrite(f.res)
		if err != nil || t.abs != f.abs {
			ok = false
		}
		if tmp := p.Temps[i]; tmp != "" && (filepath.Dir(tmp) != filepath.Dir(f.abs) || !tempRE.MatchString(filepath.Base(tmp))) {
			ok = false
		}
	}
	if !ok {
		// Still remove what are surely our temporary files in the project.
		for _, t := range p.Temps {
			if tempRE.MatchString(filepath.Base(t)) && w.contains(filepath.Dir(t)) {
				_ = os.Remove(t)
			}
		}
		w.record(entry{Kind: entryDone, ID: p.ID})
		return
	}
	const (
		done = iota
		pending
		foreign
	)
	state := make([]int, len(files))
	forward := true
	for i, f := range files {
		cur, err := load(f.abs)
		switch {
		case err != nil:
			state[i] = foreign
		case cur.version() == f.after.version():
			state[i] = done
		case cur.version() == f.before.version() && (!f.after.exists || tempHolds(p.Temps[i], f.after)):
			state[i] = pending
		default:
			state[i] = foreign
		}
		forward = forward && state[i] != foreign
	}
	if forward {
		// The done entry first: a roll forward whose history cannot be
		// written would leave an action that cannot be undone.
		e := entry{Kind: entryDone, ID: p.ID, OK: true, Version: w.version + 1}
		if w.appendLocked(append(w.pending, e)) != nil {
			w.store.seen = nil
			forward = false
		} else {
			w.pending = nil
		}
	}
	if forward {
		for i, f := range files {
			if state[i] != pending {
				continue
			}
			if f.after.exists {
				for _, d := range f.dirs {
					_ = os.Mkdir(d, 0o755)
				}
				_ = os.Rename(p.Temps[i], f.abs)
			} else {
				_ = os.Remove(f.abs)
				removeEmptyDirs(f.dirs)
			}
		}
		w.replayDone(p, true)
		w.version++
	} else {
		for i := len(files) - 1; i >= 0; i-- {
			if state[i] == done {
				rollback(files[i:i+1], w.opts.Sync != SyncNone)
			}
		}
		w.record(entry{Kind: entryDone, ID: p.ID})
	}
	for i, t := range p.Temps {
		if t == "" {
			continue
		}
		_ = os.Remove(t)
		// A create that never happened leaves no directory behind.
		if f := files[i]; !forward && state[i] != done && !f.before.exists {
			removeEmptyDirs(f.dirs)
		}
	}
}

// tempHolds reports whether the temporary file path is complete: it holds
// exactly c.
func tempHolds(path string, c content) bool {
	if path == "" {
		return false
	}
	got, err := load(path)
	return err == nil && got.exists && got.version() == c.version()
}

// replayDone applies a prepared change's outcome to the in-memory journal.
func (w *Workspace) replayDone(p *entry, ok bool) {
	if !ok {
		return
	}
	switch p.Op {
	case opCommit:
		a := fromRecord(p.Action)
		w.dropRedoLocked()
		if n := len(w.undo); p.Merge && n > 0 && w.undo[n-1].id == a.id {
			top := w.undo[n-1]
			w.bytes -= top.size()
			merge(top, a.files)
			w.bytes += top.size()
		} else {
			w.undo = append(w.undo, a)
			w.bytes += a.size()
			w.nextID = max(w.nextID, a.id+1)
		}
		w.trimLocked()
	case opUndo, opRedo:
		from, to := &w.undo, &w.redo
		if p.Op == opRedo {
			from, to = &w.redo, &w.undo
		}
		if n := len(*from); n > 0 && (*from)[n-1].id == p.ID {
			a := (*from)[n-1]
			*from = (*from)[:n-1]
			*to = append(*to, a)
		}
	}
}

// tempGrace is how old a stray temporary file must be before the sweep
// removes it: a process without a journal directory (which takes no lock)
// may be writing one right now.
const tempGrace = time.Minute

// sweptName marks a journal directory whose project was swept for stray
// temporary files by this version.
const sweptName = "swept-v2"

// sweepIfNeededLocked sweeps the project when nobody has since this
// version took over the journal (strays of earlier versions, whose names
// no intent lists), or when this process just recovered a killed change
// (whose rollback temporary files, if it died in its own rollback, no
// intent lists either). Otherwise the intents name every temporary file a
// killed process can leave, and recovery removes them: a process joining
// the project does not walk it (~20 ms for 5,000 files on a loaded VM).
func (w *Workspace) sweepIfNeededLocked(now time.Time, recovered bool) {
	if w.swept {
		return
	}
	marker := filepath.Join(w.store.dir, sweptName)
	if _, err := os.Stat(marker); err == nil && !recovered {
		w.swept = true
		return
	}
	w.sweepTempsLocked(now)
	_ = os.WriteFile(marker, nil, 0o600)
}

// sweepTempsLocked removes, once per Workspace, the temporary files that
// killed processes left in the project and the journal directory: only
// names of ours (tempRE), only regular files, only files older than this
// process's lock on the journal by tempGrace, never under .godot/ or .git,
// never through links. It runs under the journal's file lock, so no
// process using the journal is between writing a temporary file and
// renaming it.
func (w *Workspace) sweepTempsLocked(now time.Time) {
	if w.swept {
		return
	}
	w.swept = true
	cutoff := now.Add(-tempGrace)
	if w.store != nil {
		if ents, err := os.ReadDir(w.store.dir); err == nil {
			for _, e := range ents {
				if fi, err := e.Info(); err == nil && e.Type().IsRegular() && tempRE.MatchString(e.Name()) && fi.ModTime().Before(cutoff) {
					_ = os.Remove(filepath.Join(w.store.dir, e.Name()))
				}
			}
		}
	}
	_ = filepath.WalkDir(w.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if p != w.root && (strings.EqualFold(name, ".godot") || strings.EqualFold(name, ".git")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !strings.Contains(name, tempPrefix) || !tempRE.MatchString(name) {
			return nil
		}
		if fi, err := d.Info(); err == nil && fi.ModTime().Before(cutoff) {
			_ = os.Remove(p)
		}
		return nil
	})
}
