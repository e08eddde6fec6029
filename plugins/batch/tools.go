package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
	"github.com/godot-mcp/godot-mcp/sdk/godot/deps"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

// --- find_nodes_by_type

type findArgs struct {
	Type       string        `json:"node_type" alias:"type" jsonschema:"Godot class name, such as Sprite2D, or a script class_name"`
	Scene      sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// .tscn to search (its file); empty: the edited (active) scene"`
	AllScenes  bool          `json:"all_scenes,omitempty" jsonschema:"search every scene of the project (from the files)"`
	ParentPath string        `json:"parent_path,omitempty" jsonschema:"only under this node (one scene)" default:"."`
	Recursive  *bool         `json:"recursive,omitempty" jsonschema:"search the whole subtree, not only direct children" default:"true"`
	Exact      bool          `json:"exact,omitempty" jsonschema:"match the class exactly, not its subclasses"`
	Limit      int           `json:"limit,omitempty" jsonschema:"maximum nodes returned" default:"500" minimum:"1" maximum:"10000"`
	Offset     int           `json:"offset,omitempty" jsonschema:"skip this many nodes (next_offset of the previous page)" minimum:"0"`
}

type foundNode struct {
	Path  string `json:"path"`
	Name  string `json:"name"`
	Type  string `json:"type"`
	Scene string `json:"scene,omitempty"`
	Line  int    `json:"line,omitempty"`
}

type findResult struct {
	Type       string      `json:"type"`
	Nodes      []foundNode `json:"nodes"`
	Count      int         `json:"count" jsonschema:"matches over all pages"`
	NextOffset int         `json:"next_offset,omitempty"`
	Truncated  bool        `json:"truncated"`
	// Skipped are scenes over the analysis size limit, which all_scenes
	// did not read.
	Skipped []deps.Finding `json:"skipped,omitempty" jsonschema:"with all_scenes: files over the 16 MiB analysis limit that were not read; their nodes are not listed"`
}

func matcher(typ string, exact bool) func(string) bool {
	db := nodeedit.DB()
	return func(t string) bool {
		if t == typ {
			return true
		}
		return !exact && t != "" && db.Inherits(t, typ)
	}
}

func checkFindType(in findArgs) error {
	if strings.TrimSpace(in.Type) == "" {
		return sdk.Errorf(sdk.CodeInvalidArgument, "pass a class name such as Sprite2D", "node_type is empty")
	}
	return nil
}

// findNodesEditor asks the editor about the edited scene. A named scene or
// all_scenes is searched in the files, as headless: a search only reads,
// the files' answer carries each node's scene and line, and opening a tab
// for a read would change what the user sees.
func findNodesEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in findArgs) (sdk.Result, error) {
	if in.Scene != "" || in.AllScenes {
		return findNodesByType(ctx, call, in)
	}
	if err := checkFindType(in); err != nil {
		return sdk.Result{}, err
	}
	recursive := in.Recursive == nil || *in.Recursive
	var out findResult
	err := ed.Query(ctx, "cmd_find_nodes_by_type", map[string]any{"type": in.Type, "parent_path": nodeedit.NormalizePath(in.ParentPath), "recursive": recursive}, &out)
	if err != nil {
		return sdk.Result{}, err
	}
	if out.Nodes == nil {
		out.Nodes = []foundNode{}
	}
	out.Count = len(out.Nodes)
	return result(out), nil
}

