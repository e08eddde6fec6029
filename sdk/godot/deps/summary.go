package deps

import (
	"bytes"
	"errors"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// How a reference is made. Hard references make the engine load the target
// together with the file (a load cycle through them is a real problem); the
// others are runtime or soft uses.
const (
	ViaExtResource = "ext_resource" // [ext_resource] of a scene or resource (hard)
	ViaResource    = "resource"     // Resource("…") value inside a property (hard)
	ViaPreload     = "preload"      // preload("…") in a script (hard)
	ViaExtends     = "extends"      // extends "res://…" in a script (hard)
	ViaInclude     = "include"      // #include "…" in a shader (hard)
	ViaLoad        = "load"         // load("…") / ResourceLoader.load("…") (runtime)
	ViaString      = "string"       // any other "res://…" string literal or String property (runtime)
	ViaClassName   = "class_name"   // a script naming another script's global class_name
	ViaSetting     = "setting"      // a project.godot setting (main scene, autoloads, icon, …)
	ViaExport      = "export"       // export_files of an export preset
)

// Hard reports whether a reference of this kind is loaded together with its
// holder.
func Hard(via string) bool {
	switch via {
	case ViaExtResource, ViaResource, ViaPreload, ViaExtends, ViaInclude:
		return true
	}
	return false
}

// Ref is one reference from a file to another resource.
type Ref struct {
	From   string `json:"from"`
	Line   int    `json:"line"`
	Raw    string `json:"raw"`              // the path or uid:// as written
	Target string `json:"target,omitempty"` // resolved res:// path; "" when unresolved
	Via    string `json:"via"`
	Type   string `json:"type,omitempty"` // declared resource type of an ext_resource
	ID     string `json:"id,omitempty"`   // ext_resource id
	UID    string `json:"uid,omitempty"`  // uid:// of an ext_resource that has both
	Path   string `json:"-"`              // path="…" of an ext_resource that has a uid
}

// NodeInfo is one [node] of a scene.
type NodeInfo struct {
	Path     string   `json:"path"`
	Name     string   `json:"name"`
	Type     string   `json:"type,omitempty"`
	Parent   string   `json:"parent,omitempty"`
	Line     int      `json:"line"`
	Instance string   `json:"instance,omitempty"` // raw path of the instanced scene
	Script   string   `json:"script,omitempty"`   // raw path of the attached script
	Groups   []string `json:"groups,omitempty"`
	// owned is false for nodes whose parent lies inside an instanced scene
	// (the file only overrides them).
	external bool
}

// Connection is one [connection] of a scene, or one connect( call of a script.
type Connection struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Signal string `json:"signal"`
	From   string `json:"from,omitempty"`
	To     string `json:"to,omitempty"`
	Method string `json:"method,omitempty"`
	// Code is the script line for connect( calls found in scripts.
	Code string `json:"code,omitempty"`
}

// Severities of findings.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
)

// Finding codes.
const (
	CodeParseError        = "PARSE_ERROR"
	CodeUnreadable        = "UNREADABLE"
	CodeMissingSub        = "MISSING_SUB_RESOURCE"
	CodeUnknownExt        = "UNKNOWN_EXT_RESOURCE"
	CodeBrokenExtResource = "BROKEN_EXT_RESOURCE"
	CodeStalePath         = "STALE_PATH"
	CodeBadParent         = "BAD_PARENT"
	CodeDuplicateName     = "DUPLICATE_NAME"
	CodeMissingConnNode   = "CONNECTION_MISSING_NODE"
	CodeBrokenPreload     = "BROKEN_PRELOAD"
	CodeBrokenLoad        = "BROKEN_LOAD"
	CodeBrokenSetting     = "BROKEN_SETTING"
	// CodeTooLarge: the file is over the index's size limit and was not
	// read (see DefaultMaxFileSize).
	CodeTooLarge = "TOO_LARGE"
)

// Finding is one integrity problem, at a file and line, with how to fix it.
type Finding struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Hint     string `json:"hint"`
}

