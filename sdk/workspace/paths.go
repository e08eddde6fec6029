package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
)

const hintResPath = "use a res:// path inside the project, e.g. res://scenes/main.tscn"

// clean turns a path argument into its res:// form and its slash-separated
// path relative to the root ("" for the root itself). It accepts
// "res://a/b.tscn" and "a/b.tscn"; it refuses other schemes, absolute paths,
// "..", backslashes and NUL with INVALID_ARGUMENT.
func clean(arg string) (res, rel string, err error) {
	rel = arg
	if r, ok := strings.CutPrefix(arg, "res://"); ok {
		rel = r
	} else if i := strings.Index(arg, "://"); i > 0 {
		return "", "", sdk.Errorf(sdk.CodeInvalidArgument, hintResPath, "path %q is not a res:// path", arg)
	}
	if strings.ContainsAny(rel, "\\\x00") {
		return "", "", sdk.Errorf(sdk.CodeInvalidArgument, hintResPath+" with forward slashes",
			"path %q contains a backslash or NUL", arg)
	}
	if strings.HasPrefix(rel, "/") {
		return "", "", sdk.Errorf(sdk.CodeInvalidArgument, hintResPath, "path %q is absolute", arg)
	}
	rel = strings.TrimSuffix(rel, "/")
	if rel == "" || rel == "." {
		return "res://", "", nil
	}
	c := path.Clean(rel)
	if c == "." { // "a/.." is the root
		return "res://", "", nil
	}
	if !filepath.IsLocal(filepath.FromSlash(c)) {
		return "", "", sdk.Errorf(sdk.CodeInvalidArgument, hintResPath, "path %q leaves the project", arg)
	}
	return "res://" + c, c, nil
}

// contains reports whether resolved (symlinks resolved, absolute) is the
// root or inside it.
func (w *Workspace) contains(resolved string) bool {
	if resolved == w.root {
		return true
	}
	return strings.HasPrefix(resolved, w.root+string(filepath.Separator))
}

// resolveExisting resolves a path for reading: symlinks are followed, and
// must end inside the project.
func (w *Workspace) resolveExisting(arg string) (res, abs string, err error) {
	res, rel, err := clean(arg)
	if err != nil {
		return "", "", err
	}
	resolved, err := filepath.EvalSymlinks(filepath.Join(w.root, filepath.FromSlash(rel)))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return res, "", sdk.Errorf(sdk.CodeNotFound, "check the path: res:// paths are relative to the project directory",
			"%s does not exist", res)
	case err != nil:
		return res, "", sdk.Errorf(sdk.CodeInvalidArgument, hintResPath, "%s cannot be resolved: %v", res, err)
	case !w.contains(resolved):
		return res, "", sdk.Errorf(sdk.CodeInvalidArgument, "links that leave the project are not followed; "+hintResPath,
			"%s leads out of the project through a symbolic link", res)
	}
	return res, resolved, nil
}

// target is where a write goes: the resolved parent directory (which may
// not exist yet: dirs lists what must be created, outermost first) and the
// final path in it.
type target struct {
	res  string
	abs  string   // resolvedParent/base
	dirs []string // directories to create, outermost first
}

