package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

// Required tokens of the contract that this toolset names.
const (
	requiredActiveScene = "active_scene"
	requiredNodePath    = "node_path"
	requiredScenePath   = "scene_path"
	requiredOpenScene   = "open_scene"
	requiredValue       = "value"
)

// db is the engine's class database: node types, properties with their
// types and defaults, signals and methods.
func db() *classdb.DB { return classdb.MustEmbedded() }

func invalid(required, hint, format string, args ...any) *sdk.Error {
	return nodeedit.Invalid(required, hint, format, args...)
}

func notFound(hint, format string, args ...any) *sdk.Error {
	return nodeedit.NotFound(hint, format, args...)
}

const treeHint = nodeedit.TreeHint

// normalizeNodePath applies the addon's node path rules (one rule, in
// the SDK).
func normalizeNodePath(p string) string { return godot.NormalizeNodePath(p) }

// editError turns an sdk/godot editing error into the contract's refusal.
func editError(err error, required string) error { return nodeedit.EditError(err, required) }

// scene is one scene file loaded for a headless edit: the parsed file, the
// version it was read at (the commit's compare-and-swap base) and its bytes.
type scene struct {
	path    string
	file    *godot.File
	version sdk.FileVersion
	orig    []byte
	// kept: the File was kept from an earlier call and taken without asking
	// the host whether the file still has that version (see [parsed]).
	// asActive: the path was taken as the active scene, also without asking.
	// confirmed: a compare-and-swap (or a Stat) has since shown both true.
	kept, asActive, confirmed bool
	// ed edits file: the one headless node editing of the SDK, with the
	// effective tree (the nodes of instanced scenes).
	ed *nodeedit.Scene
}

// activeScene resolves a tool's scene argument: the given res:// path (the
// SDK has checked and cleaned it: an sdk.ScenePath), else the workspace's
// active scene, else PRECONDITION_FAILED active_scene.
func activeScene(ctx context.Context, call *sdk.Call, arg string) (string, error) {
	if arg != "" {
		return arg, nil
	}
	p, err := call.Workspace().ActiveScene(ctx)
	if err != nil {
		return "", err
	}
	noteActive(p)
	if p == "" {
		return "", &sdk.Error{Code: sdk.CodePreconditionFailed, Required: requiredActiveScene,
			Message: "no scene is open",
			Hint: "open one with godot_scene_edit_open_scene (godot_inspection_list_scenes lists them) or create one with " +
				"godot_scene_edit_create_scene, or pass scene=\"res://...tscn\""}
	}
	return p, nil
}

// loadScene reads and parses the scene a headless tool edits.
func loadScene(ctx context.Context, call *sdk.Call, arg string) (*scene, error) {
	if s := takeKept(ctx, arg); s != nil {
		return s, nil
	}
	p, err := activeScene(ctx, call, arg)
	if err != nil {
		return nil, err
	}
	if strings.HasSuffix(strings.ToLower(p), ".scn") {
		return nil, invalid(requiredScenePath, "open the project in the Godot editor to edit binary scenes, or save it as .tscn there",
			"%s is a binary scene; headless editing works on text scenes (.tscn)", p)
	}
	if s := takeCached(ctx, call, p); s != nil {
		s.asActive = arg == ""
		return s, nil
	}
	ws := call.Workspace()
	f, err := ws.Read(ctx, p)
	if err != nil {
		return nil, err
	}
	file, err := godot.ParseFile(p, f.Data)
	if err == nil {
		file.SetFloatStyle(ws.FloatStyle(ctx))
	}
	if err != nil {
		return nil, invalid(requiredScenePath, "fix the file (godot-mcp check "+p+" shows where) or open it in the Godot editor",
			"%s does not parse: %v", p, err)
	}
	if !file.IsScene() || file.Root() == nil {
		return nil, invalid(requiredScenePath, "pass a .tscn scene with a root node", "%s is not a scene with a root node", p)
	}
	return &scene{path: p, file: file, version: f.Version, orig: f.Data, asActive: arg == ""}, nil
}

// editor returns the node editor of the call for the scene, made on first
// use (a kept scene is taken by a later call, with another context).
func (s *scene) editor(ctx context.Context, call *sdk.Call) *nodeedit.Scene {
	if s.ed == nil {
		s.ed = nodeedit.Edit(ctx, call, s.path, s.file)
	}
	return s.ed
}

// loadNode loads the scene a headless tool edits (loadScene) and resolves
// the node path argument nodePath in it: the start of most node tools.
func loadNode(ctx context.Context, call *sdk.Call, arg, nodePath string) (*scene, *godot.Node, error) {
	s, err := loadScene(ctx, call, arg)
	if err != nil {
		return nil, nil, err
	}
	n, err := s.node(nodePath)
	if err != nil {
		return nil, nil, err
	}
	return s, n, nil
}

// node resolves a node path argument to the node's section in the file.
// A node of an instanced scene that the file does not mention has none:
// tools that can work on it use lookup.
func (s *scene) node(arg string) (*godot.Node, error) {
	p := normalizeNodePath(arg)
	n := s.file.Node(p)
	if n == nil {
		return nil, notFound(treeHint, "No node at '%s' in %s.", arg, s.path)
	}
	return n, nil
}

