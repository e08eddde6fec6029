package sdk

import (
	"context"
	"fmt"
	"path"
	"reflect"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk/godot/deps"
	"github.com/godot-mcp/godot-mcp/sdk/suggest"
)

// ResPath is an argument that names a file or folder of the project, as
// Godot does: "res://scenes/main.tscn". Use it (or [ScenePath]) for every
// such argument, and the SDK checks it once, before the handler runs, the
// same way for every tool: it must be a res:// path (a bare relative path
// such as "scenes/main.tscn" gets res:// in front; a file's uid:// is
// resolved to its path, see [ResolveUID]), stay inside the project
// (no "..", no absolute path, no other scheme), and it reaches the handler
// cleaned ("res://a//b/./c.gd" is "res://a/b/c.gd"). A failure is
// INVALID_ARGUMENT naming the argument.
//
// The field's `godot` tag asks for more, comma-separated:
//
//   - ext=.gd|.cs: the path must end in one of these extensions;
//   - exists: the file must exist (NOT_FOUND otherwise, checked through the
//     workspace);
//   - new: the file must not exist yet (INVALID_ARGUMENT otherwise).
//
// For example:
//
//	Script sdk.ResPath `json:"script_path" jsonschema:"res:// path of the script" godot:"ext=.gd|.cs,exists"`
type ResPath string

// ScenePath is a [ResPath] that must end in .tscn or .scn. A tool that edits
// a scene takes it as `scene` (optional: empty means the active scene); in
// editor mode pass it to [Editor.OpenScene] so the addon acts on it.
type ScenePath string

// String returns the path.
func (p ResPath) String() string { return string(p) }

// String returns the path.
func (p ScenePath) String() string { return string(p) }

var (
	resPathType   = reflect.TypeFor[ResPath]()
	scenePathType = reflect.TypeFor[ScenePath]()
)

// pathField is one path argument of a tool's arguments struct.
type pathField struct {
	index  []int
	arg    string // the JSON name, for errors
	slice  bool   // a []ResPath or []ScenePath
	exts   []string
	exists bool
	isNew  bool
}

// pathFields finds the path arguments of an arguments type (top-level
// fields and slices of them, and those of embedded structs, whose fields
// are top-level arguments too), reading their godot tags; a bad tag is a
// definition error.
func pathFields(t reflect.Type) ([]pathField, error) {
	if t.Kind() != reflect.Struct {
		return nil, nil
	}
	var out []pathField
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct && f.Tag.Get("json") == "" {
			inner, err := pathFields(f.Type)
			if err != nil {
				return nil, err
			}
			for _, pf := range inner {
				pf.index = append(append([]int{}, f.Index...), pf.index...)
				out = append(out, pf)
			}
			continue
		}
		ft, slice := f.Type, false
		if ft.Kind() == reflect.Slice {
			ft, slice = ft.Elem(), true
		}
		if ft != resPathType && ft != scenePathType {
			if tag := f.Tag.Get("godot"); tag != "" && tag != valueTag {
				return nil, fmt.Errorf("field %s: a godot tag needs type sdk.ResPath or sdk.ScenePath", f.Name)
			}
			continue
		}
		pf := pathField{index: f.Index, arg: jsonName(f), slice: slice}
		if ft == scenePathType {
			pf.exts = []string{".tscn", ".scn"}
		}
		if tag := f.Tag.Get("godot"); tag != "" {
			for _, opt := range strings.Split(tag, ",") {
				switch k, v, _ := strings.Cut(strings.TrimSpace(opt), "="); k {
				case "exists":
					pf.exists = true
				case "new":
					pf.isNew = true
				case "ext":
					pf.exts = strings.Split(v, "|")
				default:
					return nil, fmt.Errorf("field %s: unknown godot tag option %q (want exists, new, ext=.a|.b)", f.Name, opt)
				}
			}
		}
		if pf.exists && pf.isNew {
			return nil, fmt.Errorf("field %s: godot tag says both exists and new", f.Name)
		}
		out = append(out, pf)
	}
	return out, nil
}

func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		return f.Name
	}
	return name
}

