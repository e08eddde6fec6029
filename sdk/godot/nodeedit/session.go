// Package nodeedit edits the nodes of a scene file headless, through a tool
// call's workspace: it opens a scene, applies node edits with sdk/godot's
// editing API (values converted by the one JSON converter, classdb's
// DB.Coerce, with the class database checking classes, properties and
// signals), and commits every change of a tool call as one journaled
// workspace action. Toolsets that edit nodes headless (batch, composite)
// use it rather than editing scene text themselves.
package nodeedit

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
	"github.com/godot-mcp/godot-mcp/sdk/godot/deps"
)

// DB returns the embedded Godot class database.
func DB() *classdb.DB { return classdb.MustEmbedded() }

// Err turns the converter's errors into the caller's: a value that does not
// fit (*godot.ValueError) is INVALID_ARGUMENT naming the property, what was
// given and the shapes accepted (Required "value"); an unknown property
// (*classdb.UnknownPropertyError) is INVALID_ARGUMENT with the closest name
// (Required "property"). Other errors are returned unchanged.
func Err(err error) error {
	var ve *godot.ValueError
	if errors.As(err, &ve) {
		msg := *ve
		msg.Accepted = ""
		hint := "pass " + ve.Accepted
		if ve.Accepted == "" {
			hint = "pass a value of type " + ve.Type
		}
		return &sdk.Error{Code: sdk.CodeInvalidArgument, Message: msg.Error(), Hint: hint, Required: "value", Err: err}
	}
	var up *classdb.UnknownPropertyError
	if errors.As(err, &up) {
		hint := fmt.Sprintf(`godot_describe_class({"class_name":%q,"members":"properties","inherited":true}) lists its properties`, up.Class)
		if h := DB().PropertyHint(up.Class, up.Property); h != "" {
			hint = h
		}
		return &sdk.Error{Code: sdk.CodeInvalidArgument, Message: up.Error(), Hint: hint, Required: "property", Err: err}
	}
	return err
}

// Coerce converts a JSON value for property prop of class (see classdb's
// DB.Coerce) into the value the engine would hold (DB.Stored: float32
// properties rounded, so they are written as the editor writes them), with
// errors as [Err] makes them. res is a [classdb.ResourceFunc] for paths
// only, or a *[FileResources] for inline and sub-resource values too.
func Coerce(class, prop string, raw any, res classdb.Resources) (godot.Value, error) {
	v, err := DB().Coerce(class, prop, raw, res)
	if err != nil {
		return nil, Err(err)
	}
	return DB().Stored(class, prop, v), nil
}

// Scene is one scene file opened for editing through the call's workspace.
// Edits change the in-memory document; nothing reaches the disk before
// [Commit]. Not safe for concurrent use.
type Scene struct {
	Path string
	File sdk.File
	Doc  *godot.File
	db   *classdb.DB
	ctx  context.Context
	ws   *sdk.Workspace
	call *sdk.Call
	// Edited reports whether any edit changed the document.
	Edited bool
	// tr is the effective tree (nodes of instanced scenes included), built
	// on first need and dropped when nodes are added or removed.
	tr    *godot.Tree
	trDoc *godot.File // the Doc tr and overrides were made for
	// overrides are the override sections Node added for nodes of
	// instanced scenes, with their tree nodes; Commit drops those left
	// setting nothing.
	overrides map[*godot.Node]*godot.TreeNode
}

// ScenePath returns the scene to edit: arg when given (normalised), else
// the workspace's active scene.
func ScenePath(ctx context.Context, call *sdk.Call, arg string) (string, error) {
	if arg != "" {
		if !strings.HasPrefix(arg, "res://") {
			arg = "res://" + strings.TrimPrefix(arg, "/")
		}
		if !strings.HasSuffix(arg, ".tscn") {
			return "", sdk.Errorf(sdk.CodeInvalidArgument, "pass a .tscn scene", "%s is not a text scene (.tscn)", arg)
		}
		return arg, nil
	}
	active, err := call.Workspace().ActiveScene(ctx)
	if err != nil {
		return "", err
	}
	if active == "" {
		return "", &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "active_scene",
			Message: "no scene is open", Hint: "pass scene, or open one with scene_edit's open_scene"}
	}
	return active, nil
}

