package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/importer"
	"github.com/godot-mcp/godot-mcp/sdk/godot/importfile"
	"github.com/godot-mcp/godot-mcp/sdk/godot/uid"
)

type importOptions struct {
	Overwrite      bool           `json:"overwrite,omitempty" jsonschema:"replace a file already at target_path (its .import file, and so its uid and options, is kept)"`
	WriteImported  bool           `json:"write_imported,omitempty" jsonschema:"also write the imported texture under res://.godot/imported/ (png, jpg, jpeg, webp, svg) as the editor's import would, so the game runs before any editor opened the project; the editor replaces it on its first import. Without an editor only: an attached editor imports the file itself"`
	ImportSettings map[string]any `json:"import_settings,omitempty" jsonschema:"import options to set instead of the editor's defaults, by the .import [params] key, e.g. {\"compress/mode\": 1, \"mipmaps/generate\": true} for a texture; a \"type\" key is ignored (the importer follows the file's extension)"`
}

type importArgs struct {
	Source     string        `json:"source" jsonschema:"absolute path of the file to copy, in a folder the operator allows, or a res:// path to copy a file of the project"`
	TargetPath sdk.ResPath   `json:"target_path" jsonschema:"res:// path to copy it to, with the same extension, e.g. res://art/player.png"`
	Options    importOptions `json:"options,omitempty" jsonschema:"overwrite and import_settings"`
}

type importResult struct {
	Imported      bool              `json:"imported" jsonschema:"the file and its .import file are in the project (false in a dry run)"`
	TargetPath    string            `json:"target_path"`
	DetectedType  string            `json:"detected_type" jsonschema:"the class the editor imports the file as"`
	Importer      string            `json:"importer"`
	ImportFile    string            `json:"import_file"`
	UID           string            `json:"uid"`
	Bytes         int               `json:"bytes"`
	Settings      map[string]string `json:"import_settings,omitempty" jsonschema:"the options set instead of the defaults, as written"`
	Replaced      bool              `json:"replaced,omitempty"`
	ImportedFiles []string          `json:"imported_files,omitempty" jsonschema:"the imported files written under res://.godot/imported/ (write_imported)"`
	Needs         []string          `json:"needs,omitempty" jsonschema:"a .gltf's buffers and images that are not yet in the project beside it: import each to this res:// path, or the editor's import fails"`
	Commit        sdk.CommitResult  `json:"commit"`
	Next          string            `json:"next"`
}

// magic is how each kind of file starts, so a file whose content is not
// what its extension says is refused here rather than failing in the
// editor's import.
var magic = map[string][][]byte{
	".png":  {[]byte("\x89PNG\r\n\x1a\n")},
	".jpg":  {[]byte("\xff\xd8\xff")},
	".jpeg": {[]byte("\xff\xd8\xff")},
	".webp": {[]byte("RIFF")},
	".wav":  {[]byte("RIFF"), []byte("RIFX")},
	".ogg":  {[]byte("OggS")},
	".glb":  {[]byte("glTF")},
	".ttf":  {{0, 1, 0, 0}, []byte("true")},
	".otf":  {[]byte("OTTO")},
}

func importableList() string { return strings.Join(importfile.Extensions(), " ") }

// settingText converts one import_settings value to the Godot text of the
// option whose default text is def, keeping the default's type: the
// editor reads an option of the wrong type as its default.
func settingText(key, def string, v any) (string, error) {
	bad := func(want string) error {
		return sdk.Errorf(sdk.CodeInvalidArgument, fmt.Sprintf("pass %s for %s (its default is %s)", want, key, def),
			"import_settings[%q] = %v is not %s", key, v, want)
	}
	switch {
	case def == "true" || def == "false":
		b, ok := v.(bool)
		if !ok {
			return "", bad("true or false")
		}
		return strconv.FormatBool(b), nil
	case strings.HasPrefix(def, `"`):
		s, ok := v.(string)
		if !ok {
			return "", bad("a string")
		}
		return godot.FormatValue(godot.String(s)), nil
	case def == "null" || strings.HasPrefix(def, "{") || strings.HasPrefix(def, "["):
		return "", sdk.Errorf(sdk.CodeInvalidArgument, "leave it out and set it in the editor's Import dock",
			"import_settings[%q] is not a plain value and cannot be set here", key)
	}
	f, ok := v.(float64)
	if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
		return "", bad("a number")
	}
	if strings.ContainsAny(def, ".e") {
		return godot.FormatValue(godot.Float(f)), nil
	}
	if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return "", bad("a whole number")
	}
	return strconv.FormatInt(int64(f), 10), nil
}

