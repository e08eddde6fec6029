package deps

import (
	"path"
	"sort"
	"strings"
)

// Graph is a snapshot of a project's files and the references between
// them. It is immutable and safe for concurrent use.
type Graph struct {
	files   map[string]*FileInfo
	paths   []string // sorted
	uids    map[string]string
	classes map[string]string // global class_name → script
	out     map[string][]Ref  // resolved and unresolved references, by holder
	in      map[string][]Ref  // resolved references, by target
	byBase  map[string][]string
	project *FileInfo
}

func newGraph(infos []*FileInfo) *Graph {
	g := &Graph{files: make(map[string]*FileInfo, len(infos)), uids: map[string]string{}, classes: map[string]string{},
		out: map[string][]Ref{}, in: map[string][]Ref{}, byBase: map[string][]string{}}
	for _, fi := range infos {
		g.files[fi.Path] = fi
		g.paths = append(g.paths, fi.Path)
		if fi.Kind.IsResource() {
			b := path.Base(fi.Path)
			g.byBase[b] = append(g.byBase[b], fi.Path)
		}
	}
	for _, fi := range infos {
		switch {
		case fi.UID == "":
		case fi.Describes != "":
			g.uids[fi.UID] = fi.Describes
		default:
			g.uids[fi.UID] = fi.Path
		}
		if fi.ClassName != "" {
			g.classes[fi.ClassName] = fi.Path
		}
		if fi.Kind == KindProject {
			g.project = fi
		}
	}
	for _, fi := range infos {
		refs := make([]Ref, 0, len(fi.Refs))
		for _, r := range fi.Refs {
			r.Target = g.resolveRef(r)
			refs = append(refs, r)
		}
		for _, id := range fi.idents {
			if p, ok := g.classes[id.name]; ok && p != fi.Path {
				refs = append(refs, Ref{From: fi.Path, Line: id.line, Raw: id.name, Target: p, Via: ViaClassName})
			}
		}
		if len(refs) == 0 {
			continue
		}
		g.out[fi.Path] = refs
		for _, r := range refs {
			if r.Target != "" {
				g.in[r.Target] = append(g.in[r.Target], r)
			}
		}
	}
	return g
}

// resolveRef finds the file a reference names: a uid:// first (as the
// engine does), else the path.
func (g *Graph) resolveRef(r Ref) string {
	if strings.HasPrefix(r.Raw, "uid://") {
		if p, ok := g.uids[r.Raw]; ok && g.files[p] != nil {
			return p
		}
		if r.Path != "" && g.files[r.Path] != nil {
			return r.Path
		}
		return ""
	}
	if g.files[r.Raw] != nil {
		return r.Raw
	}
	return ""
}

// Resolve turns a res:// path or uid:// into the res:// path of a file of
// the project; ok is false when nothing matches.
func (g *Graph) Resolve(raw string) (string, bool) {
	if strings.HasPrefix(raw, "uid://") {
		p, ok := g.uids[raw]
		return p, ok && g.files[p] != nil
	}
	_, ok := g.files[raw]
	return raw, ok
}

// Paths returns every file's res:// path, sorted.
func (g *Graph) Paths() []string { return g.paths }

// File returns the summary of one file, or nil.
func (g *Graph) File(p string) *FileInfo { return g.files[p] }

// Refs returns the references a file makes, in file order (class_name uses
// last).
func (g *Graph) Refs(p string) []Ref { return g.out[p] }

// UsedBy returns the resolved references to a file, sorted by holder and line.
func (g *Graph) UsedBy(p string) []Ref {
	out := append([]Ref(nil), g.in[p]...)
	sortRefs(out)
	return out
}

// ClassScript returns the script declaring a global class_name.
func (g *Graph) ClassScript(name string) (string, bool) {
	p, ok := g.classes[name]
	return p, ok
}

// Project returns project.godot's summary, or nil when the project has none.
func (g *Graph) Project() *FileInfo { return g.project }

func sortRefs(rs []Ref) {
	sort.SliceStable(rs, func(a, b int) bool {
		if rs[a].From != rs[b].From {
			return rs[a].From < rs[b].From
		}
		return rs[a].Line < rs[b].Line
	})
}

// Edge is one resolved dependency of the graph.
type Edge struct {
	From string `json:"from"`
	To   string `json:"to"`
	Via  string `json:"via"`
	Line int    `json:"line"`
}

// Edges returns the resolved dependencies, sorted; hardOnly keeps the
// references the engine loads together with their holder.
func (g *Graph) Edges(hardOnly bool) []Edge {
	var out []Edge
	for _, p := range g.paths {
		for _, r := range g.out[p] {
			if r.Target == "" || (hardOnly && !Hard(r.Via)) {
				continue
			}
			out = append(out, Edge{From: p, To: r.Target, Via: r.Via, Line: r.Line})
		}
	}
	return out
}