func findNodesByType(ctx context.Context, call *sdk.Call, in findArgs) (sdk.Result, error) {
	if err := checkFindType(in); err != nil {
		return sdk.Result{}, err
	}
	recursive := in.Recursive == nil || *in.Recursive
	parent := nodeedit.NormalizePath(in.ParentPath)
	match := matcher(in.Type, in.Exact)
	var nodes []foundNode
	var skipped []deps.Finding
	if in.AllScenes {
		p, err := call.Project()
		if err != nil {
			return sdk.Result{}, err
		}
		g, err := deps.Shared(p.Root()).Graph(ctx)
		if err != nil {
			return sdk.Result{}, sdk.Errorf(sdk.CodeInternalError, "check that the project is readable", "cannot index the project: %v", err)
		}
		for i, n := range g.Nodes(nil, func(n deps.NodeInfo) bool { return match(n.Type) }) {
			if err := sdk.Interrupted(ctx, i); err != nil {
				return sdk.Result{}, err
			}
			nodes = append(nodes, foundNode{Path: n.Path, Name: n.Name, Type: n.Type, Scene: n.File, Line: n.Line})
		}
		skipped = g.Skipped()
	} else {
		path, err := nodeedit.ScenePath(ctx, call, string(in.Scene))
		if err != nil {
			return sdk.Result{}, err
		}
		s, err := nodeedit.Open(ctx, call, path)
		if err != nil {
			return sdk.Result{}, err
		}
		root, err := s.Node(parent)
		if err != nil {
			return sdk.Result{}, err
		}
		lines := lineIndex(s.Doc.Source())
		for i, n := range s.Doc.Nodes() {
			if err := sdk.Interrupted(ctx, i); err != nil {
				return sdk.Result{}, err
			}
			if !under(n.Path(), root.Path(), recursive) || !match(n.Type()) {
				continue
			}
			nodes = append(nodes, foundNode{Path: n.Path(), Name: n.Name(), Type: n.Type(), Scene: s.Path, Line: lines(n.Offset())})
		}
	}
	out := findResult{Type: in.Type, Count: len(nodes), Skipped: skipped}
	limit := in.Limit
	if limit <= 0 {
		limit = 500
	}
	if in.Offset < len(nodes) {
		end := min(len(nodes), in.Offset+limit)
		out.Nodes = nodes[in.Offset:end]
		if end < len(nodes) {
			out.NextOffset, out.Truncated = end, true
		}
	}
	if out.Nodes == nil {
		out.Nodes = []foundNode{}
	}
	return result(out), nil
}

func (r findResult) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d nodes of type %s", r.Count, r.Type)
	for _, n := range r.Nodes {
		if n.Scene != "" {
			fmt.Fprintf(&b, "\n  %s:%d %s (%s)", n.Scene, n.Line, n.Path, n.Type)
		} else {
			fmt.Fprintf(&b, "\n  %s (%s)", n.Path, n.Type)
		}
	}
	for _, f := range r.Skipped {
		b.WriteString("\n" + f.Message)
	}
	return b.String()
}

// under reports whether p is root itself or below it (a direct child only
// when not recursive). The addon includes the parent itself.
func under(p, root string, recursive bool) bool {
	if p == root {
		return true
	}
	var rel string
	switch {
	case root == ".":
		rel = p
	case strings.HasPrefix(p, root+"/"):
		rel = p[len(root)+1:]
	default:
		return false
	}
	return recursive || !strings.Contains(rel, "/")
}

// lineIndex returns a function from byte offsets of src to 1-based lines.
func lineIndex(src []byte) func(int) int {
	var starts []int
	starts = append(starts, 0)
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return func(off int) int {
		if off < 0 {
			return 0
		}
		return sort.Search(len(starts), func(i int) bool { return starts[i] > off })
	}
}

func result(v fmt.Stringer) sdk.Result {
	return sdk.Result{Content: []sdk.Content{sdk.TextContent{Text: v.String()}}, Structured: v}
}

// --- set_property

type setArgs struct {
	Scene     sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// .tscn to edit; empty: the edited (active) scene. With an editor attached the scene is opened (made the active tab) and edited there"`
	Property  string        `json:"property" jsonschema:"property name, such as modulate or position"`
	Value     any           `json:"value" jsonschema:"the value: JSON number/bool/string, [x, y] or {\"x\":…} for vectors and colours, a Godot literal string such as \"Vector2(1, 2)\"; for resources a res:// path, an inline resource {\"type\": \"RectangleShape2D\", \"properties\": {\"size\": [16, 32]}} (nested to any depth) made a [sub_resource] of the scene, or {\"sub_resource\": \"<id>\"} for one the scene has (the nodes share one)" godot:"value"`
	NodePaths []string      `json:"node_paths,omitempty" jsonschema:"the nodes to change (wins over type)"`
	Type      string        `json:"node_type,omitempty" alias:"type" jsonschema:"change every node of this class (and subclasses) instead"`
}

type skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

type change struct {
	Scene string `json:"scene"`
	Node  string `json:"node"`
	Line  int    `json:"line" jsonschema:"line of the property in the file as it was read, or of the node's header when the property was not set"`
	Old   string `json:"old,omitempty"`
	New   string `json:"new"`
}

type setResult struct {
	Property string    `json:"property"`
	Applied  []string  `json:"applied"`
	Skipped  []skipped `json:"skipped"`
	Count    int       `json:"count"`
	// SkippedCount is the number of nodes skipped; Listed says applied,
	// changes and skipped were cut to their first maxListed entries.
	SkippedCount int              `json:"skipped_count,omitempty"`
	Listed       int              `json:"listed,omitempty" jsonschema:"set when the lists were cut: how many entries each lists at most"`
	DryRun       bool             `json:"dry_run"`
	Undoable     bool             `json:"undoable"`
	Changes      []change         `json:"changes,omitempty"`
	Files        []sdk.FileChange `json:"files,omitempty"`
	Hint         string           `json:"hint,omitempty"`
	// Persistence is the editor's per-node persistence stamp (editor mode).
	Persistence []map[string]any `json:"persistence,omitempty"`
}

// maxListed bounds the nodes an answer lists: an edit of every node of a
// class in a 300,000-node scene answers the count and the first few
// hundred, not a list the agent cannot read and the host must hold.
const maxListed = 200

// bound cuts the lists to maxListed entries each, keeping the counts, and
// says how to see the rest.
func (r *setResult) bound() {
	r.SkippedCount = len(r.Skipped)
	if len(r.Applied) <= maxListed && len(r.Skipped) <= maxListed && len(r.Changes) <= maxListed {
		return
	}
	r.Listed = maxListed
	r.Applied = r.Applied[:min(len(r.Applied), maxListed)]
	r.Skipped = r.Skipped[:min(len(r.Skipped), maxListed)]
	r.Changes = r.Changes[:min(len(r.Changes), maxListed)]
	r.Hint = fmt.Sprintf("%d nodes changed and %d skipped; the first %d of each are listed (godot_batch_find_nodes_by_type lists the nodes page by page)",
		r.Count, r.SkippedCount, maxListed)
}

// String lists every change, one line each, into one builder: appending
// to a string instead copied the text so far for every line, which over
// 100,000 nodes allocated 330 GB per call (docs/PERFORMANCE.md).
func (r setResult) String() string {
	var b strings.Builder
	if r.DryRun {
		b.WriteString("dry run: would ")
	}
	fmt.Fprintf(&b, "set %s on %d nodes", r.Property, r.Count)
	for _, c := range r.Changes {
		fmt.Fprintf(&b, "\n  %s:%d %s: %s → %s", c.Scene, c.Line, c.Node, c.Old, c.New)
	}
	for _, k := range r.Skipped {
		fmt.Fprintf(&b, "\n  skipped %s: %s", k.Path, k.Reason)
	}
	if r.Listed > 0 {
		b.WriteString("\n" + r.Hint)
	}
	return b.String()
}

// setOn sets prop on one node, recording the change; unknown properties
// are skipped (as the addon does), bad values are errors.
// setOn sets prop on one node. An inline resource is made once, for the
// first node, and the others share it (*value becomes the reference), as
// the editor's inspector does for a multi-node selection.
func setOn(s *nodeedit.Scene, n *godot.Node, prop string, value *any, lines func(int) int, out *setResult, changes *[]change) error {
	old, had := n.Get(prop)
	line := lines(n.PropertyOffset(prop))
	if line == 0 {
		line = lines(n.Offset())
	}
	v, err := s.SetProperty(n, prop, *value)
	if ref, ok := v.(godot.SubResource); ok && err == nil && nodeedit.HasInline(*value) {
		*value = map[string]any{classdb.SubResourceKey: ref.ID}
	}
	if nodeedit.UnknownProperty(err) {
		out.Skipped = append(out.Skipped, skipped{Path: n.Path(), Reason: "no such property"})
		return nil
	}
	if err != nil {
		return err
	}
	c := change{Scene: s.Path, Node: n.Path(), Line: line, New: s.Doc.FormatValue(v)}
	if had {
		c.Old = s.Doc.FormatValue(old)
	}
	*changes = append(*changes, c)
	out.Applied = append(out.Applied, n.Path())
	return nil
}