// Open reads and parses a scene.
func Open(ctx context.Context, call *sdk.Call, path string) (*Scene, error) {
	ws := call.Workspace()
	f, err := ws.Read(ctx, path)
	if err != nil {
		return nil, err
	}
	doc, err := ws.ParseFile(ctx, f)
	if err != nil {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "fix the file (validate_scene_integrity shows where) or restore it", "%s cannot be parsed: %v", f.Path, err)
	}
	if !doc.IsScene() {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "pass a .tscn scene", "%s is a resource, not a scene", f.Path)
	}
	return &Scene{Path: f.Path, File: f, Doc: doc, db: DB(), ctx: ctx, ws: ws, call: call}, nil
}

// Bytes returns the edited file.
func (s *Scene) Bytes() []byte { return s.Doc.Bytes() }

// Node returns a node by path ("." is the root; a leading "/root/" or "/"
// is accepted as the addon does). A node that an instanced (or inherited)
// scene declares is found too: its section is the override that this
// scene writes for it, added when missing, as the editor writes it (see
// godot.Tree.Override).
func (s *Scene) Node(path string) (*godot.Node, error) {
	p := NormalizePath(path)
	n := s.Doc.Node(p)
	if n != nil && n.Declared() {
		return n, nil
	}
	hint := "paths are relative to the scene root (\".\" is the root); list nodes with find_nodes_by_type or get_scene_tree"
	tn, err := s.treeNode(p)
	if err != nil {
		if n != nil {
			return n, nil
		}
		// The path may lie in a scene that cannot be read: say so.
		hint += "; the scenes this one instances could not all be read (" + err.Error() + ")"
	}
	if tn == nil {
		return nil, &sdk.Error{Code: sdk.CodeNotFound, Message: fmt.Sprintf("no node at %q in %s", path, s.Path), Hint: hint, Required: "node_path"}
	}
	if tn.Declared() {
		return tn.Section(), nil
	}
	if n == nil && tn.Opaque() {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "attach the Godot editor to edit it", "%q instances %s, which cannot be read headless", p, tn.Instance())
	}
	sec, err := s.tr.Override(tn.Path())
	if err != nil {
		return nil, editErr(err, "pass the path of an existing node")
	}
	if s.overrides == nil {
		s.overrides = map[*godot.Node]*godot.TreeNode{}
	}
	s.trDoc = s.Doc
	s.overrides[sec] = tn
	return sec, nil
}

// treeNode finds a node in the effective tree; nil when there is none.
func (s *Scene) treeNode(p string) (*godot.TreeNode, error) {
	s.sync()
	if s.tr == nil {
		tr, err := s.Doc.Tree(s.loader())
		if err != nil {
			return nil, sdk.Errorf(sdk.CodeInvalidArgument, "fix or restore the instanced scene the message names",
				"the scenes %s instances cannot be read: %v", s.Path, err)
		}
		s.tr, s.trDoc = tr, s.Doc
	}
	return s.tr.Node(p), nil
}

// sync forgets the tree and overrides of a Doc the caller replaced (a
// restore after a failed edit).
func (s *Scene) sync() {
	if s.trDoc != s.Doc {
		s.tr, s.trDoc, s.overrides = nil, nil, nil
	}
}

// loader reads instanced scenes through the workspace.
func (s *Scene) loader() godot.SceneLoader {
	return func(p string) (*godot.File, error) {
		if !strings.HasSuffix(strings.ToLower(p), ".tscn") {
			return nil, fmt.Errorf("%s: %w", p, godot.ErrNotText)
		}
		f, err := s.ws.Read(s.ctx, p)
		if err != nil {
			return nil, err
		}
		return godot.ParseFile(p, f.Data)
	}
}

// class is the node's class: its type, or the instanced scene's class of
// a node this scene only overrides or instances.
func (s *Scene) class(n *godot.Node) string {
	if t := n.Type(); t != "" {
		return t
	}
	if tn, err := s.treeNode(n.Path()); err == nil && tn != nil {
		return tn.Class()
	}
	return ""
}

// own refuses an edit (verb) that only nodes this scene declares allow.
func (s *Scene) own(n *godot.Node, verb string) error {
	if n.Declared() {
		return nil
	}
	def := "the scene that defines it"
	if tn := s.overrides[n]; tn != nil && tn.Scene() != "" {
		def = tn.Scene()
	} else if tn, err := s.treeNode(n.Path()); err == nil && tn != nil && tn.Scene() != "" {
		def = tn.Scene()
	}
	return &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "node_path",
		Message: fmt.Sprintf("%q belongs to the instanced scene %s and cannot be %sd here", n.Path(), def, verb),
		Hint: fmt.Sprintf("%s it in %s, which changes every instance; here you can set its properties (an override) and add children under it; "+
			"to change only this copy's structure, make the instance local in the Godot editor (Make Local)", verb, def)}
}

