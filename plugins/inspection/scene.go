package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
	"github.com/godot-mcp/godot-mcp/sdk/suggest"
)

// maxInstanceDepth bounds nested instancing (a scene that instances a scene
// that instances ...). Godot refuses cyclic instancing; a cycle in files
// edited by hand must not hang the tool.
const maxInstanceDepth = 16

// node is one node of a scene as the editor would show it once loaded: the
// nodes of the scene file, plus the nodes of every instanced sub-scene, with
// the file's overrides applied.
type node struct {
	name string
	typ  string // the class; for an instance, the instanced root's class
	path string // relative to the scene root: "." for the root
	// owner is "" for a node the scene itself owns (a local node, shown
	// without an owner field); otherwise the res:// path of the instanced
	// scene that defines it, as the addon reports the owner.
	owner string
	// editable is set on the nodes of an instance whose children the
	// scene made editable ([editable path="..."]).
	editable bool
	// instance is the scene an instance root instances ("" otherwise).
	instance string
	// opaque: the node instances a scene without text (an imported .glb,
	// a binary .scn), whose nodes only the editor knows; unknown marks a
	// node below it that the file names (an override or an added node's
	// parent) but whose class cannot be told.
	opaque, unknown bool
	script          any      // res:// path, or nil
	props           []prop   // built-in and script properties set in the files, in file order
	groups          []string // in file order
	children        []*node
}

// prop is one property set in a scene file. Its JSON form is made when a
// tool asks for it: a tree answer never needs the values.
type prop struct {
	name string
	raw  godot.Value
	file *godot.File // resolves the value's resource references
	path string      // res:// path of file
}

// json is the value as the addon's to_json gives it, except that an
// embedded resource ([sub_resource]) is shown as itself, {type, id,
// properties}, rather than its opaque "res://scene.tscn::id" path.
func (p prop) json() any { return nodeedit.ValueJSON(p.file, p.path, p.raw, subResourceDepth) }

// subResourceDepth bounds how deep nested sub-resources are shown.
const subResourceDepth = 8

func (n *node) prop(name string) (prop, bool) {
	for _, p := range n.props {
		if p.name == name {
			return p, true
		}
	}
	return prop{}, false
}

func (n *node) setProp(p prop) {
	for i := range n.props {
		if n.props[i].name == p.name {
			n.props[i] = p
			return
		}
	}
	n.props = append(n.props, p)
}

func (n *node) addGroup(g string) {
	if !slices.Contains(n.groups, g) {
		n.groups = append(n.groups, g)
	}
}

// clone copies the subtree (instancing a scene twice gives two copies).
func (n *node) clone() *node {
	c := *n
	c.props = slices.Clone(n.props)
	c.groups = slices.Clone(n.groups)
	c.children = make([]*node, len(n.children))
	for i, ch := range n.children {
		c.children[i] = ch.clone()
	}
	return &c
}

// walk visits n and its descendants depth first, in tree order.
func (n *node) walk(fn func(*node)) {
	fn(n)
	for _, c := range n.children {
		c.walk(fn)
	}
}

// rebase rewrites the paths of n's subtree for n now living at path.
func (n *node) rebase(path string) {
	n.path = path
	for _, c := range n.children {
		c.rebase(join(path, c.name))
	}
}

func join(parent, name string) string {
	if parent == "." || parent == "" {
		return name
	}
	return parent + "/" + name
}

// loader reads scenes through the call's workspace, so a tool sees the
// files as the workspace versions them, and parses each file once per call.
type loader struct {
	ws     *sdk.Workspace
	parsed map[string]*node // expanded trees by res:// path
}

func newLoader(call *sdk.Call) *loader {
	return &loader{ws: call.Workspace(), parsed: map[string]*node{}}
}

// scene returns the expanded tree of the scene at path.
func (l *loader) scene(ctx context.Context, path string) (*node, error) {
	return l.expand(ctx, path, nil)
}

