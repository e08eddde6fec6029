// Package loadcheck has the real Godot engine load a project's files and
// reports what went wrong, as file:line problems: every error the engine
// logs while loading a scene, resource or script, and the losses Godot
// makes silently, found by comparing each scene file with the tree the
// engine instantiated from it:
//
//   - a node whose parent path does not exist is dropped;
//   - a property the node's class does not have is ignored;
//   - a value of a type the property cannot take is ignored;
//   - an unknown node type becomes a placeholder;
//   - a resource property the class does not have (a Godot 3 name such as
//     RectangleShape2D's extents) is set aside;
//   - a [connection] to a method the target does not have is made anyway
//     and fails only when the signal is emitted;
//   - a [connection] from or to a node that does not exist is dropped.
//
// Many files are checked in one engine run (see internal/webgodot for the
// runtime and its cost):
//
//	rep, err := loadcheck.Check(ctx, runner, files, loadcheck.Options{})
//	for _, p := range rep.Problems {
//		fmt.Println(p) // scenes/main.tscn:14: Main/Sprite has no property postion (Sprite2D); Godot ignored it
//	}
//
// The project's autoloads load as it defines them, so scripts naming a
// singleton compile. Editor-only files (editor plugins and what under
// addons/ needs them) are not checked: the runtime has no editor classes;
// Report.Skipped lists them.
//
// What the check cannot see: imported assets (images, audio, fonts,
// models) need the editor's import pipeline, so each one a file or script
// references is replaced by a placeholder of the declared type and only
// the reference is checked; GDExtension classes do not exist. See
// docs/engine.md.
package loadcheck

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

//go:embed check.gd
var checkScript string

// Options tune a check.
type Options struct {
	// AllowMissing turns references to files that are not among the
	// checked ones (a script, a scene, a .tres) into notes instead of
	// problems, and loads the rest of the file with a null in their
	// place. For corpora that ship scenes without their scripts.
	AllowMissing bool
	// Timeout bounds the engine run; default 2 minutes.
	Timeout time.Duration
}

// Problem is one thing the engine reported or silently lost.
type Problem struct {
	// File is the path relative to the project root ("scenes/main.tscn").
	File string
	// Line is 1-based; 0 when unknown.
	Line int
	// Kind is "engine_error", "engine_warning", "load_failed",
	// "dropped_node", "unknown_property", "ignored_value", "unknown_type",
	// "bad_connection" or "missing_dependency".
	Kind    string
	Message string
	// Node and Property locate scene problems, when they apply.
	Node     string
	Property string
}

// String formats the problem as file:line: message.
func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Message)
	}
	return p.File + ": " + p.Message
}

// Skip is a file the check left out, and why.
type Skip struct {
	File   string // relative to the project root
	Reason string // "extends EditorPlugin", "needs editor-only addons/x/a.gd"
}

// String formats the skip as "file: skipped: editor-only (reason)".
func (s Skip) String() string { return s.File + ": skipped: editor-only (" + s.Reason + ")" }

// IsWarning reports whether the engine logged the problem as a warning.
func (p Problem) IsWarning() bool { return p.Kind == "engine_warning" }

// FileResult says whether one file loaded.
type FileResult struct {
	File   string
	Kind   Kind
	Loaded bool
	// Unverifiable is set under Options.AllowMissing for a file that did
	// not load because something it depends on is missing.
	Unverifiable bool
}

// Report is the outcome of one check.
type Report struct {
	// Engine is the engine version that checked the files.
	Engine   string
	Files    []FileResult
	Problems []Problem
	// Notes are what the check could not verify: missing dependencies
	// under AllowMissing, imported assets replaced by placeholders.
	Notes []string
	// Skipped are the files not checked because they are editor-only:
	// the web runtime has no editor classes, so they cannot load there.
	Skipped []Skip
	// Log is the engine's whole output, for debugging a check.
	Log []webgodot.Line
}

// Errors returns the problems that are not warnings.
func (r *Report) Errors() []Problem {
	var out []Problem
	for _, p := range r.Problems {
		if !p.IsWarning() {
			out = append(out, p)
		}
	}
	return out
}

// ProblemsIn returns the problems of one file.
func (r *Report) ProblemsIn(file string) []Problem {
	var out []Problem
	for _, p := range r.Problems {
		if p.File == file {
			out = append(out, p)
		}
	}
	return out
}

