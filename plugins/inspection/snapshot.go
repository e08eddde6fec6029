package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"sync"

	"github.com/godot-mcp/godot-mcp/sdk"
)

type snapIn struct {
	Scene      sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene; default the active scene"`
	NodePath   string        `json:"node_path,omitempty" jsonschema:"root of the subtree, relative to the scene root" default:"."`
	Properties []string      `json:"properties,omitempty" jsonschema:"extra built-in property names to record on every node that has them, e.g. [\"visible\", \"modulate\"]"`
	MaxDepth   *int          `json:"max_depth,omitempty" jsonschema:"levels below node_path to include; -1 is unlimited" default:"-1" minimum:"-1" maximum:"1000"`
}

type diffIn struct {
	Before string `json:"before" alias:"before_id" jsonschema:"snapshot_id of the earlier snapshot"`
	After  string `json:"after,omitempty" alias:"after_id" jsonschema:"snapshot_id of the later snapshot; default: snapshot the same subtree again now"`
}

// maxSnapshots bounds the snapshots kept; the oldest goes first.
const maxSnapshots = 64

// snapshot is one recorded subtree and what it was taken with, so
// diff_snapshots can take the same snapshot again.
type snapshot struct {
	id   string
	in   snapIn
	tree map[string]any
}

// store keeps snapshots for the life of the plugin process.
var store = struct {
	sync.Mutex
	next  int
	order []string
	byID  map[string]*snapshot
}{byID: map[string]*snapshot{}}

func remember(in snapIn, tree map[string]any) string {
	store.Lock()
	defer store.Unlock()
	store.next++
	id := fmt.Sprintf("snap-%d", store.next)
	store.byID[id] = &snapshot{id: id, in: in, tree: tree}
	store.order = append(store.order, id)
	for len(store.order) > maxSnapshots {
		delete(store.byID, store.order[0])
		store.order = store.order[1:]
	}
	return id
}

func recall(id string) (*snapshot, error) {
	store.Lock()
	defer store.Unlock()
	if s, ok := store.byID[id]; ok {
		return s, nil
	}
	return nil, sdk.Errorf(sdk.CodeNotFound,
		"take one with godot_inspection_snapshot_subtree; snapshots live in memory, the last 64 are kept, and a restart of the toolset forgets them",
		"no snapshot %q", id)
}

// taker records a subtree, in one mode.
type taker func(ctx context.Context, in snapIn) (map[string]any, error)

func snapshotSubtree(ctx context.Context, call *sdk.Call, in snapIn) (sdk.Result, error) {
	return snapshotWith(ctx, headlessTaker(call), in)
}

func snapshotSubtreeEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in snapIn) (sdk.Result, error) {
	return snapshotWith(ctx, editorTaker(ed), in)
}

func snapshotWith(ctx context.Context, take taker, in snapIn) (sdk.Result, error) {
	tree, err := take(ctx, in)
	if err != nil {
		return sdk.Result{}, err
	}
	id := remember(in, tree)
	return sdk.JSON(map[string]any{"node_path": cleanNodePath(in.NodePath), "snapshot": tree, "snapshot_id": id}), nil
}

// normal fills in the defaults of a snapshot's arguments.
func (in snapIn) normal() snapIn {
	if in.NodePath == "" {
		in.NodePath = "."
	}
	if in.Properties == nil {
		in.Properties = []string{}
	}
	return in
}

// editorTaker records a subtree of the editor's active scene.
func editorTaker(ed *sdk.Editor) taker {
	return func(ctx context.Context, in snapIn) (map[string]any, error) {
		in = in.normal()
		if err := editorScene(ctx, ed, in.Scene); err != nil {
			return nil, err
		}
		out, err := forward(ctx, ed, "cmd_snapshot_subtree", map[string]any{
			"node_path": in.NodePath, "properties": in.Properties, "max_depth": depthOf(in.MaxDepth)})
		if err != nil {
			return nil, err
		}
		s, _ := out["snapshot"].(map[string]any)
		if s == nil {
			return nil, sdk.Errorf(sdk.CodeInternalError, "update the godot-mcp addon in the project", "cmd_snapshot_subtree answered without a snapshot")
		}
		return s, nil
	}
}

// headlessTaker records a subtree of a scene file.
func headlessTaker(call *sdk.Call) taker {
	return func(ctx context.Context, in snapIn) (map[string]any, error) {
		return takeHeadless(ctx, call, in.normal())
	}
}

