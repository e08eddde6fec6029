// Package nodeedit edits the nodes of a scene file headless, through a tool
// call's workspace: it opens a scene, applies node edits with sdk/godot's
// editing API (values converted by the one JSON converter, classdb's
// DB.Coerce, with the class database checking classes, properties and
// signals), and commits every change of a tool call as one journaled
// workspace action (or, through [Edit], lets the caller commit). It is
// the one headless implementation of node editing: scene_edit, batch and
// composite use it rather than editing scene text themselves.
package nodeedit

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

// DB returns the embedded Godot class database.
func DB() *classdb.DB { return classdb.MustEmbedded() }

// Err turns the converter's errors into the caller's: a value that does not
// fit (*godot.ValueError) is INVALID_ARGUMENT "Setting 'prop' failed: …"
// naming what was given, with a hint saying what to pass (Required
// "value"); an unknown property (*classdb.UnknownPropertyError) is
// INVALID_ARGUMENT with the closest name (Required "property"). Other
// errors are returned unchanged.
func Err(err error) error {
	var ve *godot.ValueError
	if errors.As(err, &ve) {
		return valueErr("", err, "pass a value of type "+ve.Type)
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
// [Commit] (or the caller's own commit of Doc and [Scene.Writes]). Not
// safe for concurrent use.
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
	// MadeEditable: the last Override (or a node added under an instanced
	// one) turned on "Editable Children" of the instance it lies in.
	MadeEditable bool
	// tr is the effective tree (nodes of instanced scenes included), built
	// on first need and dropped when nodes are added or removed.
	tr    *godot.Tree
	trDoc *godot.File // the Doc tr and overrides were made for
	// overrides are the sections Override resolved for nodes of
	// instanced scenes, with their tree nodes; Commit drops those left
	// setting nothing.
	overrides map[*godot.Node]*godot.TreeNode
	// follow are the other scenes a rename updated (see Rename).
	follow []*follower
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
	if doc.Root() == nil {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "pass a .tscn scene with a root node", "%s is not a scene with a root node", f.Path)
	}
	s := Edit(ctx, call, f.Path, doc)
	s.File = f
	return s, nil
}

// Edit returns a Scene around doc, the scene at path that the caller has
// read and parsed (and keeps the version of, to commit Doc and
// [Scene.Writes] itself; [Scene.Commit] needs a Scene from [Open]).
func Edit(ctx context.Context, call *sdk.Call, path string, doc *godot.File) *Scene {
	return &Scene{Path: path, Doc: doc, db: DB(), ctx: ctx, ws: call.Workspace(), call: call}
}

// Bytes returns the edited file.
func (s *Scene) Bytes() []byte { return s.Doc.Bytes() }

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
	s.sync()
	if tn := s.overrides[n]; tn != nil {
		return tn.Class()
	}
	if _, tn, err := s.Lookup(n.Path()); err == nil && tn != nil {
		return tn.Class()
	}
	return ""
}

// NormalizePath applies the addon's node path rules: strip one leading
// "/", then a leading "root/", and map "" to ".".
func NormalizePath(p string) string { return godot.NormalizeNodePath(p) }

// Class returns the node's class, or "" when the file does not name one (an
// instanced scene, or a node overriding an inherited one).
func Class(n *godot.Node) string { return n.Type() }

// resolveUID finds the file a uid:// names, from the project's files.
func (s *Scene) resolveUID(id string) (string, error) { return ResolveUID(s.ctx, s.call, id) }

// ResolveUID finds the res:// file a uid:// names, from the project's
// files; NOT_FOUND (Required "value") when none has it.
func ResolveUID(ctx context.Context, call *sdk.Call, id string) (string, error) {
	return sdk.ResolveUID(ctx, call, "value", id)
}

func (s *Scene) inherited() bool {
	_, ok := s.Doc.Root().Instance()
	return ok
}