// Check loads files (paths relative to the project root, as in res://,
// mapped to contents) in one engine run and reports the problems. Files
// that are neither scenes, resources, scripts nor project.godot go into
// the pack as data for the others to load.
func Check(ctx context.Context, r *webgodot.Runner, files map[string][]byte, opts Options) (*Report, error) {
	p, err := plan(files, opts.AllowMissing, true)
	if err != nil {
		return nil, err
	}
	if opts.Timeout == 0 {
		opts.Timeout = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	// The results are in once the checker says DONE: an engine that
	// hangs or aborts on its way out (an autoload's _exit_tree) must not
	// hold them back.
	res, err := r.RunUntil(ctx, p.files, func(l webgodot.Line) bool {
		return l.Stream == webgodot.Stdout && strings.HasPrefix(l.Text, "DONE ")
	})
	if err != nil {
		return nil, err
	}
	return read(res, p, files, opts)
}

type rawResult struct {
	Path     string       `json:"path"`
	Kind     Kind         `json:"kind"`
	Loaded   bool         `json:"loaded"`
	Errors   []rawError   `json:"errors"`
	Problems []rawProblem `json:"problems"`
}

type rawError struct {
	Message  string `json:"message"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Function string `json:"function"`
	Type     int    `json:"type"` // Logger.ErrorType: 0 error, 1 warning, 2 script, 3 shader
}

type rawProblem struct {
	Kind       string `json:"kind"`
	Message    string `json:"message"`
	Node       string `json:"node"`
	Index      *int   `json:"index"`
	Property   string `json:"property"`
	Sub        string `json:"sub"`
	Section    string `json:"section"`
	Connection *int   `json:"connection"`
}

var resLineRe = regexp.MustCompile(`res://([^\s:"']+?):(\d+)`)

// noise are engine messages that are artifacts of checking outside the
// editor, not problems of the files.
var noise = []string{
	// No uid cache (the editor writes it): the loader falls back to the
	// path, as it should, and a uid:// setting cannot be resolved.
	"invalid UID",
	"using text path instead",
	"Unrecognized UID",
}

func read(res *webgodot.Result, p *packPlan, files map[string][]byte, opts Options) (*Report, error) {
	rep := &Report{Engine: webgodot.RuntimeEngine, Log: res.Lines, Skipped: p.skipped}
	idx := newLineIndex(files)
	begun, done := false, false
	var startup []string
	var results []rawResult
	for _, l := range res.Lines {
		if l.Stream == webgodot.Stdout {
			tag, body, _ := strings.Cut(l.Text, " ")
			switch tag {
			case "BEGIN":
				begun = true
			case "R":
				var rr rawResult
				if err := json.Unmarshal([]byte(body), &rr); err != nil {
					return nil, &sdk.Error{Code: sdk.CodeToolError,
						Message: fmt.Sprintf("the engine's result line does not decode: %v", err),
						Hint:    "this is a defect of the checker; report it with the file that was checked"}
				}
				results = append(results, rr)
			case "DONE":
				done = true
			}
			continue
		}
		if l.Stream == webgodot.Stderr && !begun && strings.HasPrefix(l.Text, "ERROR:") {
			startup = append(startup, strings.TrimPrefix(l.Text, "ERROR: "))
		}
	}
	// Under AllowMissing, a file that failed to load and depends on a
	// missing file (directly or through another) cannot be verified; its
	// errors, and other files' errors about it, are consequences.
	if opts.AllowMissing {
		for _, rr := range results {
			file := strings.TrimPrefix(rr.Path, "res://")
			if m := p.missingUnder(file); !rr.Loaded && len(m) > 0 {
				p.unverifiable[rr.Path] = true
				rep.Notes = append(rep.Notes, fmt.Sprintf("not checked: %s depends on missing %s", file, strings.Join(m, ", ")))
			}
		}
	}
	for _, rr := range results {
		if p.unverifiable[rr.Path] {
			rep.Files = append(rep.Files, FileResult{File: strings.TrimPrefix(rr.Path, "res://"), Kind: rr.Kind, Loaded: false, Unverifiable: true})
			continue
		}
		rep.add(rr, p, idx, files, opts)
	}
	// Errors before the checker started come from reading project.godot.
	for _, s := range startup {
		if slices.ContainsFunc(noise, func(n string) bool { return strings.Contains(s, n) }) ||
			opts.AllowMissing && p.mentionsMissing(s, files) {
			continue
		}
		if _, ok := files["project.godot"]; ok {
			file, line := "project.godot", 0
			if m := resLineRe.FindStringSubmatch(s); m != nil {
				file = m[1]
				line, _ = strconv.Atoi(m[2])
			}
			rep.Problems = append(rep.Problems, Problem{File: file, Line: line, Kind: "engine_error", Message: s})
		}
	}
	if !done {
		tail := res.Lines
		if len(tail) > 15 {
			tail = tail[len(tail)-15:]
		}
		var b strings.Builder
		for _, l := range tail {
			fmt.Fprintf(&b, "\n  [%s] %s", l.Stream, l.Text)
		}
		how := fmt.Sprintf("exit %v %d", res.Exited, res.ExitCode)
		if res.Aborted {
			how = "the engine aborted"
		}
		return rep, &sdk.Error{Code: sdk.CodeToolError,
			Message: fmt.Sprintf("the engine stopped before checking every file (%d of %d done; %s); last lines:%s", len(results), len(p.checked), how, b.String()),
			Hint:    "a file made the engine crash or quit: check the files after the last one reported, one at a time"}
	}
	for _, m := range slices.Sorted(mapKeys(p.missing)) {
		if opts.AllowMissing {
			rep.Notes = append(rep.Notes, "not checked, not among the files: "+m)
		}
	}
	if len(p.stubbed) > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%d imported assets replaced by placeholders (no import pipeline): %s",
			len(p.stubbed), strings.Join(p.stubbed, ", ")))
	}
	rep.Problems = unique(rep.Problems)
	rep.Problems = p.dropPlaceholderBaseWarnings(rep.Problems)
	rep.Problems = p.dropEditorOnly(rep.Problems)
	if v := newerProject(files); v != "" {
		rep.Problems, rep.Notes = setAsideNewClasses(rep.Problems, rep.Notes, v)
	}
	return rep, nil
}

