package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
	"github.com/godot-mcp/godot-mcp/sdk/godot/deps"
)

// defaultLimit is the most items of a page when the caller sets no limit
// (the page also stops near sdk.PageBytes).
const defaultLimit = 200

// coverage is part of every result: the files the analysis did not read.
type coverage struct {
	Skipped []deps.Finding `json:"skipped,omitempty" jsonschema:"files over the analysis size limit (16 MiB) that were not read; results that depend on their references, nodes or connections may be incomplete"`
}

func (c *coverage) cover(g *deps.Graph) *coverage {
	c.Skipped = g.Skipped()
	return c
}

// covered is a result that embeds coverage.
type covered interface{ cover(*deps.Graph) *coverage }

// summary is a result whose text is a short summary for a reader followed
// by out, both saying which files of g were skipped.
func summary(g *deps.Graph, out covered, text string) sdk.Result {
	for _, f := range out.cover(g).Skipped {
		text += "\n" + f.Message
	}
	return sdk.Summarized(text, out)
}

// graph brings the process-wide index of the call's project up to date.
func graph(ctx context.Context, call *sdk.Call) (*deps.Graph, error) {
	p, err := call.Project()
	if err != nil {
		return nil, err
	}
	g, err := deps.Shared(p.Root()).Graph(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, sdk.Errorf(sdk.CodeInternalError, "check that the project directory is readable",
			"cannot read the project: %v", err)
	}
	return g, nil
}

// refPath checks a path argument that may also be a uid:// reference: a
// uid passes as it is (the graph resolves it), anything else is a res://
// path by the SDK's rules.
func refPath(arg, raw string) (string, error) {
	s := strings.TrimSpace(raw)
	if strings.HasPrefix(s, "uid://") {
		return s, nil
	}
	return sdk.CleanResPath(arg, s)
}

func mustFile(g *deps.Graph, name, arg string) (string, error) {
	p, err := refPath(name, arg)
	if err != nil {
		return "", err
	}
	r, ok := g.Resolve(p)
	if !ok {
		return "", sdk.Errorf(sdk.CodeNotFound, "list files with project_structure or the project toolset's search_files",
			"%s is not a file of the project", arg)
	}
	return r, nil
}

// --- project_structure

type structureArgs struct {
	Path   sdk.ResPath `json:"path,omitempty" jsonschema:"res:// directory to start at" default:"res://"`
	Depth  int         `json:"depth,omitempty" jsonschema:"directory levels below path to list separately; deeper files count in their ancestor at this depth" default:"3" minimum:"1" maximum:"20"`
	Offset int         `json:"offset,omitempty" jsonschema:"skip this many items (next_offset of the previous page)" minimum:"0"`
	Limit  int         `json:"limit,omitempty" jsonschema:"maximum number of items in this page; without it at most 200, cut near 20 KB" minimum:"1" maximum:"5000"`
}

type dirSummary struct {
	Path  string         `json:"path"`
	Files int            `json:"files" jsonschema:"files in this directory and its unlisted subdirectories"`
	Bytes int64          `json:"bytes"`
	Kinds map[string]int `json:"kinds" jsonschema:"files per kind: scene, resource, script, shader, asset, import, uid, …"`
}

type structureResult struct {
	coverage
	Root  string       `json:"root"`
	Dirs  []dirSummary `json:"dirs"`
	Files int          `json:"files"`
	Bytes int64        `json:"bytes"`
	sdk.Page
}

