package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/internal/webgodot/loadcheck"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// runEngineCheck implements "godot-mcp check --engine PATH...": the real
// engine loads every scene, resource, script and project.godot of the
// projects holding the paths, and each problem in the given files or
// folders prints as file:line: message. Editor-only files (editor
// plugins) are not checked; each is listed on stderr as skipped. One
// engine run per project.
// Exit status: 0 no errors, 1 errors found, 2 the check could not run
// (usage, Chromium or the engine package missing).
func runEngineCheck(paths []string, stdout, stderr io.Writer) int {
	setup, err := webgodot.Locate()
	if err != nil {
		printEngineErr(stderr, err)
		return 2
	}
	// Group the paths by the project that holds them.
	type scope struct {
		root  string
		under []string // absolute paths the user asked about
	}
	var scopes []*scope
	for _, p := range paths {
		root, err := loadcheck.ProjectRoot(p)
		if err != nil {
			printEngineErr(stderr, err)
			return 2
		}
		abs, _ := filepath.Abs(p)
		i := slices.IndexFunc(scopes, func(s *scope) bool { return s.root == root })
		if i < 0 {
			scopes = append(scopes, &scope{root: root})
			i = len(scopes) - 1
		}
		scopes[i].under = append(scopes[i].under, abs)
	}

	r, err := webgodot.New(setup)
	if err != nil {
		printEngineErr(stderr, err)
		return 2
	}
	defer r.Close()

	errorsFound, files, skipped := 0, 0, 0
	for _, s := range scopes {
		project, err := loadcheck.ReadProject(s.root)
		if err != nil {
			printEngineErr(stderr, err)
			return 2
		}
		if v := projectVersion(project); v != "" && !strings.HasPrefix(v, "4.6") {
			fmt.Fprintf(stderr, "note: %s is a Godot %s project; it is checked with Godot %s\n", display(s.root), v, webgodot.RuntimeEngine)
		}
		rep, err := loadcheck.Check(context.Background(), r, project, loadcheck.Options{})
		if err != nil {
			printEngineErr(stderr, err)
			return 2
		}
		inScope := func(rel string) bool {
			abs := filepath.Join(s.root, filepath.FromSlash(rel))
			for _, u := range s.under {
				if abs == u || strings.HasPrefix(abs, u+string(filepath.Separator)) {
					return true
				}
			}
			return false
		}
		for _, f := range rep.Files {
			if inScope(f.File) {
				files++
			}
		}
		for _, p := range rep.Problems {
			if !inScope(p.File) {
				continue
			}
			loc := display(filepath.Join(s.root, filepath.FromSlash(p.File)))
			if p.Line > 0 {
				loc = fmt.Sprintf("%s:%d", loc, p.Line)
			}
			if p.IsWarning() {
				fmt.Fprintf(stdout, "%s: warning: %s\n", loc, p.Message)
				continue
			}
			errorsFound++
			fmt.Fprintf(stdout, "%s: %s\n", loc, p.Message)
		}
		for _, n := range rep.Notes {
			fmt.Fprintf(stderr, "note: %s\n", n)
		}
		for _, sk := range rep.Skipped {
			if inScope(sk.File) {
				skipped++
				fmt.Fprintf(stderr, "skipped: %s: editor-only (%s)\n", display(filepath.Join(s.root, filepath.FromSlash(sk.File))), sk.Reason)
			}
		}
	}
	if skipped > 0 {
		fmt.Fprintf(stdout, "engine check (Godot %s): %d files, %d errors, %d skipped (editor-only)\n", webgodot.RuntimeEngine, files, errorsFound, skipped)
	} else {
		fmt.Fprintf(stdout, "engine check (Godot %s): %d files, %d errors\n", webgodot.RuntimeEngine, files, errorsFound)
	}
	if errorsFound > 0 {
		return 1
	}
	return 0
}

// printEngineErr prints an error with its hint on its own line.
func printEngineErr(w io.Writer, err error) {
	var se *sdk.Error
	if errors.As(err, &se) {
		fmt.Fprintf(w, "godot-mcp check --engine: %s: %s\nHint: %s\n", se.Code, se.Message, se.Hint)
		return
	}
	fmt.Fprintf(w, "godot-mcp check --engine: %v\n", err)
}

// projectVersion is the Godot version project.godot declares, or "".
func projectVersion(files map[string][]byte) string {
	src, ok := files["project.godot"]
	if !ok {
		return ""
	}
	p, err := godot.ParseProject("project.godot", src)
	if err != nil {
		return ""
	}
	return p.Version()
}

// display shortens an absolute path to one relative to the working
// directory when that is shorter.
func display(abs string) string {
	wd, err := os.Getwd()
	if err != nil {
		return abs
	}
	if rel, err := filepath.Rel(wd, abs); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return abs
}
