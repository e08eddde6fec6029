package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// Where exports go. Godot writes an export itself, outside the workspace
// (no journal, no undo, no editor notification), so an export may only
// create new files in one folder of its own, or replace files it wrote
// there before; never a project source, never through a symbolic link.
// docs/runtime.md, "Export", says why and what that means.
const (
	// exportDir is the export folder, relative to the project.
	exportDir = "build"
	// manifestName is the record, in the export folder, of every file an
	// export wrote: only those may be overwritten (with overwrite=true).
	manifestName = ".godot-mcp-exports.json"
	// gdignore makes Godot skip the export folder: its outputs are never
	// imported, nor packed into the next export.
	gdignore = ".gdignore"
	// stagePrefix names the private directory Godot exports into; its
	// files are renamed into place once the export succeeded.
	stagePrefix = ".export-"
)

// sourceExts are extensions of files Godot treats as part of a project
// (scenes, resources, scripts, shaders, imports, settings). An export
// output never has one, wherever it is.
var sourceExts = []string{
	".tscn", ".scn", ".tres", ".res", ".gd", ".gdc", ".gde", ".cs", ".gdshader", ".shader",
	".gdshaderinc", ".import", ".godot", ".cfg", ".gdns", ".gdnlib", ".gdextension", ".uid",
	".remap", ".translation", ".vs", ".vscn",
}

// output is where an export will write: validated, not yet created.
type output struct {
	root string // the project directory
	rel  string // slash path relative to root, under exportDir
	abs  string
	res  string
}

// dir is the absolute directory the output goes into.
func (o *output) dir() string { return filepath.Dir(o.abs) }

// planOutput checks an output argument against the export folder's rules
// without touching the file system: a file name under res://build/, not a
// project source, no symbolic link in any component (checked with Lstat,
// from the project directory down), no directory or other non-file in the
// way.
func planOutput(p *sdk.Project, arg string) (*output, error) {
	hint := "write to the export folder, such as res://" + exportDir + "/game.pck"
	s := strings.ReplaceAll(arg, "\\", "/")
	if strings.Contains(s, "://") && !strings.HasPrefix(s, "res://") {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, hint, "output %s is not a res:// path", sdk.QuoteInput(arg))
	}
	s = strings.TrimPrefix(s, "res://")
	rel := path.Clean(s)
	if rel == "." || rel == "" || strings.HasSuffix(s, "/") {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "name a file, such as res://"+exportDir+"/game.pck",
			"output %s is not a file name", sdk.QuoteInput(arg))
	}
	if !filepath.IsLocal(filepath.FromSlash(rel)) {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, hint, "output %s leaves the project", sdk.QuoteInput(arg))
	}
	if !strings.HasPrefix(rel, exportDir+"/") {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, hint,
			"output res://%s is outside the export folder res://%s/: godot_export_project writes only there, never over project files", rel, exportDir)
	}
	base := path.Base(rel)
	if ext := strings.ToLower(path.Ext(base)); slices.Contains(sourceExts, ext) || strings.EqualFold(base, "project.godot") {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "name an export file, such as game.pck, game.zip or game.x86_64",
			"output res://%s has the extension of a Godot project file (%s)", rel, ext)
	}
	if base == manifestName || base == gdignore || strings.HasPrefix(base, stagePrefix) {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "choose another file name", "output res://%s is a name the export folder keeps for itself", rel)
	}
	o := &output{root: p.Root(), rel: rel, abs: filepath.Join(p.Root(), filepath.FromSlash(rel)), res: "res://" + rel}
	parts := strings.Split(rel, "/")
	at := o.root
	for i, part := range parts {
		at = filepath.Join(at, part)
		st, err := os.Lstat(at)
		if errors.Is(err, fs.ErrNotExist) {
			break // this and everything below will be created
		}
		if err != nil {
			return nil, err
		}
		here := "res://" + strings.Join(parts[:i+1], "/")
		last := i == len(parts)-1
		switch {
		case st.Mode()&fs.ModeSymlink != 0:
			return nil, sdk.Errorf(sdk.CodeInvalidArgument, "remove the link, or choose an output whose path has none",
				"%s is a symbolic link: export outputs are never written through one", here)
		case last && st.IsDir():
			return nil, sdk.Errorf(sdk.CodeInvalidArgument, "name a file, such as "+here+"/game.pck", "output %s is a directory", here)
		case last && !st.Mode().IsRegular():
			return nil, sdk.Errorf(sdk.CodeInvalidArgument, "choose another output", "output %s is not a regular file", here)
		case !last && !st.IsDir():
			return nil, sdk.Errorf(sdk.CodeInvalidArgument, "choose another output", "%s is not a directory", here)
		}
	}
	return o, nil
}

