package nodeedit

import (
	"context"
	"regexp"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// Script is what a headless edit needs from a node's GDScript: the
// signals, methods and member variables it declares (with their type when
// annotated), and the class it extends. It is read line by line, which is
// enough for declarations at the top level of a script.
type Script struct {
	Path    string
	Extends string
	Signals map[string]bool
	Funcs   map[string]bool
	Vars    map[string]string // name -> declared type ("" when untyped)
}

var (
	reSignal  = regexp.MustCompile(`^signal\s+([A-Za-z_][A-Za-z0-9_]*)`)
	reFunc    = regexp.MustCompile(`^(?:static\s+)?func\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(`)
	reVar     = regexp.MustCompile(`^(?:@[A-Za-z_][A-Za-z0-9_]*(?:\([^)]*\))?\s+)*var\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?::\s*([A-Za-z_][A-Za-z0-9_\[\]]*))?`)
	reExtends = regexp.MustCompile(`^extends\s+([A-Za-z_][A-Za-z0-9_]*)`)
)

// ParseScript reads the top-level declarations of a GDScript.
func ParseScript(p, src string) *Script {
	si := &Script{Path: p, Signals: map[string]bool{}, Funcs: map[string]bool{}, Vars: map[string]string{}}
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "" || line[0] == ' ' || line[0] == '\t' {
			continue // only top-level declarations
		}
		if m := reSignal.FindStringSubmatch(line); m != nil {
			si.Signals[m[1]] = true
		} else if m := reFunc.FindStringSubmatch(line); m != nil {
			si.Funcs[m[1]] = true
		} else if m := reVar.FindStringSubmatch(line); m != nil {
			si.Vars[m[1]] = m[2]
		} else if m := reExtends.FindStringSubmatch(line); m != nil {
			si.Extends = m[1]
		}
	}
	return si
}

// FileScript reads the GDScript attached to a node, or nil when it has
// none, it is not a .gd file, or it cannot be read.
func FileScript(ctx context.Context, call *sdk.Call, f *godot.File, n *godot.Node) *Script {
	v, ok := n.Get("script")
	if !ok {
		return nil
	}
	return readScript(ctx, call, f, v)
}

// readScript reads and scans the GDScript a script value v of file f names
// (an ext_resource to a .gd); nil for anything else or a file that cannot
// be read.
func readScript(ctx context.Context, call *sdk.Call, f *godot.File, v godot.Value) *Script {
	ext, ok := v.(godot.ExtResource)
	if !ok {
		return nil
	}
	d := f.ExtResource(ext.ID)
	if d == nil || !strings.HasSuffix(d.Path(), ".gd") {
		return nil
	}
	src, err := call.Workspace().Read(ctx, d.Path())
	if err != nil {
		return nil
	}
	return ParseScript(d.Path(), string(src.Data))
}

// Script is FileScript for a node of the scene, also when its script
// comes from the instanced scene that declares it (an override section
// names no script).
func (s *Scene) Script(n *godot.Node) *Script {
	if si := FileScript(s.ctx, s.call, s.Doc, n); si != nil || s.Built() == nil {
		return si
	}
	if _, own := n.Get("script"); own {
		return nil
	}
	return treeScript(s.ctx, s.call, s.Built().Node(n.Path()))
}

// treeScript reads the script a node of the effective tree has, from
// whichever scene sets it.
func treeScript(ctx context.Context, call *sdk.Call, tn *godot.TreeNode) *Script {
	if tn == nil {
		return nil
	}
	v, f, ok := tn.Get("script")
	if !ok {
		return nil
	}
	return readScript(ctx, call, f, v)
}

// classAndScript returns the class, script and path of a node lookup
// found (sec its section, tn its tree node; either may be nil).
func (s *Scene) classAndScript(sec *godot.Node, tn *godot.TreeNode) (string, *Script, string) {
	if tn != nil {
		var si *Script
		if sec != nil {
			si = s.Script(sec)
		} else {
			si = treeScript(s.ctx, s.call, tn)
		}
		return tn.Class(), si, tn.Path()
	}
	return NodeClass(s.ctx, s.call, s.Doc, sec), FileScript(s.ctx, s.call, s.Doc, sec), sec.Path()
}

// NodeClass returns the engine class of a node: its type, or for an
// instance (or a node inside one) the class of the node in the instanced
// scene, read from that file. "" when it cannot be told.
func NodeClass(ctx context.Context, call *sdk.Call, f *godot.File, n *godot.Node) string {
	return classOf(ctx, call, f, n.Path(), 0)
}

func classOf(ctx context.Context, call *sdk.Call, f *godot.File, p string, depth int) string {
	if depth > 8 {
		return ""
	}
	if n := f.Node(p); n != nil {
		if t := n.Type(); t != "" {
			return t
		}
		if inst, ok := n.Instance(); ok {
			return rootClassOf(ctx, call, f, inst, ".", depth)
		}
	}
	// A node inside an instanced (or inherited) scene: find the nearest
	// instancing ancestor and look the rest of the path up in its scene.
	for q := p; ; {
		if i := strings.LastIndex(q, "/"); i >= 0 {
			q = q[:i]
		} else if q != "." {
			q = "."
		} else {
			return ""
		}
		if n := f.Node(q); n != nil {
			if inst, ok := n.Instance(); ok {
				sub := p
				if q != "." {
					sub = strings.TrimPrefix(p, q+"/")
				}
				return rootClassOf(ctx, call, f, inst, sub, depth)
			}
			if n.Type() != "" {
				return ""
			}
		}
		if q == "." {
			return ""
		}
	}
}

func rootClassOf(ctx context.Context, call *sdk.Call, f *godot.File, inst godot.ExtResource, sub string, depth int) string {
	d := f.ExtResource(inst.ID)
	if d == nil {
		return ""
	}
	src, err := call.Workspace().Read(ctx, d.Path())
	if err != nil {
		return ""
	}
	sf, err := godot.ParseFile(d.Path(), src.Data)
	if err != nil {
		return ""
	}
	return classOf(ctx, call, sf, sub, depth+1)
}