// Resources returns the converter's view of the scene's resources: paths
// become ext_resources, inline resources sub-resources.
func (s *Scene) Resources() *FileResources {
	return &FileResources{Doc: s.Doc, Path: s.Path, RefFunc: func(typ, path string) (godot.Value, error) {
		return s.objectValue("", typ, path)
	}}
}

// AttachScript sets a node's script to an existing script file (a
// res:// or uid:// path), declared with its uid as the editor declares it.
func (s *Scene) AttachScript(n *godot.Node, script string) error {
	sp := script
	if strings.HasPrefix(sp, "uid://") {
		p, err := s.resolveUID(sp)
		var e *sdk.Error
		if errors.As(err, &e) {
			e.Required = "script_path"
		}
		if err != nil {
			return err
		}
		sp = p
	}
	sp, err := sdk.CleanResPath("script_path", sp)
	if err != nil {
		return err
	}
	fi, err := s.ws.Stat(s.ctx, sp)
	if err != nil {
		return err
	}
	if !fi.Exists {
		return NotFound("create it first (godot_scripts_write) or check the path", "No script at %s.", sp)
	}
	typ, uid := ResourceType(s.ctx, s.call, sp)
	if typ != "Script" {
		return Invalid("script_path", "pass a .gd or .cs file", "%s is not a script", sp)
	}
	ref, err := s.Doc.AddExtResource("Script", sp, uid)
	if err != nil {
		return EditError(err, "script_path")
	}
	n.SetOrdered("script", ref, s.db.PropertyRank(s.class(n)))
	s.Edited = true
	return nil
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
	tx := s.ws.Begin(name).Write(s.Path, s.Bytes(), s.File.Version)
	for _, w := range s.Writes() {
		w(tx)
	}
	return tx.Commit(s.ctx)
}

// OpenScene opens the scene a tool's scene argument names, or the
// workspace's active scene when arg is empty (ScenePath, then Open).
func OpenScene(ctx context.Context, call *sdk.Call, arg string) (*Scene, error) {
	p, err := ScenePath(ctx, call, arg)
	if err != nil {
		return nil, err
	}
	return Open(ctx, call, p)
}

// SortedKeys returns the keys of props in the order Godot saves the
// properties of class, so that setting them one by one is deterministic.
func SortedKeys(class string, props map[string]any) []string {
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	rank := DB().PropertyRank(class)
	slices.SortStableFunc(keys, func(a, b string) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		return strings.Compare(a, b)
	})
	return keys
}

// SetAll sets props on n in key order and returns the value each property
// has afterwards, as JSON (ValueJSON, two levels of sub-resources).
func (s *Scene) SetAll(n *godot.Node, props map[string]any) (map[string]any, error) {
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := map[string]any{}
	for _, k := range keys {
		a, err := s.Set(n, k, props[k])
		if err != nil {
			return nil, err
		}
		out[k] = ValueJSON(s.Doc, s.Path, a.Now(), 2)
	}
	return out, nil
}

// CommitAnswer commits the scene as one undoable action (Commit) and
// answers out with the scene's path, dry_run and the workspace's warnings.
func (s *Scene) CommitAnswer(name string, out map[string]any) (sdk.Result, error) {
	res, err := s.Commit(name)
	if err != nil {
		return sdk.Result{}, err
	}
	out["scene_path"] = s.Path
	out["dry_run"] = res.DryRun
	if len(res.Warnings) > 0 {
		out["warnings"] = res.Warnings
	}
	return sdk.JSON(out), nil
}

// SetProps sets props on the node n (of class) in the order Godot saves
// them, each checked against the class database and converted as the
// editor saves it; position, rotation and scale of a Node3D are composed
// into its transform first (WithTransform).
func (s *Scene) SetProps(n *godot.Node, class string, props map[string]any) error {
	props, err := WithTransform(class, props)
	if err != nil {
		return err
	}
	for _, k := range SortedKeys(class, props) {
		if _, err := s.Set(n, k, props[k]); err != nil {
			return err
		}
	}
	return nil
}