// exportRecord is one file an export wrote, as the manifest keeps it.
type exportRecord struct {
	Path    string `json:"path"`
	Size    int64  `json:"size"`
	ModTime int64  `json:"mtime_ns"`
}

// exportManifest is the export folder's record of the files it wrote.
type exportManifest struct {
	Note  string         `json:"note"`
	Files []exportRecord `json:"files"`
}

func folder(root string) string { return filepath.Join(root, exportDir) }

// maxManifestBytes bounds what is read of the export folder's manifest.
const maxManifestBytes = 16 << 20

// readManifest reads the export folder's manifest; a missing one is empty.
func readManifest(root string) (*exportManifest, error) {
	p := filepath.Join(folder(root), manifestName)
	if st, err := os.Lstat(p); err == nil && !st.Mode().IsRegular() {
		return nil, sdk.Errorf(sdk.CodePreconditionFailed, "remove res://"+exportDir+"/"+manifestName+" (it is recreated)",
			"res://%s/%s is not a regular file", exportDir, manifestName)
	}
	// Read through ReadRegular all the same: the path can be swapped for
	// a named pipe between the Lstat and the open.
	data, err := sdk.ReadRegular(p, maxManifestBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return &exportManifest{}, nil
	}
	if err != nil {
		return nil, err
	}
	var m exportManifest
	if err := json.Unmarshal(data, &m); err != nil {
		// A broken record vouches for nothing: no file counts as an
		// earlier export, and the next export rewrites it.
		return &exportManifest{}, nil
	}
	return &m, nil
}

// wrote reports whether the manifest records the file at abs, unchanged
// since the export wrote it.
func (m *exportManifest) wrote(res string, st fs.FileInfo) bool {
	for _, r := range m.Files {
		if r.Path == res {
			return r.Size == st.Size() && r.ModTime == st.ModTime().UnixNano()
		}
	}
	return false
}

func (m *exportManifest) record(res string, st fs.FileInfo) {
	r := exportRecord{Path: res, Size: st.Size(), ModTime: st.ModTime().UnixNano()}
	for i := range m.Files {
		if m.Files[i].Path == res {
			m.Files[i] = r
			return
		}
	}
	m.Files = append(m.Files, r)
}

