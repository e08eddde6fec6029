package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk/godot/scaffold"
)

const newUsage = `Usage: godot-mcp new PATH [flags]

Create a new Godot 4 project in PATH (created if missing; it must be empty
unless --force): project.godot as the editor's project manager writes it
for the chosen Godot version and renderer, icon.svg, .gitignore,
.gitattributes and a main scene from a template. The same files as the
project_scaffold toolset's godot_project_scaffold.

Flags:
`

// runNew implements `godot-mcp new`.
func runNew(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("godot-mcp new", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("name", "", "project `name` (config/name); default: the folder's name")
	version := fs.String("godot", scaffold.Newest, "Godot `version`: "+strings.Join(scaffold.Versions, ", "))
	renderer := fs.String("renderer", scaffold.ForwardPlus, "`renderer`: forward_plus (Forward+), mobile or gl_compatibility (Compatibility)")
	template := fs.String("template", scaffold.Empty, "main scene `template`: "+strings.Join(scaffold.Templates, ", "))
	force := fs.Bool("force", false, "write into a folder that is not empty, replacing the files the project has")
	fs.Usage = func() {
		fmt.Fprint(stderr, newUsage)
		fs.PrintDefaults()
	}
	// Flags may come before or after PATH.
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(rest) != 1 {
		fmt.Fprintln(stderr, "godot-mcp new: pass one PATH, the folder to create the project in")
		fs.Usage()
		return 2
	}
	dir, err := filepath.Abs(rest[0])
	if err != nil {
		fmt.Fprintf(stderr, "godot-mcp new: %v\n", err)
		return 1
	}
	if *name == "" {
		*name = filepath.Base(dir)
	}
	p, err := scaffold.New(scaffold.Options{Name: *name, Godot: *version, Renderer: *renderer, Template: *template})
	if err != nil {
		fmt.Fprintf(stderr, "godot-mcp new: %v\n", strings.TrimPrefix(err.Error(), scaffold.ErrInvalid.Error()+": "))
		return 2
	}
	if err := writeScaffold(dir, p, *force); err != nil {
		fmt.Fprintf(stderr, "godot-mcp new: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "created a Godot %s project (%s, template %s) in %s:\n", p.Godot, p.Renderer, p.Template, dir)
	for _, f := range p.Files {
		fmt.Fprintf(stdout, "  %s\n", strings.TrimPrefix(f.Path, "res://"))
	}
	fmt.Fprintf(stdout, "serve it with: godot-mcp serve --project %s\n", dir)
	return 0
}

// writeScaffold writes p's files into dir, refusing a folder with entries
// other than .git unless force. Each file is written to a temporary name
// and renamed, project.godot last, so an interrupted run never leaves a
// half-written file or a project.godot without its scene.
func writeScaffold(dir string, p *scaffold.Project, force bool) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	case err != nil:
		return err
	case !force:
		var present []string
		for _, e := range entries {
			if e.Name() != ".git" {
				present = append(present, e.Name())
			}
		}
		if len(present) > 0 {
			return fmt.Errorf("%s is not empty (%s); pick an empty folder, or pass --force to write into it", dir, strings.Join(present, ", "))
		}
	}
	for _, f := range p.Files {
		path := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(f.Path, "res://")))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		tmp, err := os.CreateTemp(filepath.Dir(path), ".godot-mcp-new-*")
		if err != nil {
			return err
		}
		_, werr := tmp.Write(f.Data)
		cerr := tmp.Close()
		if err := errors.Join(werr, cerr); err != nil {
			_ = os.Remove(tmp.Name())
			return err
		}
		if err := os.Chmod(tmp.Name(), 0o644); err != nil {
			_ = os.Remove(tmp.Name())
			return err
		}
		if err := os.Rename(tmp.Name(), path); err != nil {
			_ = os.Remove(tmp.Name())
			return err
		}
	}
	return nil
}
