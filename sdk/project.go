package sdk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Project is the Godot project of a call, confined: every path a tool takes
// from its arguments goes through [Project.Resolve], which keeps it inside
// the project directory. The root has its symbolic links resolved, so
// "inside the project" is a plain prefix test on resolved paths.
//
// Project is for finding and reading files. To change project files use
// [Call.Workspace]: writes made any other way escape the host's conflict
// checks, the user's undo and the editor's reload.
//
// Get one with [Call.Project].
type Project struct {
	root string
}

// Project returns the project the host is working on. When the host has no
// project the error has code PRECONDITION_FAILED and Required "project_dir";
// return it from the handler unchanged. The project directory's symbolic
// links are resolved once, on the first call; later calls return the same
// *Project.
func (c *Call) Project() (*Project, error) {
	if c == nil {
		return openProject("")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.project != nil {
		return c.project, nil
	}
	p, err := openProject(c.Env.ProjectDir)
	if err != nil {
		return nil, err
	}
	c.project = p
	return p, nil
}

func openProject(dir string) (*Project, error) {
	if dir == "" {
		return nil, &Error{Code: CodePreconditionFailed, Required: "project_dir",
			Message: "the host has no Godot project",
			Hint:    "start godot-mcp with a project directory or open the project in the Godot editor"}
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, Errorf(CodePreconditionFailed, "check the project directory the host was started with",
			"project directory %s is not accessible: %v", dir, err)
	}
	root, err = filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	return &Project{root: root}, nil
}

// Root is the absolute project directory, symbolic links resolved.
func (p *Project) Root() string { return p.root }

// Contains reports whether resolved, an absolute path with its symbolic
// links already resolved (as [filepath.EvalSymlinks] returns it), is the
// root or inside it. Use it for entries met during a walk: a link whose
// resolved target is not contained leads out of the project.
func (p *Project) Contains(resolved string) bool {
	if resolved == p.root {
		return true
	}
	prefix := p.root
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	return strings.HasPrefix(resolved, prefix)
}

// ResPath returns the res:// path of abs, a path under the root: the root
// itself is "res://", a file in it "res://icon.svg".
func (p *Project) ResPath(abs string) string {
	rel, err := filepath.Rel(p.root, abs)
	if err != nil || rel == "." {
		return "res://"
	}
	return "res://" + filepath.ToSlash(rel)
}

// Resolve turns a path argument into an existing absolute path inside the
// project, with symbolic links resolved. It accepts "res://scenes/main.tscn",
// "scenes/main.tscn", and "" or "res://" for the root. It refuses, with code
// INVALID_ARGUMENT and a hint to use a res:// path inside the project:
// other schemes such as user://, absolute paths, paths that climb out with
// "..", and symbolic links whose target is outside the project. A path that
// does not exist is NOT_FOUND.
//
// The result is resolved, so a tool that walks it must still check links it
// meets on the way with [filepath.EvalSymlinks] and [Project.Contains].
func (p *Project) Resolve(arg string) (string, error) {
	rel := arg
	if r, ok := strings.CutPrefix(arg, "res://"); ok {
		rel = r
	} else if i := strings.Index(arg, "://"); i > 0 {
		return "", Errorf(CodeInvalidArgument, "use a res:// path inside the project",
			"path %q is not a res:// path", arg)
	}
	rel = strings.TrimSuffix(rel, "/")
	if rel == "" || rel == "." {
		return p.root, nil
	}
	local := filepath.FromSlash(rel)
	if !filepath.IsLocal(local) {
		return "", Errorf(CodeInvalidArgument, "use a res:// path inside it",
			"path %q leaves the project", arg)
	}
	resolved, err := filepath.EvalSymlinks(filepath.Join(p.root, local))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", Errorf(CodeNotFound, "check the path: res:// paths are relative to the project directory",
			"path %q does not exist", arg)
	case err != nil:
		return "", fmt.Errorf("resolving %q: %w", arg, err)
	case !p.Contains(resolved):
		return "", Errorf(CodeInvalidArgument, "use a res:// path inside the project; links that leave it are not followed",
			"path %q leads out of the project through a symbolic link", arg)
	}
	return resolved, nil
}

// Files lists the project's regular files, as absolute paths, the way the
// editor's file system sees them: hidden entries (.godot, .git) are
// skipped and links are not followed; with gdignore, so are folders that
// hold a .gdignore file, which the editor does not import. An unreadable
// entry below the root is skipped; ctx stops the walk.
func (p *Project) Files(ctx context.Context, gdignore bool) ([]string, error) {
	var out []string
	err := filepath.WalkDir(p.root, func(abs string, d fs.DirEntry, err error) error {
		if err != nil {
			if abs == p.root {
				return err
			}
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if abs == p.root {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if gdignore {
				if _, err := os.Lstat(filepath.Join(abs, ".gdignore")); err == nil {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if d.Type().IsRegular() {
			out = append(out, abs)
		}
		return nil
	})
	return out, err
}
