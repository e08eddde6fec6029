package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"

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
	maxMB := fset.Int("max-file-mb", defaultCheckMaxMB, "skip files larger than this many MiB (with a note)")
	engine := fset.Bool("engine", false, "have the real Godot 4.6 engine (web runtime in headless Chromium) load the files; see docs/engine.md")
	fset.Usage = func() {
		fmt.Fprintln(stderr, "Usage: godot-mcp check [--roundtrip | --engine] PATH...")
		fmt.Fprintln(stderr, "\nParses every .tscn, .tres, project.godot and .cfg file under the given files or")
		fmt.Fprintln(stderr, "directories (skipping .godot/ and .import/ directories) and prints each problem as")
		fmt.Fprintln(stderr, "file:line:col: message. Exits 1 if any file fails, or if a directory holds none of")
		fmt.Fprintln(stderr, "these files. A directory named here may be a symbolic link; it is followed.")
		fmt.Fprintln(stderr, "\nOnly regular files are read: symbolic links met while walking a directory,")
		fmt.Fprintln(stderr, "devices, FIFOs and sockets are skipped, and so are files above --max-file-mb and")
		fmt.Fprintln(stderr, ".cfg files that are not Godot config (JSON, binary); each skip is noted on stderr.")
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
	if *maxMB <= 0 {
		fmt.Fprintln(stderr, "godot-mcp check: --max-file-mb must be positive")
		return 2
	}
	limit := int64(*maxMB) << 20

	var files, skips, empty []string
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
			// A path named on the command line may be a symbolic link
			// (os.Stat followed it); what it points to must still be a
			// regular file, which readCheckFile verifies on the open file.
			files = append(files, root)
			continue
		}
		// A directory named on the command line may be a symbolic link
		// (os.Stat followed it): walk what it points to, since WalkDir
		// does not follow a link even at its root, and print paths as the
		// caller wrote them. Links inside the tree are still not followed.
		walkRoot, err := filepath.EvalSymlinks(root)
		if err != nil {
			fmt.Fprintf(stderr, "godot-mcp check: %v\n", err)
			return 2
		}
		found := len(files) + len(skips)
		err = filepath.WalkDir(walkRoot, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if rel, rerr := filepath.Rel(walkRoot, p); rerr == nil {
				p = filepath.Join(root, rel)
			}
			if d.IsDir() {
				// Editor caches and import data are not project sources.
				if p != filepath.Clean(root) && (d.Name() == ".godot" || d.Name() == ".import") {
					return filepath.SkipDir
				}
				return nil
			}
			if checkKindOf(p) == kindNone {
				return nil
			}
			if !d.Type().IsRegular() {
				// Symbolic links are not followed inside a tree: one
				// committed as "level.tscn -> /dev/zero" would be read
				// forever.
				skips = append(skips, skipNote(p, "not a regular file ("+fileTypeName(d.Type())+"); check reads only regular files"))
				return nil
			}
			files = append(files, p)
			return nil
		})
		if err != nil {
			fmt.Fprintf(stderr, "godot-mcp check: %v\n", err)
			return 2
		}
		if len(files)+len(skips) == found {
			// Checking nothing must never look like a clean project.
			empty = append(empty, root)
		}
	}
	for _, root := range empty {
		fmt.Fprintf(stderr, "godot-mcp check: no Godot files (.tscn, .tres, project.godot, .cfg) found under %s; name the project directory\n", root)
	}

	for _, n := range skips {
		fmt.Fprintln(stderr, n)
	}
	failed, skipped := 0, len(skips)
	for _, p := range files {
		switch checkFile(p, *roundtrip, limit, stderr) {
		case checkFailed:
			failed++
		case checkSkipped:
			skipped++
		}
	}
	checked := len(files) - (skipped - len(skips))
	if skipped > 0 {
		fmt.Fprintf(stdout, "checked %d files: %d ok, %d failed, %d skipped\n", checked, checked-failed, failed, skipped)
	} else {
		fmt.Fprintf(stdout, "checked %d files: %d ok, %d failed\n", checked, checked-failed, failed)
	}
	if failed > 0 || len(empty) > 0 {
		return 1
	}
	return 0
}

// checkOutcome is what became of one file.
type checkOutcome int

const (
	checkOK checkOutcome = iota
	checkFailed
	checkSkipped
)