// dropEditorOnly drops the errors of editor-only files that another file
// loaded when it ran (GUT's RunAtCursor loads its editor-only caret
// notifier with load()): they are logged with the editor-only file's
// line, or name it, and say nothing about the file checked.
func (p *packPlan) dropEditorOnly(ps []Problem) []Problem {
	if len(p.skipped) == 0 {
		return ps
	}
	skipped := map[string]bool{}
	for _, s := range p.skipped {
		skipped[s.File] = true
	}
	return slices.DeleteFunc(ps, func(pr Problem) bool {
		if skipped[pr.File] {
			return true
		}
		for _, m := range resPathRe.FindAllString(pr.Message, -1) {
			if skipped[strings.TrimRight(strings.TrimPrefix(m, "res://"), ".'")] {
				return true
			}
		}
		return false
	})
}

// inheritedRemoved is the engine's warning for a scene whose base scene
// lacks nodes it names.
const inheritedRemoved = "A node in the scene this one inherits from has been removed or moved"

// dropPlaceholderBaseWarnings drops inheritedRemoved about a scene that
// instances or inherits an imported model and edits nodes inside it: the
// placeholder standing in for the model has none of its nodes, so the
// warning says nothing about the files.
func (p *packPlan) dropPlaceholderBaseWarnings(ps []Problem) []Problem {
	return slices.DeleteFunc(ps, func(pr Problem) bool {
		if !strings.Contains(pr.Message, inheritedRemoved) {
			return false
		}
		scene := pr.File
		if m := resPathRe.FindString(pr.Message); m != "" {
			scene = strings.TrimRight(strings.TrimPrefix(m, "res://"), ".:")
		}
		return len(p.opaque[scene]) > 0
	})
}

// newerProject returns the Godot version project.godot declares when it
// is newer than the engine's ("4.7" against 4.6), else "".
func newerProject(files map[string][]byte) string {
	src, ok := files["project.godot"]
	if !ok {
		return ""
	}
	proj, err := godot.ParseProject("project.godot", src)
	if err != nil {
		return ""
	}
	v := proj.Version()
	maj, min, ok := majorMinor(v)
	emaj, emin, eok := majorMinor(webgodot.RuntimeEngine)
	if !ok || !eok || maj < emaj || maj == emaj && min <= emin {
		return ""
	}
	return v
}

func majorMinor(v string) (int, int, bool) {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return 0, 0, false
	}
	maj, err1 := strconv.Atoi(parts[0])
	min, err2 := strconv.Atoi(parts[1])
	return maj, min, err1 == nil && err2 == nil
}

var (
	unknownTypeRe = regexp.MustCompile(`has type (\S+), which this engine does not know`)
	cannotGetRe   = regexp.MustCompile(`^Cannot get class '([^']+)'`)
	cannotMakeRe  = regexp.MustCompile(`of type (\S+) cannot be created`)
)

