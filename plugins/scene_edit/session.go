package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

// Required tokens of the contract that this toolset names.
const (
	requiredActiveScene = "active_scene"
	requiredNodePath    = "node_path"
	requiredScenePath   = "scene_path"
	requiredOpenScene   = "open_scene"
	requiredValue       = "value"
)

// db is the engine's class database: node types, properties with their
// types and defaults, signals and methods.
func db() *classdb.DB { return classdb.MustEmbedded() }

func invalid(required, hint, format string, args ...any) *sdk.Error {
	e := sdk.Errorf(sdk.CodeInvalidArgument, hint, format, args...)
	e.Required = required
	return e
}

func notFound(hint, format string, args ...any) *sdk.Error {
	return sdk.Errorf(sdk.CodeNotFound, hint, format, args...)
}

const treeHint = "godot_inspection_get_scene_tree lists the scene's node paths (\".\" is the root)"

// normalizeNodePath applies the addon's rule: strip one leading "/", then a
// leading "root/", and map "" to ".".
func normalizeNodePath(p string) string {
	p = strings.TrimPrefix(strings.TrimSpace(p), "/")
	p = strings.TrimPrefix(p, "root/")
	if p == "root" || p == "" {
		return "."
	}
	return strings.TrimSuffix(p, "/")
}

// checkResPath validates a res:// path argument with one of exts.
func checkResPath(arg, what string, exts ...string) (string, error) {
	if !strings.HasPrefix(arg, "res://") {
		return "", invalid(what, "pass a res:// path inside the project, e.g. res://scenes/main.tscn",
			"%s %q is not a res:// path", what, arg)
	}
	clean := "res://" + strings.TrimPrefix(path.Clean("/"+strings.TrimPrefix(arg, "res://")), "/")
	if strings.Contains(strings.TrimPrefix(arg, "res://"), "..") {
		return "", invalid(what, "pass a res:// path inside the project without ..", "%s %q leaves the project", what, arg)
	}
	if len(exts) > 0 {
		ok := false
		for _, e := range exts {
			ok = ok || strings.HasSuffix(strings.ToLower(clean), e)
		}
		if !ok {
			return "", invalid(what, "use a path ending in "+strings.Join(exts, " or "),
				"%s %q must end in %s", what, arg, strings.Join(exts, " or "))
		}
	}
	return clean, nil
}

// editError turns an sdk/godot editing error into the contract's refusal.
func editError(err error, required string) error {
	switch {
	case errors.Is(err, godot.ErrNotFound):
		return notFound(treeHint, "%v", err)
	case errors.Is(err, godot.ErrExists):
		return invalid(required, "choose another name, or read the tree with godot_inspection_get_scene_tree", "%v", err)
	case errors.Is(err, godot.ErrInvalid):
		return invalid(required, "see the message for what Godot does not allow here", "%v", err)
	}
	return err
}

// scene is one scene file loaded for a headless edit: the parsed file, the
// version it was read at (the commit's compare-and-swap base) and its bytes.
type scene struct {
	path    string
	file    *godot.File
	version sdk.FileVersion
	orig    []byte
}

// activeScene resolves a tool's scene argument: the given res:// path, else
// the workspace's active scene, else PRECONDITION_FAILED active_scene.
func activeScene(ctx context.Context, call *sdk.Call, arg string) (string, error) {
	if arg != "" {
		return checkResPath(arg, "scene", ".tscn", ".scn")
	}
	p, err := call.Workspace().ActiveScene(ctx)
	if err != nil {
		return "", err
	}
	if p == "" {
		return "", &sdk.Error{Code: sdk.CodePreconditionFailed, Required: requiredActiveScene,
			Message: "no scene is open",
			Hint: "open one with godot_scene_edit_open_scene (godot_inspection_list_scenes lists them) or create one with " +
				"godot_scene_edit_create_scene, or pass scene=\"res://...tscn\""}
	}
	return p, nil
}

// loadScene reads and parses the scene a headless tool edits.
func loadScene(ctx context.Context, call *sdk.Call, arg string) (*scene, error) {
	p, err := activeScene(ctx, call, arg)
	if err != nil {
		return nil, err
	}
	if strings.HasSuffix(strings.ToLower(p), ".scn") {
		return nil, invalid(requiredScenePath, "open the project in the Godot editor to edit binary scenes, or save it as .tscn there",
			"%s is a binary scene; headless editing works on text scenes (.tscn)", p)
	}
	if s := takeCached(ctx, call, p); s != nil {
		return s, nil
	}
	ws := call.Workspace()
	f, err := ws.Read(ctx, p)
	if err != nil {
		return nil, err
	}
	file, err := godot.ParseFile(p, f.Data)
	if err == nil {
		file.SetFloatStyle(ws.FloatStyle(ctx))
	}
	if err != nil {
		return nil, invalid(requiredScenePath, "fix the file (godot-mcp check "+p+" shows where) or open it in the Godot editor",
			"%s does not parse: %v", p, err)
	}
	if !file.IsScene() || file.Root() == nil {
		return nil, invalid(requiredScenePath, "pass a .tscn scene with a root node", "%s is not a scene with a root node", p)
	}
	return &scene{path: p, file: file, version: f.Version, orig: f.Data}, nil
}