func (l *loader) expand(ctx context.Context, path string, stack []string) (*node, error) {
	if t, ok := l.parsed[path]; ok {
		return t, nil
	}
	if slices.Contains(stack, path) || len(stack) >= maxInstanceDepth {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "fix the scene files so that no scene instances itself",
			"%s instances itself (through %s)", path, strings.Join(stack, " -> "))
	}
	stack = append(stack, path)
	if strings.HasSuffix(path, ".scn") {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "save the scene as .tscn in the Godot editor, or attach the editor to read it live",
			"%s is a binary scene, which cannot be read without the Godot editor", path)
	}
	f, err := l.ws.Read(ctx, path)
	if err != nil {
		return nil, err
	}
	file, err := parsed.get(path, f.Version, f.Data)
	if err != nil {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "fix the file (godot-mcp check --roundtrip shows every problem) or open it in the Godot editor",
			"%s is not a valid Godot scene: %v", path, err)
	}
	if !file.IsScene() || file.Root() == nil {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "pass a .tscn scene file",
			"%s is not a scene with nodes", path)
	}
	editable := map[string]bool{}
	for _, p := range file.EditablePaths() {
		editable[cleanNodePath(p)] = true
	}

	var root *node
	byPath := map[string]*node{}
	index := func(sub *node) {
		sub.walk(func(n *node) { byPath[n.path] = n })
	}
	for i, fn := range file.Nodes() {
		if err := sdk.Interrupted(ctx, i); err != nil {
			return nil, err
		}
		var n *node
		inst, isInst := fn.Instance()
		switch {
		case fn.IsRoot() && isInst:
			// An inherited scene: the base scene's own nodes belong to this
			// scene's root, as in the editor (they come without an owner);
			// nodes of scenes the base instances keep theirs.
			base, err := l.instance(ctx, file, inst, stack)
			if err != nil {
				return nil, err
			}
			root = base
			root.name = fn.Name()
			n = root
		case fn.IsRoot():
			root = &node{name: fn.Name(), typ: fn.Type(), path: "."}
			n = root
		default:
			parent := byPath[cleanNodePath(fn.ParentPath())]
			if parent == nil {
				parent = placeholders(byPath, cleanNodePath(fn.ParentPath()))
			}
			if parent == nil {
				// Godot skips a node whose parent is missing (and warns).
				continue
			}
			npath := join(parent.path, fn.Name())
			switch {
			case isInst:
				sub, err := l.instance(ctx, file, inst, stack)
				if err != nil {
					return nil, err
				}
				sub.name = fn.Name()
				ownerPath := sub.instance
				for _, c := range sub.children {
					c.walk(func(d *node) {
						if d.owner == "" {
							d.owner = ownerPath
						}
					})
				}
				sub.rebase(npath)
				parent.children = append(parent.children, sub)
				n = sub
			case fn.Type() == "" && byPath[npath] != nil:
				// An override of a node that an instance brought in.
				n = byPath[npath]
			case fn.Type() == "" && (parent.opaque || parent.unknown):
				// An override of a node of an imported scene.
				n = &node{name: fn.Name(), path: npath, unknown: true, owner: parent.ownerOrInstance()}
				parent.children = append(parent.children, n)
			default:
				n = &node{name: fn.Name(), typ: fn.Type(), path: npath}
				parent.children = append(parent.children, n)
			}
		}
		index(n)
		for _, p := range fn.Properties() {
			if p.Key == "script" {
				n.script = godot.ToJSONIn(p.Value, file, path)
				continue
			}
			n.setProp(prop{name: p.Key, raw: p.Value, file: file, path: path})
		}
		for _, g := range fn.Groups() {
			n.addGroup(g)
		}
	}
	if root == nil {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "pass a .tscn scene file", "%s has no root node", path)
	}
	for p := range editable {
		if inst := byPath[p]; inst != nil {
			for _, c := range inst.children {
				c.walk(func(d *node) {
					if d.owner != "" {
						d.editable = true
					}
				})
			}
		}
	}
	l.parsed[path] = root
	return root, nil
}

// instance expands the scene an ExtResource of file points at, as a fresh
// copy: its root is marked as an instance of that scene.
func (l *loader) instance(ctx context.Context, file *godot.File, ref godot.ExtResource, stack []string) (*node, error) {
	d := file.ExtResource(ref.ID)
	if d == nil {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "fix the scene file: every instance=ExtResource(...) must name an [ext_resource]",
			"%s instances ExtResource(%q), which it does not declare", file.Name(), ref.ID)
	}
	if !strings.HasSuffix(strings.ToLower(d.Path()), ".tscn") {
		// An imported scene (or a binary one): the node and its instance,
		// not a parse error.
		return &node{typ: l.importedRoot(ctx, d.Path()), instance: d.Path(), opaque: true}, nil
	}
	sub, err := l.expand(ctx, d.Path(), stack)
	if err != nil {
		var e *sdk.Error
		if errors.As(err, &e) && e.Code == sdk.CodeNotFound {
			return nil, sdk.Errorf(sdk.CodeNotFound, "restore the file or fix the [ext_resource] path in "+file.Name(),
				"%s instances %s, which does not exist", file.Name(), d.Path())
		}
		return nil, err
	}
	c := sub.clone()
	c.instance = d.Path()
	return c, nil
}