// setAsideNewClasses turns the classes the engine does not know in a
// project made for a newer Godot into a note: a class added after the
// engine's version (AreaLight3D in 4.7) is not a defect of the project.
// The placeholder node the engine makes for one cannot take the script
// the file gives it; that error goes too.
func setAsideNewClasses(ps []Problem, notes []string, version string) ([]Problem, []string) {
	classes := map[string]map[string]bool{} // file -> unknown classes
	for _, pr := range ps {
		if pr.Kind == "unknown_type" {
			if m := unknownTypeRe.FindStringSubmatch(pr.Message); m != nil {
				if classes[pr.File] == nil {
					classes[pr.File] = map[string]bool{}
				}
				classes[pr.File][m[1]] = true
			}
		}
	}
	if len(classes) == 0 {
		return ps, notes
	}
	ps = slices.DeleteFunc(ps, func(pr Problem) bool {
		cs := classes[pr.File]
		if cs == nil {
			return false
		}
		for _, re := range []*regexp.Regexp{unknownTypeRe, cannotGetRe, cannotMakeRe} {
			if m := re.FindStringSubmatch(pr.Message); m != nil && cs[m[1]] {
				return true
			}
		}
		return strings.HasPrefix(pr.Message, "Script inherits from native type ")
	})
	for _, f := range slices.Sorted(mapKeys(classes)) {
		notes = append(notes, fmt.Sprintf("not checked: %s uses %s, unknown to Godot %s; the project is for Godot %s, so they may be newer classes (or misspelt)",
			f, strings.Join(slices.Sorted(mapKeys(classes[f])), ", "), webgodot.RuntimeEngine, version))
	}
	return ps, notes
}

// unique drops repeats of a problem: a script's error is logged each time
// a file loads it, and once more when it is checked itself.
func unique(ps []Problem) []Problem {
	seen := map[Problem]bool{}
	return slices.DeleteFunc(ps, func(p Problem) bool {
		if seen[p] {
			return true
		}
		seen[p] = true
		return false
	})
}

func mapKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func (rep *Report) add(rr rawResult, p *packPlan, idx *lineIndex, files map[string][]byte, opts Options) {
	file := strings.TrimPrefix(rr.Path, "res://")
	rep.Files = append(rep.Files, FileResult{File: file, Kind: rr.Kind, Loaded: rr.Loaded})
	mentionsMissing := func(msg string) bool { return p.mentionsMissing(msg, files) }
	for _, e := range rr.Errors {
		msg := strings.TrimSpace(e.Message)
		if slices.ContainsFunc(noise, func(n string) bool { return strings.Contains(msg, n) }) {
			continue
		}
		pf, line := file, 0
		if strings.HasPrefix(e.File, "res://") && e.Line > 0 {
			pf, line = strings.TrimPrefix(e.File, "res://"), e.Line
		} else if m := resLineRe.FindStringSubmatch(msg); m != nil {
			pf = m[1]
			line, _ = strconv.Atoi(m[2])
		}
		kind := "engine_error"
		if e.Type == 1 {
			kind = "engine_warning"
		}
		if mentionsMissing(msg) {
			if opts.AllowMissing {
				continue // noted once per dependency
			}
			kind = "missing_dependency"
		}
		// A signal a missing script would declare.
		if opts.AllowMissing && len(p.missing) > 0 && strings.Contains(msg, "nonexistent signal") {
			continue
		}
		rep.Problems = append(rep.Problems, Problem{File: pf, Line: line, Kind: kind, Message: msg})
	}
	for _, pr := range rr.Problems {
		if p.underOpaque(file, pr.Node) {
			continue
		}
		if pr.Kind == "load_failed" && opts.AllowMissing && rr.Kind == KindScene && len(rr.Errors) > 0 && allMissing(rr.Errors, mentionsMissing) {
			continue
		}
		line := 0
		switch {
		case pr.Index != nil && pr.Property != "":
			line = idx.propertyLine(file, *pr.Index, pr.Property)
		case pr.Index != nil:
			line = idx.nodeLine(file, *pr.Index)
		case pr.Connection != nil:
			line = idx.connectionLine(file, *pr.Connection)
		case pr.Sub != "":
			line = idx.keyedLine(file, "sub:"+pr.Sub, pr.Property)
		case pr.Section == "resource":
			line = idx.keyedLine(file, "resource", pr.Property)
		}
		rep.Problems = append(rep.Problems, Problem{File: file, Line: line, Kind: pr.Kind, Message: pr.Message, Node: pr.Node, Property: pr.Property})
	}
}

