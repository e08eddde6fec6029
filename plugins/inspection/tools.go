package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/addonerr"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

type noArgs struct{}

type treeIn struct {
	Scene       sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene; default the active scene"`
	MaxDepth    *int          `json:"max_depth,omitempty" jsonschema:"levels below the root to include; 0 the root only, -1 unlimited (max_nodes still applies)" default:"10" minimum:"-1" maximum:"1000"`
	MaxNodes    int           `json:"max_nodes,omitempty" jsonschema:"the most nodes to include, breadth first: the upper levels come whole before deeper ones; without it at most 200, about 20 KB" minimum:"1" maximum:"5000"`
	Lightweight bool          `json:"lightweight,omitempty" jsonschema:"leave out scripts, for a smaller answer"`
}

// Bounds of a get_scene_tree answer: by default about 20 KB, what an
// agent can read without losing its context to one scene.
const (
	defaultTreeDepth = 10
	defaultTreeNodes = 200
)

type nodeIn struct {
	Scene    sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene; default the active scene"`
	NodePath string        `json:"node_path" jsonschema:"node path relative to the scene root: \".\" is the root, e.g. \"Player/Sprite2D\""`
}

type propIn struct {
	Scene    sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene; default the active scene"`
	NodePath string        `json:"node_path" jsonschema:"node path relative to the scene root: \".\" is the root, e.g. \"Player/Sprite2D\""`
	Property string        `json:"property" jsonschema:"property name, e.g. position or a script variable"`
}

// ---- get_project_info

type projectInfoIn struct {
	IncludeBuiltinActions bool `json:"include_builtin_actions,omitempty" jsonschema:"also list the engine's built-in ui_* input actions the project does not redefine (about 90 names)"`
}

func getProjectInfo(ctx context.Context, call *sdk.Call, in projectInfoIn) (sdk.Result, error) {
	ws := call.Workspace()
	p, err := readProject(ctx, ws)
	if err != nil {
		return sdk.Result{}, err
	}
	name := ""
	if v, ok := p.Setting("application/config/name"); ok {
		name, _ = godot.ToJSON(v).(string)
	}
	autoloads := map[string]any{}
	for _, k := range p.Keys("autoload") {
		if v, ok := p.Get("autoload", k); ok {
			autoloads[k] = godot.ToJSON(v)
		}
	}
	// The editor's ProjectSettings hold the engine's built-in ui_* actions
	// as well as the project's own.
	actions := map[string]bool{}
	if in.IncludeBuiltinActions {
		for a := range builtinActions() {
			actions[a] = true
		}
	}
	for _, k := range p.Keys("input") {
		actions[k] = true
	}
	inputActions := make([]string, 0, len(actions))
	for a := range actions {
		inputActions = append(inputActions, a)
	}
	sort.Strings(inputActions)
	csproj := false
	if entries, err := ws.List(ctx, "res://"); err == nil {
		for _, e := range entries {
			if !e.IsDir && strings.HasSuffix(e.Path, ".csproj") {
				csproj = true
			}
		}
	}
	return sdk.JSON(map[string]any{
		"name":             name,
		"godot_version":    p.Version(),
		"main_scene":       mainScene(ctx, ws, p, nil),
		"project_path":     projectPath(call.Env.ProjectDir),
		"autoloads":        autoloads,
		"input_actions":    inputActions,
		"csharp_supported": false,
		"csharp_project":   csproj,
	}), nil
}

// getProjectInfoEditor is the addon's answer, whose input_actions hold the
// engine's built-in actions too: they are left out unless asked for, as
// headless, keeping those the project's project.godot redefines.
func getProjectInfoEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in projectInfoIn) (sdk.Result, error) {
	out, err := forward(ctx, ed, "cmd_get_project_info", map[string]any{})
	if err != nil {
		return sdk.Result{}, err
	}
	list, ok := out["input_actions"].([]any)
	if in.IncludeBuiltinActions || !ok {
		return sdk.JSON(out), nil
	}
	own := map[string]bool{}
	if p, err := readProject(ctx, call.Workspace()); err == nil {
		for _, k := range p.Keys("input") {
			own[k] = true
		}
	}
	builtin := builtinActions()
	kept := []any{}
	for _, a := range list {
		if name, _ := a.(string); !builtin[name] || own[name] {
			kept = append(kept, a)
		}
	}
	out["input_actions"] = kept
	return sdk.JSON(out), nil
}

