package main

import (
	"context"
	"encoding/json"
	"errors"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/addonerr"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

type noArgs struct{}

type treeIn struct {
	Scene       string `json:"scene,omitempty" jsonschema:"res:// path of the scene; default the active scene"`
	MaxDepth    *int   `json:"max_depth,omitempty" jsonschema:"levels below the root to include; -1 is unlimited, 0 the root only" default:"-1" minimum:"-1" maximum:"1000"`
	Lightweight bool   `json:"lightweight,omitempty" jsonschema:"leave out scripts, for a smaller answer"`
}

type nodeIn struct {
	Scene    string `json:"scene,omitempty" jsonschema:"res:// path of the scene; default the active scene"`
	NodePath string `json:"node_path" jsonschema:"node path relative to the scene root: \".\" is the root, e.g. \"Player/Sprite2D\""`
}

type propIn struct {
	Scene    string `json:"scene,omitempty" jsonschema:"res:// path of the scene; default the active scene"`
	NodePath string `json:"node_path" jsonschema:"node path relative to the scene root: \".\" is the root, e.g. \"Player/Sprite2D\""`
	Property string `json:"property" jsonschema:"property name, e.g. position or a script variable"`
}

// ---- get_project_info

func getProjectInfo(ctx context.Context, call *sdk.Call, _ noArgs) (sdk.Result, error) {
	if call.EditorAttached {
		return relay(ctx, call, "", "cmd_get_project_info", map[string]any{})
	}
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
	for _, s := range db.Settings() {
		if a, ok := strings.CutPrefix(s, "input/"); ok {
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
	if call.EditorAttached {
		return relay(ctx, call, "", "cmd_get_active_scene", map[string]any{})
	}
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

func listScenes(ctx context.Context, call *sdk.Call, _ noArgs) (sdk.Result, error) {
	if call.EditorAttached {
		return relay(ctx, call, "", "cmd_list_scenes", map[string]any{})
	}
	ws := call.Workspace()
	scenes, err := sceneFiles(ctx, ws)
	if err != nil {
		return sdk.Result{}, err
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
	return sdk.JSON(map[string]any{"scenes": list, "main_scene": main}), nil
}

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
		return nil, notFound(nodePath, s)
	}
	return n, nil
}

// ---- get_scene_tree

// maxTreeBytes is the largest tree answer, as JSON. An agent reads the
// answer in its context window; a 5000-node scene would fill it.
var maxTreeBytes = 256 << 10

func getSceneTree(ctx context.Context, call *sdk.Call, in treeIn) (sdk.Result, error) {
	var fetch func(maxDepth int, lightweight bool) (any, error)
	if call.EditorAttached {
		if err := editorScene(ctx, call, in.Scene); err != nil {
			return sdk.Result{}, err
		}
		fetch = func(maxDepth int, lightweight bool) (any, error) {
			out, err := forward(ctx, call, "cmd_get_scene_tree", map[string]any{"max_depth": maxDepth, "lightweight": lightweight})
			if err != nil {
				return nil, err
			}
			if out["tree"] == nil {
				return nil, noActiveScene(true)
			}
			return out["tree"], nil
		}
	} else {
		_, root, err := headlessScene(ctx, call, newLoader(call), in.Scene)
		if err != nil {
			return sdk.Result{}, err
		}
		fetch = func(maxDepth int, lightweight bool) (any, error) {
			return treeJSON(root, 0, maxDepth, lightweight), nil
		}
	}
	maxDepth := depthOf(in.MaxDepth)
	tree, err := fetch(maxDepth, in.Lightweight)
	if err != nil {
		return sdk.Result{}, err
	}
	if estimate(tree) <= maxTreeBytes/4 || size(tree) <= maxTreeBytes {
		return sdk.JSON(map[string]any{"tree": tree}), nil
	}
	// Too big: first without scripts, then fewer levels until it fits.
	lw := true
	if !in.Lightweight {
		if tree, err = fetch(maxDepth, lw); err != nil {
			return sdk.Result{}, err
		}
	}
	depth := maxDepth
	if depth < 0 || depth > height(tree) {
		depth = height(tree)
	}
	for size(tree) > maxTreeBytes && depth > 0 {
		depth--
		if tree, err = fetch(depth, lw); err != nil {
			return sdk.Result{}, err
		}
	}
	return sdk.JSON(map[string]any{"tree": tree, "truncated": true, "max_depth": depth,
		"hint": "the tree is too big for one answer, so it is lightweight (no scripts) and cut at max_depth; " +
			"read deeper parts with godot_inspection_snapshot_subtree {\"node_path\": …, \"max_depth\": …}"}), nil
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

// height is the number of levels below the root of a tree answer.
func height(v any) int {
	m, _ := v.(map[string]any)
	h := 0
	switch cs := m["children"].(type) {
	case []any:
		for _, c := range cs {
			h = max(h, 1+height(c))
		}
	case []map[string]any:
		for _, c := range cs {
			h = max(h, 1+height(c))
		}
	}
	return h
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

func getSelectedNode(ctx context.Context, call *sdk.Call, _ noArgs) (sdk.Result, error) {
	if call.EditorAttached {
		out, err := forward(ctx, call, "cmd_get_selected_node", map[string]any{})
		if err != nil {
			return sdk.Result{}, err
		}
		if _, ok := out["selected"]; !ok {
			out["selected"] = nil
		}
		return sdk.JSON(out), nil
	}
	return sdk.JSON(map[string]any{"selected": nil,
		"note": "headless mode has no selection (no Godot editor is attached); name the node with node_path in the other inspection tools"}), nil
}

// ---- get_node_properties

func getNodeProperties(ctx context.Context, call *sdk.Call, in nodeIn) (sdk.Result, error) {
	if call.EditorAttached {
		return editorNodeProperties(ctx, call, in)
	}
	n, err := headlessNode(ctx, call, in.Scene, in.NodePath)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(nodeInfo(n)), nil
}

// editorNodeProperties is the addon's node_info plus builtin and
// overridden, which the addon's cmd_get_node_properties does not report.
func editorNodeProperties(ctx context.Context, call *sdk.Call, in nodeIn) (sdk.Result, error) {
	if err := editorScene(ctx, call, in.Scene); err != nil {
		return sdk.Result{}, err
	}
	info, err := forward(ctx, call, "cmd_get_node_properties", map[string]any{"node_path": in.NodePath})
	if err != nil {
		return sdk.Result{}, err
	}
	typ, _ := info["type"].(string)
	builtin, err := editorBuiltin(ctx, call, in.NodePath, builtinNames(typ))
	var e *sdk.Error
	if errors.As(err, &e) && addonerr.IsUnknownCommand(e) {
		// An addon older than cmd_snapshot_subtree (#535) still
		// answers the contract's node_info.
		info["builtin"], info["overridden"] = map[string]any{}, []string{}
		info["note"] = "builtin is empty: " + e.Message + "; " + e.Hint
		return sdk.JSON(info), nil
	}
	if err != nil {
		return sdk.Result{}, err
	}
	info["builtin"] = builtin
	info["overridden"] = overridden(typ, builtin)
	return sdk.JSON(info), nil
}

// editorBuiltin reads the values of the engine properties names of the
// node at nodePath with one more round trip: the addon's snapshot returns
// the requested names that exist.
func editorBuiltin(ctx context.Context, call *sdk.Call, nodePath string, names []string) (map[string]any, error) {
	builtin := map[string]any{}
	if len(names) == 0 {
		return builtin, nil
	}
	snap, err := forward(ctx, call, "cmd_snapshot_subtree", map[string]any{
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
	if call.EditorAttached {
		return relay(ctx, call, in.Scene, "cmd_get_node_property", map[string]any{"node_path": in.NodePath, "property": in.Property})
	}
	n, err := headlessNode(ctx, call, in.Scene, in.NodePath)
	if err != nil {
		return sdk.Result{}, err
	}
	v, ok := value(n, in.Property)
	return sdk.JSON(map[string]any{"node_path": n.path, "property": in.Property, "value": v, "exists": ok}), nil
}

// ---- get_node_property_list

func getNodePropertyList(ctx context.Context, call *sdk.Call, in nodeIn) (sdk.Result, error) {
	if call.EditorAttached {
		return relay(ctx, call, in.Scene, "cmd_get_node_property_list", map[string]any{"node_path": in.NodePath})
	}
	n, err := headlessNode(ctx, call, in.Scene, in.NodePath)
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
	if call.EditorAttached {
		return relay(ctx, call, in.Scene, "cmd_get_node_groups", map[string]any{"node_path": in.NodePath})
	}
	n, err := headlessNode(ctx, call, in.Scene, in.NodePath)
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
