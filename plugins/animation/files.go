package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

// An edit may touch more than the scene: an AnimationPlayer's library, or
// an animation of it, can be saved as its own .tres (an ext_resource of
// the scene), and the edit then lands there. edit collects the files one
// tool call reads and writes, and commits those that changed as one
// journaled action.

// fileDoc is one parsed file of an edit.
type fileDoc struct {
	path string
	file sdk.File // zero for a new file: no version to compare against
	doc  *godot.File
}

// edit is the set of files of one call.
type edit struct {
	ctx   context.Context
	call  *sdk.Call
	scene *nodeedit.Scene // nil when the call names no scene
	files []*fileDoc
}

func newEdit(ctx context.Context, call *sdk.Call) *edit { return &edit{ctx: ctx, call: call} }

// openScene opens scene (the workspace's active scene when "").
func (e *edit) openScene(scene sdk.ScenePath) (*nodeedit.Scene, error) {
	p, err := nodeedit.ScenePath(e.ctx, e.call, string(scene))
	if err != nil {
		return nil, err
	}
	s, err := nodeedit.Open(e.ctx, e.call, p)
	if err != nil {
		return nil, err
	}
	s.Doc.SetFloatStyle(e.call.Workspace().FloatStyle(e.ctx))
	e.scene = s
	e.files = append(e.files, &fileDoc{path: s.Path, file: s.File, doc: s.Doc})
	return s, nil
}

// open reads and parses a resource file of the edit (once).
func (e *edit) open(path string) (*fileDoc, error) {
	for _, f := range e.files {
		if f.path == path {
			return f, nil
		}
	}
	ws := e.call.Workspace()
	f, err := ws.Read(e.ctx, path)
	if err != nil {
		return nil, err
	}
	doc, err := ws.ParseFile(e.ctx, f)
	if err != nil {
		return nil, sdk.Errorf(sdk.CodePreconditionFailed, "fix the file or restore it with godot_undo", "%s cannot be parsed: %v", f.Path, err)
	}
	doc.SetFloatStyle(ws.FloatStyle(e.ctx))
	fd := &fileDoc{path: f.Path, file: f, doc: doc}
	e.files = append(e.files, fd)
	return fd, nil
}

// create adds a new resource file of class typ to the edit; it must not
// exist yet.
func (e *edit) create(path, typ string) (*fileDoc, error) {
	fi, err := e.call.Workspace().Stat(e.ctx, path)
	if err != nil {
		return nil, err
	}
	if fi.Exists {
		return nil, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "resource_path",
			Message: fmt.Sprintf("%s exists already", path),
			Hint:    "pass a new .tres path, or edit the animation there with node_path left out and resource_path set"}
	}
	src := fmt.Sprintf("[gd_resource type=%q format=3 uid=%q]\n\n[resource]\n", typ, newUID())
	doc, err := godot.ParseFile(path, []byte(src))
	if err != nil {
		return nil, err
	}
	doc.SetFloatStyle(e.call.Workspace().FloatStyle(e.ctx))
	fd := &fileDoc{path: path, doc: doc}
	e.files = append(e.files, fd)
	return fd, nil
}

// commit writes every file of the edit that changed as one action named
// name, and adds the commit's fields to out.
func (e *edit) commit(name string, out map[string]any) (sdk.Result, error) {
	tx := e.call.Workspace().Begin(name)
	for _, f := range e.files {
		tx.Write(f.path, f.doc.Bytes(), f.file.Version)
	}
	cr, err := tx.Commit(e.ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	out["dry_run"] = cr.DryRun
	out["changes"] = cr.Files
	if len(cr.Warnings) > 0 {
		out["warnings"] = cr.Warnings
	}
	return sdk.JSON(out), nil
}

// refFunc declares res:// files in fd as ext_resources, checking that
// they exist.
func (e *edit) refFunc(fd *fileDoc) func(typ, path string) (godot.Value, error) {
	return func(typ, path string) (godot.Value, error) {
		if e.scene != nil && fd.doc == e.scene.Doc {
			return e.scene.Resources().Ref(typ, path)
		}
		p, err := sdk.CleanResPath("value", path)
		if err != nil {
			return nil, err
		}
		fi, err := e.call.Workspace().Stat(e.ctx, p)
		if err != nil {
			return nil, err
		}
		if !fi.Exists {
			return nil, &sdk.Error{Code: sdk.CodeNotFound, Required: "value", Message: fmt.Sprintf("no file at %s", p),
				Hint: "check the path with godot_project_search_files"}
		}
		return fd.doc.AddExtResource(typ, p, "")
	}
}

func invalid(required, hint, format string, args ...any) error {
	return &sdk.Error{Code: sdk.CodeInvalidArgument, Required: required, Message: fmt.Sprintf(format, args...), Hint: hint}
}

func notFound(hint, format string, args ...any) error {
	return &sdk.Error{Code: sdk.CodeNotFound, Message: fmt.Sprintf(format, args...), Hint: hint}
}

func quoteList(s []string) string {
	if len(s) == 0 {
		return "(none)"
	}
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}