// lookup resolves a node path argument in the effective tree (see
// nodeedit.Scene.Lookup).
func (s *scene) lookup(ctx context.Context, call *sdk.Call, arg string) (sec *godot.Node, tn *godot.TreeNode, err error) {
	return s.editor(ctx, call).Lookup(arg)
}

// override returns the section that sets properties of the node at arg
// (see nodeedit.Scene.Override).
func (s *scene) override(ctx context.Context, call *sdk.Call, arg string) (*godot.Node, *godot.TreeNode, error) {
	return s.editor(ctx, call).Override(arg)
}

// pruned drops an override section left setting nothing (the editor saves
// no such section).
func (s *scene) pruned(sec *godot.Node) {
	if s.ed != nil {
		s.ed.Prune(sec)
	} else {
		s.file.PruneOverride(sec)
	}
}

// commit writes the edited scene as one journaled action named name and
// completes out with what every headless mutation reports: persisted (the
// edit is in the file itself, so always true, and the same verdict in a dry
// run), and for a dry run the diff that would be written.
func (s *scene) commit(ctx context.Context, call *sdk.Call, name string, out map[string]any, extra ...func(*sdk.Tx)) (sdk.Result, error) {
	out["persisted"] = true
	data := s.file.Bytes()
	changed := !bytes.Equal(data, s.orig)
	if !changed && s.kept && !s.confirmed {
		// Nothing to write, so no compare-and-swap will vouch for the kept
		// File: ask the host before answering from it (or before writing
		// other files on its word).
		if err := s.confirm(ctx, call); err != nil {
			return sdk.Result{}, err
		}
	}
	if !changed && len(extra) == 0 {
		if call.DryRun {
			out["dry_run"] = true
		}
		putCached(s.path, s.version, s.file, s.orig, s.asActive)
		return sdk.JSON(out), nil
	}
	tx := call.Workspace().Begin(name)
	if changed {
		tx.Write(s.path, data, s.version)
		if s.asActive {
			tx.ExpectActiveScene(s.path)
		}
	}
	for _, fn := range extra {
		fn(tx)
	}
	res, err := tx.Commit(ctx)
	if err != nil {
		var e *sdk.Error
		if s.kept && !s.confirmed && errors.As(err, &e) && e.Code == sdk.CodeConflict {
			// The kept File (or the remembered active scene) is out of
			// date and nothing was written: the call runs again on a
			// fresh read (see fresh).
			return sdk.Result{}, errStale
		}
		return sdk.Result{}, err
	}
	s.confirmed = true
	if st, _ := ctx.Value(callStateKey{}).(*callState); st != nil {
		st.committed = true
	}
	if !res.DryRun {
		for _, f := range res.Files {
			if f.Path == s.path && f.VersionAfter != "" {
				putCached(s.path, f.VersionAfter, s.file, data, s.asActive)
			}
		}
	}
	if res.DryRun {
		out["dry_run"] = true
		var diffs []string
		for _, f := range res.Files {
			diffs = append(diffs, f.Diff)
		}
		out["diff"] = strings.Join(diffs, "\n")
	}
	if len(res.Warnings) > 0 {
		out["warnings"] = res.Warnings
	}
	return sdk.JSON(out), nil
}

// atLeast reports whether version "4.6.1" is at least major.minor; an
// unknown version counts as the class database's (4.6).
func atLeast(version string, major, minor int) bool {
	if version == "" {
		return true
	}
	var ma, mi int
	if _, err := fmt.Sscanf(version, "%d.%d", &ma, &mi); err != nil {
		return true
	}
	return ma > major || (ma == major && mi >= minor)
}

// parsed keeps the scene the last call left, parsed and edited, with the
// version its bytes have on disk, and the active scene as this plugin last
// learned it. Parsing is most of an edit's own cost and every broker round
// trip costs about as much as a small edit (see PERFORMANCE.md), so a call
// on the kept scene asks the host nothing before editing it: it edits the
// kept File and commits with the kept version as the compare-and-swap base
// (and, when it took the scene as the active one, with
// Tx.ExpectActiveScene). The host refuses that commit with CONFLICT if the
// file or the active scene changed behind the plugin's back (an undo,
// another toolset, the user's editor, another process), nothing is
// written, and the call runs again from a fresh read (fresh). A call that
// ends without such a commit (a no-op, a refusal, a read) confirms with a
// Stat before its answer counts. A File is taken out while a call uses it,
// so a failed or dry-run edit never leaves a half-edited File behind.
var parsed struct {
	sync.Mutex
	path    string
	version sdk.FileVersion
	file    *godot.File
	data    []byte
	active  string // the active scene as last seen; "" unknown or none
}

// cacheParsed can be turned off by tests to compare with fresh parses.
var cacheParsed = true

// keptStats counts kept scenes taken without asking the host and calls run
// again because one was out of date (tests check the path they exercise).
var keptStats struct{ taken, reruns atomic.Int64 }

// errStale says a kept scene turned out to be out of date before anything
// was written: fresh runs the call again without kept state.
var errStale = errors.New("scene_edit: kept scene is out of date")

