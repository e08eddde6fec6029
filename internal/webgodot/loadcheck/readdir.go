package loadcheck

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// projectFiles lists the extensions ReadProject takes: the files a check
// loads or that they load as data, text and binary resources (the
// extensions Godot saves binary resources under). Imported assets are left
// out; the check replaces the ones referenced with placeholders.
var projectFiles = map[string]bool{
	".tscn": true, ".tres": true, ".gd": true, ".godot": true, ".cfg": true,
	".gdshader": true, ".gdshaderinc": true, ".json": true, ".txt": true,
	// Binary resources.
	".res": true, ".scn": true, ".material": true, ".theme": true, ".atlastex": true,
	".mesh": true, ".anim": true, ".shape": true, ".stylebox": true, ".translation": true,
	".meshlib": true, ".occ": true, ".lmbake": true, ".fontdata": true,
}

// maxProjectFile bounds one file read by ReadProject, and maxProject all
// of them: the pack is held in memory and copied into the browser.
const (
	maxProjectFile = 32 << 20
	maxProject     = 512 << 20
)

// ReadProject reads the resource, script and data files of the project in
// dir (the folder holding project.godot) into the map Check takes, keyed
// by path relative to dir with forward slashes. It skips .godot/,
// .import/, hidden folders and node_modules, and folders holding a
// .gdignore (as Godot does).
func ReadProject(dir string) (map[string][]byte, error) {
	files := map[string][]byte{}
	var total int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p == dir {
				return nil
			}
			name := d.Name()
			if strings.HasPrefix(name, ".") || name == "node_modules" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, ".gdignore")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !projectFiles[strings.ToLower(filepath.Ext(p))] {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Size() > maxProjectFile {
			return &sdk.Error{Code: sdk.CodeInvalidArgument,
				Message: fmt.Sprintf("%s is %d bytes, over the %d MB a checked file may have", p, info.Size(), maxProjectFile>>20),
				Hint:    "add a .gdignore to its folder if the engine need not load it"}
		}
		if total += info.Size(); total > maxProject {
			return &sdk.Error{Code: sdk.CodeInvalidArgument,
				Message: fmt.Sprintf("the project's files add up to more than the %d MB a check may pack", maxProject>>20),
				Hint:    "add a .gdignore to folders the engine need not load (build output, source art)"}
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		return nil, err
	}
	return files, nil
}

// ProjectRoot returns the folder holding project.godot at or above path
// (a file or a folder), or an error saying there is none.
func ProjectRoot(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", err
	}
	dir := abs
	if !st.IsDir() {
		dir = filepath.Dir(abs)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "project.godot")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", &sdk.Error{Code: sdk.CodeNotFound,
				Message: fmt.Sprintf("no project.godot at or above %s", path),
				Hint:    "give a path inside a Godot project: the engine loads files as res:// paths of their project"}
		}
		dir = parent
	}
}