func projectStructure(ctx context.Context, call *sdk.Call, in structureArgs) (sdk.Result, error) {
	g, err := graph(ctx, call)
	if err != nil {
		return sdk.Result{}, err
	}
	root := string(in.Path)
	if root == "" {
		root = "res://"
	}
	if root != "res://" {
		root = strings.TrimSuffix(root, "/")
	}
	depth := in.Depth
	if depth <= 0 {
		depth = 3
	}
	prefix := root
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	dirs := map[string]*dirSummary{}
	out := structureResult{Root: root}
	for i, p := range g.Paths() {
		if err := sdk.Interrupted(ctx, i); err != nil {
			return sdk.Result{}, err
		}
		if !strings.HasPrefix(p, prefix) {
			continue
		}
		fi := g.File(p)
		rel := strings.TrimPrefix(p, prefix)
		parts := strings.Split(rel, "/")
		parts = parts[:len(parts)-1]
		if len(parts) > depth {
			parts = parts[:depth]
		}
		d := prefix + strings.Join(parts, "/")
		if d != "res://" {
			d = strings.TrimSuffix(d, "/")
		}
		s := dirs[d]
		if s == nil {
			s = &dirSummary{Path: d, Kinds: map[string]int{}}
			dirs[d] = s
		}
		s.Files++
		s.Bytes += fi.Size
		s.Kinds[string(fi.Kind)]++
		out.Files++
		out.Bytes += fi.Size
	}
	if out.Files == 0 && root != "res://" {
		return sdk.Result{}, sdk.Errorf(sdk.CodeNotFound, "pass a directory of the project, such as res:// or res://scenes", "no files under %s", in.Path)
	}
	list := make([]dirSummary, 0, len(dirs))
	for _, s := range dirs {
		list = append(list, *s)
	}
	sort.Slice(list, func(a, b int) bool { return list[a].Path < list[b].Path })
	out.Dirs, out.Page = sdk.Paginate(list, in.Offset, in.Limit, defaultLimit)
	return summary(g, &out, fmt.Sprintf("%d files, %d bytes under %s in %d directories (page of %d)",
		out.Files, out.Bytes, root, out.Total, len(out.Dirs))), nil
}

// --- project_stats

type kindStat struct {
	Files int   `json:"files"`
	Bytes int64 `json:"bytes"`
}

type typeCount struct {
	Type  string `json:"type"`
	Count int    `json:"count"`
}

type statsResult struct {
	coverage
	Files          int                 `json:"files"`
	Bytes          int64               `json:"bytes"`
	Kinds          map[string]kindStat `json:"kinds"`
	Nodes          int                 `json:"nodes"`
	TopNodeTypes   []typeCount         `json:"top_node_types" jsonschema:"the 20 most used node classes"`
	ScriptLines    int                 `json:"script_lines"`
	Connections    int                 `json:"connections" jsonschema:"[connection] entries of scenes"`
	ScriptConnects int                 `json:"script_connects" jsonschema:"connect( calls in scripts"`
	References     int                 `json:"references"`
	Unresolved     int                 `json:"unresolved_references"`
	MainScene      string              `json:"main_scene,omitempty"`
	Autoloads      map[string]string   `json:"autoloads,omitempty"`
	Errors         int                 `json:"integrity_errors"`
	Warnings       int                 `json:"integrity_warnings"`
	Cache          deps.Stats          `json:"cache" jsonschema:"files seen, read and parsed by this call (unchanged files are served from the cache)"`
}

func projectStats(ctx context.Context, call *sdk.Call, _ struct{}) (sdk.Result, error) {
	g, err := graph(ctx, call)
	if err != nil {
		return sdk.Result{}, err
	}
	out := statsResult{Kinds: map[string]kindStat{}}
	types := map[string]int{}
	for i, p := range g.Paths() {
		if err := sdk.Interrupted(ctx, i); err != nil {
			return sdk.Result{}, err
		}
		fi := g.File(p)
		out.Files++
		out.Bytes += fi.Size
		k := out.Kinds[string(fi.Kind)]
		k.Files++
		k.Bytes += fi.Size
		out.Kinds[string(fi.Kind)] = k
		out.Nodes += len(fi.Nodes)
		for _, n := range fi.Nodes {
			if n.Type != "" {
				types[n.Type]++
			}
		}
		if fi.Kind == deps.KindScript {
			out.ScriptLines += fi.Lines
			out.ScriptConnects += len(fi.Connections)
		} else {
			out.Connections += len(fi.Connections)
		}
		for _, r := range g.Refs(p) {
			out.References++
			if r.Target == "" {
				out.Unresolved++
			}
		}
	}
	for t, n := range types {
		out.TopNodeTypes = append(out.TopNodeTypes, typeCount{t, n})
	}
	sort.Slice(out.TopNodeTypes, func(a, b int) bool {
		x, y := out.TopNodeTypes[a], out.TopNodeTypes[b]
		return x.Count > y.Count || x.Count == y.Count && x.Type < y.Type
	})
	if len(out.TopNodeTypes) > 20 {
		out.TopNodeTypes = out.TopNodeTypes[:20]
	}
	if pr := g.Project(); pr != nil {
		out.MainScene, out.Autoloads = pr.MainScene, pr.Autoloads
	}
	for _, f := range g.Integrity(nil) {
		if f.Severity == deps.SeverityError {
			out.Errors++
		} else {
			out.Warnings++
		}
	}
	if p, err := call.Project(); err == nil {
		out.Cache = deps.Shared(p.Root()).LastStats()
	}
	return summary(g, &out, fmt.Sprintf(
		"%d files (%d bytes), %d nodes, %d script lines, %d references (%d unresolved), %d integrity errors",
		out.Files, out.Bytes, out.Nodes, out.ScriptLines, out.References, out.Unresolved, out.Errors)), nil
}

