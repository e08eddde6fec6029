package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/uid"
)

type resolveUIDArgs struct {
	UID string `json:"uid" alias:"value" jsonschema:"a resource UID such as \"uid://cecaux1sm7mo0\"; a res:// path is looked up the other way (its UID), as path_to_uid does"`
}

// isPathValue reports whether resolve_uid was given a path, not a UID:
// prompts written for other servers resolve in both directions.
func (in resolveUIDArgs) isPathValue() bool {
	return !strings.HasPrefix(strings.TrimSpace(in.UID), "uid://")
}

type uidResult struct {
	UID    string `json:"uid"`
	Path   string `json:"path"`
	Source string `json:"source,omitempty" jsonschema:"the file that records the UID: a .uid sidecar, the resource's own header, or its .import file"`
}

// checkUID refuses a value that is neither a UID nor a res:// path.
func checkUID(in resolveUIDArgs) error {
	if _, err := uid.Parse(in.UID); err != nil {
		return sdk.Errorf(sdk.CodeInvalidArgument, "pass a UID as Godot writes it, e.g. \"uid://cecaux1sm7mo0\", or a res:// path", "%v", err)
	}
	return nil
}

// resolveUIDEditor is resolve_uid's editor path: the editor knows the
// UIDs of files it has not saved yet.
func resolveUIDEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in resolveUIDArgs) (sdk.Result, error) {
	cmd, params := "cmd_uid_to_path", map[string]any{"uid": in.UID}
	if in.isPathValue() {
		path, err := sdk.CleanResPath("uid", in.UID)
		if err != nil {
			return sdk.Result{}, err
		}
		cmd, params = "cmd_path_to_uid", map[string]any{"path": path}
	} else if err := checkUID(in); err != nil {
		return sdk.Result{}, err
	}
	var out map[string]any
	if err := ed.Query(ctx, cmd, params, &out); err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(out), nil
}

func resolveUID(ctx context.Context, call *sdk.Call, in resolveUIDArgs) (sdk.Result, error) {
	if in.isPathValue() {
		path, err := sdk.CleanResPath("uid", in.UID)
		if err != nil {
			return sdk.Result{}, err
		}
		return pathToUID(ctx, call, pathArgs{Path: sdk.ResPath(path)})
	}
	if err := checkUID(in); err != nil {
		return sdk.Result{}, err
	}
	p, err := call.Project()
	if err != nil {
		return sdk.Result{}, err
	}
	idx, err := uidIndex(ctx, p)
	if err != nil {
		return sdk.Result{}, err
	}
	path, ok := idx[in.UID]
	if !ok {
		return sdk.Result{}, sdk.Errorf(sdk.CodeNotFound, "the resource may have been deleted; search for it with godot_project_search_files", "no file in the project has UID %s", in.UID)
	}
	_, src := uidOf(p, path)
	return sdk.JSON(uidResult{UID: in.UID, Path: path, Source: src}), nil
}

type pathArgs struct {
	Path sdk.ResPath `json:"path" jsonschema:"res:// path of a file"`
}

func pathToUIDCommand(in pathArgs) (any, error) {
	return map[string]any{"path": in.Path}, nil
}

func pathToUID(ctx context.Context, call *sdk.Call, in pathArgs) (sdk.Result, error) {
	p, res, err := projectFile(call, string(in.Path), "")
	if err != nil {
		return sdk.Result{}, err
	}
	id, src := uidOf(p, res)
	if id == "" {
		return sdk.Result{}, sdk.Errorf(sdk.CodeNotFound, "Godot 4.4+ gives scripts and shaders a .uid file, and resources a uid in their header, when the editor saves or imports them; open the project in the editor once",
			"%s has no UID", res)
	}
	return sdk.JSON(uidResult{UID: id, Path: res, Source: src}), nil
}

type deleteArgs struct {
	Path  sdk.ResPath `json:"path" jsonschema:"res:// path of the file to delete"`
	Force bool        `json:"force,omitempty" jsonschema:"delete even though other files still refer to it (their references break)"`
}

type deleteResult struct {
	Path         string           `json:"path"`
	Deleted      bool             `json:"deleted"`
	HadUID       bool             `json:"had_uid"`
	Removed      []string         `json:"removed" jsonschema:"every file removed: the file and its .uid/.import sidecars"`
	ReferencedBy []fileRefs       `json:"referenced_by,omitempty" jsonschema:"files that still refer to it (only with force)"`
	Commit       sdk.CommitResult `json:"commit"`
}