func allMissing(errs []rawError, missing func(string) bool) bool {
	for _, e := range errs {
		if !missing(e.Message) && !slices.ContainsFunc(noise, func(n string) bool { return strings.Contains(e.Message, n) }) {
			return false
		}
	}
	return true
}

// lineIndex finds where nodes, sub-resources and properties are written
// in scene and resource files. The engine numbers a scene's nodes in file
// order (SceneState), so the i-th [node] header is node i.
type lineIndex struct {
	files map[string][]byte
	cache map[string]*fileLines
}

type fileLines struct {
	nodes       []section
	connections []int              // header lines of [connection], in file order
	keyed       map[string]section // "sub:ID", "resource"
}

type section struct {
	line  int            // of the header
	props map[string]int // property -> line
}

var idRe = regexp.MustCompile(`\bid="([^"]*)"`)

func newLineIndex(files map[string][]byte) *lineIndex {
	return &lineIndex{files: files, cache: map[string]*fileLines{}}
}

func (x *lineIndex) scan(file string) *fileLines {
	if fl, ok := x.cache[file]; ok {
		return fl
	}
	src, ok := x.files[file]
	if !ok {
		src = x.files["res://"+file]
	}
	fl := &fileLines{keyed: map[string]section{}}
	var cur *section
	var curKey string
	flush := func() {
		if cur != nil && curKey != "" {
			fl.keyed[curKey] = *cur
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for n := 1; sc.Scan(); n++ {
		t := sc.Text()
		if strings.HasPrefix(t, "[") {
			flush()
			cur, curKey = &section{line: n, props: map[string]int{}}, ""
			switch {
			case strings.HasPrefix(t, "[node "):
				fl.nodes = append(fl.nodes, *cur)
				cur = &fl.nodes[len(fl.nodes)-1]
			case strings.HasPrefix(t, "[sub_resource "):
				if m := idRe.FindStringSubmatch(t); m != nil {
					curKey = "sub:" + m[1]
				}
			case strings.HasPrefix(t, "[resource]"):
				curKey = "resource"
			case strings.HasPrefix(t, "[connection "):
				fl.connections = append(fl.connections, n)
				cur = nil
			default:
				cur = nil
			}
			continue
		}
		if cur == nil || strings.HasPrefix(t, " ") || strings.HasPrefix(t, "\t") {
			continue
		}
		if k, _, ok := strings.Cut(t, " = "); ok {
			if _, dup := cur.props[k]; !dup {
				cur.props[k] = n
			}
		}
	}
	flush()
	x.cache[file] = fl
	return fl
}

func (x *lineIndex) nodeLine(file string, i int) int {
	s := x.scan(file).nodes
	if i < 0 || i >= len(s) {
		return 0
	}
	return s[i].line
}

func (x *lineIndex) propertyLine(file string, i int, prop string) int {
	s := x.scan(file).nodes
	if i < 0 || i >= len(s) {
		return 0
	}
	if l, ok := s[i].props[prop]; ok {
		return l
	}
	return s[i].line
}

func (x *lineIndex) keyedLine(file, key, prop string) int {
	s, ok := x.scan(file).keyed[key]
	if !ok {
		return 0
	}
	if l, ok := s.props[prop]; ok {
		return l
	}
	return s.line
}

var resPathRe = regexp.MustCompile(`res://[^\s:"'()\[\],]+`)

// mentionsMissing reports whether msg names a res:// file that is neither
// among the files nor a placeholder: an error about a missing dependency.
func (p *packPlan) mentionsMissing(msg string, files map[string][]byte) bool {
	for _, m := range resPathRe.FindAllString(msg, -1) {
		m = strings.TrimRight(m, ".'")
		rel := strings.TrimPrefix(m, "res://")
		if slices.Contains(p.stubbed, m) || strings.HasPrefix(rel, "webgodot/") || strings.HasPrefix(rel, ".godot/") {
			continue
		}
		if _, ok := files[rel]; ok && !p.unverifiable[m] {
			continue
		}
		return true
	}
	return false
}

// underOpaque reports whether a node path lies inside an instance the
// check cannot see into.
func (p *packPlan) underOpaque(file, node string) bool {
	if node == "" {
		return false
	}
	for _, o := range p.opaque[file] {
		if o == "." || node == o || strings.HasPrefix(node, o+"/") {
			return true
		}
	}
	return false
}

// connectionLine is the line of the i-th [connection] (SceneState keeps
// the file's order).
func (x *lineIndex) connectionLine(file string, i int) int {
	c := x.scan(file).connections
	if i < 0 || i >= len(c) {
		return 0
	}
	return c[i]
}