// checkFile parses one file, printing any problem or the reason it was
// skipped to w.
func checkFile(path string, roundtrip bool, limit int64, w io.Writer) checkOutcome {
	data, skip, err := readCheckFile(path, limit)
	switch {
	case err != nil:
		fmt.Fprintf(w, "%s: %v\n", path, err)
		return checkFailed
	case skip != "":
		fmt.Fprintln(w, skipNote(path, skip))
		return checkSkipped
	}
	kind := checkKindOf(path)
	if kind == kindConfig && filepath.Ext(path) == ".cfg" {
		// Many tools keep their own settings in .cfg files; those are
		// not Godot's to judge.
		if what := foreignConfig(data); what != "" {
			fmt.Fprintln(w, skipNote(path, "not a Godot config file ("+what+")"))
			return checkSkipped
		}
	}
	if err := checkText(path, data); err != nil {
		fmt.Fprintln(w, err)
		return checkFailed
	}
	var out interface{ Bytes() []byte }
	switch kind {
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
		return checkFailed
	}
	if roundtrip {
		if got := out.Bytes(); !bytes.Equal(got, data) {
			line, want, have := firstDifferingLine(data, got)
			fmt.Fprintf(w, "%s:%d:1: round-trip differs: want %q, got %q\n", path, line, want, have)
			return checkFailed
		}
	}
	return checkOK
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

// defaultCheckMaxMB is the default --max-file-mb: far above any real scene
// (the largest in the test corpus is under 1 MiB), far below what would
// hurt a CI runner.
const defaultCheckMaxMB = 64

// skipNote is the line printed for a file that was not checked.
func skipNote(path, why string) string { return fmt.Sprintf("%s: skipped: %s", path, why) }

// readCheckFile reads path if it is a regular file of at most limit bytes.
// It opens without blocking (a FIFO would otherwise wait for a writer
// forever) and decides on the opened file, so that a file swapped for a
// device or FIFO after the walk is still refused. skip says why a file was
// not read; err is a failure to read one that should have been.
func readCheckFile(path string, limit int64) (data []byte, skip string, err error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, "", err
	}
	if !st.Mode().IsRegular() {
		return nil, "not a regular file (" + fileTypeName(st.Mode().Type()) + "); check reads only regular files", nil
	}
	if st.Size() > limit {
		return nil, fmt.Sprintf("%d MiB is larger than --max-file-mb %d", st.Size()>>20, limit>>20), nil
	}
	// The size can change between Stat and the read; never read more than
	// the limit whatever happens.
	data, err = io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, "", err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Sprintf("grew beyond --max-file-mb %d while being read", limit>>20), nil
	}
	return data, "", nil
}

// fileTypeName names a non-regular file type for a skip note.
func fileTypeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "device"
	case m.IsDir():
		return "directory"
	}
	return "special file"
}

// foreignConfig tells a .cfg file that is not a Godot ConfigFile: "JSON"
// for a JSON document, "binary" for content with NUL bytes in its first
// 8 KiB (the heuristic git uses). "" means it should be a Godot config.
func foreignConfig(data []byte) string {
	head := data[:min(len(data), 8<<10)]
	if bytes.IndexByte(head, 0) >= 0 {
		return "binary"
	}
	if t := bytes.TrimSpace(data); len(t) > 0 && (t[0] == '{' || t[0] == '[') && json.Valid(t) {
		return "JSON"
	}
	return ""
}

// checkText reports the first NUL byte or invalid UTF-8 sequence as
// file:line:col (column in characters, like the parser's errors): Godot
// reads its text formats as UTF-8 and refuses both.
func checkText(path string, data []byte) error {
	for off := 0; off < len(data); {
		c := data[off]
		if c == 0 {
			line, col := textPosition(data, off)
			return fmt.Errorf("%s:%d:%d: NUL byte; Godot text files cannot contain one (is this file binary or corrupted?)", path, line, col)
		}
		if c < utf8.RuneSelf {
			off++
			continue
		}
		r, n := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && n <= 1 {
			line, col := textPosition(data, off)
			return fmt.Errorf("%s:%d:%d: invalid UTF-8 (byte 0x%02x); Godot reads text files as UTF-8: re-save the file as UTF-8", path, line, col, c)
		}
		off += n
	}
	return nil
}

// textPosition converts a byte offset into a 1-based line and character
// column.
func textPosition(data []byte, off int) (line, col int) {
	head := data[:off]
	line = 1 + bytes.Count(head, []byte{'\n'})
	start := bytes.LastIndexByte(head, '\n') + 1
	return line, utf8.RuneCount(head[start:]) + 1
}