// FileInfo is what the index knows about one file.
type FileInfo struct {
	Path    string `json:"path"`
	Kind    Kind   `json:"kind"`
	Size    int64  `json:"size"`
	Version string `json:"version,omitempty"`
	// Skipped is set when the file was over the size limit and not read:
	// only Path, Kind, Size and a CodeTooLarge finding are known.
	Skipped bool `json:"skipped,omitempty"`
	// UID is the file's own uid:// (from its header, or for the file a
	// .uid/.import sidecar describes: see Describes).
	UID string `json:"uid,omitempty"`
	// Describes is the res:// path a .uid or .import sidecar belongs to.
	Describes string `json:"describes,omitempty"`
	// Type is the resource type (.tres header, "PackedScene" for scenes).
	Type         string       `json:"type,omitempty"`
	Lines        int          `json:"lines,omitempty"`
	Refs         []Ref        `json:"refs,omitempty"`
	Nodes        []NodeInfo   `json:"nodes,omitempty"`
	Connections  []Connection `json:"connections,omitempty"`
	SubResources int          `json:"sub_resources,omitempty"`
	ClassName    string       `json:"class_name,omitempty"` // a script's class_name
	Extends      string       `json:"extends,omitempty"`    // a script's extends (class or path)
	ExtendsLine  int          `json:"extends_line,omitempty"`
	// Findings are the file's own problems (parse errors, bad parents,
	// duplicate names, connections to missing nodes); problems that need
	// other files (broken paths) are found by [Graph.Integrity].
	Findings []Finding `json:"findings,omitempty"`
	// Autoloads and MainScene are set for project.godot.
	MainScene string            `json:"main_scene,omitempty"`
	Autoloads map[string]string `json:"autoloads,omitempty"`
	// idents are the capitalised identifiers a script uses (for class_name
	// references).
	idents []identUse
}

type identUse struct {
	name string
	line int
}

// lineIndex maps byte offsets to 1-based lines.
type lineIndex []int

func newLineIndex(src []byte) lineIndex {
	idx := lineIndex{0}
	for i, c := range src {
		if c == '\n' {
			idx = append(idx, i+1)
		}
	}
	return idx
}

func (l lineIndex) line(off int) int {
	if off < 0 {
		return 0
	}
	lo, hi := 0, len(l)
	for lo+1 < hi {
		m := (lo + hi) / 2
		if l[m] <= off {
			lo = m
		} else {
			hi = m
		}
	}
	return lo + 1
}

func summarise(res string, kind Kind, src []byte) *FileInfo {
	fi := &FileInfo{Path: res, Kind: kind, Lines: bytes.Count(src, []byte{'\n'})}
	switch kind {
	case KindScene, KindResource:
		summariseResourceFile(fi, src)
	case KindScript:
		summariseScript(fi, src)
	case KindShader:
		summariseShader(fi, src)
	case KindProject:
		summariseProject(fi, src)
	case KindExportPresets:
		summariseExportPresets(fi, src)
	case KindImport:
		fi.Describes = strings.TrimSuffix(res, ".import")
		if c, err := godot.ParseConfig(res, src); err == nil {
			if v, ok := c.Get("remap", "uid"); ok {
				fi.UID = stringValue(v)
			}
		}
	case KindUID:
		fi.Describes = strings.TrimSuffix(res, ".uid")
		fi.UID = strings.TrimSpace(string(src))
	}
	return fi
}

func stringValue(v godot.Value) string {
	switch s := v.(type) {
	case godot.String:
		return string(s)
	case godot.StringName:
		return string(s)
	}
	return ""
}

func isResPath(s string) bool {
	return strings.HasPrefix(s, "res://") || strings.HasPrefix(s, "uid://")
}

