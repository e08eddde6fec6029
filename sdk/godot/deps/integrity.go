package deps

import (
	"path"
	"sort"
	"strings"
)

// Integrity returns the problems of the project's files, sorted by file and
// line: each file's own findings (parse errors, missing sub_resources,
// unknown ext_resource ids, bad parent paths, duplicate node names,
// connections to missing nodes) and the references that lead nowhere
// (ext_resource and Resource() paths and uids, preloads, loads, project
// settings). only, when not nil, limits the report to files it accepts.
func (g *Graph) Integrity(only func(*FileInfo) bool) []Finding {
	var out []Finding
	for _, p := range g.paths {
		fi := g.files[p]
		if only != nil && !only(fi) {
			continue
		}
		out = append(out, fi.Findings...)
		for _, r := range g.out[p] {
			if f, ok := g.refFinding(r); ok {
				out = append(out, f)
			}
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].File != out[b].File {
			return out[a].File < out[b].File
		}
		return out[a].Line < out[b].Line
	})
	return out
}

// refFinding judges one reference.
func (g *Graph) refFinding(r Ref) (Finding, bool) {
	if r.Target != "" {
		// An ext_resource whose uid is known but whose path no longer
		// exists loads (by uid) but names a stale path.
		if r.Via == ViaExtResource && r.Path != "" && r.Path != r.Target && g.files[r.Path] == nil {
			return Finding{File: r.From, Line: r.Line, Code: CodeStalePath, Severity: SeverityWarning,
				Message: "ext_resource " + quote(r.ID) + " has path " + quote(r.Path) + ", which does not exist; its uid " + r.UID + " resolves to " + r.Target,
				Hint:    "set path=\"" + r.Target + "\" (the editor does the same when it re-saves the file)"}, true
		}
		return Finding{}, false
	}
	missing := r.Raw
	if r.Path != "" && strings.HasPrefix(r.Raw, "uid://") {
		missing = r.Path + " (" + r.Raw + ")"
	}
	hint := g.moveHint(r)
	switch r.Via {
	case ViaExtResource, ViaResource:
		what := "ext_resource " + quote(r.ID)
		if r.Via == ViaResource {
			what = "Resource() value"
		}
		return Finding{File: r.From, Line: r.Line, Code: CodeBrokenExtResource, Severity: SeverityError,
			Message: what + " points to " + missing + ", which is not in the project",
			Hint:    hint + "restore the file, or point the reference at an existing resource; Godot fails to load this file until then"}, true
	case ViaPreload, ViaExtends, ViaInclude:
		return Finding{File: r.From, Line: r.Line, Code: CodeBrokenPreload, Severity: SeverityError,
			Message: r.Via + " of " + missing + ", which is not in the project",
			Hint:    hint + "restore the file or fix the path; the script fails to compile until then"}, true
	case ViaLoad:
		return Finding{File: r.From, Line: r.Line, Code: CodeBrokenLoad, Severity: SeverityWarning,
			Message: "load of " + missing + ", which is not in the project",
			Hint:    hint + "fix the path; load() returns null at run time"}, true
	case ViaSetting:
		sev := SeverityWarning
		if r.Type == "application/run/main_scene" || strings.HasPrefix(r.Type, "autoload/") {
			sev = SeverityError
		}
		return Finding{File: r.From, Line: r.Line, Code: CodeBrokenSetting, Severity: sev,
			Message: "setting " + r.Type + " names " + missing + ", which is not in the project",
			Hint:    hint + "change the setting to an existing file (Project Settings), or restore the file"}, true
	}
	return Finding{}, false
}

// moveHint suggests where a missing file went: a file of the same name
// elsewhere in the project.
func (g *Graph) moveHint(r Ref) string {
	p := r.Raw
	if r.Path != "" {
		p = r.Path
	}
	if !strings.HasPrefix(p, "res://") {
		return ""
	}
	if c := g.byBase[path.Base(p)]; len(c) == 1 {
		return "a file of that name exists at " + c[0] + ": did it move? "
	}
	return ""
}

// NodeUse is a node of a scene, with the scene.
type NodeUse struct {
	File string `json:"file"`
	NodeInfo
}

// Nodes returns the nodes of the given scenes (all scenes when scenes is
// empty) that match, in path and file order.
func (g *Graph) Nodes(scenes []string, match func(NodeInfo) bool) []NodeUse {
	var out []NodeUse
	visit := func(fi *FileInfo) {
		for _, n := range fi.Nodes {
			if match(n) {
				out = append(out, NodeUse{File: fi.Path, NodeInfo: n})
			}
		}
	}
	if len(scenes) == 0 {
		for _, p := range g.paths {
			visit(g.files[p])
		}
		return out
	}
	for _, p := range scenes {
		if fi := g.files[p]; fi != nil {
			visit(fi)
		}
	}
	return out
}

// Connections returns the signal connections of scenes and the connect(
// calls of scripts, filtered by match (nil: all).
func (g *Graph) Connections(match func(Connection) bool) []Connection {
	var out []Connection
	for _, p := range g.paths {
		for _, c := range g.files[p].Connections {
			if match == nil || match(c) {
				out = append(out, c)
			}
		}
	}
	return out
}