// resolveWrite resolves a path for writing or deleting. The deepest
// existing ancestor has its symlinks resolved and must be inside the
// project; the file itself must not be a symbolic link (a rename would
// replace the link, not write through it) nor a directory. Writes into the
// project's .godot/ cache directory or into a Git repository's .git/ are
// refused too (see offLimits).
func (w *Workspace) resolveWrite(arg string) (target, error) {
	res, rel, err := clean(arg)
	if err != nil {
		return target{}, err
	}
	if rel == "" {
		return target{}, sdk.Errorf(sdk.CodeInvalidArgument, "name a file, e.g. res://scenes/main.tscn", "cannot write the project root")
	}
	if err := offLimits(res, rel); err != nil {
		return target{}, err
	}
	parentRel, base := path.Split(rel)
	parentRel = strings.TrimSuffix(parentRel, "/")
	// Find the deepest existing ancestor, remembering what is missing.
	var missing []string
	dir := parentRel
	var dirFi fs.FileInfo
	for {
		p := filepath.Join(w.root, filepath.FromSlash(dir))
		fi, err := os.Lstat(p)
		if err == nil {
			dirFi = fi
			if !fi.IsDir() && fi.Mode()&fs.ModeSymlink == 0 {
				return target{}, sdk.Errorf(sdk.CodeInvalidArgument, "choose a path whose parent is a directory",
					"%s: res://%s is a file, not a directory", res, dir)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return target{}, sdk.Errorf(sdk.CodeInvalidArgument, hintResPath, "%s cannot be resolved: %v", res, err)
		}
		if dir == "" {
			return target{}, sdk.Errorf(sdk.CodePreconditionFailed, "check the project directory the host was started with",
				"the project directory is gone")
		}
		missing = append(missing, path.Base(dir))
		dir = path.Dir(dir)
		if dir == "." {
			dir = ""
		}
	}
	// The root was resolved when the workspace was opened: when it is the
	// directory and still is one (not since replaced by a link), there is
	// nothing to resolve.
	resolvedDir, err := w.root, error(nil)
	if dir != "" || dirFi.Mode()&fs.ModeSymlink != 0 {
		resolvedDir, err = filepath.EvalSymlinks(filepath.Join(w.root, filepath.FromSlash(dir)))
	}
	if err != nil {
		return target{}, sdk.Errorf(sdk.CodeInvalidArgument, hintResPath, "%s cannot be resolved: %v", res, err)
	}
	if !w.contains(resolvedDir) {
		return target{}, sdk.Errorf(sdk.CodeInvalidArgument, "links that leave the project are not followed; "+hintResPath,
			"%s leads out of the project through a symbolic link", res)
	}
	// A link inside the project may still lead into .godot/ or .git/.
	if resolvedDir != w.root {
		relDir, err := filepath.Rel(w.root, resolvedDir)
		if err == nil {
			if err := offLimits(res, path.Join(filepath.ToSlash(relDir), base)); err != nil {
				return target{}, err
			}
		}
	}
	t := target{res: res}
	cur := resolvedDir
	for i := len(missing) - 1; i >= 0; i-- {
		cur = filepath.Join(cur, missing[i])
		t.dirs = append(t.dirs, cur)
	}
	t.abs = filepath.Join(cur, base)
	if len(missing) == 0 {
		fi, err := os.Lstat(t.abs)
		switch {
		case err == nil && fi.Mode()&fs.ModeSymlink != 0:
			return target{}, sdk.Errorf(sdk.CodeInvalidArgument, "write the file the link points to, by its own res:// path",
				"%s is a symbolic link; the workspace does not write through links", res)
		case err == nil && fi.IsDir():
			return target{}, sdk.Errorf(sdk.CodeInvalidArgument, "name a file, not a directory", "%s is a directory", res)
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return target{}, fmt.Errorf("%s: %w", res, err)
		}
	}
	return t, nil
}

// offLimits refuses writes into the Godot editor's cache (.godot/ at the
// root, but for the imported files directly in .godot/imported/) and into
// Git's metadata (.git, a directory or a worktree's file, at any depth: an
// addon may be a submodule): an agent deleting or rewriting them destroys
// what no undo can bring back (the repository's history).
// Names compare case-insensitively, as they do on macOS and Windows file
// systems, where res://.GIT/config is .git/config.
func offLimits(res, rel string) error {
	parts := strings.Split(rel, "/")
	// The imported files (.godot/imported/<file>) are the one part of the
	// cache a tool may write: the editor remakes each from its asset, and
	// a project no editor opened needs them to show its art.
	if len(parts) == 3 && parts[0] == ".godot" && parts[1] == "imported" && parts[2] != "" && !strings.HasPrefix(parts[2], ".") {
		return nil
	}
	if strings.EqualFold(parts[0], ".godot") {
		return sdk.Errorf(sdk.CodeInvalidArgument, "write project files, not the editor's cache",
			"%s is inside .godot/, the Godot editor's cache directory", res)
	}
	for _, p := range parts {
		if strings.EqualFold(p, ".git") {
			return sdk.Errorf(sdk.CodeInvalidArgument, "change project files only; use git itself for the repository",
				"%s is inside .git, a Git repository's metadata, which the workspace never writes or deletes", res)
		}
	}
	return nil
}
