package workspace

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// mergeTopLocked returns the newest action when a commit joins it (the
// same tool call of this Workspace), else nil.
func (w *Workspace) mergeTopLocked(ch Change) *action {
	if n := len(w.undo); n > 0 && ch.CallID != "" {
		top := w.undo[n-1]
		if top.callID == ch.CallID && top.toolset == ch.Toolset && top.session == w.session {
			return top
		}
	}
	return nil
}

// journalLocked records a committed change as an action, or adds it to the
// newest action when that one belongs to the same tool call. prepared says
// the log holds the change's intent (then a done entry completes it; else
// the whole action is logged). It returns the action id and any warning
// (an action too large to keep).
func (w *Workspace) journalLocked(name string, ch Change, files []*file, at time.Time, prepared bool) (uint64, []string) {
	w.dropRedoLocked()
	if top := w.mergeTopLocked(ch); top != nil {
		w.bytes -= top.size()
		merge(top, files)
		w.bytes += top.size()
		if prepared {
			w.record(entry{Kind: entryDone, ID: top.id, OK: true})
		} else {
			w.record(entry{Kind: entryExtend, Action: toRecord(top)})
		}
		w.trimLocked()
		return top.id, w.oversizeLocked(top)
	}
	a := &action{id: w.nextID, name: name, toolset: ch.Toolset, callID: ch.CallID, session: w.session, at: at, files: files}
	w.nextID++
	w.undo = append(w.undo, a)
	w.bytes += a.size()
	if prepared {
		w.record(entry{Kind: entryDone, ID: a.id, OK: true})
	} else {
		w.record(entry{Kind: entryAction, Action: toRecord(a)})
	}
	w.trimLocked()
	return a.id, w.oversizeLocked(a)
}

// merge adds a later commit of the same call to an action: a file seen
// before keeps its original before state and takes the new after state.
func merge(a *action, files []*file) {
	for _, f := range files {
		found := false
		for _, g := range a.files {
			if g.abs == f.abs {
				g.after = f.after
				g.dirs = append(g.dirs, f.dirs...)
				found = true
				break
			}
		}
		if !found {
			a.files = append(a.files, f)
		}
	}
}

func (w *Workspace) dropRedoLocked() {
	for _, a := range w.redo {
		w.bytes -= a.size()
	}
	w.redo = nil
}

// trimLocked enforces the journal bounds, forgetting the oldest undo
// actions first, then the farthest redo actions.
func (w *Workspace) trimLocked() {
	for len(w.undo)+len(w.redo) > w.opts.MaxActions || w.bytes > w.opts.MaxBytes {
		switch {
		case len(w.undo) > 0:
			w.bytes -= w.undo[0].size()
			w.undo = w.undo[1:]
		case len(w.redo) > 0:
			w.bytes -= w.redo[0].size()
			w.redo = w.redo[1:]
		default:
			return
		}
	}
}

// oversizeLocked warns when a just-recorded action did not fit the journal.
func (w *Workspace) oversizeLocked(a *action) []string {
	for _, b := range w.undo {
		if b == a {
			return nil
		}
	}
	return []string{fmt.Sprintf("this change (%d bytes of file content) is larger than the undo journal (%d bytes), so it cannot be undone",
		a.size(), w.opts.MaxBytes)}
}

// UndoResult is what godot_undo returns in headless mode, shaped like the
// addon's cmd_undo result plus the server's nothing_to_undo
// (ADDON-PROTOCOL.md): a dry run reports {dry_run, requested, has_undo,
// would_undo_next}; a real one {undone, requested, last_action, dry_run,
// nothing_to_undo}. Files lists the files restored (headless only).
type UndoResult struct {
	DryRun     bool
	Requested  int
	Done       int    // actions undone (or redone)
	LastAction string // the last action undone, "" if none
	Has        bool   // dry run: there is something to undo
	WouldNext  string // dry run: the next action's name
	Files      []string
	redo       bool
}

// MarshalJSON writes the addon's field names.
func (r UndoResult) MarshalJSON() ([]byte, error) {
	verb, has, next, nothing := "undone", "has_undo", "would_undo_next", "nothing_to_undo"
	if r.redo {
		verb, has, next, nothing = "redone", "has_redo", "would_redo_next", "nothing_to_redo"
	}
	m := map[string]any{"dry_run": r.DryRun, "requested": r.Requested}
	if r.DryRun {
		m[has] = r.Has
		m[next] = r.WouldNext
	} else {
		m[verb] = r.Done
		m["last_action"] = r.LastAction
		m[nothing] = r.Done == 0
	}
	if len(r.Files) > 0 {
		m["files"] = r.Files
	}
	return json.Marshal(m)
}