// --- analyze_dependencies

type depsArgs struct {
	Path     string `json:"path,omitempty" alias:"resource_path" jsonschema:"res:// path or uid:// of one file: its dependencies and dependents; empty for the whole graph"`
	HardOnly bool   `json:"hard_only,omitempty" jsonschema:"only load-time references (ext_resource, Resource(), preload, extends, #include)"`
	Offset   int    `json:"offset,omitempty" jsonschema:"skip this many items (next_offset of the previous page)" minimum:"0"`
	Limit    int    `json:"limit,omitempty" jsonschema:"maximum number of items in this page; without it at most 200, cut near 20 KB" minimum:"1" maximum:"5000"`
}

type depsResult struct {
	coverage
	Path         string      `json:"path,omitempty"`
	Dependencies []deps.Ref  `json:"dependencies,omitempty" jsonschema:"what path uses (one file)"`
	Dependents   []deps.Ref  `json:"dependents,omitempty" jsonschema:"what uses path (one file)"`
	Edges        []deps.Edge `json:"edges,omitempty" jsonschema:"resolved references of the whole project (no path)"`
	Unresolved   []deps.Ref  `json:"unresolved,omitempty" jsonschema:"references that name no file of the project (no path; first 100)"`
	sdk.Page
}

func analyzeDependencies(ctx context.Context, call *sdk.Call, in depsArgs) (sdk.Result, error) {
	g, err := graph(ctx, call)
	if err != nil {
		return sdk.Result{}, err
	}
	keep := func(r deps.Ref) bool { return !in.HardOnly || deps.Hard(r.Via) }
	if in.Path != "" {
		p, err := mustFile(g, "path", in.Path)
		if err != nil {
			return sdk.Result{}, err
		}
		out := depsResult{Path: p, Dependencies: []deps.Ref{}, Dependents: []deps.Ref{}}
		for _, r := range g.Refs(p) {
			if keep(r) {
				out.Dependencies = append(out.Dependencies, r)
			}
		}
		for _, r := range g.UsedBy(p) {
			if keep(r) {
				out.Dependents = append(out.Dependents, r)
			}
		}
		all := len(out.Dependencies) + len(out.Dependents)
		out.Page = sdk.Page{Total: all}
		return summary(g, &out, fmt.Sprintf("%s: %d dependencies, %d dependents",
			p, len(out.Dependencies), len(out.Dependents))), nil
	}
	out := depsResult{}
	edges := g.Edges(in.HardOnly)
	out.Edges, out.Page = sdk.Paginate(edges, in.Offset, in.Limit, defaultLimit)
	for i, p := range g.Paths() {
		if err := sdk.Interrupted(ctx, i); err != nil {
			return sdk.Result{}, err
		}
		for _, r := range g.Refs(p) {
			if r.Target == "" && keep(r) && len(out.Unresolved) < 100 {
				out.Unresolved = append(out.Unresolved, r)
			}
		}
	}
	return summary(g, &out, fmt.Sprintf("%d edges (page of %d), %d unresolved references shown",
		out.Total, len(out.Edges), len(out.Unresolved))), nil
}

// --- detect_circular_dependencies

type cyclesArgs struct {
	IncludeRuntime bool `json:"include_runtime,omitempty" jsonschema:"also follow load() calls, res:// strings and class_name uses (cycles there do not break loading)"`
	Offset         int  `json:"offset,omitempty" jsonschema:"skip this many cycles (next_offset of the previous page)" minimum:"0"`
	Limit          int  `json:"limit,omitempty" jsonschema:"maximum number of cycles in this page; without it at most 200, cut near 20 KB" minimum:"1" maximum:"10000"`
}

type cyclesResult struct {
	coverage
	Cycles [][]string `json:"cycles" jsonschema:"this page's cycles, each as files, the first repeated at the end"`
	Count  int        `json:"count" jsonschema:"cycles found (all pages)"`
	sdk.Page
	SearchCapped bool   `json:"search_capped,omitempty" jsonschema:"the search stopped after 10000 cycles: there may be more"`
	Scope        string `json:"scope" jsonschema:"which references were followed"`
}