func checkSetArgs(in setArgs) error {
	if in.Property == "" {
		return sdk.Errorf(sdk.CodeInvalidArgument, "pass the property name", "property is empty")
	}
	if len(in.NodePaths) == 0 && in.Type == "" {
		return sdk.Errorf(sdk.CodeInvalidArgument, "pass node_paths or node_type", "no target nodes given")
	}
	return nil
}

// setPropertyEditor edits the scene in the editor, opened first when one
// is named. The addon previews cmd_batch_set_property itself: Editor.Apply
// sets its dry_run flag in a dry run.
func setPropertyEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in setArgs) (sdk.Result, error) {
	if err := checkSetArgs(in); err != nil {
		return sdk.Result{}, err
	}
	if nodeedit.HasInline(in.Value) {
		// The addon takes a resource as a path only: the scene's file
		// gets the [sub_resource], and the editor reloads it.
		return sdk.HandlerOnSceneFile(ctx, call, ed, &in, &in.Scene, setProperty)
	}
	if err := ed.OpenScene(ctx, string(in.Scene)); err != nil {
		return sdk.Result{}, err
	}
	params := map[string]any{"property": in.Property, "value": in.Value}
	if len(in.NodePaths) > 0 {
		params["node_paths"] = in.NodePaths
	} else {
		params["type"] = in.Type
	}
	var out setResult
	if err := ed.Apply(ctx, "cmd_batch_set_property", params, &out); err != nil {
		return sdk.Result{}, err
	}
	if out.Applied == nil {
		out.Applied = []string{}
	}
	if out.Skipped == nil {
		out.Skipped = []skipped{}
	}
	if ed.DryRun() {
		out.bound() // skipped_count, as a headless dry run answers it
	}
	return result(out), nil
}