// withSettings is im with the options of settings in place of the
// defaults; the result maps each set key to its text.
func withSettings(im importfile.Importer, settings map[string]any) (importfile.Importer, map[string]string, error) {
	if len(settings) == 0 {
		return im, nil, nil
	}
	im.Params = slices.Clone(im.Params)
	set := map[string]string{}
	keys := make([]string, 0, len(settings))
	for k := range settings {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if k == "type" {
			continue
		}
		i := slices.IndexFunc(im.Params, func(p importfile.Param) bool { return p.Key == k })
		if i < 0 {
			var names []string
			for _, p := range im.Params {
				if p.Value != "null" {
					names = append(names, p.Key)
				}
			}
			return im, nil, sdk.Errorf(sdk.CodeInvalidArgument, "use one of the "+im.Name+" importer's options: "+strings.Join(names, ", "),
				"the %s importer has no option %q", im.Name, k)
		}
		text, err := settingText(k, im.Params[i].Value, settings[k])
		if err != nil {
			return im, nil, err
		}
		im.Params[i].Value = text
		set[k] = text
	}
	return im, set, nil
}

func importAsset(ctx context.Context, call *sdk.Call, in importArgs) (sdk.Result, error) {
	target := string(in.TargetPath)
	im, ok := importfile.For(target)
	if !ok {
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "import one of: "+importableList()+" (other files the editor does not import; write them with their own tools)",
			"%s: the editor imports no file with the extension %q", target, path.Ext(target))
	}
	if se, te := strings.ToLower(path.Ext(in.Source)), strings.ToLower(path.Ext(target)); se != te {
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "give target_path the source's extension ("+se+"); the importer follows the extension",
			"source %s and target_path %s have different extensions", in.Source, target)
	}
	if in.Options.WriteImported && !importer.Supported(target) {
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "leave write_imported out for this file: the editor imports audio, fonts and scenes when it opens the project",
			"write_imported makes the imported form of textures only (png, jpg, jpeg, webp, svg), not of %s", path.Ext(target))
	}
	im, set, err := withSettings(im, in.Options.ImportSettings)
	if err != nil {
		return sdk.Result{}, err
	}
	var data []byte
	if strings.HasPrefix(in.Source, "res://") {
		// A copy inside the project needs no policy: the workspace keeps
		// the read inside it.
		src, err := sdk.CleanResPath("source", in.Source)
		if err != nil {
			return sdk.Result{}, err
		}
		if src == target {
			return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass another target_path", "source and target_path are both %s", src)
		}
		f, err := call.Workspace().Read(ctx, src)
		if err != nil {
			return sdk.Result{}, err
		}
		data = f.Data
	} else if data, err = loadPolicy(os.Getenv).read(in.Source); err != nil {
		return sdk.Result{}, err
	}
	if starts, ok := magic[strings.ToLower(path.Ext(target))]; ok && !slices.ContainsFunc(starts, func(m []byte) bool { return bytes.HasPrefix(data, m) }) {
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "check that the file is really a "+path.Ext(target)+" file, or give it the right extension",
			"source %s does not look like a %s file", in.Source, path.Ext(target))
	}

	ws := call.Workspace()
	st, err := ws.Stat(ctx, target)
	if err != nil {
		return sdk.Result{}, err
	}
	if st.IsDir {
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "name the file to create, e.g. "+strings.TrimSuffix(target, "/")+"/"+path.Base(in.Source),
			"%s is a folder", target)
	}
	if st.Exists && !in.Options.Overwrite {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "overwrite",
			Message: target + " already exists",
			Hint:    "pass options.overwrite: true to replace it (its .import file is kept), or choose another target_path"}
	}
	importPath := target + ".import"
	ist, err := ws.Stat(ctx, importPath)
	if err != nil {
		return sdk.Result{}, err
	}
	id := ""
	var importData, keptImport []byte
	if ist.Exists {
		f, err := ws.Read(ctx, importPath)
		if err != nil {
			return sdk.Result{}, err
		}
		keptImport = f.Data
		info, perr := importfile.Parse(importPath, f.Data)
		if perr == nil && uid.IsCanonical(info.UID) && info.SourceFile == target {
			id = info.UID
		}
		// The .import file of a replaced asset holds the user's choices:
		// keep it unless it names another importer or settings are given.
		// One left from another path (copied beside it) is the editor's
		// record of that path, not of this file.
		if perr != nil || info.Importer != im.Name || info.SourceFile != target || len(set) > 0 {
			importData = importfile.Build(target, im, orNew(id))
		}
	} else {
		importData = importfile.Build(target, im, orNew(id))
	}
	if importData != nil {
		info, _ := importfile.Parse(importPath, importData)
		id = info.UID
	}

	var needs []string
	if strings.EqualFold(path.Ext(target), ".gltf") {
		for _, rel := range gltfFiles(data) {
			p := path.Join(path.Dir(strings.TrimPrefix(target, "res://")), rel)
			if p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(p) {
				continue // outside the project: the editor cannot load it either
			}
			p = "res://" + p
			if fi, err := ws.Stat(ctx, p); err == nil && !fi.Exists {
				needs = append(needs, p)
			}
		}
	}

	// The imported texture, when asked for and no editor is there to
	// make it: the .import file's dest_files, from the options it holds.
	var imported []importer.File
	if in.Options.WriteImported && call.Mode() != sdk.ModeEditor {
		effective := importData
		if effective == nil {
			effective = keptImport
		}
		if imported, err = importer.Import(target, data, effective); err != nil {
			return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "leave write_imported out (the editor imports the file when it opens the project), or fix the file or option it names",
				"cannot make the imported texture of %s: %v", target, err)
		}
	}
	tx := ws.Begin("Import asset " + target)
	tx.Write(target, data, st.Version)
	if importData != nil {
		tx.Write(importPath, importData, ist.Version)
	}
	var importedPaths []string
	for _, f := range imported {
		if !strings.HasPrefix(f.Path, "res://.godot/imported/") {
			continue
		}
		fst, err := ws.Stat(ctx, f.Path)
		if err != nil {
			return sdk.Result{}, err
		}
		tx.Write(f.Path, f.Data, fst.Version)
		importedPaths = append(importedPaths, f.Path)
	}
	cr, err := tx.Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	next := "open the project in the Godot editor: it imports " + target + " with these options on its next filesystem scan; use it by its path or " + id
	// One of the justified mode branches: the write is the same in both
	// modes (the files go through the workspace; the editor has no import
	// command), only what happens next differs, and the agent is told.
	if call.Mode() == sdk.ModeEditor {
		next = "the attached editor's filesystem scan imports " + target + " now, with these options; use it by its path or " + id
	} else if len(importedPaths) > 0 {
		next = "the game runs with " + target + " now (its imported texture is written); the editor reimports it with its own encoder when it opens the project; use it by its path or " + id
	}
	if len(needs) > 0 {
		next = "import the files it refers to first (needs), each with godot_asset_import_asset beside it; then " + next
	}
	return sdk.JSON(importResult{
		Imported: !cr.DryRun, TargetPath: target, DetectedType: im.Type, Importer: im.Name, ImportFile: importPath,
		UID: id, Bytes: len(data), Settings: set, Replaced: st.Exists, ImportedFiles: importedPaths, Needs: needs, Commit: cr, Next: next,
	}), nil
}

func orNew(id string) string {
	if id != "" {
		return id
	}
	return uid.New().String()
}

// gltfFiles lists the files a .gltf refers to by relative URI (its
// buffers and images); data: URIs are inside the file.
func gltfFiles(data []byte) []string {
	var doc struct {
		Buffers []struct{ URI string } `json:"buffers"`
		Images  []struct{ URI string } `json:"images"`
	}
	if json.Unmarshal(data, &doc) != nil {
		return nil
	}
	var out []string
	for _, u := range append(doc.Buffers, doc.Images...) {
		if u.URI == "" || strings.HasPrefix(u.URI, "data:") || strings.Contains(u.URI, "://") {
			continue
		}
		if rel, err := url.PathUnescape(u.URI); err == nil && !slices.Contains(out, rel) {
			out = append(out, rel)
		}
	}
	return out
}