// NormalizePath applies the addon's node path rules: strip one leading
// "/", then a leading "root/", and map "" to ".".
func NormalizePath(p string) string { return godot.NormalizeNodePath(p) }

// Class returns the node's class, or "" when the file does not name one (an
// instanced scene, or a node overriding an inherited one).
func Class(n *godot.Node) string { return n.Type() }

// editErr turns an error of sdk/godot's editing API into an *sdk.Error.
func editErr(err error, hint string) error {
	if err == nil {
		return nil
	}
	code := sdk.CodeInvalidArgument
	if errors.Is(err, godot.ErrNotFound) {
		code = sdk.CodeNotFound
	}
	return sdk.Errorf(code, hint, "%v", err)
}

// addExt declares the resource at path (res:// or uid://) as an
// ext_resource of the scene.
func (s *Scene) addExt(typ, path string) (godot.Value, error) {
	if strings.HasPrefix(path, "uid://") {
		res, err := s.resolveUID(path)
		if err != nil {
			return nil, err
		}
		path = res
	}
	st, err := s.ws.Stat(s.ctx, path)
	if err != nil {
		return nil, err
	}
	if !st.Exists {
		return nil, &sdk.Error{Code: sdk.CodeNotFound, Message: path + " does not exist", Hint: "create the file first, or pass an existing res:// path", Required: "value"}
	}
	ref, err := s.Doc.AddExtResource(typ, path, "")
	if err != nil {
		return nil, editErr(err, "pass a res:// path of an existing resource")
	}
	return ref, nil
}

// resolveUID finds the file a uid:// names, from the project's files.
func (s *Scene) resolveUID(id string) (string, error) { return ResolveUID(s.ctx, s.call, id) }

// ResolveUID finds the res:// file a uid:// names, from the project's
// files; NOT_FOUND (Required "value") when none has it.
func ResolveUID(ctx context.Context, call *sdk.Call, id string) (string, error) {
	notFound := &sdk.Error{Code: sdk.CodeNotFound, Message: id + " is not the uid of a file of the project",
		Hint: "pass the resource's res:// path", Required: "value"}
	if call == nil || call.Env.ProjectDir == "" {
		return "", notFound
	}
	g, err := deps.Shared(call.Env.ProjectDir).Graph(ctx)
	if err != nil {
		return "", notFound
	}
	p, ok := g.Resolve(id)
	if !ok || !strings.HasPrefix(p, "res://") {
		return "", notFound
	}
	return p, nil
}

// CreateNode adds a node of a class under parent and returns its path.
func (s *Scene) CreateNode(parent, name, typ string) (*godot.Node, error) {
	if !s.db.Exists(typ) {
		hint := "pass a Node class such as Node2D or Sprite2D"
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, hint, "%q is not a Godot class", typ)
	}
	if !s.db.IsNode(typ) || !s.db.Instantiable(typ) {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "pass an instantiable Node class", "%s is not an instantiable Node class", typ)
	}
	if name == "" {
		name = typ
	}
	p, err := s.Node(parent)
	if err != nil {
		return nil, err
	}
	var n *godot.Node
	if p.Declared() && !s.inherited() {
		n, err = s.Doc.AddNode(p.Path(), name, typ)
	} else {
		// Under a node of an instanced scene: placed through the instance.
		if _, err := s.treeNode(p.Path()); err != nil {
			return nil, err
		}
		n, err = s.tr.AddNode(p.Path(), name, typ)
	}
	if err != nil {
		return nil, editErr(err, "choose a name no sibling has")
	}
	s.tr = nil
	s.Edited = true
	return n, nil
}

func (s *Scene) inherited() bool {
	_, ok := s.Doc.Root().Instance()
	return ok
}

// Resources returns the converter's view of the scene's resources: paths
// become ext_resources, inline resources sub-resources.
func (s *Scene) Resources() *FileResources {
	return &FileResources{Doc: s.Doc, Path: s.Path, RefFunc: s.addExt}
}

// SetProperty converts and sets one property of a node. An inline
// resource becomes a [sub_resource]; one the value replaces goes when
// nothing else uses it. A value that does not convert leaves the scene as
// it was. On an override a value equal to the instanced scene's is no
// override: it is cleared, as the editor saves only what differs.
func (s *Scene) SetProperty(n *godot.Node, prop string, raw any) (godot.Value, error) {
	res := s.Resources()
	v, err := Coerce(s.class(n), prop, raw, res)
	if err != nil {
		res.Discard()
		return nil, err
	}
	s.sync()
	if tn := s.overrides[n]; tn != nil {
		if base, _, ok := tn.Base(prop); ok && godot.Equal(base, v) {
			n.Clear(prop)
			s.Edited = true
			return v, nil
		}
	}
	n.Set(prop, v)
	s.Edited = true
	return v, nil
}