// write replaces the manifest atomically (a temporary file renamed over
// it, so a link in its place is replaced, not followed).
func (m *exportManifest) write(root string) error {
	m.Note = "files godot_export_project wrote; only these may be overwritten by it (overwrite=true)"
	slices.SortFunc(m.Files, func(a, b exportRecord) int { return strings.Compare(a.Path, b.Path) })
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(folder(root), stagePrefix+"manifest-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(folder(root), manifestName)); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// checkTarget says whether the file at abs (res) may be written: it must
// not exist, or be an earlier export (recorded, unchanged) and overwrite
// be set.
func checkTarget(m *exportManifest, abs, res string, overwrite bool) error {
	st, err := os.Lstat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		return sdk.Errorf(sdk.CodeInvalidArgument, "remove the link, or choose another output",
			"%s is a symbolic link: export outputs are never written through one", res)
	case !st.Mode().IsRegular():
		return sdk.Errorf(sdk.CodeInvalidArgument, "choose another output", "%s exists and is not a regular file", res)
	case !m.wrote(res, st):
		return sdk.Errorf(sdk.CodePreconditionFailed,
			"choose a new output name, or move the file out of res://"+exportDir+"/ first",
			"%s exists and was not written by godot_export_project (or changed since): it is never overwritten", res)
	case !overwrite:
		e := sdk.Errorf(sdk.CodePreconditionFailed, "pass overwrite=true to replace the earlier export, or choose a new output name",
			"%s is an earlier export (%d bytes, %s)", res, st.Size(), st.ModTime().UTC().Format(time.RFC3339))
		e.Required = "overwrite"
		return e
	}
	return nil
}

// prepareFolder creates the output's directories (each checked with Lstat
// again: nothing is created through a link) and the export folder's
// .gdignore. An existing export folder without .gdignore that holds
// project files is refused: the .gdignore would hide them from Godot.
func prepareFolder(o *output) error {
	top := folder(o.root)
	if _, err := os.Lstat(filepath.Join(top, gdignore)); errors.Is(err, fs.ErrNotExist) {
		if err := refuseSources(top); err != nil {
			return err
		}
	}
	at := o.root
	parts := strings.Split(o.rel, "/")
	for _, part := range parts[:len(parts)-1] {
		at = filepath.Join(at, part)
		st, err := os.Lstat(at)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := os.Mkdir(at, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return err
			}
			if st, err = os.Lstat(at); err != nil {
				return err
			}
		case err != nil:
			return err
		}
		if !st.IsDir() {
			return sdk.Errorf(sdk.CodeInvalidArgument, "remove the link, or choose an output whose path has none",
				"res://%s is not a directory (or is a symbolic link): export outputs are never written through one",
				filepath.ToSlash(strings.TrimPrefix(at, o.root+string(filepath.Separator))))
		}
	}
	ign := filepath.Join(top, gdignore)
	if st, err := os.Lstat(ign); err == nil {
		if !st.Mode().IsRegular() {
			return sdk.Errorf(sdk.CodePreconditionFailed, "remove res://"+exportDir+"/"+gdignore+" (it is recreated)",
				"res://%s/%s is not a regular file", exportDir, gdignore)
		}
		return nil
	}
	f, err := os.OpenFile(ign, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString("# Written by godot-mcp's godot_export_project: Godot does not import this folder, and exports do not pack it.\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// refuseSources fails when dir holds files Godot treats as part of the
// project (a scene, a script, ...).
func refuseSources(dir string) error {
	var found string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if !d.IsDir() && slices.Contains(sourceExts, strings.ToLower(filepath.Ext(p))) {
			found = p
			return fs.SkipAll
		}
		return nil
	})
	if err != nil {
		return err
	}
	if found != "" {
		rel, _ := filepath.Rel(filepath.Dir(dir), found)
		return sdk.Errorf(sdk.CodePreconditionFailed,
			"move the project files out of res://"+exportDir+"/, then export again",
			"res://%s holds project files (such as res://%s), and the export folder is hidden from Godot with a .gdignore",
			exportDir+"/", filepath.ToSlash(rel))
	}
	return nil
}

// stage makes the private directory Godot exports into, inside the
// output's directory (so the files are renamed, not copied, into place).
func stage(o *output) (string, error) {
	return os.MkdirTemp(o.dir(), stagePrefix+"*")
}

// publish renames every file Godot wrote into the stage directory next to
// the output (a desktop export writes game.x86_64 and game.pck, a web one
// game.html, game.js, game.wasm, ...), after checking all of them, and
// records them in the manifest. It returns the res:// paths it placed.
func publish(o *output, m *exportManifest, stageDir string, overwrite bool) ([]string, error) {
	ents, err := os.ReadDir(stageDir)
	if err != nil {
		return nil, err
	}
	type move struct{ from, to, res string }
	var moves []move
	resDir := "res://" + path.Dir(o.rel)
	for _, e := range ents {
		if !e.Type().IsRegular() {
			return nil, sdk.Errorf(sdk.CodeToolError, "report this export preset to the godot-mcp authors",
				"Godot wrote %s, which is not a regular file; nothing was placed", e.Name())
		}
		mv := move{from: filepath.Join(stageDir, e.Name()), to: filepath.Join(o.dir(), e.Name()), res: resDir + "/" + e.Name()}
		if err := checkTarget(m, mv.to, mv.res, overwrite); err != nil {
			return nil, err
		}
		moves = append(moves, mv)
	}
	var placed []string
	for _, mv := range moves {
		// rename(2) replaces whatever is at the target, a link included,
		// and never writes through it.
		if err := os.Rename(mv.from, mv.to); err != nil {
			return placed, fmt.Errorf("placing %s: %w", mv.res, err)
		}
		st, err := os.Lstat(mv.to)
		if err != nil {
			return placed, err
		}
		m.record(mv.res, st)
		placed = append(placed, mv.res)
	}
	return placed, m.write(o.root)
}