// maxCycles bounds the search for cycles: a densely linked project has
// more cycles than anyone reads, and enumerating them all could take long.
const maxCycles = 10000

func detectCycles(ctx context.Context, call *sdk.Call, in cyclesArgs) (sdk.Result, error) {
	g, err := graph(ctx, call)
	if err != nil {
		return sdk.Result{}, err
	}
	cycles, capped := g.Cycles(!in.IncludeRuntime, maxCycles)
	all := make([][]string, 0, len(cycles))
	for _, c := range cycles {
		all = append(all, append(c, c[0]))
	}
	out := cyclesResult{Count: len(all), SearchCapped: capped,
		Scope: "load-time references: ext_resource, Resource(), preload, extends, #include"}
	if in.IncludeRuntime {
		out.Scope = "every reference: load-time, load(), res:// strings and class_name uses"
	}
	out.Cycles, out.Page = sdk.Paginate(all, in.Offset, in.Limit, defaultLimit)
	return summary(g, &out, fmt.Sprintf("%d circular dependencies (page of %d)", out.Count, len(out.Cycles))), nil
}

// --- find_unused_resources / find_orphaned_resources

type unusedArgs struct {
	Kind   string `json:"kind,omitempty" jsonschema:"only files of this kind: scene, resource, script, shader, asset or binary_resource"`
	Offset int    `json:"offset,omitempty" jsonschema:"skip this many items (next_offset of the previous page)" minimum:"0"`
	Limit  int    `json:"limit,omitempty" jsonschema:"maximum number of items in this page; without it at most 200, cut near 20 KB" minimum:"1" maximum:"5000"`
}

type unusedFile struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
	Size int64  `json:"size"`
	// UsedBy lists the (unreachable) files that still reference it.
	UsedBy []string `json:"used_by,omitempty"`
}

type unusedResult struct {
	coverage
	Files        []unusedFile `json:"files"`
	Roots        []deps.Root  `json:"roots" jsonschema:"where reachability started, and why each is a root"`
	Reachability string       `json:"reachability" jsonschema:"how used was decided"`
	sdk.Page
}

const reachabilityText = "A file is used when it is reachable from a root by any chain of references: ext_resource " +
	"paths and uids, Resource() values, res:// strings in properties and scripts (preload, load, extends, plain " +
	"strings), shader #includes, and global class_name uses. Roots are every res:// or uid:// value of a project.godot " +
	"setting (main scene, autoloads, icon, themes, bus layout, …), the engine's res://default_bus_layout.tres, and " +
	"the export_files of export presets. Paths built at run time (string concatenation) cannot be seen; res://addons/ " +
	"is not listed."

func unusedLike(ctx context.Context, call *sdk.Call, in unusedArgs, orphaned bool) (sdk.Result, error) {
	switch in.Kind {
	case "", "scene", "resource", "script", "shader", "asset", "binary_resource":
	default:
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "use scene, resource, script, shader, asset or binary_resource", "kind %q is not known", in.Kind)
	}
	g, err := graph(ctx, call)
	if err != nil {
		return sdk.Result{}, err
	}
	list := g.Unused()
	what := "unused"
	if orphaned {
		list = g.Orphaned()
		what = "orphaned (referenced by no file)"
	}
	var files []unusedFile
	for i, p := range list {
		if err := sdk.Interrupted(ctx, i); err != nil {
			return sdk.Result{}, err
		}
		fi := g.File(p)
		if in.Kind != "" && string(fi.Kind) != in.Kind {
			continue
		}
		u := unusedFile{Path: p, Kind: string(fi.Kind), Size: fi.Size}
		for _, r := range g.UsedBy(p) {
			if r.From != p && !contains(u.UsedBy, r.From) {
				u.UsedBy = append(u.UsedBy, r.From)
			}
		}
		files = append(files, u)
	}
	out := unusedResult{Roots: g.Roots(), Reachability: reachabilityText}
	if out.Roots == nil {
		out.Roots = []deps.Root{}
	}
	out.Files, out.Page = sdk.Paginate(files, in.Offset, in.Limit, defaultLimit)
	text := fmt.Sprintf("%d %s resources from %d roots", out.Total, what, len(out.Roots))
	return summary(g, &out, text), nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func findUnused(ctx context.Context, call *sdk.Call, in unusedArgs) (sdk.Result, error) {
	return unusedLike(ctx, call, in, false)
}