// UnknownProperty reports whether err is Coerce's "no such property".
func UnknownProperty(err error) bool {
	var up *classdb.UnknownPropertyError
	return errors.As(err, &up)
}

// AttachScript sets a node's script to an existing script file.
func (s *Scene) AttachScript(n *godot.Node, script string) error {
	_, err := s.SetProperty(n, "script", script)
	return err
}

// Delete removes a node and its subtree.
func (s *Scene) Delete(path string) error {
	p := NormalizePath(path)
	if p == "." {
		return sdk.Errorf(sdk.CodeInvalidArgument, "delete a child node, or delete the scene file", "cannot delete the scene root")
	}
	n, err := s.Node(p)
	if err != nil {
		return err
	}
	if err := s.own(n, "delete"); err != nil {
		return err
	}
	s.tr = nil
	if err := s.Doc.RemoveNode(n.Path()); err != nil {
		return editErr(err, "pass the path of an existing node")
	}
	s.Edited = true
	return nil
}

// Rename renames a node and returns its new path.
func (s *Scene) Rename(path, name string) (string, error) {
	n, err := s.Node(path)
	if err != nil {
		return "", err
	}
	if err := s.own(n, "rename"); err != nil {
		return "", err
	}
	s.tr = nil
	if err := s.Doc.RenameNode(n.Path(), name); err != nil {
		return "", editErr(err, "choose a name no sibling has")
	}
	s.Edited = true
	return n.Path(), nil
}

// Move reparents a node and returns its new path.
func (s *Scene) Move(path, parent string) (string, error) {
	n, err := s.Node(path)
	if err != nil {
		return "", err
	}
	if err := s.own(n, "move"); err != nil {
		return "", err
	}
	if _, err := s.Node(parent); err != nil {
		return "", err
	}
	s.tr = nil
	if err := s.Doc.MoveNode(n.Path(), NormalizePath(parent)); err != nil {
		return "", editErr(err, "move the node under an existing node outside its own subtree")
	}
	s.Edited = true
	return n.Path(), nil
}

// Duplicate copies a node (with its subtree) next to it.
func (s *Scene) Duplicate(path string) (string, error) {
	n, err := s.Node(path)
	if err != nil {
		return "", err
	}
	if err := s.own(n, "duplicate"); err != nil {
		return "", err
	}
	s.tr = nil
	c, err := s.Doc.DuplicateNode(n.Path(), "")
	if err != nil {
		return "", editErr(err, "duplicate a node other than the root")
	}
	s.Edited = true
	return c.Path(), nil
}

// Connect adds a signal connection, checking the signal on the source's class.
func (s *Scene) Connect(from, signal, to, method string) (already bool, err error) {
	src, err := s.Node(from)
	if err != nil {
		return false, err
	}
	if _, err := s.Node(to); err != nil {
		return false, err
	}
	if c := s.class(src); c != "" {
		if _, ok := s.db.Signal(c, signal); !ok {
			hint := fmt.Sprintf(`godot_describe_class({"class_name":%q,"members":"signals","inherited":true}) lists its signals`, c)
			if sug := s.db.SignalHint(c, signal); sug != "" {
				hint = sug
			}
			return false, sdk.Errorf(sdk.CodeInvalidArgument, hint+" (signals a script declares cannot be checked headless)", "%s has no signal %q", c, signal)
		}
	}
	conn := godot.Connection{Signal: signal, From: src.Path(), To: NormalizePath(to), Method: method}
	for _, c := range s.Doc.Connections() {
		if c.Signal == conn.Signal && c.From == conn.From && c.To == conn.To && c.Method == conn.Method {
			return true, nil
		}
	}
	if err := s.Doc.AddConnection(conn); err != nil {
		return false, editErr(err, "connect existing nodes")
	}
	s.Edited = true
	return false, nil
}

// Commit writes the scene (when edited) as one transaction named name; all
// commits of a tool call are one journaled action. It honours dry_run.
func (s *Scene) Commit(name string) (sdk.CommitResult, error) {
	s.sync()
	for sec := range s.overrides {
		s.Doc.PruneOverride(sec)
	}
	s.overrides = nil
	if !s.Edited {
		return sdk.CommitResult{Files: []sdk.FileChange{}}, nil
	}
	return s.ws.Begin(name).Write(s.Path, s.Bytes(), s.File.Version).Commit(s.ctx)
}