// callState is what fresh tracks of one call, through the context.
type callState struct {
	noKeep    bool     // a rerun: read everything fresh
	kept      []*scene // kept scenes the call took
	committed bool     // a commit of the call went through
}

type callStateKey struct{}

// fresh wraps a handler so that answers based on kept state are always
// those a fresh read would give: when a kept scene proves out of date (a
// refused commit, or a Stat at the end of a call that did not commit it),
// the handler runs once more with every scene read from the host. Nothing
// was written by the first run in that case: a commit that carries a kept
// scene is refused whole, and one that does not carry it is preceded by a
// confirmation (scene.commit).
func fresh[In any](h sdk.Handler[In]) sdk.Handler[In] {
	return func(ctx context.Context, call *sdk.Call, in In) (sdk.Result, error) {
		if !cacheParsed {
			return h(ctx, call, in)
		}
		st := &callState{}
		res, err := h(context.WithValue(ctx, callStateKey{}, st), call, in)
		// After a commit went through the answer stands: that commit was
		// checked against the disk (a kept scene it did not carry was
		// confirmed before it), and running the call again would repeat it.
		if !errors.Is(err, errStale) && (st.committed || st.confirmed(ctx, call)) {
			return res, err
		}
		keptStats.reruns.Add(1)
		dropCached()
		return h(context.WithValue(ctx, callStateKey{}, &callState{noKeep: true}), call, in)
	}
}

// confirmed reports whether every kept scene the call used without a
// compare-and-swap still is what the host has.
func (st *callState) confirmed(ctx context.Context, call *sdk.Call) bool {
	for _, s := range st.kept {
		if !s.confirmed && s.confirm(ctx, call) != nil {
			return false
		}
	}
	return true
}

// confirm asks the host whether the kept scene still has its version (and
// is still the active scene, if it was taken as such); errStale if not.
func (s *scene) confirm(ctx context.Context, call *sdk.Call) error {
	ws := call.Workspace()
	fi, err := ws.Stat(ctx, s.path)
	if err != nil || !fi.Exists || fi.Version != s.version {
		return errStale
	}
	if s.asActive {
		p, err := ws.ActiveScene(ctx)
		if err != nil || p != s.path {
			return errStale
		}
	}
	s.confirmed = true
	return nil
}

// takeKept returns the kept scene for a call of fresh when arg (or, with
// no arg, the remembered active scene) names it, without asking the host.
func takeKept(ctx context.Context, arg string) *scene {
	st, _ := ctx.Value(callStateKey{}).(*callState)
	if st == nil || st.noKeep || !cacheParsed {
		return nil
	}
	parsed.Lock()
	defer parsed.Unlock()
	p, asActive := arg, false
	if arg == "" {
		p, asActive = parsed.active, true
	}
	if parsed.file == nil || p == "" || parsed.path != p {
		return nil
	}
	s := &scene{path: p, file: parsed.file, version: parsed.version, orig: parsed.data, kept: true, asActive: asActive}
	parsed.file, parsed.data = nil, nil
	st.kept = append(st.kept, s)
	keptStats.taken.Add(1)
	return s
}

// takeCached returns the kept scene of path p if the host confirms its
// version (one Stat), for calls outside fresh and reruns.
func takeCached(ctx context.Context, call *sdk.Call, p string) *scene {
	if !cacheParsed {
		return nil
	}
	if st, _ := ctx.Value(callStateKey{}).(*callState); st != nil && st.noKeep {
		return nil
	}
	parsed.Lock()
	file, version, data := parsed.file, parsed.version, parsed.data
	hit := file != nil && parsed.path == p
	if hit {
		parsed.file, parsed.data = nil, nil
	}
	parsed.Unlock()
	if !hit {
		return nil
	}
	fi, err := call.Workspace().Stat(ctx, p)
	if err != nil || !fi.Exists || fi.Version != version {
		return nil
	}
	return &scene{path: p, file: file, version: version, orig: data}
}

// putCached keeps a scene whose bytes on disk are data at version;
// asActive says the call found it to be the active scene.
func putCached(p string, version sdk.FileVersion, file *godot.File, data []byte, asActive bool) {
	if !cacheParsed {
		return
	}
	parsed.Lock()
	parsed.path, parsed.version, parsed.file, parsed.data = p, version, file, data
	if asActive {
		parsed.active = p
	}
	parsed.Unlock()
}

// keep puts back a scene the call only read, so that the next call starts
// from its parsed File instead of reading and parsing the file again. A
// File a call edited, or may have half edited before a refusal, is never
// put back: only a commit does that.
func (s *scene) keep() {
	putCached(s.path, s.version, s.file, s.orig, s.asActive)
}

// dropCached forgets everything kept.
func dropCached() {
	parsed.Lock()
	parsed.path, parsed.version, parsed.file, parsed.data, parsed.active = "", "", nil, nil, ""
	parsed.Unlock()
}

// noteActive remembers the active scene the host reported ("" none).
func noteActive(p string) {
	parsed.Lock()
	parsed.active = p
	parsed.Unlock()
}