func setProperty(ctx context.Context, call *sdk.Call, in setArgs) (sdk.Result, error) {
	if err := checkSetArgs(in); err != nil {
		return sdk.Result{}, err
	}
	path, err := nodeedit.ScenePath(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	s, err := nodeedit.Open(ctx, call, path)
	if err != nil {
		return sdk.Result{}, err
	}
	out := setResult{Property: in.Property, Applied: []string{}, Skipped: []skipped{}, Undoable: true}
	var targets []*godot.Node
	if len(in.NodePaths) > 0 {
		for i, p := range in.NodePaths {
			if err := sdk.Interrupted(ctx, i); err != nil {
				return sdk.Result{}, err
			}
			n, err := s.Node(p)
			if err != nil {
				return sdk.Result{}, err
			}
			targets = append(targets, n)
		}
	} else {
		match := matcher(in.Type, false)
		for i, n := range s.Doc.Nodes() {
			if err := sdk.Interrupted(ctx, i); err != nil {
				return sdk.Result{}, err
			}
			if match(n.Type()) {
				targets = append(targets, n)
			}
		}
	}
	lines := lineIndex(s.Doc.Source())
	var changes []change
	value := in.Value
	for i, n := range targets {
		// Cancelled here, nothing is written: the edits are in memory
		// until Commit.
		if err := sdk.Interrupted(ctx, i); err != nil {
			return sdk.Result{}, err
		}
		if err := setOn(s, n, in.Property, &value, lines, &out, &changes); err != nil {
			return sdk.Result{}, err
		}
	}
	res, err := s.Commit(fmt.Sprintf("Set %s on %d nodes", in.Property, len(out.Applied)))
	if err != nil {
		return sdk.Result{}, err
	}
	invalidate(call, res)
	out.Count, out.DryRun, out.Changes, out.Files = len(out.Applied), call.DryRun, changes, res.Files
	out.bound()
	return result(out), nil
}

func invalidate(call *sdk.Call, res sdk.CommitResult) {
	p, err := call.Project()
	if err != nil {
		return
	}
	var paths []string
	for _, f := range res.Files {
		paths = append(paths, f.Path)
	}
	deps.Shared(p.Root()).Invalidate(paths...)
}

// --- cross_scene_set_property

type crossArgs struct {
	Scenes   []sdk.ScenePath `json:"scenes" jsonschema:"res:// .tscn files to edit"`
	Type     string          `json:"node_type" alias:"type" jsonschema:"set the property on every node of this class (and subclasses)"`
	Property string          `json:"property" jsonschema:"property name"`
	Value    any             `json:"value" jsonschema:"the value, as for set_property" godot:"value"`
}

type sceneResult struct {
	Scene    string `json:"scene"`
	Modified int    `json:"modified"`
	Error    string `json:"error,omitempty"`
}

type crossResult struct {
	Results       []sceneResult    `json:"results"`
	TotalModified int              `json:"total_modified"`
	Scenes        int              `json:"scenes"`
	DryRun        bool             `json:"dry_run"`
	Changes       []change         `json:"changes" jsonschema:"every node and line that changes (or would)"`
	Skipped       []skipped        `json:"skipped,omitempty"`
	Files         []sdk.FileChange `json:"files"`
	ActionID      uint64           `json:"action_id,omitempty" jsonschema:"the one journal action; godot_undo reverts every scene"`
}

func (r crossResult) String() string {
	var b strings.Builder
	if r.DryRun {
		b.WriteString("dry run: would change ")
	}
	fmt.Fprintf(&b, "%d nodes in %d scenes", r.TotalModified, r.Scenes)
	for _, c := range r.Changes {
		fmt.Fprintf(&b, "\n  %s:%d %s: %s → %s", c.Scene, c.Line, c.Node, c.Old, c.New)
	}
	return b.String()
}

func crossSceneSetProperty(ctx context.Context, call *sdk.Call, in crossArgs) (sdk.Result, error) {
	if len(in.Scenes) == 0 || in.Type == "" || in.Property == "" {
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass scenes (a non-empty list of .tscn files), type and property", "scenes, type and property are required")
	}
	match := matcher(in.Type, false)
	out := crossResult{Results: []sceneResult{}, Changes: []change{}, DryRun: call.DryRun}
	tx := call.Workspace().Begin(fmt.Sprintf("Set %s on %s nodes in %d scenes", in.Property, in.Type, len(in.Scenes)))
	seen := map[string]bool{}
	for _, arg := range in.Scenes {
		if err := sdk.Stopped(ctx); err != nil {
			return sdk.Result{}, err // nothing is written: the whole call is one action
		}
		path, err := nodeedit.ScenePath(ctx, call, string(arg))
		if err != nil {
			return sdk.Result{}, err
		}
		if seen[path] {
			continue
		}
		seen[path] = true
		s, err := nodeedit.Open(ctx, call, path)
		if err != nil {
			return sdk.Result{}, err // nothing is written: the whole call is one action
		}
		lines := lineIndex(s.Doc.Source())
		var sr setResult
		var changes []change
		value := in.Value // an inline resource is shared within one scene
		for i, n := range s.Doc.Nodes() {
			if err := sdk.Interrupted(ctx, i); err != nil {
				return sdk.Result{}, err
			}
			if match(n.Type()) {
				if err := setOn(s, n, in.Property, &value, lines, &sr, &changes); err != nil {
					return sdk.Result{}, err
				}
			}
		}
		out.Results = append(out.Results, sceneResult{Scene: s.Path, Modified: len(changes)})
		out.Changes = append(out.Changes, changes...)
		out.Skipped = append(out.Skipped, sr.Skipped...)
		out.TotalModified += len(changes)
		if s.Edited {
			tx.Write(s.Path, s.Bytes(), s.File.Version)
		}
	}
	out.Scenes = len(out.Results)
	res, err := tx.Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	invalidate(call, res)
	out.Files, out.ActionID = res.Files, res.ActionID
	if out.Files == nil {
		out.Files = []sdk.FileChange{}
	}
	return result(out), nil
}

// --- get_dependencies

type depsArgs struct {
	Path string `json:"path" jsonschema:"res:// path of a scene, resource or script"` // or a uid://, so not an sdk.ResPath
}

type dependency struct {
	Raw      string `json:"raw" jsonschema:"the path or uid:// as written"`
	Path     string `json:"path" jsonschema:"the resolved res:// path (empty when it resolves to nothing)"`
	Type     string `json:"type,omitempty"`
	Via      string `json:"via,omitempty"`
	Line     int    `json:"line,omitempty"`
	Resolved bool   `json:"resolved"`
}

type depsResult struct {
	Path         string       `json:"path"`
	Dependencies []dependency `json:"dependencies"`
	Count        int          `json:"count"`
	// Skipped is set when the file is over the analysis size limit.
	Skipped []deps.Finding `json:"skipped,omitempty" jsonschema:"the file itself, when it is over the 16 MiB analysis limit and was not read: its dependencies are unknown"`
}

func (r depsResult) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d dependencies", r.Path, r.Count)
	for _, d := range r.Dependencies {
		mark := ""
		if !d.Resolved {
			mark = " (missing)"
		}
		fmt.Fprintf(&b, "\n  line %d %s %s%s", d.Line, d.Via, d.Raw, mark)
	}
	for _, f := range r.Skipped {
		b.WriteString("\n" + f.Message)
	}
	return b.String()
}