// deletable checks that the file may be deleted: it exists, is not
// project.godot, and nothing refers to it unless force is set. It answers
// the file's res:// path, its uid and the files that still refer to it.
func deletable(ctx context.Context, call *sdk.Call, in deleteArgs) (string, string, []fileRefs, error) {
	p, res, err := projectFile(call, string(in.Path), "pass a file; directories are not deleted by this tool")
	if err != nil {
		return "", "", nil, err
	}
	if res == sdk.ProjectFile {
		return "", "", nil, sdk.Errorf(sdk.CodeInvalidArgument, "project.godot is the project itself", "refusing to delete project.godot")
	}
	id, _ := uidOf(p, res)
	refs, err := referencing(ctx, p, res, id, true)
	if err != nil {
		return "", "", nil, err
	}
	if len(refs) > 0 && !in.Force {
		return "", "", nil, &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "force",
			Message: fmt.Sprintf("%s is still referenced by %s", res, describeRefs(refs)),
			Hint:    "remove those references first, move the file with godot_project_move_file, or pass force=true to delete it anyway"}
	}
	return res, id, refs, nil
}

// deleteResourceFileEditor deletes through the editor, so its file system
// dock and open tabs follow. The reference check reads the files: the
// addon has no command for it, and references the editor holds unsaved
// are in open scenes that the user sees.
func deleteResourceFileEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in deleteArgs) (sdk.Result, error) {
	res, _, refs, err := deletable(ctx, call, in)
	if err != nil {
		return sdk.Result{}, err
	}
	out := map[string]any{}
	if err := ed.Apply(ctx, "cmd_delete_resource_file", map[string]any{"path": res}, &out); err != nil {
		return sdk.Result{}, err
	}
	if out == nil {
		out = map[string]any{}
	}
	if ed.DryRun() {
		out["path"] = res
	}
	if len(refs) > 0 {
		out["referenced_by"] = refs
	}
	return sdk.JSON(out), nil
}

func deleteResourceFile(ctx context.Context, call *sdk.Call, in deleteArgs) (sdk.Result, error) {
	res, id, refs, err := deletable(ctx, call, in)
	if err != nil {
		return sdk.Result{}, err
	}
	ws := call.Workspace()
	tx := ws.Begin("Delete " + res)
	out := deleteResult{Path: res, HadUID: id != "", ReferencedBy: refs}
	for _, f := range []string{res, res + ".uid", res + ".import"} {
		fi, err := ws.Stat(ctx, f)
		if err != nil {
			return sdk.Result{}, err
		}
		if fi.Exists && !fi.IsDir {
			tx.Delete(f, fi.Version)
			out.Removed = append(out.Removed, f)
		}
	}
	cr, err := tx.Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	out.Deleted, out.Commit = !cr.DryRun, cr
	return sdk.JSON(out), nil
}

func describeRefs(refs []fileRefs) string {
	var parts []string
	for i, r := range refs {
		if i == 10 {
			parts = append(parts, fmt.Sprintf("and %d more files", len(refs)-10))
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%d)", r.File, r.Count))
	}
	return strings.Join(parts, ", ")
}

type moveArgs struct {
	Path    sdk.ResPath `json:"path" jsonschema:"res:// path of the file to move"`
	NewPath sdk.ResPath `json:"new_path" jsonschema:"res:// path it moves to; must not exist" godot:"new"`
}

type moveResult struct {
	OldPath     string           `json:"old_path"`
	NewPath     string           `json:"new_path"`
	UID         string           `json:"uid,omitempty" jsonschema:"the file's UID: uid:// references stay valid"`
	UpdatedRefs []fileRefs       `json:"updated_refs" jsonschema:"each file whose references were rewritten, and how many"`
	Moved       bool             `json:"moved" jsonschema:"false in a dry run"`
	Commit      sdk.CommitResult `json:"commit"`
}