// node resolves a node path argument.
func (s *scene) node(arg string) (*godot.Node, error) {
	p := normalizeNodePath(arg)
	n := s.file.Node(p)
	if n == nil {
		return nil, notFound(treeHint, "No node at '%s' in %s.", arg, s.path)
	}
	return n, nil
}

// commit writes the edited scene as one journaled action named name and
// completes out with what every headless mutation reports: persisted (the
// edit is in the file itself, so always true, and the same verdict in a dry
// run), and for a dry run the diff that would be written.
func (s *scene) commit(ctx context.Context, call *sdk.Call, name string, out map[string]any, extra ...func(*sdk.Tx)) (sdk.Result, error) {
	out["persisted"] = true
	data := s.file.Bytes()
	if bytes.Equal(data, s.orig) && len(extra) == 0 {
		if call.DryRun {
			out["dry_run"] = true
		}
		putCached(s.path, s.version, s.file, s.orig)
		return sdk.JSON(out), nil
	}
	tx := call.Workspace().Begin(name)
	if !bytes.Equal(data, s.orig) {
		tx.Write(s.path, data, s.version)
	}
	for _, fn := range extra {
		fn(tx)
	}
	res, err := tx.Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	if !res.DryRun {
		for _, f := range res.Files {
			if f.Path == s.path && f.VersionAfter != "" {
				putCached(s.path, f.VersionAfter, s.file, data)
			}
		}
	}
	if res.DryRun {
		out["dry_run"] = true
		var diffs []string
		for _, f := range res.Files {
			diffs = append(diffs, f.Diff)
		}
		out["diff"] = strings.Join(diffs, "\n")
	}
	if len(res.Warnings) > 0 {
		out["warnings"] = res.Warnings
	}
	return sdk.JSON(out), nil
}

// projectVersion returns the project's Godot version ("4.6"), from the
// host's environment or project.godot's config/features; "" if unknown.
func projectVersion(ctx context.Context, call *sdk.Call) string {
	return call.Workspace().GodotVersion(ctx)
}

// atLeast reports whether version "4.6.1" is at least major.minor; an
// unknown version counts as the class database's (4.6).
func atLeast(version string, major, minor int) bool {
	if version == "" {
		return true
	}
	var ma, mi int
	if _, err := fmt.Sscanf(version, "%d.%d", &ma, &mi); err != nil {
		return true
	}
	return ma > major || (ma == major && mi >= minor)
}

// freeName returns name, or the editor's next free sibling name ("Sprite2D2")
// when the parent already has a child called name.
func freeName(f *godot.File, parent, name string) string {
	join := func(n string) string {
		if parent == "." {
			return n
		}
		return parent + "/" + n
	}
	for f.Node(join(name)) != nil {
		name = nextName(name)
	}
	return name
}

// nextName increments a trailing number ("Box2" -> "Box3") or appends 2.
func nextName(name string) string {
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	if i < len(name) {
		var n int
		fmt.Sscanf(name[i:], "%d", &n)
		return fmt.Sprintf("%s%d", name[:i], n+1)
	}
	return name + "2"
}

// validName applies Godot's node-name rule.
func validName(name string) error {
	if name == "" || strings.ContainsAny(name, ".:@/\"%") {
		return invalid("name", "use a name without . : @ / \" %", "node name %q must be non-empty and may not contain . : @ / \" %%", name)
	}
	return nil
}

// parsed keeps the scene the last call left, parsed and edited, with the
// version its bytes have on disk. The next call on that scene asks the
// workspace only for the file's version (Stat) and, when nothing changed
// it, edits the kept File instead of reading and parsing the file again:
// parsing is most of an edit's own cost (see PERFORMANCE.md). A File is
// taken out while a call uses it, so a failed or dry-run edit never leaves
// a half-edited File behind; any other version means a fresh read.
var parsed struct {
	sync.Mutex
	path    string
	version sdk.FileVersion
	file    *godot.File
	data    []byte
}

// cacheParsed can be turned off by tests to compare with fresh parses.
var cacheParsed = true

func takeCached(ctx context.Context, call *sdk.Call, p string) *scene {
	if !cacheParsed {
		return nil
	}
	parsed.Lock()
	file, version, data := parsed.file, parsed.version, parsed.data
	hit := file != nil && parsed.path == p
	if hit {
		parsed.file, parsed.data = nil, nil
	}
	parsed.Unlock()
	if !hit {
		return nil
	}
	fi, err := call.Workspace().Stat(ctx, p)
	if err != nil || !fi.Exists || fi.Version != version {
		return nil
	}
	return &scene{path: p, file: file, version: version, orig: data}
}

func putCached(p string, version sdk.FileVersion, file *godot.File, data []byte) {
	if !cacheParsed {
		return
	}
	parsed.Lock()
	parsed.path, parsed.version, parsed.file, parsed.data = p, version, file, data
	parsed.Unlock()
}
