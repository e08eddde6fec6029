package nodeedit

import (
	"fmt"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// scriptVarValue converts the JSON value of a script variable declared
// with type t (raw is not null) the way the editor stores it: a Node-typed
// variable (Node2D, Array[Node]) holds NodePaths relative to the node,
// which Set lists in node_paths; a Resource-typed one an
// ext_resource; a typed array an Array[T](...); an untyped or script-class
// typed variable the closest Variant.
func (s *Scene) scriptVarValue(n *godot.Node, t, prop string, raw any) (godot.Value, error) {
	elem, isArray := arrayElem(t)
	switch {
	case t == "":
		return infer(raw), nil
	case isNodeClass(t):
		return s.nodeRef(n, prop, t, raw)
	case isArray && isNodeClass(elem):
		items, ok := raw.([]any)
		if !ok {
			return nil, Invalid("value", fmt.Sprintf("pass a list of node paths relative to '%s', e.g. [\"../Player\"]", n.Path()),
				"Setting '%s' failed: %s is not a list of node paths (the variable is an %s)", prop, godot.DescribeJSON(raw), t)
		}
		// The editor saves a typed array of nodes as a plain array of
		// NodePaths; node_paths makes the loader resolve them.
		out := godot.Array{Items: make([]godot.Value, len(items))}
		for i, it := range items {
			v, err := s.nodeRef(n, fmt.Sprintf("%s[%d]", prop, i), elem, it)
			if err != nil {
				return nil, err
			}
			out.Items[i] = v
		}
		return out, nil
	case isObjectType(t):
		return s.objectValue(prop, t, raw)
	case isArray && isObjectType(elem):
		if str, ok := raw.(string); ok {
			return convert(prop, "Array["+elem+"]", str, "pass a list of res:// paths of "+elem+" resources")
		}
		items, ok := raw.([]any)
		if !ok {
			return nil, Invalid("value", "pass a list of res:// paths of "+elem+" resources",
				"Setting '%s' failed: %s is not a list (the variable is an %s)", prop, godot.DescribeJSON(raw), t)
		}
		out := godot.Array{Type: &godot.TypeRef{Name: elem}, Items: make([]godot.Value, len(items))}
		for i, it := range items {
			if it == nil {
				out.Items[i] = godot.Nil{}
				continue
			}
			v, err := s.objectValue(fmt.Sprintf("%s[%d]", prop, i), elem, it)
			if err != nil {
				return nil, err
			}
			out.Items[i] = v
		}
		return out, nil
	case isBuiltinType(t):
		return convert(prop, t, raw, "pass a value of the variable's type ("+t+")")
	}
	// A class a script declares (class_name Player extends CharacterBody2D)
	// that is a node is a node reference too, checked against its engine
	// base class.
	if base, ok := s.scriptClassBase(t); ok && isNodeClass(base) {
		return s.nodeRef(n, prop, base, raw)
	}
	return infer(raw), nil
}

// scriptClassBase is the engine class a global script class (class_name)
// extends, from the editor's class cache
// (.godot/global_script_class_cache.cfg); false when the cache does not
// list it.
func (s *Scene) scriptClassBase(name string) (string, bool) {
	f, err := s.ws.Read(s.ctx, "res://.godot/global_script_class_cache.cfg")
	if err != nil {
		return "", false
	}
	c, err := godot.ParseConfig("global_script_class_cache.cfg", f.Data)
	if err != nil {
		return "", false
	}
	v, _ := c.Get("", "list")
	list, _ := v.(godot.Array)
	bases := map[string]string{}
	for _, it := range list.Items {
		d, ok := it.(godot.Dictionary)
		if !ok {
			continue
		}
		cls, _ := d.Lookup("class")
		base, _ := d.Lookup("base")
		cs, ok1 := text(cls)
		bs, ok2 := text(base)
		if ok1 && ok2 {
			bases[cs] = bs
		}
	}
	for i := 0; i < 16; i++ {
		b, ok := bases[name]
		if !ok {
			return "", false
		}
		if DB().Exists(b) {
			return b, true
		}
		name = b
	}
	return "", false
}

// arrayElem is T of "Array[T]".
func arrayElem(t string) (string, bool) {
	e, ok := strings.CutPrefix(t, "Array[")
	if !ok || !strings.HasSuffix(e, "]") {
		return "", false
	}
	return strings.TrimSuffix(e, "]"), true
}

func isNodeClass(t string) bool { return DB().Exists(t) && DB().IsNode(t) }

// isNodeRefVar reports whether a script variable's declared type makes the
// editor list it in node_paths.
func isNodeRefVar(t string) bool {
	if elem, ok := arrayElem(t); ok {
		return isNodeClass(elem)
	}
	return isNodeClass(t)
}

// nodeRef reads a node reference: a NodePath relative to n (as the
// inspector stores it, "../Player"), also as NodePath("...") text. The
// path must reach a node of the scene of class t (or go through an
// instanced scene, whose nodes are not known here).
func (s *Scene) nodeRef(n *godot.Node, prop, t string, raw any) (godot.Value, error) {
	str, ok := raw.(string)
	if ok {
		if inner, found := strings.CutPrefix(strings.TrimSpace(str), "NodePath("); found {
			pv, err := godot.ParseValue([]byte("NodePath(" + inner))
			np, isPath := pv.(godot.NodePath)
			if err != nil || !isPath {
				return nil, Invalid("value", `pass the path as a string, e.g. "../Player"`, "Setting '%s' failed: %q is not a NodePath", prop, str)
			}
			str = string(np)
		}
	}
	hint := fmt.Sprintf("pass the path of a %s relative to '%s' (\"..\" is its parent), e.g. \"../Player\"", t, n.Path())
	if !ok || str == "" {
		return nil, Invalid("value", hint, "Setting '%s' failed: %s is not a node path (the variable holds a %s)", prop, godot.DescribeJSON(raw), t)
	}
	target, ok := n.ResolveNodePath(str)
	if !ok {
		return nil, Invalid("value", hint, "Setting '%s' failed: %q does not name a node of the scene", prop, str)
	}
	if tn := s.Doc.Node(target); tn != nil {
		if c := tn.Type(); c != "" && !DB().Inherits(c, t) {
			return nil, Invalid("value", hint, "Setting '%s' failed: %q is a %s, not a %s", prop, str, c, t)
		}
		return godot.NodePath(str), nil
	}
	if !throughInstance(s.Doc, target) {
		h := hint
		if alt := s.Doc.Node(godot.NormalizeNodePath(str)); alt != nil {
			h = fmt.Sprintf("paths are relative to '%s'; for the node at %q pass %q", n.Path(), alt.Path(), relPath(n.Path(), alt.Path()))
		}
		return nil, &sdk.Error{Code: sdk.CodeNotFound, Required: "value", Hint: h,
			Message: fmt.Sprintf("Setting '%s' failed: no node at %q from '%s'", prop, str, n.Path())}
	}
	return godot.NodePath(str), nil
}

// throughInstance reports whether p lies under an instanced node of f,
// whose children only the instanced scene knows.
func throughInstance(f *godot.File, p string) bool {
	for q := p; q != "." && q != ""; {
		if i := strings.LastIndex(q, "/"); i >= 0 {
			q = q[:i]
		} else {
			q = "."
		}
		if a := f.Node(q); a != nil {
			_, inst := a.Instance()
			return inst
		}
	}
	return false
}

// relPath is the shortest NodePath from one scene path to another.
func relPath(from, to string) string {
	split := func(p string) []string {
		if p == "." || p == "" {
			return nil
		}
		return strings.Split(p, "/")
	}
	a, b := split(from), split(to)
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	var parts []string
	for range a[i:] {
		parts = append(parts, "..")
	}
	parts = append(parts, b[i:]...)
	if len(parts) == 0 {
		return "."
	}
	return strings.Join(parts, "/")
}

// markNodeRef keeps the node's node_paths field in step with a script
// variable that was set (or cleared): listed while it holds a node
// reference, as the editor writes it.
func (s *Scene) markNodeRef(n *godot.Node, prop string, cleared bool) {
	if cleared {
		n.MarkNodeReference(prop, false)
		return
	}
	if si := FileScript(s.ctx, s.call, s.Doc, n); si != nil {
		if t, ok := si.Vars[prop]; ok {
			ref := isNodeRefVar(t)
			if !ref && !isBuiltinType(t) && !DB().Exists(t) {
				base, ok := s.scriptClassBase(t)
				ref = ok && isNodeClass(base)
			}
			n.MarkNodeReference(prop, ref)
		}
	}
}

// text is the string of a String or StringName value.
func text(v godot.Value) (string, bool) {
	switch x := v.(type) {
	case godot.String:
		return string(x), true
	case godot.StringName:
		return string(x), true
	}
	return "", false
}
