package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// resolve is [sdk.Project.Resolve] with a hint, for a missing path, that
// names the tool listing the project.
func resolve(p *sdk.Project, arg string) (string, error) {
	abs, err := p.Resolve(arg)
	if e, ok := errors.AsType[*sdk.Error](err); ok && e.Code == sdk.CodeNotFound {
		e.Hint = "list the project with godot_project_get_filesystem_tree to find the right path"
	}
	return abs, err
}

// projectFile resolves the existing path arg to its res:// path. With a
// dirHint, a directory is refused with that hint.
func projectFile(call *sdk.Call, arg, dirHint string) (*sdk.Project, string, error) {
	p, err := call.Project()
	if err != nil {
		return nil, "", err
	}
	abs, err := resolve(p, arg)
	if err != nil {
		return nil, "", err
	}
	if dirHint != "" && statDir(abs) {
		return nil, "", sdk.Errorf(sdk.CodeInvalidArgument, dirHint, "%s is a directory", arg)
	}
	return p, p.ResPath(abs), nil
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
func classify(p *sdk.Project, abs string, d fs.DirEntry, includeHidden bool) (entryKind, string) {
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
		if err != nil || !p.Contains(target) {
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