func summariseResourceFile(fi *FileInfo, src []byte) {
	f, err := godot.ParseFile(fi.Path, src)
	if err != nil {
		var se *godot.SyntaxError
		line, msg := 0, err.Error()
		if errors.As(err, &se) {
			line, msg = se.Line, se.Msg
		}
		code, hint := CodeParseError, "fix the syntax at this line (or restore the file from version control); Godot cannot load the file until then"
		switch {
		case strings.Contains(msg, "SubResource("):
			code, hint = CodeMissingSub, "declare the [sub_resource] with this id before its first use, or change the reference to an existing sub_resource id"
		case strings.Contains(msg, "ExtResource("):
			code, hint = CodeUnknownExt, "add an [ext_resource] with this id, or change the reference to a declared id"
		}
		fi.Findings = append(fi.Findings, Finding{File: fi.Path, Line: line, Code: code, Severity: SeverityError, Message: msg, Hint: hint})
		return
	}
	lines := newLineIndex(src)
	fi.UID = f.UID()
	if f.IsScene() {
		fi.Type = "PackedScene"
	} else {
		fi.Type = f.ResourceType()
	}
	fi.SubResources = len(f.SubResources())
	extPath := map[string]string{}
	for _, e := range f.ExtResources() {
		p, uid := e.Path(), e.UID()
		raw := p
		if uid != "" {
			raw = uid
		}
		if raw == "" {
			continue
		}
		extPath[e.ID()] = p
		fi.Refs = append(fi.Refs, Ref{From: fi.Path, Line: lines.line(e.Offset()), Raw: raw, Via: ViaExtResource,
			Type: e.Type(), ID: e.ID(), UID: uid, Path: p})
	}
	// Inline Resource("…") values and res:// strings held by properties.
	scan := func(s *godot.Section) {
		for _, p := range s.Properties() {
			off := s.PropertyOffset(p.Key)
			godot.WalkValue(p.Value, func(v godot.Value) {
				switch x := v.(type) {
				case godot.ResourceRef:
					raw := x.Path
					if x.UID != "" {
						raw = x.UID
					}
					fi.Refs = append(fi.Refs, Ref{From: fi.Path, Line: lines.line(off), Raw: raw, Via: ViaResource, UID: x.UID, Path: x.Path})
				case godot.String:
					if isResPath(string(x)) {
						fi.Refs = append(fi.Refs, Ref{From: fi.Path, Line: lines.line(off), Raw: string(x), Via: ViaString})
					}
				}
			})
		}
	}
	for _, s := range f.SubResources() {
		scan(s.Section)
	}
	if r := f.Resource(); r != nil {
		scan(r)
	}
	if !f.IsScene() {
		return
	}
	nodes := f.Nodes()
	seen := map[string]int{}
	instanced := map[string]bool{} // node paths that instance a scene or are not owned
	for i, n := range nodes {
		ni := NodeInfo{Path: n.Path(), Name: n.Name(), Type: n.Type(), Parent: n.ParentPath(), Line: lines.line(n.Offset()), Groups: n.Groups()}
		if ref, ok := n.Instance(); ok {
			ni.Instance = extPath[ref.ID]
			instanced[ni.Path] = true
		}
		if v, ok := n.Get("script"); ok {
			if e, ok := v.(godot.ExtResource); ok {
				ni.Script = extPath[e.ID]
			}
		}
		scan(n.Section)
		if i > 0 {
			parent := cleanNodePath(ni.Parent)
			if _, ok := seen[parent]; !ok {
				if insideInstance(parent, seen, instanced) {
					ni.external = true
				} else {
					fi.Findings = append(fi.Findings, Finding{File: fi.Path, Line: ni.Line, Code: CodeBadParent, Severity: SeverityError,
						Message: "node " + quote(ni.Name) + " names parent " + quote(ni.Parent) + ", which is not a node of this scene declared before it",
						Hint:    "set parent= to the path of an existing node (\".\" for the root), or move this [node] section after its parent's"})
				}
			}
			if ni.external || parent == "" {
				instanced[ni.Path] = instanced[ni.Path] || ni.external
			}
		}
		if first, dup := seen[ni.Path]; dup {
			fi.Findings = append(fi.Findings, Finding{File: fi.Path, Line: ni.Line, Code: CodeDuplicateName, Severity: SeverityError,
				Message: "node " + quote(ni.Path) + " is declared twice (first at line " + itoa(first) + ")",
				Hint:    "rename one of the two nodes: sibling names must be unique, and Godot renames the second on load, breaking paths to it"})
		} else {
			seen[ni.Path] = ni.Line
		}
		fi.Nodes = append(fi.Nodes, ni)
	}
	offs := f.ConnectionOffsets()
	for i, c := range f.Connections() {
		line := lines.line(offs[i])
		fi.Connections = append(fi.Connections, Connection{File: fi.Path, Line: line, Signal: c.Signal, From: c.From, To: c.To, Method: c.Method})
		for _, end := range []struct{ role, p string }{{"from", c.From}, {"to", c.To}} {
			p := cleanNodePath(end.p)
			if _, ok := seen[p]; ok || insideInstance(p, seen, instanced) {
				continue
			}
			fi.Findings = append(fi.Findings, Finding{File: fi.Path, Line: line, Code: CodeMissingConnNode, Severity: SeverityError,
				Message: "connection " + quote(c.Signal) + " → " + quote(c.Method) + ": " + end.role + " node " + quote(end.p) + " does not exist in this scene",
				Hint:    "fix the connection's " + end.role + "= path to an existing node, or delete the [connection] if the node was removed"})
		}
	}
}