// builtinActions are the engine's own input actions (ui_accept, …), which
// every project has: read once from the embedded class database, which
// never changes. Callers only read the map.
var builtinActions = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, s := range db.Settings() {
		if a, ok := strings.CutPrefix(s, "input/"); ok {
			out[a] = true
		}
	}
	return out
})

// readProject reads and parses project.godot.
func readProject(ctx context.Context, ws *sdk.Workspace) (*godot.Project, error) {
	f, err := ws.Read(ctx, "res://project.godot")
	if err != nil {
		return nil, err
	}
	p, err := godot.ParseProject("project.godot", f.Data)
	if err != nil {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "fix project.godot (godot-mcp check --roundtrip shows the problem)",
			"project.godot does not parse: %v", err)
	}
	return p, nil
}

// projectPath is the project directory as the editor reports it
// (ProjectSettings.globalize_path("res://")): absolute, ending in a slash.
func projectPath(dir string) string {
	if dir == "" || strings.HasSuffix(dir, string(filepath.Separator)) {
		return dir
	}
	return dir + string(filepath.Separator)
}

// mainScene is the project's main scene (application/run/main_scene), nil
// when it names none. A uid:// (what Godot 4.4+ writes) is resolved to its
// path among scenes, the project's scene files (nil: list them now).
func mainScene(ctx context.Context, ws *sdk.Workspace, p *godot.Project, scenes []string) any {
	v, ok := p.Setting("application/run/main_scene")
	if !ok {
		return nil
	}
	s, _ := godot.ToJSON(v).(string)
	if s == "" {
		return nil
	}
	return resolveUID(ctx, ws, s, scenes)
}

// resolveUID maps a uid:// to the path of the scene among scenes (nil:
// every scene file) whose header has it; a path, or a uid no scene has, is
// returned as is.
func resolveUID(ctx context.Context, ws *sdk.Workspace, s string, scenes []string) string {
	if !strings.HasPrefix(s, "uid://") {
		return s
	}
	if scenes == nil {
		var err error
		if scenes, err = sceneFiles(ctx, ws); err != nil {
			return s
		}
	}
	for _, p := range scenes {
		f, err := ws.Read(ctx, p)
		if err != nil {
			continue
		}
		head, _, _ := strings.Cut(string(f.Data), "\n")
		if strings.Contains(head, `uid="`+s+`"`) {
			return p
		}
	}
	return s
}

// ---- get_active_scene