// ownerOrInstance is the owner its children get: the scene it instances,
// else its own owner.
func (n *node) ownerOrInstance() string {
	if n.instance != "" {
		return n.instance
	}
	return n.owner
}

// placeholders returns the node at path when the nearest ancestor the
// tree has is an imported scene (or a node below one): the missing levels
// are made as nodes of unknown class, since only the editor can read the
// model. nil otherwise.
func placeholders(byPath map[string]*node, path string) *node {
	parts := strings.Split(path, "/")
	for i := len(parts) - 1; i >= 1; i-- {
		a := byPath[strings.Join(parts[:i], "/")]
		if a == nil {
			continue
		}
		if !a.opaque && !a.unknown {
			return nil
		}
		for _, name := range parts[i:] {
			c := &node{name: name, path: join(a.path, name), unknown: true, owner: a.ownerOrInstance()}
			a.children = append(a.children, c)
			byPath[c.path] = c
			a = c
		}
		return a
	}
	return nil
}

// importedRoot is the class of an imported scene's root: the importer's
// nodes/root_type, else Node3D, the default of the scene importers.
func (l *loader) importedRoot(ctx context.Context, path string) string {
	lower := strings.ToLower(path)
	if strings.HasSuffix(lower, ".scn") {
		return ""
	}
	if f, err := l.ws.Read(ctx, path+".import"); err == nil {
		for _, line := range strings.Split(string(f.Data), "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), "nodes/root_type="); ok {
				if t := strings.Trim(v, `"`); t != "" {
					return t
				}
			}
		}
	}
	return "Node3D"
}

// parsed caches parsed scene files by path and content version, so an agent
// reading one scene call after call pays the parse once; a file changed by
// any writer has a new version and is parsed again. Parsed files are only
// read after parsing, which is safe from several calls at once.
var parsed = &parseCache{files: map[string]*godot.File{}}

// maxParsed bounds the cache; the oldest entry goes first.
const maxParsed = 64

type parseCache struct {
	mu    sync.Mutex
	files map[string]*godot.File // by path + "\x00" + version
	order []string
}

func (c *parseCache) get(path string, version sdk.FileVersion, data []byte) (*godot.File, error) {
	key := path + "\x00" + string(version)
	c.mu.Lock()
	f, ok := c.files[key]
	c.mu.Unlock()
	if ok {
		return f, nil
	}
	f, err := godot.ParseFile(path, data)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.files[key]; !ok {
		c.files[key] = f
		c.order = append(c.order, key)
		for len(c.order) > maxParsed {
			delete(c.files, c.order[0])
			c.order = c.order[1:]
		}
	}
	return f, nil
}

// find returns the node at a contract node path ("." for the root).
func find(root *node, path string) *node {
	path = cleanNodePath(path)
	if path == "." {
		return root
	}
	cur := root
	for _, part := range strings.Split(path, "/") {
		var next *node
		for _, c := range cur.children {
			if c.name == part {
				next = c
				break
			}
		}
		if next == nil {
			return nil
		}
		cur = next
	}
	return cur
}

// cleanNodePath normalises a node path the way the addon does (one rule,
// in the SDK).
func cleanNodePath(p string) string { return godot.NormalizeNodePath(p) }

func notFound(path, scene string, root *node) error {
	hint := "node paths are relative to the scene root (\".\" is the root, e.g. \"Player/Sprite2D\"); godot_inspection_get_scene_tree lists them"
	if near := nearNodes(root, cleanNodePath(path)); len(near) > 0 {
		hint = "did you mean '" + strings.Join(near, "' or '") + "'? " + hint
	}
	return &sdk.Error{Code: sdk.CodeNotFound, Message: fmt.Sprintf("no node at '%s' in %s", path, scene), Hint: hint}
}

// nearNodes returns the paths of the scene that the missing path p
// probably meant: the nearest whole path by edit distance (a typo), else
// up to three nodes named like p's last part (a path that skipped a
// parent, or the wrong case).
func nearNodes(root *node, p string) []string {
	if root == nil {
		return nil
	}
	var paths []string
	var named []string
	leaf := p[strings.LastIndexByte(p, '/')+1:]
	var walk func(n *node)
	walk = func(n *node) {
		paths = append(paths, n.path)
		if strings.EqualFold(n.name, leaf) && len(named) < 3 {
			named = append(named, n.path)
		}
		for _, c := range n.children {
			walk(c)
		}
	}
	walk(root)
	if c := suggest.Closest(p, paths); c != "" {
		return []string{c}
	}
	return named
}