// checkPaths cleans and checks the path arguments of v (a pointer to the
// arguments struct) in place.
func checkPaths(ctx context.Context, call *Call, fields []pathField, v reflect.Value) error {
	v = v.Elem()
	for _, pf := range fields {
		fv := v.FieldByIndex(pf.index)
		if !pf.slice {
			if err := checkPathValue(ctx, call, pf, fv); err != nil {
				return err
			}
			continue
		}
		for i := range fv.Len() {
			if err := checkPathValue(ctx, call, pf, fv.Index(i)); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkPathValue(ctx context.Context, call *Call, pf pathField, fv reflect.Value) error {
	raw := fv.String()
	if raw == "" {
		return nil // optional and omitted: the schema has already refused an empty required one where it must
	}
	if strings.HasPrefix(raw, "uid://") {
		if pf.isNew {
			return &Error{Code: CodeInvalidArgument, Required: pf.arg,
				Message: fmt.Sprintf("%s %s is a uid://, and a new file has none yet", pf.arg, QuoteInput(raw)),
				Hint:    "pass the new file's res:// path"}
		}
		p, err := ResolveUID(ctx, call, pf.arg, raw)
		if err != nil {
			return err
		}
		raw = p
	}
	clean, err := CleanResPath(pf.arg, raw, pf.exts...)
	if err != nil {
		return err
	}
	fv.SetString(clean)
	if !pf.exists && !pf.isNew {
		return nil
	}
	fi, err := call.Workspace().Stat(ctx, clean)
	if err != nil {
		return err
	}
	switch {
	case pf.exists && !fi.Exists:
		hint := "check the path (godot_project_search_files finds files by name); res:// paths are relative to the project folder"
		if near := nearPath(ctx, call.Workspace(), clean); near != "" {
			hint = "did you mean " + near + "? " + hint
		}
		return &Error{Code: CodeNotFound, Required: pf.arg,
			Message: fmt.Sprintf("%s %s does not exist", pf.arg, QuoteInput(clean)), Hint: hint}
	case pf.isNew && fi.Exists:
		return &Error{Code: CodeInvalidArgument, Required: pf.arg,
			Message: fmt.Sprintf("%s %s already exists", pf.arg, QuoteInput(clean)),
			Hint:    "choose a path that does not exist yet"}
	}
	return nil
}

// CleanResPath checks and cleans one res:// path argument named arg by the
// rules of [ResPath]: "res://" in front (added to a bare relative path),
// inside the project, cleaned, and ending in one of exts when any are given.
// Use it for paths a tool finds inside other arguments; top-level arguments
// of type ResPath and ScenePath are checked for you.
func CleanResPath(arg, raw string, exts ...string) (string, error) {
	rel, ok := strings.CutPrefix(raw, "res://")
	if !ok {
		if i := strings.Index(raw, "://"); i >= 0 {
			return "", &Error{Code: CodeInvalidArgument, Required: arg,
				Message: fmt.Sprintf("%s %s is not a res:// path", arg, QuoteInput(raw)),
				Hint:    "pass a path inside the project, such as res://scenes/main.tscn"}
		}
		rel = raw
	}
	if strings.HasPrefix(rel, "/") || strings.Contains(rel, "\\") || hasDotDot(rel) {
		return "", &Error{Code: CodeInvalidArgument, Required: arg,
			Message: fmt.Sprintf("%s %s leaves the project", arg, QuoteInput(raw)),
			Hint:    "pass a res:// path inside the project, without .. or a leading /"}
	}
	clean := "res://" + strings.TrimPrefix(path.Clean("/"+rel), "/")
	if len(exts) > 0 {
		lower := strings.ToLower(clean)
		ok := false
		for _, e := range exts {
			ok = ok || strings.HasSuffix(lower, strings.ToLower(e))
		}
		if !ok {
			return "", &Error{Code: CodeInvalidArgument, Required: arg,
				Message: fmt.Sprintf("%s %s must end in %s", arg, QuoteInput(raw), strings.Join(exts, " or ")),
				Hint:    "use a path ending in " + strings.Join(exts, " or ")}
		}
	}
	return clean, nil
}

func hasDotDot(rel string) bool {
	for _, part := range strings.Split(rel, "/") {
		if part == ".." {
			return true
		}
	}
	return false
}

// nearPath returns the file beside the missing path p that was probably
// meant: one whose name differs only in case, else the nearest name by
// edit distance (a typo, or another extension), else "". Only p's own
// folder is read, once.
func nearPath(ctx context.Context, ws *Workspace, p string) string {
	dir, base := path.Split(p)
	if dir != "res://" {
		dir = strings.TrimSuffix(dir, "/")
	}
	ents, err := ws.List(ctx, dir)
	if err != nil {
		return ""
	}
	byBase := map[string]string{}
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		if e.IsDir {
			continue
		}
		b := path.Base(e.Path)
		if strings.EqualFold(b, base) {
			return e.Path
		}
		byBase[b] = e.Path
		names = append(names, b)
	}
	if b := suggest.Closest(base, names); b != "" {
		return byBase[b]
	}
	return ""
}

// ResolveUID returns the res:// path of the project file whose uid is id
// ("uid://…"), as Godot resolves it: from the file's own header, its .uid
// sidecar or its .import file (package deps keeps that index, shared by the
// toolset's calls). A uid no file has is NOT_FOUND naming arg. Arguments of
// type [ResPath] and [ScenePath] take a uid:// and are resolved for you.
func ResolveUID(ctx context.Context, call *Call, arg, id string) (string, error) {
	notFound := &Error{Code: CodeNotFound, Required: arg,
		Message: fmt.Sprintf("%s %s is not the uid of a file of the project", arg, QuoteInput(id)),
		Hint:    "pass the file's res:// path (godot_project_resolve_uid looks a uid up)"}
	if call == nil || call.Env.ProjectDir == "" {
		return "", notFound
	}
	g, err := deps.Shared(call.Env.ProjectDir).Graph(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return "", Interrupted(ctx, 0)
		}
		return "", notFound
	}
	p, ok := g.Resolve(id)
	if !ok || !strings.HasPrefix(p, "res://") {
		return "", notFound
	}
	return p, nil
}