func takeHeadless(ctx context.Context, call *sdk.Call, in snapIn) (map[string]any, error) {
	n, err := headlessNode(ctx, call, string(in.Scene), in.NodePath)
	if err != nil {
		return nil, err
	}
	// Through JSON, so a stored snapshot compares like an editor one.
	var tree map[string]any
	b, err := json.Marshal(snapJSON(n, 0, depthOf(in.MaxDepth), in.Properties))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &tree); err != nil {
		return nil, err
	}
	return tree, nil
}

// snapJSON is the addon's snapshot node: a full tree node plus properties
// (script variables, the requested names the node has, position, rotation
// and scale when the class has them) and groups.
func snapJSON(n *node, depth, maxDepth int, extra []string) map[string]any {
	out := treeJSON(n, 0, 0, false)
	props := scriptVars(n)
	for _, name := range append([]string{"position", "rotation", "scale"}, extra...) {
		if v, ok := value(n, name); ok && v != nil {
			props[name] = v
		}
	}
	out["properties"] = props
	out["groups"] = publicGroups(n.groups)
	children := []any{}
	if maxDepth < 0 || depth < maxDepth {
		for _, c := range n.children {
			children = append(children, snapJSON(c, depth+1, maxDepth, extra))
		}
	}
	out["children"] = children
	return out
}

func diffSnapshots(ctx context.Context, call *sdk.Call, in diffIn) (sdk.Result, error) {
	return diffWith(ctx, headlessTaker(call), in)
}

func diffSnapshotsEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in diffIn) (sdk.Result, error) {
	return diffWith(ctx, editorTaker(ed), in)
}

func diffWith(ctx context.Context, take taker, in diffIn) (sdk.Result, error) {
	before, err := recall(in.Before)
	if err != nil {
		return sdk.Result{}, err
	}
	var after *snapshot
	if in.After != "" {
		if after, err = recall(in.After); err != nil {
			return sdk.Result{}, err
		}
	} else {
		tree, err := take(ctx, before.in)
		if err != nil {
			return sdk.Result{}, err
		}
		after = &snapshot{id: remember(before.in, tree), in: before.in, tree: tree}
	}
	a, b := flatten(before.tree), flatten(after.tree)
	added, removed := []string{}, []string{}
	changed := []map[string]any{}
	for p := range b {
		if _, ok := a[p]; !ok {
			added = append(added, p)
		}
	}
	for p, na := range a {
		nb, ok := b[p]
		if !ok {
			removed = append(removed, p)
			continue
		}
		for _, f := range []string{"type", "script", "owner", "groups"} {
			if !jsonEqual(na[f], nb[f]) {
				changed = append(changed, map[string]any{"node_path": p, "field": f, "before": na[f], "after": nb[f]})
			}
		}
		pa, _ := na["properties"].(map[string]any)
		pb, _ := nb["properties"].(map[string]any)
		for _, k := range unionKeys(pa, pb) {
			va, inA := pa[k]
			vb, inB := pb[k]
			if inA != inB || !jsonEqual(va, vb) {
				changed = append(changed, map[string]any{"node_path": p, "field": "properties." + k, "before": va, "after": vb})
			}
		}
	}
	sort.Strings(added)
	sort.Strings(removed)
	sort.SliceStable(changed, func(i, j int) bool {
		pi, pj := changed[i]["node_path"].(string), changed[j]["node_path"].(string)
		if pi != pj {
			return pi < pj
		}
		return changed[i]["field"].(string) < changed[j]["field"].(string)
	})
	return sdk.JSON(map[string]any{
		"before": before.id, "after": after.id,
		"unchanged": len(added)+len(removed)+len(changed) == 0,
		"added":     added, "removed": removed, "changed": changed,
	}), nil
}

// flatten maps each node path of a snapshot to its node.
func flatten(tree map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	var walk func(n map[string]any)
	walk = func(n map[string]any) {
		p, _ := n["path"].(string)
		out[p] = n
		cs, _ := n["children"].([]any)
		for _, c := range cs {
			if m, ok := c.(map[string]any); ok {
				walk(m)
			}
		}
	}
	walk(tree)
	return out
}

func unionKeys(a, b map[string]any) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range []map[string]any{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

// jsonEqual compares two JSON values; numbers compare by value within a
// relative 1e-6, since the editor sends floats that went through float32
// (0.219608 for a colour component stored as 0.2196078).
func jsonEqual(a, b any) bool {
	a, b = normal(a), normal(b)
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		return ok && (x == y || math.Abs(x-y) <= 1e-6*math.Max(math.Abs(x), math.Abs(y)))
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !jsonEqual(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

// normal turns any Go value into its generic JSON form (numbers float64).
func normal(v any) any {
	switch v.(type) {
	case nil, bool, string, float64, map[string]any, []any:
		return v
	}
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return v
	}
	return out
}