// RedoResult is UndoResult with redo's field names (redone, has_redo,
// would_redo_next, nothing_to_redo).
type RedoResult = UndoResult

// HistoryEntry is one action in godot_list_history's recent list.
type HistoryEntry struct {
	Name    string    `json:"name"`
	ID      uint64    `json:"id"`
	Toolset string    `json:"toolset,omitempty"`
	Time    time.Time `json:"time"`
	Files   []string  `json:"files"`
}

// History is what godot_list_history returns in headless mode, shaped like
// the addon's cmd_list_history with recent as [{name}] (plus headless
// details per entry, and the redo side).
type History struct {
	Version       int64          `json:"version"`
	HasUndo       bool           `json:"has_undo"`
	HasRedo       bool           `json:"has_redo"`
	CanRedo       bool           `json:"can_redo"`
	CurrentAction string         `json:"current_action"`
	Depth         int            `json:"depth"`
	Recent        []HistoryEntry `json:"recent"`
	RedoDepth     int            `json:"redo_depth"`
	JournalBytes  int64          `json:"journal_bytes"`
}

// recentMax is how many actions History lists, as the addon does.
const recentMax = 20

// History describes the journal (waiting as long as it takes for the
// lock: see HistoryContext).
func (w *Workspace) History() History {
	h, _ := w.HistoryContext(context.Background())
	return h
}

// HistoryContext is History, giving up with CANCELLED when ctx ends.
func (w *Workspace) HistoryContext(ctx context.Context) (History, error) {
	_, unlock, err := w.lockJournal(ctx)
	if err != nil {
		return History{}, err
	}
	defer unlock()
	h := History{Version: w.version, HasUndo: len(w.undo) > 0, HasRedo: len(w.redo) > 0,
		Depth: len(w.undo), RedoDepth: len(w.redo), JournalBytes: w.bytes, Recent: []HistoryEntry{}}
	h.CanRedo = h.HasRedo
	if n := len(w.undo); n > 0 {
		h.CurrentAction = w.undo[n-1].name
	}
	from := max(0, len(w.undo)-recentMax)
	for _, a := range w.undo[from:] {
		h.Recent = append(h.Recent, HistoryEntry{Name: a.name, ID: a.id, Toolset: a.toolset, Time: a.at, Files: a.paths()})
	}
	return h, nil
}

func validCount(count int) error {
	if count < 1 {
		return sdk.Errorf(sdk.CodeInvalidArgument, "pass count >= 1, or leave it out for 1", "count must be >= 1")
	}
	return nil
}

// Undo reverts the newest count actions (fewer if the journal holds
// fewer; an empty journal is not an error). Every file of every action is
// checked first: one changed on disk since its action gets the action's
// inverse merged into its current lines (revert.go); if the changes
// overlap, nothing is undone and the error is CONFLICT, naming the lines.
// A dry run checks the same and changes nothing.
func (w *Workspace) Undo(ctx context.Context, count int, dryRun bool) (UndoResult, error) {
	return w.walk(ctx, count, dryRun, false)
}

// Redo re-applies the count actions undone most recently, with the same
// checks as Undo.
func (w *Workspace) Redo(ctx context.Context, count int, dryRun bool) (RedoResult, error) {
	return w.walk(ctx, count, dryRun, true)
}