// insideInstance reports whether p lies below a node that instances a scene
// (or is itself external): such paths name nodes of the instanced scene,
// which this file cannot list.
func insideInstance(p string, seen map[string]int, instanced map[string]bool) bool {
	for q := p; q != "." && q != ""; {
		q = parentNodePath(q)
		if _, ok := seen[q]; ok {
			return instanced[q]
		}
	}
	return false
}

func cleanNodePath(p string) string {
	p = strings.TrimPrefix(p, "./")
	if p == "" {
		return "."
	}
	return p
}

func parentNodePath(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return "."
}

func quote(s string) string { return "\"" + s + "\"" }

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

func summariseProject(fi *FileInfo, src []byte) {
	p, err := godot.ParseProject(fi.Path, src)
	if err != nil {
		var se *godot.SyntaxError
		line := 0
		if errors.As(err, &se) {
			line = se.Line
		}
		fi.Findings = append(fi.Findings, Finding{File: fi.Path, Line: line, Code: CodeParseError, Severity: SeverityError,
			Message: err.Error(), Hint: "fix project.godot's syntax at this line; the editor cannot open the project until then"})
		return
	}
	lines := newLineIndex(src)
	fi.Autoloads = map[string]string{}
	for _, name := range p.Settings() {
		v, _ := p.Setting(name)
		sec, key := name, ""
		if i := strings.IndexByte(name, '/'); i >= 0 {
			sec, key = name[:i], name[i+1:]
		}
		line := 0
		if s := p.Section(sec); s != nil {
			line = lines.line(s.PropertyOffset(key))
		}
		add := func(s string) {
			s = strings.TrimPrefix(s, "*")
			if !isResPath(s) {
				return
			}
			// Translation remaps append ":locale" to the path.
			if i := strings.LastIndexByte(s, ':'); i > len("res://") && !strings.Contains(s[i:], "/") {
				s = s[:i]
			}
			fi.Refs = append(fi.Refs, Ref{From: fi.Path, Line: line, Raw: s, Via: ViaSetting, Type: name})
		}
		godot.WalkValue(v, func(x godot.Value) {
			if arr, ok := x.(godot.PackedStringArray); ok {
				for _, s := range arr {
					add(s)
				}
				return
			}
			add(stringValue(x))
		})
		if sec == "autoload" {
			fi.Autoloads[key] = strings.TrimPrefix(stringValue(v), "*")
		}
		if name == "application/run/main_scene" {
			fi.MainScene = stringValue(v)
		}
	}
}

func summariseExportPresets(fi *FileInfo, src []byte) {
	c, err := godot.ParseConfig(fi.Path, src)
	if err != nil {
		return
	}
	lines := newLineIndex(src)
	for _, sec := range c.Sections() {
		v, ok := c.Get(sec, "export_files")
		if !ok {
			continue
		}
		line := 0
		if s := c.Section(sec); s != nil {
			line = lines.line(s.PropertyOffset("export_files"))
		}
		if arr, ok := v.(godot.PackedStringArray); ok {
			for _, p := range arr {
				if isResPath(p) {
					fi.Refs = append(fi.Refs, Ref{From: fi.Path, Line: line, Raw: p, Via: ViaExport, Type: sec})
				}
			}
		}
	}
}