func findOrphaned(ctx context.Context, call *sdk.Call, in unusedArgs) (sdk.Result, error) {
	return unusedLike(ctx, call, in, true)
}

// --- cross_scene_find_refs

type refsArgs struct {
	Target string `json:"target" alias:"target_path" jsonschema:"what to look for: res://path or uid:// of a scene, script or resource; a node class (CharacterBody2D) or script class_name; or a signal name (body_entered)"`
	Kind   string `json:"kind,omitempty" jsonschema:"how to read target: auto, path, type or signal; auto reads a res:// or uid:// as a path, a known class as a type, anything else as a signal" default:"auto"`
	Offset int    `json:"offset,omitempty" jsonschema:"skip this many items (next_offset of the previous page)" minimum:"0"`
	Limit  int    `json:"limit,omitempty" jsonschema:"maximum number of items in this page; without it at most 200, cut near 20 KB" minimum:"1" maximum:"5000"`
}

type refUse struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	What   string `json:"what" jsonschema:"how it is used: ext_resource, preload, instance, node, extends, connection, connect, …"`
	Detail string `json:"detail,omitempty"`
}

type refsResult struct {
	coverage
	Target string   `json:"target"`
	Kind   string   `json:"kind"`
	Uses   []refUse `json:"uses"`
	sdk.Page
}

func findRefs(ctx context.Context, call *sdk.Call, in refsArgs) (sdk.Result, error) {
	g, err := graph(ctx, call)
	if err != nil {
		return sdk.Result{}, err
	}
	target := strings.TrimSpace(in.Target)
	if target == "" {
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass a res:// path, a class name or a signal name", "target is empty")
	}
	kind := in.Kind
	if kind == "" || kind == "auto" {
		db, _ := classdb.Embedded()
		_, isClass := g.ClassScript(target)
		switch {
		case strings.Contains(target, "://"):
			kind = "path"
		case isClass || db != nil && db.Exists(target):
			kind = "type"
		default:
			kind = "signal"
		}
	}
	var uses []refUse
	switch kind {
	case "path":
		p, err := mustFile(g, "target", target)
		if err != nil {
			return sdk.Result{}, err
		}
		target = p
		for _, r := range g.UsedBy(p) {
			u := refUse{File: r.From, Line: r.Line, What: r.Via, Detail: r.Raw}
			uses = append(uses, u)
		}
		// Nodes that instance the scene or carry the script, at their own line.
		for _, n := range g.Nodes(nil, func(n deps.NodeInfo) bool { return n.Instance == p || n.Script == p }) {
			what := "instance"
			if n.Script == p {
				what = "script"
			}
			uses = append(uses, refUse{File: n.File, Line: n.Line, What: what, Detail: n.Path})
		}
	case "type":
		for _, n := range g.Nodes(nil, func(n deps.NodeInfo) bool { return n.Type == target }) {
			uses = append(uses, refUse{File: n.File, Line: n.Line, What: "node", Detail: n.Path})
		}
		for i, p := range g.Paths() {
			if err := sdk.Interrupted(ctx, i); err != nil {
				return sdk.Result{}, err
			}
			fi := g.File(p)
			if fi.Kind == deps.KindScript && fi.Extends == target {
				uses = append(uses, refUse{File: p, Line: fi.ExtendsLine, What: "extends", Detail: "extends " + target})
			}
			if fi.Type == target && fi.Kind == deps.KindResource {
				uses = append(uses, refUse{File: p, Line: 1, What: "resource", Detail: "[gd_resource type=\"" + target + "\"]"})
			}
		}
		if s, ok := g.ClassScript(target); ok {
			for _, r := range g.UsedBy(s) {
				if r.Via == deps.ViaClassName {
					uses = append(uses, refUse{File: r.From, Line: r.Line, What: "class_name", Detail: target})
				}
			}
		}
	case "signal":
		for _, c := range g.Connections(func(c deps.Connection) bool { return c.Signal == target }) {
			u := refUse{File: c.File, Line: c.Line, What: "connection", Detail: c.From + " → " + c.To + "::" + c.Method}
			if c.Code != "" {
				u.What, u.Detail = "connect", c.Code
			}
			uses = append(uses, u)
		}
	default:
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "use auto, path, type or signal", "kind %q is not known", in.Kind)
	}
	sort.SliceStable(uses, func(a, b int) bool {
		if uses[a].File != uses[b].File {
			return uses[a].File < uses[b].File
		}
		return uses[a].Line < uses[b].Line
	})
	out := refsResult{Target: target, Kind: kind}
	out.Uses, out.Page = sdk.Paginate(uses, in.Offset, in.Limit, defaultLimit)
	text := fmt.Sprintf("%d uses of %s %s", out.Total, kind, target)
	return summary(g, &out, text), nil
}