// checkNewPath refuses a destination the editor would not see or that is
// no file name (the SDK has already cleaned it and confined it to the
// project).
func checkNewPath(p sdk.ResPath) error {
	rel := strings.TrimPrefix(string(p), "res://")
	if rel == "" {
		return sdk.Errorf(sdk.CodeInvalidArgument, "use a res:// file path inside the project, e.g. \"res://scenes/player.tscn\"", "new_path %q is not a file path inside the project", p)
	}
	for _, seg := range strings.Split(rel, "/") {
		if strings.HasPrefix(seg, ".") {
			return sdk.Errorf(sdk.CodeInvalidArgument, "pick a path outside hidden directories; the editor does not see them", "new_path %q is hidden", p)
		}
	}
	return nil
}

// movable checks a move in both modes: the file exists and is not
// project.godot, and neither the destination nor its sidecars exist.
func movable(ctx context.Context, call *sdk.Call, in moveArgs) (*sdk.Project, string, string, error) {
	p, from, err := projectFile(call, string(in.Path), "pass a file; move directories file by file")
	if err != nil {
		return nil, "", "", err
	}
	to := string(in.NewPath)
	if err := checkNewPath(in.NewPath); err != nil {
		return nil, "", "", err
	}
	if from == sdk.ProjectFile {
		return nil, "", "", sdk.Errorf(sdk.CodeInvalidArgument, "project.godot must stay at the project root", "refusing to move project.godot")
	}
	if to == from {
		return nil, "", "", sdk.Errorf(sdk.CodeInvalidArgument, "pass a different new_path", "path and new_path are the same")
	}
	for _, f := range []string{to, to + ".uid", to + ".import"} {
		fi, err := call.Workspace().Stat(ctx, f)
		if err != nil {
			return nil, "", "", err
		}
		if fi.Exists {
			return nil, "", "", &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "new_path",
				Message: fmt.Sprintf("%s already exists", f), Hint: "pick a new_path that does not exist, or delete that file first"}
		}
	}
	return p, from, to, nil
}

// moveResourceFileEditor moves through the editor, which rewrites the
// references of open scenes too; in a dry run the addon previews the move
// itself (its preview flag).
func moveResourceFileEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in moveArgs) (sdk.Result, error) {
	_, from, to, err := movable(ctx, call, in)
	if err != nil {
		return sdk.Result{}, err
	}
	return ed.Forward(ctx, "cmd_move_resource_file", map[string]any{"path": from, "new_path": to, "preview": false})
}

func moveResourceFile(ctx context.Context, call *sdk.Call, in moveArgs) (sdk.Result, error) {
	p, from, to, err := movable(ctx, call, in)
	if err != nil {
		return sdk.Result{}, err
	}
	ws := call.Workspace()
	id, _ := uidOf(p, from)
	refs, err := referencing(ctx, p, from, "", false)
	if err != nil {
		return sdk.Result{}, err
	}
	tx := ws.Begin(fmt.Sprintf("Move %s to %s", from, to))
	// The file and its sidecars move; an .import file also names its
	// source.
	for _, f := range []string{from, from + ".uid", from + ".import"} {
		fi, err := ws.Stat(ctx, f)
		if err != nil {
			return sdk.Result{}, err
		}
		if !fi.Exists || fi.IsDir {
			continue
		}
		rf, err := ws.Read(ctx, f)
		if err != nil {
			return sdk.Result{}, err
		}
		data := rf.Data
		if strings.HasSuffix(f, ".import") {
			data, _ = rewriteRefs(f, data, from, to, "", false)
		}
		tx.Delete(f, rf.Version)
		tx.Write(to+strings.TrimPrefix(f, from), data, "")
	}
	out := moveResult{OldPath: from, NewPath: to, UID: id, UpdatedRefs: []fileRefs{}}
	for i, r := range refs {
		if i%200 == 0 {
			call.Progress(float64(i), float64(len(refs)), "rewriting references")
		}
		rf, err := ws.Read(ctx, r.File)
		if err != nil {
			return sdk.Result{}, err
		}
		data, n := rewriteRefs(r.File, rf.Data, from, to, "", false)
		if n == 0 {
			continue
		}
		tx.Write(r.File, data, rf.Version)
		out.UpdatedRefs = append(out.UpdatedRefs, fileRefs{File: r.File, Count: n})
	}
	cr, err := tx.Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	out.Moved, out.Commit = !cr.DryRun, cr
	return sdk.JSON(out), nil
}