func getActiveScene(ctx context.Context, call *sdk.Call, _ noArgs) (sdk.Result, error) {
	act, err := call.Workspace().ActiveScene(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	if act == "" {
		return sdk.JSON(map[string]any{"is_open": false, "path": nil, "name": nil}), nil
	}
	return sdk.JSON(map[string]any{"is_open": true, "path": act, "name": path.Base(act)}), nil
}

// ---- list_scenes

type listScenesIn struct {
	IncludeAddons bool `json:"include_addons,omitempty" jsonschema:"also list the scenes under res://addons/ (plugins' own scenes)"`
	Offset        int  `json:"offset,omitempty" jsonschema:"skip this many scenes (next_offset of the previous page)" minimum:"0"`
	Limit         int  `json:"limit,omitempty" jsonschema:"the most scenes in this page; without it at most 200, about 20 KB" minimum:"1" maximum:"5000"`
}

// defaultScenePage is the most scenes of a list_scenes page without a
// limit (the page also stops near sdk.PageBytes).
const defaultScenePage = 200

func listScenes(ctx context.Context, call *sdk.Call, in listScenesIn) (sdk.Result, error) {
	ws := call.Workspace()
	scenes, err := sceneFiles(ctx, ws)
	if err != nil {
		return sdk.Result{}, err
	}
	if !in.IncludeAddons {
		scenes = slices.DeleteFunc(scenes, inAddons)
	}
	st, err := ws.Scenes(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	// The scenes just listed resolve a uid:// main scene: no second walk
	// of the project.
	var main any
	if p, err := readProject(ctx, ws); err == nil {
		main = mainScene(ctx, ws, p, scenes)
	}
	list := make([]map[string]any, 0, len(scenes))
	for _, s := range scenes {
		e := map[string]any{
			"path":      s,
			"is_main":   main == s,
			"is_open":   slices.Contains(st.Open, s),
			"is_active": st.Active == s,
		}
		if sdk.PathEscaped(s) {
			e["warning"] = "the file name is not valid UTF-8 and is shown escaped (U+FFFD and the byte's hex); Godot cannot open it: rename it to a UTF-8 name"
		}
		list = append(list, e)
	}
	return scenesPage(map[string]any{"main_scene": main}, list, in), nil
}

// listScenesEditor pages the addon's list, which holds every scene, as
// headless does.
func listScenesEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in listScenesIn) (sdk.Result, error) {
	out, err := forward(ctx, ed, "cmd_list_scenes", map[string]any{})
	if err != nil {
		return sdk.Result{}, err
	}
	list, _ := out["scenes"].([]any)
	if !in.IncludeAddons {
		list = slices.DeleteFunc(list, func(e any) bool {
			m, _ := e.(map[string]any)
			p, _ := m["path"].(string)
			return inAddons(p)
		})
	}
	return scenesPage(out, list, in), nil
}

// scenesPage answers one page of scenes in the shape of both modes.
func scenesPage[T any](out map[string]any, list []T, in listScenesIn) sdk.Result {
	page, p := sdk.Paginate(list, in.Offset, in.Limit, defaultScenePage)
	out["scenes"] = page
	p.AddTo(out)
	return sdk.JSON(out)
}

// inAddons reports whether p is under res://addons/, where editor plugins
// keep their own scenes.
func inAddons(p string) bool { return strings.HasPrefix(p, "res://addons/") }

// sceneFiles lists every .tscn/.scn under res://, skipping dot-directories
// (.godot, .git, ...), sorted.
func sceneFiles(ctx context.Context, ws *sdk.Workspace) ([]string, error) {
	var out []string
	dirs := []string{"res://"}
	for len(dirs) > 0 {
		dir := dirs[0]
		dirs = dirs[1:]
		entries, err := ws.List(ctx, dir)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			base := path.Base(e.Path)
			if e.IsDir {
				if !strings.HasPrefix(base, ".") {
					dirs = append(dirs, e.Path)
				}
				continue
			}
			if strings.HasSuffix(base, ".tscn") || strings.HasSuffix(base, ".scn") {
				out = append(out, e.Path)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// ---- scene targeting (headless)

// headlessScene resolves the scene a headless call targets and loads it.
func headlessScene(ctx context.Context, call *sdk.Call, l *loader, scene string) (string, *node, error) {
	if scene == "" {
		act, err := call.Workspace().ActiveScene(ctx)
		if err != nil {
			return "", nil, err
		}
		if act == "" {
			return "", nil, noActiveScene(false)
		}
		scene = act
	}
	root, err := l.scene(ctx, scene)
	if err != nil {
		return "", nil, err
	}
	return scene, root, nil
}

// headlessNode resolves scene and node.
func headlessNode(ctx context.Context, call *sdk.Call, scene, nodePath string) (*node, error) {
	l := newLoader(call)
	s, root, err := headlessScene(ctx, call, l, scene)
	if err != nil {
		return nil, err
	}
	n := find(root, nodePath)
	if n == nil {
		return nil, notFound(nodePath, s, root)
	}
	return n, nil
}

// ---- get_scene_tree

// maxTreeBytes bounds a tree answer, as JSON, whatever max_nodes says:
// an agent reads the answer in its context window. Without max_nodes the
// answer stops sooner, at defaultTreeBytes, near sdk.PageBytes (the bound
// is measured on names, types and paths, a lower bound of the JSON, so it
// stays below the page size).
var (
	maxTreeBytes     = 256 << 10
	defaultTreeBytes = sdk.PageBytes * 3 / 4
)

// getSceneTree answers breadth first within max_depth, max_nodes and
// maxTreeBytes. It used to build the whole tree and then shrink it a level
// at a time, which on a 5,000-deep scene ran for minutes at over a
// gigabyte; now the work is proportional to the answer, plus one counting
// pass, and every loop stops when the call is cancelled.
func getSceneTree(ctx context.Context, call *sdk.Call, in treeIn) (sdk.Result, error) {
	maxDepth, maxNodes, maxBytes := treeBounds(in)
	scene := string(in.Scene)
	if scene == "" {
		act, err := call.Workspace().ActiveScene(ctx)
		if err != nil {
			return sdk.Result{}, err
		}
		if act == "" {
			return noTree(), nil
		}
		scene = act
	}
	_, root, err := headlessScene(ctx, call, newLoader(call), scene)
	if err != nil {
		return sdk.Result{}, err
	}
	b, err := boundTree(ctx, root, fileTree{lightweight: in.Lightweight}, maxDepth, maxNodes, maxBytes)
	if err != nil {
		return sdk.Result{}, err
	}
	return treeAnswer(b, maxDepth, maxNodes), nil
}

// getSceneTreeEditor reads the tree of the editor's active scene (the
// named one, opened first) within the same bounds.
func getSceneTreeEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in treeIn) (sdk.Result, error) {
	maxDepth, maxNodes, maxBytes := treeBounds(in)
	if err := editorScene(ctx, ed, in.Scene); err != nil {
		return sdk.Result{}, err
	}
	out, err := forward(ctx, ed, "cmd_get_scene_tree", map[string]any{"max_depth": maxDepth, "lightweight": in.Lightweight})
	if err != nil {
		return sdk.Result{}, err
	}
	root, ok := out["tree"].(map[string]any)
	if !ok {
		return noTree(), nil
	}
	b, err := boundTree(ctx, root, editorTree{}, maxDepth, maxNodes, maxBytes)
	if err != nil {
		return sdk.Result{}, err
	}
	return treeAnswer(b, maxDepth, maxNodes), nil
}

// noTree is get_scene_tree's answer when no scene is open and none is
// named: tree is null, as the reference's get_scene_tree answers (the
// addon's cmd_get_scene_tree returns ok {tree: null}), with a note on how
// to open one.
func noTree() sdk.Result {
	return sdk.JSON(map[string]any{"tree": nil,
		"note": "no scene is open; open one with godot_scene_edit_open_scene {\"scene_path\": \"res://…\"} (godot_inspection_list_scenes lists them), or pass scene"})
}

func treeBounds(in treeIn) (maxDepth, maxNodes, maxBytes int) {
	maxDepth, maxNodes, maxBytes = defaultTreeDepth, in.MaxNodes, maxTreeBytes
	if in.MaxDepth != nil {
		maxDepth = *in.MaxDepth
	}
	if maxNodes <= 0 {
		maxNodes, maxBytes = defaultTreeNodes, min(maxTreeBytes, defaultTreeBytes)
	}
	return maxDepth, maxNodes, maxBytes
}

func treeAnswer(b *treeBuild, maxDepth, maxNodes int) sdk.Result {
	if !b.truncated {
		return sdk.JSON(map[string]any{"tree": b.tree})
	}
	return sdk.JSON(map[string]any{"tree": b.tree, "truncated": true, "nodes": b.nodes, "total_nodes": b.total,
		"max_depth": maxDepth, "max_nodes": maxNodes,
		"hint": fmt.Sprintf("%d of %d nodes shown, breadth first (max_depth %d, max_nodes %d); a node with children_omitted has that many children left out. "+
			"Read a branch with godot_inspection_snapshot_subtree {\"node_path\": …, \"max_depth\": …}, or call again with a larger max_depth or max_nodes (at most 5000)",
			b.nodes, b.total, maxDepth, maxNodes)})
}

// treeSource reads a tree for boundTree: the headless loader's nodes, or
// the editor's answer.
type treeSource[T any] interface {
	children(T) []T
	// entry is the node's answer without its children.
	entry(T) map[string]any
}

type fileTree struct{ lightweight bool }

func (fileTree) children(n *node) []*node { return n.children }
func (f fileTree) entry(n *node) map[string]any {
	out := map[string]any{"name": n.name, "type": n.typ, "path": n.path}
	if !f.lightweight {
		out["script"] = n.script
	}
	if n.owner != "" {
		out["owner"] = n.owner
	}
	if n.editable {
		out["editable_children"] = true
	}
	if n.opaque {
		out["instance"] = n.instance
		out["children_unknown"] = true
	}
	return out
}

type editorTree struct{}

func (editorTree) children(n map[string]any) []map[string]any {
	cs, _ := n["children"].([]any)
	out := make([]map[string]any, 0, len(cs))
	for _, c := range cs {
		if m, ok := c.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func (editorTree) entry(n map[string]any) map[string]any {
	out := make(map[string]any, len(n))
	for k, v := range n {
		if k != "children" {
			out[k] = v
		}
	}
	return out
}

// treeBuild is a bounded tree answer.
type treeBuild struct {
	tree         map[string]any
	nodes, total int
	truncated    bool
}

// boundTree builds the answer breadth first: every node within maxDepth
// levels, until maxNodes nodes or maxBytes bytes are in. A node whose
// children are left out says how many (children_omitted).
func boundTree[T any](ctx context.Context, root T, src treeSource[T], maxDepth, maxNodes, maxBytes int) (*treeBuild, error) {
	type item struct {
		n     T
		out   map[string]any
		depth int
	}
	b := &treeBuild{tree: src.entry(root), nodes: 1}
	bytes := estimate(b.tree)
	queue := []item{{root, b.tree, 0}}
	for i := 0; i < len(queue); i++ {
		if err := sdk.Interrupted(ctx, i); err != nil {
			return nil, err
		}
		it := queue[i]
		kids := src.children(it.n)
		list := []any{}
		for j, c := range kids {
			if (maxDepth >= 0 && it.depth >= maxDepth) || b.nodes >= maxNodes || bytes >= maxBytes {
				it.out["children_omitted"] = len(kids) - j
				b.truncated = true
				break
			}
			co := src.entry(c)
			// estimate counts strings only; a node's keys, quotes and
			// brackets add about 50 bytes.
			bytes += estimate(co) + 50
			list = append(list, co)
			b.nodes++
			queue = append(queue, item{c, co, it.depth + 1})
		}
		it.out["children"] = list
	}
	b.total = b.nodes
	if b.truncated {
		n, err := countTree(ctx, root, src)
		if err != nil {
			return nil, err
		}
		b.total = n
	}
	return b, nil
}

// countTree counts the nodes of a tree, without recursion (scenes can be
// thousands of levels deep).
func countTree[T any](ctx context.Context, root T, src treeSource[T]) (int, error) {
	stack := []T{root}
	n := 0
	for len(stack) > 0 {
		if err := sdk.Interrupted(ctx, n); err != nil {
			return 0, err
		}
		top := stack[len(stack)-1]
		stack = append(stack[:len(stack)-1], src.children(top)...)
		n++
	}
	return n, nil
}

// depthOf is a max_depth argument: absent is -1, unlimited.
func depthOf(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

// estimate is a lower bound of size(v) that costs no encoding: the bytes
// of its strings and keys. A tree well under the limit skips the exact
// measure.
func estimate(v any) int {
	switch x := v.(type) {
	case string:
		return len(x)
	case map[string]any:
		n := 0
		for k, e := range x {
			n += len(k) + estimate(e)
		}
		return n
	case []any:
		n := 0
		for _, e := range x {
			n += estimate(e)
		}
		return n
	}
	return 1
}

func size(v any) int {
	b, _ := json.Marshal(v)
	return len(b)
}

// treeJSON is a tree node of the contract: {name, type, path, script?,
// owner?, editable_children?, children}.
func treeJSON(n *node, depth, maxDepth int, lightweight bool) map[string]any {
	out := map[string]any{"name": n.name, "type": n.typ, "path": n.path}
	if !lightweight {
		out["script"] = n.script
	}
	if n.owner != "" {
		out["owner"] = n.owner
	}
	if n.editable {
		out["editable_children"] = true
	}
	if n.opaque {
		out["instance"] = n.instance
		out["children_unknown"] = true
	}
	children := []any{}
	if maxDepth < 0 || depth < maxDepth {
		for _, c := range n.children {
			children = append(children, treeJSON(c, depth+1, maxDepth, lightweight))
		}
	}
	out["children"] = children
	return out
}

// ---- get_selected_node

func getSelectedNodeEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, _ noArgs) (sdk.Result, error) {
	out, err := forward(ctx, ed, "cmd_get_selected_node", map[string]any{})
	if err != nil {
		return sdk.Result{}, err
	}
	if _, ok := out["selected"]; !ok {
		out["selected"] = nil
	}
	return sdk.JSON(out), nil
}

func getSelectedNode(ctx context.Context, call *sdk.Call, _ noArgs) (sdk.Result, error) {
	return sdk.JSON(map[string]any{"selected": nil,
		"note": "headless mode has no selection (no Godot editor is attached); name the node with node_path in the other inspection tools"}), nil
}

// ---- get_node_properties

type nodePropsIn struct {
	Scene        sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene; default the active scene"`
	NodePath     string        `json:"node_path" jsonschema:"node path relative to the scene root: \".\" is the root, e.g. \"Player/Sprite2D\""`
	IncludeLarge bool          `json:"include_large,omitempty" jsonschema:"also give values over 2 KB as JSON (packed data such as a TileMapLayer's tile_map_data), which are otherwise left out"`
}

// maxValueBytes is the largest value, as JSON, that get_node_properties
// gives unless asked: a TileMapLayer's tile_map_data alone is 60 KB of
// numbers no agent reads.
const maxValueBytes = 2 << 10

func getNodeProperties(ctx context.Context, call *sdk.Call, in nodePropsIn) (sdk.Result, error) {
	n, err := headlessNode(ctx, call, string(in.Scene), in.NodePath)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(leaveOutLarge(nodeInfo(n), in)), nil
}

// leaveOutLarge replaces each value of info's builtin and properties over
// maxValueBytes with a note of its size, listed in left_out, unless the
// call asks for them. overridden is computed before, from the real values.
func leaveOutLarge(info map[string]any, in nodePropsIn) map[string]any {
	if in.IncludeLarge {
		return info
	}
	var out []string
	for _, key := range []string{"builtin", "properties"} {
		m, _ := info[key].(map[string]any)
		for name, v := range m {
			if n := size(v); n > maxValueBytes {
				m[name] = fmt.Sprintf("(%d bytes of JSON, left out)", n)
				out = append(out, name)
			}
		}
	}
	if len(out) > 0 {
		sort.Strings(out)
		info["left_out"] = out
		info["hint"] = fmt.Sprintf("%s left out for size: read one with godot_inspection_get_node_property {\"node_path\": %q, \"property\": %q}, or call again with include_large: true",
			strings.Join(out, ", "), in.NodePath, out[0])
	}
	return info
}

// editorNodeProperties is the addon's node_info plus builtin and
// overridden, which the addon's cmd_get_node_properties does not report.
func editorNodeProperties(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in nodePropsIn) (sdk.Result, error) {
	if err := editorScene(ctx, ed, in.Scene); err != nil {
		return sdk.Result{}, err
	}
	info, err := forward(ctx, ed, "cmd_get_node_properties", map[string]any{"node_path": in.NodePath})
	if err != nil {
		return sdk.Result{}, err
	}
	typ, _ := info["type"].(string)
	builtin, err := editorBuiltin(ctx, ed, in.NodePath, builtinNames(typ))
	var e *sdk.Error
	if errors.As(err, &e) && addonerr.IsUnknownCommand(e) {
		// An addon older than cmd_snapshot_subtree (#535) still
		// answers the contract's node_info.
		info["builtin"], info["overridden"] = map[string]any{}, []string{}
		info["note"] = "builtin is empty: " + e.Message + "; " + e.Hint
		return sdk.JSON(leaveOutLarge(info, in)), nil
	}
	if err != nil {
		return sdk.Result{}, err
	}
	info["builtin"] = builtin
	info["overridden"] = overridden(typ, builtin)
	return sdk.JSON(leaveOutLarge(info, in)), nil
}

// editorBuiltin reads the values of the engine properties names of the
// node at nodePath with one more round trip: the addon's snapshot returns
// the requested names that exist.
func editorBuiltin(ctx context.Context, ed *sdk.Editor, nodePath string, names []string) (map[string]any, error) {
	builtin := map[string]any{}
	if len(names) == 0 {
		return builtin, nil
	}
	snap, err := forward(ctx, ed, "cmd_snapshot_subtree", map[string]any{
		"node_path": nodePath, "properties": names, "max_depth": 0})
	if err != nil {
		return nil, err
	}
	s, _ := snap["snapshot"].(map[string]any)
	props, _ := s["properties"].(map[string]any)
	for _, n := range names {
		if v, ok := props[n]; ok {
			builtin[n] = v
		}
	}
	return builtin, nil
}

// builtinNames lists the engine properties of class that a scene stores
// and that have a known default: what get_node_properties reports as
// builtin.
func builtinNames(class string) []string {
	var out []string
	for _, p := range db.Properties(class) {
		if p.Saved() && p.HasDefault && p.Name != "script" && !strings.Contains(p.Name, "/") {
			out = append(out, p.Name)
		}
	}
	return out
}

// overridden lists the builtin names whose value is not the engine default.
func overridden(class string, builtin map[string]any) []string {
	out := []string{}
	for _, name := range builtinNames(class) {
		v, ok := builtin[name]
		if !ok {
			continue
		}
		d, ok := db.DefaultValue(class, name)
		if !ok || !jsonEqual(v, godot.ToJSON(d)) {
			out = append(out, name)
		}
	}
	return out
}

// isScriptVar reports whether a property set on n in the file is a script
// variable rather than an engine property of its class.
func isScriptVar(n *node, name string) bool {
	if strings.HasPrefix(name, "metadata/") {
		return false
	}
	_, engine := db.Property(n.typ, name)
	return !engine
}

func scriptVars(n *node) map[string]any {
	out := map[string]any{}
	for _, p := range n.props {
		if isScriptVar(n, p.name) {
			out[p.name] = p.json()
		}
	}
	return out
}

// value returns a property of a headless node: the scene's value, else the
// engine default of its class.
func value(n *node, name string) (any, bool) {
	switch name {
	case "name":
		return n.name, true
	case "script":
		return n.script, true
	}
	if p, ok := n.prop(name); ok {
		return p.json(), true
	}
	if d, ok := db.DefaultValue(n.typ, name); ok {
		return godot.ToJSON(d), true
	}
	if _, ok := db.Property(n.typ, name); ok {
		return nil, true
	}
	return nil, false
}

func nodeInfo(n *node) map[string]any {
	children := []string{}
	for _, c := range n.children {
		children = append(children, c.name)
	}
	builtin := map[string]any{}
	for _, name := range builtinNames(n.typ) {
		builtin[name], _ = value(n, name)
	}
	return map[string]any{
		"node_path":  n.path,
		"type":       n.typ,
		"script":     n.script,
		"properties": scriptVars(n),
		"children":   children,
		"builtin":    builtin,
		"overridden": overridden(n.typ, builtin),
	}
}

// ---- get_node_property

func getNodeProperty(ctx context.Context, call *sdk.Call, in propIn) (sdk.Result, error) {
	n, err := headlessNode(ctx, call, string(in.Scene), in.NodePath)
	if err != nil {
		return sdk.Result{}, err
	}
	v, ok := value(n, in.Property)
	return sdk.JSON(map[string]any{"node_path": n.path, "property": in.Property, "value": v, "exists": ok}), nil
}

// ---- get_node_property_list

func getNodePropertyList(ctx context.Context, call *sdk.Call, in nodeIn) (sdk.Result, error) {
	n, err := headlessNode(ctx, call, string(in.Scene), in.NodePath)
	if err != nil {
		return sdk.Result{}, err
	}
	names := []string{}
	seen := map[string]bool{}
	for _, p := range db.Properties(n.typ) {
		if !seen[p.Name] {
			seen[p.Name] = true
			names = append(names, p.Name)
		}
	}
	for _, p := range n.props {
		if !seen[p.name] && isScriptVar(n, p.name) {
			seen[p.name] = true
			names = append(names, p.name)
		}
	}
	return sdk.JSON(map[string]any{"node_path": n.path, "type": n.typ, "properties": names}), nil
}

// ---- get_node_groups

func getNodeGroups(ctx context.Context, call *sdk.Call, in nodeIn) (sdk.Result, error) {
	n, err := headlessNode(ctx, call, string(in.Scene), in.NodePath)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(map[string]any{"node_path": n.path, "groups": publicGroups(n.groups)}), nil
}

func publicGroups(gs []string) []string {
	out := []string{}
	for _, g := range gs {
		if !strings.HasPrefix(g, "_") {
			out = append(out, g)
		}
	}
	sort.Strings(out)
	return out
}

func propertyParams(in propIn) map[string]any {
	return map[string]any{"node_path": in.NodePath, "property": in.Property}
}

func nodeParams(in nodeIn) map[string]any { return map[string]any{"node_path": in.NodePath} }