// --- analyze_signal_flow

type signalArgs struct {
	Scene  sdk.ScenePath `json:"scene,omitempty" jsonschema:"only this scene (res:// .tscn) and no scripts"`
	Signal string        `json:"signal,omitempty" jsonschema:"only this signal"`
	Offset int           `json:"offset,omitempty" jsonschema:"skip this many items (next_offset of the previous page)" minimum:"0"`
	Limit  int           `json:"limit,omitempty" jsonschema:"maximum number of items in this page; without it at most 200, cut near 20 KB" minimum:"1" maximum:"5000"`
}

type signalResult struct {
	coverage
	Connections []deps.Connection `json:"connections"`
	PerSignal   map[string]int    `json:"per_signal" jsonschema:"connections per signal, over all pages"`
	sdk.Page
}

func signalFlow(ctx context.Context, call *sdk.Call, in signalArgs) (sdk.Result, error) {
	g, err := graph(ctx, call)
	if err != nil {
		return sdk.Result{}, err
	}
	scene := ""
	if in.Scene != "" {
		if scene, err = mustFile(g, "scene", string(in.Scene)); err != nil {
			return sdk.Result{}, err
		}
	}
	conns := g.Connections(func(c deps.Connection) bool {
		return (scene == "" || c.File == scene) && (in.Signal == "" || c.Signal == in.Signal)
	})
	out := signalResult{PerSignal: map[string]int{}}
	for _, c := range conns {
		out.PerSignal[c.Signal]++
	}
	out.Connections, out.Page = sdk.Paginate(conns, in.Offset, in.Limit, defaultLimit)
	text := fmt.Sprintf("%d connections", out.Total)
	return summary(g, &out, text), nil
}

// --- validate_scene_integrity

type integrityArgs struct {
	Scene          sdk.ResPath `json:"scene,omitempty" alias:"scene_path" jsonschema:"check only this scene or resource (res://); empty checks every scene and resource"`
	IncludeScripts bool        `json:"include_scripts,omitempty" jsonschema:"also check scripts' preload/load paths and project settings"`
	Offset         int         `json:"offset,omitempty" jsonschema:"skip this many items (next_offset of the previous page)" minimum:"0"`
	Limit          int         `json:"limit,omitempty" jsonschema:"maximum number of items in this page; without it at most 200, cut near 20 KB" minimum:"1" maximum:"5000"`
}

type integrityResult struct {
	coverage
	Findings []deps.Finding `json:"findings"`
	Errors   int            `json:"errors"`
	Warnings int            `json:"warnings"`
	Checked  int            `json:"checked" jsonschema:"files checked"`
	sdk.Page
}

func validateIntegrity(ctx context.Context, call *sdk.Call, in integrityArgs) (sdk.Result, error) {
	g, err := graph(ctx, call)
	if err != nil {
		return sdk.Result{}, err
	}
	one := ""
	if in.Scene != "" {
		if one, err = mustFile(g, "scene", string(in.Scene)); err != nil {
			return sdk.Result{}, err
		}
	}
	out := integrityResult{}
	only := func(fi *deps.FileInfo) bool {
		ok := false
		switch {
		case one != "":
			ok = fi.Path == one
		case fi.Kind == deps.KindScene || fi.Kind == deps.KindResource:
			ok = true
		case in.IncludeScripts:
			ok = fi.Kind == deps.KindScript || fi.Kind == deps.KindShader || fi.Kind == deps.KindProject
		}
		if ok {
			out.Checked++
		}
		return ok
	}
	all := g.Integrity(only)
	for _, f := range all {
		if f.Severity == deps.SeverityError {
			out.Errors++
		} else {
			out.Warnings++
		}
	}
	out.Findings, out.Page = sdk.Paginate(all, in.Offset, in.Limit, defaultLimit)
	text := fmt.Sprintf("%d files checked: %d errors, %d warnings", out.Checked, out.Errors, out.Warnings)
	return summary(g, &out, text), nil
}