// depsPath checks get_dependencies' path: a uid:// as given, else a
// res:// path (not an sdk.ResPath, which refuses uid://).
func depsPath(raw string) (string, error) {
	if strings.HasPrefix(raw, "uid://") {
		return raw, nil
	}
	return sdk.CleanResPath("path", strings.TrimPrefix(raw, "/"))
}

func getDependenciesEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in depsArgs) (sdk.Result, error) {
	path, err := depsPath(in.Path)
	if err != nil {
		return sdk.Result{}, err
	}
	var out depsResult
	if err := ed.Query(ctx, "cmd_get_dependencies", map[string]any{"path": path}, &out); err != nil {
		return sdk.Result{}, err
	}
	for i := range out.Dependencies {
		out.Dependencies[i].Resolved = out.Dependencies[i].Path != ""
	}
	if out.Dependencies == nil {
		out.Dependencies = []dependency{}
	}
	out.Count = len(out.Dependencies)
	return result(out), nil
}

func getDependencies(ctx context.Context, call *sdk.Call, in depsArgs) (sdk.Result, error) {
	path, err := depsPath(in.Path)
	if err != nil {
		return sdk.Result{}, err
	}
	p, err := call.Project()
	if err != nil {
		return sdk.Result{}, err
	}
	g, err := deps.Shared(p.Root()).Graph(ctx)
	if err != nil {
		return sdk.Result{}, sdk.Errorf(sdk.CodeInternalError, "check that the project is readable", "cannot index the project: %v", err)
	}
	resolved, ok := g.Resolve(path)
	if !ok {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeNotFound, Message: in.Path + " is not a file of the project",
			Hint: "pass the res:// path of an existing scene, resource or script"}
	}
	out := depsResult{Path: resolved, Dependencies: []dependency{}}
	if fi := g.File(resolved); fi != nil && fi.Skipped {
		out.Skipped = fi.Findings
	}
	for _, r := range g.Refs(resolved) {
		if r.Via == deps.ViaClassName {
			continue
		}
		out.Dependencies = append(out.Dependencies, dependency{Raw: r.Raw, Path: r.Target, Type: r.Type, Via: r.Via, Line: r.Line, Resolved: r.Target != ""})
	}
	out.Count = len(out.Dependencies)
	return result(out), nil
}