func (w *Workspace) walk(ctx context.Context, count int, dryRun, redo bool) (UndoResult, error) {
	res := UndoResult{DryRun: dryRun, Requested: count, redo: redo}
	if err := validCount(count); err != nil {
		return res, err
	}
	if err := ctx.Err(); err != nil {
		return res, cancelled(err)
	}
	release, unlock, err := w.lockJournal(ctx)
	if err != nil {
		return res, err
	}
	defer unlock()
	from := &w.undo
	verb := "undo"
	if redo {
		from, verb = &w.redo, "redo"
	}
	n := min(count, len(*from))
	// The actions to walk, newest first, as file transitions.
	steps := make([][]*file, n)
	for i := range n {
		a := (*from)[len(*from)-1-i]
		steps[i] = make([]*file, len(a.files))
		for j, f := range a.files {
			g := *f
			if !redo {
				g.before, g.after = f.after, f.before
			}
			steps[i][j] = &g
		}
	}
	if dryRun {
		res.Has = len(*from) > 0
		if res.Has {
			res.WouldNext = (*from)[len(*from)-1].name
		}
	}
	// Check every step against the disk as it will be by then. A file
	// changed since the action takes the step as a line merge (revert.go);
	// merged[i] says step i needs one.
	expect := map[string]content{}
	merged := make([]bool, n)
	var all []*file
	for i, step := range steps {
		a := (*from)[len(*from)-1-i]
		var conflicts []string
		for _, f := range step {
			// The path must still lead where it did: a directory swapped
			// for a link since the action (or a tampered journal) must
			// not make an undo write outside the project.
			if t, err := w.resolveWrite(f.res); err != nil || t.abs != f.abs {
				return res, &sdk.Error{Code: sdk.CodeConflict,
					Message: fmt.Sprintf("cannot %s %q: %s no longer resolves to the file the action changed; nothing was %s",
						verb, a.name, f.res, verb+"ne"),
					Hint: "a directory on the path was moved or replaced by a link; restore it, or make the change you want as a new edit"}
			}
			cur, ok := expect[f.abs]
			if !ok {
				c, err := load(f.abs)
				if err != nil {
					return res, fileError(f.res, err, sdk.CodeConflict, "restore or remove it by hand, then retry")
				}
				cur = c
			}
			if cur.version() != f.before.version() {
				m, why := mergeStep(f, cur)
				if why != "" {
					conflicts = append(conflicts, f.res+" ("+why+")")
					continue
				}
				f.before, f.after, merged[i] = cur, m, true
			}
			expect[f.abs] = f.after
			all = append(all, f)
		}
		if len(conflicts) > 0 {
			msg := fmt.Sprintf("cannot %s %q: %s changed on disk since that action, where the action changed it too; nothing was %s",
				verb, a.name, strings.Join(conflicts, "; "), verb+"ne")
			hint := "the newer content is kept; read the file again and make the change you want as a new edit (edits on other lines would have been kept)"
			if i > 0 {
				hint = fmt.Sprintf("%s at most %d action(s) with count=%d; %s", verb, i, i, hint)
			}
			return res, &sdk.Error{Code: sdk.CodeConflict, Message: msg, Hint: hint}
		}
	}
	if err := w.guardLocked(ctx, all, ""); err != nil {
		return res, err
	}
	if dryRun || n == 0 {
		return res, nil
	}
	if err := ctx.Err(); err != nil {
		return res, cancelled(err)
	}
	var touched []*file
	op := opUndo
	if redo {
		op = opRedo
	}
	for i, step := range steps {
		a := (*from)[len(*from)-1]
		temps := w.planTemps(step)
		intent := entry{Kind: entryPrepare, Op: op, ID: a.id, Temps: temps}
		if merged[i] {
			// The step writes merged contents the action does not hold:
			// the intent carries them, so a kill is recovered whole.
			intent.Action = toRecord(&action{id: a.id, name: a.name, files: step})
		}
		prepared, _ := w.prepareLocked(intent)
		crashAt("prepared")
		if err := apply(step, temps, w.opts.Sync); err != nil {
			if prepared {
				w.record(entry{Kind: entryDone, ID: a.id})
			}
			return res, err
		}
		crashAt("applied")
		*from = (*from)[:len(*from)-1]
		if redo {
			w.undo = append(w.undo, a)
		} else {
			w.redo = append(w.redo, a)
		}
		w.version++
		switch {
		case prepared:
			w.record(entry{Kind: entryDone, ID: a.id, OK: true})
		case redo:
			w.record(entry{Kind: entryRedo, N: 1})
		default:
			w.record(entry{Kind: entryUndo, N: 1})
		}
		res.Done++
		res.LastAction = a.name
		w.noteSeenFiles(step)
		w.forgetDeletedLocked(step)
		touched = append(touched, step...)
	}
	seen := map[string]bool{}
	var uniq []*file
	for _, f := range touched {
		if !seen[f.res] {
			seen[f.res] = true
			uniq = append(uniq, f)
			res.Files = append(res.Files, f.res)
		}
	}
	_ = release() // a failure to save only loses cross-process history
	w.reloadLocked(ctx, uniq)
	return res, nil
}

// mergeStep applies an undo or redo step (f: from f.before to f.after) to a
// file whose content cur is no longer f.before, as a line merge. It returns
// the content to write, or why it cannot: a side is missing or binary, or
// the changes overlap (naming the lines of cur).
func mergeStep(f *file, cur content) (content, string) {
	if !cur.exists || !f.before.exists || !f.after.exists {
		if !cur.exists {
			return content{}, "it was deleted"
		}
		return content{}, "the action created or deleted it"
	}
	base, err1 := f.before.bytes()
	theirs, err2 := f.after.bytes()
	if err1 != nil || err2 != nil {
		return content{}, "the journal's copy is unreadable"
	}
	ours, err := cur.bytes()
	if err != nil {
		return content{}, "it cannot be read"
	}
	if isBinary(base) || isBinary(ours) || isBinary(theirs) {
		return content{}, "binary content cannot be merged"
	}
	m, clash := revert(base, ours, theirs)
	if clash != nil {
		return content{}, "both changed " + overlapList(clash)
	}
	c := newContent(m, cur.mode)
	c.ver = VersionOf(m)
	return c, ""
}