// Cycles returns the elementary cycles of the dependency graph, each as the
// list of files from its smallest path around back to (not repeating) it,
// sorted; at most limit cycles (truncated reports whether more exist).
// hardOnly restricts the graph to load-time references (ext_resource,
// Resource(), preload, extends, #include), where a cycle stops the engine
// from loading the files; with false, runtime load()s, strings and
// class_name uses count too.
func (g *Graph) Cycles(hardOnly bool, limit int) (cycles [][]string, truncated bool) {
	adj := map[string][]string{}
	for _, e := range g.Edges(hardOnly) {
		if !contains(adj[e.From], e.To) {
			adj[e.From] = append(adj[e.From], e.To)
		}
	}
	for k := range adj {
		sort.Strings(adj[k])
	}
	// Enumerate cycles whose smallest node is s, over nodes >= s, for
	// each s in path order: every elementary cycle is found exactly once.
	onPath := map[string]bool{}
	var stack []string
	var dfs func(s, v string) bool
	dfs = func(s, v string) bool {
		for _, w := range adj[v] {
			if w < s {
				continue
			}
			if w == s {
				if len(cycles) == limit {
					truncated = true
					return false
				}
				cycles = append(cycles, append([]string(nil), stack...))
				continue
			}
			if onPath[w] {
				continue
			}
			onPath[w] = true
			stack = append(stack, w)
			ok := dfs(s, w)
			stack = stack[:len(stack)-1]
			onPath[w] = false
			if !ok {
				return false
			}
		}
		return true
	}
	sccs := g.sccOf(adj)
	for _, s := range g.paths {
		if len(adj[s]) == 0 || !sccs[s] {
			continue
		}
		stack = append(stack[:0], s)
		onPath[s] = true
		ok := dfs(s, s)
		onPath[s] = false
		if !ok {
			break
		}
	}
	return cycles, truncated
}

// sccOf marks the nodes that lie on some cycle (in a strongly connected
// component of two or more nodes, or with a self loop), so the cycle search
// skips the acyclic bulk of a big project at once (Tarjan's algorithm).
func (g *Graph) sccOf(adj map[string][]string) map[string]bool {
	index := map[string]int{}
	low := map[string]int{}
	on := map[string]bool{}
	var st []string
	res := map[string]bool{}
	n := 0
	var strong func(v string)
	strong = func(v string) {
		index[v], low[v] = n, n
		n++
		st = append(st, v)
		on[v] = true
		for _, w := range adj[v] {
			if _, seen := index[w]; !seen {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var comp []string
			for {
				w := st[len(st)-1]
				st = st[:len(st)-1]
				on[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			if len(comp) > 1 || contains(adj[v], v) {
				for _, w := range comp {
					res[w] = true
				}
			}
		}
	}
	for _, p := range g.paths {
		if _, seen := index[p]; !seen && len(adj[p]) > 0 {
			strong(p)
		}
	}
	return res
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Root is a starting point of reachability and why it is one.
type Root struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Roots returns what the project loads by itself: every res:// or uid://
// value of a project.godot setting (main scene, autoloads, icon, themes,
// bus layout, …), the files listed in export presets, and
// res://default_bus_layout.tres, which the engine loads when the
// audio/buses/default_bus_layout setting is left at its default.
func (g *Graph) Roots() []Root {
	var out []Root
	seen := map[string]bool{}
	add := func(p, why string) {
		if p != "" && !seen[p] && g.files[p] != nil {
			seen[p] = true
			out = append(out, Root{Path: p, Reason: why})
		}
	}
	if g.project != nil {
		for _, r := range g.out[g.project.Path] {
			add(r.Target, "project setting "+r.Type)
		}
		if !hasSetting(g.project, "audio/buses/default_bus_layout") {
			add("res://default_bus_layout.tres", "the engine's default audio bus layout")
		}
	}
	if ep := g.files["res://export_presets.cfg"]; ep != nil {
		for _, r := range g.out[ep.Path] {
			add(r.Target, "export preset "+r.Type+" export_files")
		}
	}
	return out
}

func hasSetting(project *FileInfo, name string) bool {
	for _, r := range project.Refs {
		if r.Type == name {
			return true
		}
	}
	return false
}

// Reachable returns every file reachable from the roots by any reference
// (hard, runtime, string or class_name), the roots included.
func (g *Graph) Reachable() map[string]bool {
	seen := map[string]bool{}
	var queue []string
	for _, r := range g.Roots() {
		seen[r.Path] = true
		queue = append(queue, r.Path)
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, r := range g.out[p] {
			if r.Target != "" && !seen[r.Target] {
				seen[r.Target] = true
				queue = append(queue, r.Target)
			}
		}
	}
	return seen
}

// candidate reports whether a file is something that can be unused: a
// resource kind, outside res://addons/ (editor plugins load their own files).
func candidate(fi *FileInfo) bool {
	return fi.Kind.IsResource() && !strings.HasPrefix(fi.Path, "res://addons/")
}

// Unused returns the resources (scenes, resources, scripts, shaders,
// assets) outside res://addons/ that are not reachable from the roots.
func (g *Graph) Unused() []string {
	reach := g.Reachable()
	var out []string
	for _, p := range g.paths {
		if candidate(g.files[p]) && !reach[p] {
			out = append(out, p)
		}
	}
	return out
}

// Orphaned returns the resources that no other file references at all
// (not even an unreachable one), and that are not roots: a subset of
// Unused, and the safest files to delete.
func (g *Graph) Orphaned() []string {
	roots := map[string]bool{}
	for _, r := range g.Roots() {
		roots[r.Path] = true
	}
	var out []string
	for _, p := range g.paths {
		fi := g.files[p]
		if !candidate(fi) || roots[p] {
			continue
		}
		used := false
		for _, r := range g.in[p] {
			if r.From != p {
				used = true
				break
			}
		}
		if !used {
			out = append(out, p)
		}
	}
	return out
}

// Skipped returns the CodeTooLarge findings of the files the index did not
// read because they are over its size limit, sorted by path: results that
// depend on those files' references may be incomplete, and should say so.
func (g *Graph) Skipped() []Finding {
	var out []Finding
	for _, p := range g.paths {
		if fi := g.files[p]; fi.Skipped {
			for _, f := range fi.Findings {
				if f.Code == CodeTooLarge {
					out = append(out, f)
				}
			}
		}
	}
	return out
}
