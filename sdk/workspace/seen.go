package workspace

import (
	"context"
	"fmt"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// What the agent has seen. A tool that shows a file's content to the agent
// (scripts_read) reads it with ReadForAgent; a tool that writes a whole file
// the agent composed (scripts_write) commits it with Op.BaseSeen. The write
// is then based on the version the agent last saw, not on the version the
// tool read a moment before, so an edit made in between by the user's
// editor is a CONFLICT with a diff, not silently overwritten.
//
// "Seen" is per Workspace (one host process): its reads for the agent, and
// every file its commits, undos and redos left. For a file this process
// has not seen, the journal (shared by every process on the project) says
// what the tools last left in it. The contents are kept, bounded, so that a
// conflict can show what changed.

// Bounds of the seen table: entries, and bytes of content kept for diffs
// (a version whose content was dropped still counts; its conflict has no
// diff unless the journal holds the content).
const (
	seenMaxFiles = 4096
	seenMaxBytes = 16 << 20
)

type seenFile struct {
	ver  sdk.FileVersion // "" when the agent saw the file absent (deleted, not yet created)
	data []byte          // nil when dropped for the bound
	seq  uint64
}

// noteSeen records the state the agent last saw of a file.
func (w *Workspace) noteSeen(res string, c content) {
	w.seenMu.Lock()
	defer w.seenMu.Unlock()
	if w.seen == nil {
		w.seen = map[string]*seenFile{}
	}
	if old, ok := w.seen[res]; ok {
		w.seenBytes -= int64(len(old.data))
	}
	w.seenSeq++
	s := &seenFile{ver: c.version(), seq: w.seenSeq}
	if c.exists && c.ref == nil && len(c.data) <= seenMaxBytes/4 {
		s.data = c.data
		w.seenBytes += int64(len(c.data))
	}
	w.seen[res] = s
	for len(w.seen) > seenMaxFiles || w.seenBytes > seenMaxBytes {
		var oldest string
		var min uint64
		for k, v := range w.seen {
			if k != res && (oldest == "" || v.seq < min) && (len(w.seen) > seenMaxFiles || v.data != nil) {
				oldest, min = k, v.seq
			}
		}
		if oldest == "" {
			return
		}
		w.seenBytes -= int64(len(w.seen[oldest].data))
		if len(w.seen) > seenMaxFiles {
			delete(w.seen, oldest)
		} else {
			w.seen[oldest].data = nil
		}
	}
}

// noteSeenFiles records what a change left in its files.
func (w *Workspace) noteSeenFiles(files []*file) {
	for _, f := range files {
		w.noteSeen(f.res, f.after)
	}
}

// seenLocked answers the version the agent last saw of res: this
// process's record, else the state the journal's actions left it in.
func (w *Workspace) seenLocked(res string) (sdk.FileVersion, bool) {
	w.seenMu.Lock()
	s, ok := w.seen[res]
	w.seenMu.Unlock()
	if ok {
		return s.ver, true
	}
	// Undone actions (next redo last) are newer than every undoable one;
	// the oldest of them that touched the file left its before state.
	for i := len(w.redo) - 1; i >= 0; i-- {
		for _, f := range w.redo[i].files {
			if f.res == res {
				return f.before.version(), true
			}
		}
	}
	for i := len(w.undo) - 1; i >= 0; i-- {
		for _, f := range w.undo[i].files {
			if f.res == res {
				return f.after.version(), true
			}
		}
	}
	return "", false
}

// knownBytesLocked returns the content of res at version ver when this
// process or the journal still holds it.
func (w *Workspace) knownBytesLocked(res string, ver sdk.FileVersion) ([]byte, bool) {
	if ver == "" {
		return nil, true
	}
	w.seenMu.Lock()
	s, ok := w.seen[res]
	w.seenMu.Unlock()
	if ok && s.ver == ver && s.data != nil {
		return s.data, true
	}
	for _, list := range [][]*action{w.redo, w.undo} {
		for i := len(list) - 1; i >= 0; i-- {
			for _, f := range list[i].files {
				if f.res != res {
					continue
				}
				for _, c := range []content{f.before, f.after} {
					if c.exists && c.version() == ver {
						if data, err := c.bytes(); err == nil {
							return data, true
						}
					}
				}
			}
		}
	}
	return nil, false
}

// Bounds of the diff a conflict carries.
const (
	conflictDiffLines = 60
	conflictDiffBytes = 6 << 10
)

// conflictDiffLocked renders what changed in res between the version a
// write was based on and the content now on disk, as a unified diff cut
// to a bounded size; "" when the base's content is not known or either
// side is binary.
func (w *Workspace) conflictDiffLocked(res string, base sdk.FileVersion, now content) string {
	old, ok := w.knownBytesLocked(res, base)
	if !ok || isBinary(old) || isBinary(now.data) {
		return ""
	}
	d := udiff.Unified(res+" (based on "+short(base)+")", res+" (on disk, "+short(now.version())+")",
		string(old), string(now.data))
	return clip(d, conflictDiffLines, conflictDiffBytes)
}

// clip cuts a diff to at most lines lines and bytes bytes, saying so.
func clip(d string, lines, bytes int) string {
	ls := strings.SplitAfter(d, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	n, size := 0, 0
	for n < len(ls) && n < lines && size+len(ls[n]) <= bytes {
		size += len(ls[n])
		n++
	}
	if n == len(ls) {
		return d
	}
	return strings.Join(ls[:n], "") + fmt.Sprintf("… (%d more diff lines)\n", len(ls)-n)
}

// ReadForAgent is Read for a file whose content the tool shows the agent:
// the version is remembered as the one the agent last saw (see
// Op.BaseSeen).
func (w *Workspace) ReadForAgent(ctx context.Context, p string) (sdk.File, error) {
	f, err := w.Read(ctx, p)
	if err == nil {
		w.noteSeen(f.Path, content{exists: true, data: f.Data, ver: f.Version, size: int64(len(f.Data))})
	}
	return f, err
}
