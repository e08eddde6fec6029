package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// project is the confined view of the project directory every tool works
// through. root is the project directory with symbolic links resolved, so
// "inside the project" is a plain prefix test on resolved paths.
type project struct {
	root string
}

func openProject(dir string) (*project, error) {
	if dir == "" {
		return nil, &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "project_dir",
			Message: "the host has no Godot project",
			Hint:    "start godot-mcp with a project directory or open the project in the Godot editor"}
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, sdk.Errorf(sdk.CodePreconditionFailed, "check the project directory the host was started with",
			"project directory %s is not accessible: %v", dir, err)
	}
	root, err = filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	return &project{root: root}, nil
}

// contains reports whether the resolved path p is the root or inside it.
func (p *project) contains(resolved string) bool {
	return resolved == p.root || strings.HasPrefix(resolved, p.root+string(filepath.Separator))
}

// resPath returns the res:// path of abs, a path under the root.
func (p *project) resPath(abs string) string {
	rel, err := filepath.Rel(p.root, abs)
	if err != nil || rel == "." {
		return "res://"
	}
	return "res://" + filepath.ToSlash(rel)
}

// resolve turns a path argument ("res://scenes", "scenes", "" for the root)
// into an absolute path inside the project. Paths that climb out with "..",
// absolute paths and symbolic links whose target is outside the project are
// refused with a hint; a missing path is NOT_FOUND.
func (p *project) resolve(arg string) (string, error) {
	rel := arg
	if r, ok := strings.CutPrefix(arg, "res://"); ok {
		rel = r
	} else if i := strings.Index(arg, "://"); i > 0 {
		return "", sdk.Errorf(sdk.CodeInvalidArgument, "use a res:// path inside the project",
			"path %q is not a res:// path", arg)
	}
	rel = strings.TrimSuffix(rel, "/")
	if rel == "" || rel == "." {
		return p.root, nil
	}
	local := filepath.FromSlash(rel)
	if !filepath.IsLocal(local) {
		return "", sdk.Errorf(sdk.CodeInvalidArgument, "use a res:// path inside it",
			"path %q leaves the project", arg)
	}
	abs := filepath.Join(p.root, local)
	resolved, err := filepath.EvalSymlinks(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", sdk.Errorf(sdk.CodeNotFound, "list the project with get_filesystem_tree to find the right path",
			"path %q does not exist", arg)
	case err != nil:
		return "", fmt.Errorf("resolving %q: %w", arg, err)
	case !p.contains(resolved):
		return "", sdk.Errorf(sdk.CodeInvalidArgument, "use a res:// path inside the project; links that leave it are not followed",
			"path %q leads out of the project through a symbolic link", arg)
	}
	return resolved, nil
}

// entryKind classifies a directory entry met during a walk.
type entryKind int

const (
	kindSkip    entryKind = iota // not shown: hidden, .godot, or a link out of the project
	kindDir                      // a real directory: descend
	kindFile                     // a regular file
	kindLink                     // a symbolic link to somewhere inside the project: shown, not followed
	kindSpecial                  // sockets, devices and such: skipped
)

// classify decides what to do with the entry at abs. Links are resolved with
// EvalSymlinks and kept only when their target stays inside the project;
// even then they are never descended into, so a link cannot make a walk
// loop or count a directory twice.
func (p *project) classify(abs string, d fs.DirEntry, includeHidden bool) (entryKind, string) {
	name := d.Name()
	if name == ".godot" || (!includeHidden && strings.HasPrefix(name, ".")) {
		return kindSkip, ""
	}
	switch t := d.Type(); {
	case t.IsDir():
		return kindDir, ""
	case t.IsRegular():
		return kindFile, ""
	case t&fs.ModeSymlink != 0:
		target, err := filepath.EvalSymlinks(abs)
		if err != nil || !p.contains(target) {
			return kindSkip, ""
		}
		return kindLink, target
	}
	return kindSpecial, ""
}

// fileSize returns the size of a regular file, or 0 if it cannot be read.
func fileSize(d fs.DirEntry) int64 {
	info, err := d.Info()
	if err != nil {
		return 0
	}
	return info.Size()
}

// statDir reports whether abs (already resolved) is a directory.
func statDir(abs string) bool {
	fi, err := os.Stat(abs)
	return err == nil && fi.IsDir()
}
