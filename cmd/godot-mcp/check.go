package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// checkKind says how a file is parsed.
type checkKind int

const (
	kindNone     checkKind = iota
	kindResource           // .tscn, .tres
	kindProject            // project.godot
	kindConfig             // other ConfigFiles: *.cfg, *.godot
)

func checkKindOf(path string) checkKind {
	base := filepath.Base(path)
	switch {
	case base == "project.godot":
		return kindProject
	case strings.HasSuffix(base, ".tscn"), strings.HasSuffix(base, ".tres"):
		return kindResource
	case strings.HasSuffix(base, ".cfg"), strings.HasSuffix(base, ".godot"):
		return kindConfig
	}
	return kindNone
}

// runCheck implements "godot-mcp check [--roundtrip] PATH...": it parses every
// Godot text file under the paths and reports problems as file:line:col.
// Exit status: 0 all files ok, 1 a file failed, 2 usage error.
func runCheck(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("check", flag.ContinueOnError)
	fset.SetOutput(stderr)
	roundtrip := fset.Bool("roundtrip", false, "also verify that writing each file back reproduces it byte for byte")
	engine := fset.Bool("engine", false, "have the real Godot 4.6 engine (web runtime in headless Chromium) load the files; see docs/engine.md")
	fset.Usage = func() {
		fmt.Fprintln(stderr, "Usage: godot-mcp check [--roundtrip | --engine] PATH...")
		fmt.Fprintln(stderr, "\nParses every .tscn, .tres, project.godot and .cfg file under the given files or")
		fmt.Fprintln(stderr, "directories (skipping .godot/ and .import/ directories) and prints each problem as")
		fmt.Fprintln(stderr, "file:line:col: message. Exits 1 if any file fails.")
		fmt.Fprintln(stderr, "\nFlags:")
		fset.PrintDefaults()
	}
	if err := fset.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fset.NArg() == 0 {
		fset.Usage()
		return 2
	}
	if *engine {
		return runEngineCheck(fset.Args(), stdout, stderr)
	}

	var files []string
	for _, root := range fset.Args() {
		st, err := os.Stat(root)
		if err != nil {
			fmt.Fprintf(stderr, "godot-mcp check: %v\n", err)
			return 2
		}
		if !st.IsDir() {
			if checkKindOf(root) == kindNone {
				fmt.Fprintf(stderr, "godot-mcp check: %s: not a .tscn, .tres, project.godot or .cfg file\n", root)
				return 2
			}
			files = append(files, root)
			continue
		}
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				// Editor caches and import data are not project sources.
				if p != root && (d.Name() == ".godot" || d.Name() == ".import") {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Type().IsRegular() && checkKindOf(p) != kindNone {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			fmt.Fprintf(stderr, "godot-mcp check: %v\n", err)
			return 2
		}
	}

	failed := 0
	for _, p := range files {
		if !checkFile(p, *roundtrip, stderr) {
			failed++
		}
	}
	fmt.Fprintf(stdout, "checked %d files: %d ok, %d failed\n", len(files), len(files)-failed, failed)
	if failed > 0 {
		return 1
	}
	return 0
}

// checkFile parses one file, printing any problem to w, and reports success.
func checkFile(path string, roundtrip bool, w io.Writer) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(w, "%s: %v\n", path, err)
		return false
	}
	var out interface{ Bytes() []byte }
	switch checkKindOf(path) {
	case kindResource:
		out, err = godot.ParseFile(path, data)
	case kindProject:
		out, err = godot.ParseProject(path, data)
	default:
		out, err = godot.ParseConfig(path, data)
	}
	if err != nil {
		// Syntax errors already read "file:line:col: message".
		fmt.Fprintln(w, err)
		return false
	}
	if roundtrip {
		if got := out.Bytes(); !bytes.Equal(got, data) {
			line, want, have := firstDifferingLine(data, got)
			fmt.Fprintf(w, "%s:%d:1: round-trip differs: want %q, got %q\n", path, line, want, have)
			return false
		}
	}
	return true
}

// firstDifferingLine returns the 1-based number of the first line that
// differs between a and b, with both versions of it (truncated).
func firstDifferingLine(a, b []byte) (int, string, string) {
	line := 1
	start := 0
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		if a[i] == '\n' {
			line++
			start = i + 1
		}
		i++
	}
	return line, lineAt(a, start), lineAt(b, start)
}

func lineAt(b []byte, start int) string {
	if start >= len(b) {
		return ""
	}
	rest := b[start:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	if len(rest) > 80 {
		return string(rest[:77]) + "..."
	}
	return string(rest)
}
