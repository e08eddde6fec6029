package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/warmengine"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/internal/webgodot/loadcheck"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// The web runtime's compiler: one engine per plugin process, kept warm,
// its pack holding the project's files (scripts, scenes, resources,
// placeholders for imported assets) and the global class cache built from
// the class_name lines, so a script compiles in the context of its
// project: other scripts' class_names, preloads and autoloads resolve.
//
// A check sends the text to compile (the file's text on disk, or the new
// text of a write) with its res:// path; the engine compiles it as a new
// GDScript, so the checked text is always the given one. Other files are
// the engine's copies: when one of them changed on disk since the engine
// started (or a class_name or autoload changed), the engine is restarted
// with the project as it is now.

// compileHandler runs in the warm engine. The request is a JSON array of
// {path, code}; for each it prints one "@@R" line with what the compiler
// logged (captured through a Logger, with file and line).
const compileHandler = `extends Node

var _errs := []

class Capture extends Logger:
	var sink
	func _log_error(_function: String, file: String, line: int, code: String, rationale: String, _editor_notify: bool, error_type: int, _script_backtraces: Array) -> void:
		sink._errs.append({"message": rationale if rationale != "" else code, "file": file, "line": line, "type": error_type})
	func _log_message(_message: String, _error: bool) -> void:
		pass

func _ready() -> void:
	# The project's autoloads started with the engine (the compiler knows
	# them only then): they stop processing. When they could not start,
	# they are declared again, which the type checker takes.
	var autoloads = JSON.parse_string(FileAccess.get_file_as_string("res://webgodot/autoloads.json"))
	for a in autoloads:
		var n := get_tree().root.get_node_or_null(NodePath(str(a["name"])))
		if n != null:
			n.process_mode = Node.PROCESS_MODE_DISABLED
		elif not ProjectSettings.has_setting("autoload/" + str(a["name"])):
			ProjectSettings.set_setting("autoload/" + str(a["name"]), str(a["value"]))
	var c := Capture.new()
	c.sink = self
	OS.add_logger(c)

func handle(body: String) -> void:
	for item in JSON.parse_string(body):
		_errs = []
		var was_cached := ResourceLoader.has_cached(item["path"])
		var s := GDScript.new()
		s.source_code = item["code"]
		s.resource_path = item["path"]
		var err := s.reload()
		print("@@R ", JSON.stringify({"path": item["path"], "ok": err == OK, "registered": not was_cached, "errors": _errs}))
`

// engineTarget is one script to compile: its res:// path and text.
type engineTarget struct {
	Path string `json:"path"`
	Code string `json:"code"`
}

// engineVerdict is what the compiler said about one target.
type engineVerdict struct {
	Path   string
	OK     bool
	Errors []scriptError
	// Unverified says why the errors could not be trusted (a class the web
	// runtime does not have); Errors is then empty.
	Unverified string
}

// webChecker is the process's warm compiler.
type webChecker struct {
	locate func() (webgodot.Setup, error)

	mu     sync.Mutex
	runner *webgodot.Runner
	warm   *webgodot.Warm
	root   string
	stamps map[string]stamp // project files the engine was packed with
	// held are files whose text the engine holds from a check rather than
	// from its pack (the first compile of a path registers it): the sha of
	// that text.
	held map[string][32]byte
	// base is each packed script's class cache entry (nil: no class_name).
	base map[string]*webgodot.GlobalClass
	// classes is the class cache and autoloads the engine started with.
	classes string
	// autoloads are the autoload names the engine declared without
	// starting them: the compiler's "Identifier not found" for them is the
	// check's, not the script's.
	autoloads map[string]bool
	// variant is how the running engine was started; variants is, per
	// project, the first way that kept an engine up.
	variant  int
	variants map[string]int
	// starts counts engine starts, for tests.
	starts int
}

type stamp struct {
	size int64
	mod  time.Time
}

var theWeb = newWebChecker(webgodot.Locate)

func newWebChecker(locate func() (webgodot.Setup, error)) *webChecker {
	return &webChecker{locate: locate, variants: map[string]int{}}
}

// errEngineBusy is returned when a bounded check gave up waiting.
var errEngineBusy = errors.New("the engine did not answer in time")

// compileBounded compiles targets with the web engine, waiting at most
// wait; the work goes on in the background after that, so the engine is
// warm for the next call. A zero wait waits for the engine as long as ctx
// lets it.
func (w *webChecker) compileBounded(ctx context.Context, root string, targets []engineTarget, wait time.Duration) ([]engineVerdict, error) {
	type answer struct {
		v   []engineVerdict
		err error
	}
	ch := make(chan answer, 1)
	bg, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Minute)
	go func() {
		defer cancel()
		v, err := w.compile(bg, root, targets)
		ch <- answer{v, err}
	}()
	var timer <-chan time.Time
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		timer = t.C
	}
	select {
	case a := <-ch:
		return a.v, a.err
	case <-timer:
		return nil, errEngineBusy
	case <-ctx.Done():
		return nil, sdk.Errorf(sdk.CodeCancelled, "", "the check was cancelled")
	}
}

// compile compiles targets in the warm engine of root's project, starting
// or restarting it when needed.
func (w *webChecker) compile(ctx context.Context, root string, targets []engineTarget) ([]engineVerdict, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.runner == nil {
		setup, err := w.locate()
		if err != nil {
			return nil, warmengine.Unavailable{Err: err}
		}
		r, err := webgodot.New(setup)
		if err != nil {
			return nil, warmengine.Unavailable{Err: err}
		}
		w.runner = r
	}
	override := map[string]string{}
	for _, t := range targets {
		override[t.Path] = t.Code
	}
	body, _ := json.Marshal(targets)
	var last error
	proj, _ := os.ReadFile(filepath.Join(root, "project.godot"))
	for v := w.variants[root]; v < len(variants); v++ {
		if v == idleOnly && len(autoloads(proj)) == 0 {
			continue // the first way already started it so
		}
		if w.warm == nil || !w.warm.Alive() || w.variant != v || w.stale(root, override) {
			if err := w.start(ctx, root, override, v); err != nil {
				if ctx.Err() != nil {
					return nil, err
				}
				last = err
				continue
			}
		}
		lines, err := w.warm.Do(ctx, string(body))
		if err == nil {
			w.variants[root] = v
			return w.read(targets, lines), nil
		}
		if ctx.Err() != nil {
			return nil, err
		}
		last = err // the engine stopped: the next way to start it
	}
	return nil, last
}

// The ways an engine starts, tried in this order until one stays up: the
// project's autoloads started with it, as in the game (the compiler knows
// them only then); none, their names declared to the type checker; one
// idle autoload of ours instead. The 4.6 web build was seen to crash
// ("table index is out of bounds", "null function") in its first frames
// with some projects in one of these and not in another.
const (
	withAutoloads = iota
	bare
	idleOnly
)

var variants = []string{"autoloads", "bare", "idle"}

// scan stamps the project files the engine would be packed with.
func scan(root string) (map[string]stamp, error) {
	out := map[string]stamp{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p == root {
				return nil
			}
			if n := d.Name(); strings.HasPrefix(n, ".") || n == "node_modules" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, ".gdignore")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !loadcheck.IsProjectFile(p) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = stamp{info.Size(), info.ModTime()}
		return nil
	})
	return out, err
}

// stale reports whether the engine's copy of the project differs from the
// project on disk in a way the checked texts (override, by res:// path)
// could see: another file's text is not the engine's (the packed one, or
// the one a check registered), or the class cache or autoloads changed.
func (w *webChecker) stale(root string, override map[string]string) bool {
	if root != w.root {
		return true
	}
	now, err := scan(root)
	if err != nil {
		return true
	}
	texts := map[string]string{} // changed files the engine holds as they are now
	for k, v := range override {
		texts[k] = v
	}
	for rel, s := range now {
		rp := "res://" + rel
		if _, checked := override[rp]; checked {
			continue
		}
		if sum, ok := w.held[rp]; ok {
			b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
			if err != nil || sha256.Sum256(b) != sum {
				return true
			}
			texts[rp] = string(b)
			continue
		}
		if old, ok := w.stamps[rel]; !ok || old != s {
			return true
		}
	}
	for rel := range w.stamps {
		if _, ok := now[rel]; !ok {
			if _, checked := override["res://"+rel]; !checked {
				return true
			}
		}
	}
	for rp := range w.held {
		if _, ok := now[strings.TrimPrefix(rp, "res://")]; !ok {
			if _, checked := override[rp]; !checked {
				return true
			}
		}
	}
	proj, err := os.ReadFile(filepath.Join(root, "project.godot"))
	return err != nil || classesOf(w.base, proj, texts) != w.classes
}

// classesOf is the class cache and autoloads of the project (base: each
// script's entry, nil without class_name) with the checked texts in place
// of the files.
func classesOf(base map[string]*webgodot.GlobalClass, project []byte, override map[string]string) string {
	var list []webgodot.GlobalClass
	for p, c := range base {
		if _, ok := override[p]; !ok && c != nil {
			list = append(list, *c)
		}
	}
	for p, code := range override {
		if c, ok := webgodot.ScriptClass(p, []byte(code)); ok {
			list = append(list, c)
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Path < list[j].Path })
	al, _ := json.Marshal(autoloads(project))
	return string(webgodot.ClassCache(list)) + string(al)
}

var autoloadLineRE = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*"([^"]*)"`)

type autoload struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// autoloads reads project.godot's [autoload] section.
func autoloads(project []byte) []autoload {
	out := []autoload{}
	in := false
	sc := bufio.NewScanner(bytes.NewReader(project))
	sc.Buffer(make([]byte, 0, 64<<10), 8<<20)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "[") {
			in = l == "[autoload]"
			continue
		}
		if m := autoloadLineRE.FindStringSubmatch(l); in && m != nil {
			out = append(out, autoload{m[1], m[2]})
		}
	}
	return out
}

// start (re)starts the engine with the project in root as it is on disk,
// with the checked texts' class headers in the class cache.
func (w *webChecker) start(ctx context.Context, root string, override map[string]string, variant int) error {
	if w.warm != nil {
		w.warm.Close()
		w.warm = nil
	}
	stamps, err := scan(root)
	if err != nil {
		return err
	}
	files, err := loadcheck.ReadProject(root)
	if err != nil {
		return err
	}
	// A checked text that is not on disk yet (a dry run, a new script)
	// gets its class cache entry from its text.
	for p, code := range override {
		if _, ok := files[strings.TrimPrefix(p, "res://")]; !ok {
			files[strings.TrimPrefix(p, "res://")] = []byte(code)
		}
	}
	pack, err := loadcheck.ProjectPack(files)
	if err != nil {
		return err
	}
	base := map[string]*webgodot.GlobalClass{}
	for rel, src := range files {
		if strings.HasSuffix(rel, ".gd") {
			if c, ok := webgodot.ScriptClass("res://"+rel, src); ok {
				base["res://"+rel] = &c
			} else {
				base["res://"+rel] = nil
			}
		}
	}
	classes := classesOf(base, files["project.godot"], override)
	al, _ := json.Marshal(autoloads(files["project.godot"]))
	for _, f := range webgodot.WarmProject(compileHandler) {
		if strings.HasPrefix(f.Path, "webgodot/") {
			pack = append(pack, f)
		}
	}
	pack = append(pack, webgodot.PackFile{Path: "webgodot/autoloads.json", Data: al})
	timeout := 2 * time.Minute
	proj, hasProject := files["project.godot"]
	switch {
	case variant == withAutoloads && hasProject && len(autoloads(proj)) > 0:
		for i := range pack {
			if pack[i].Path == "project.godot" {
				pack[i].Data = proj
			}
		}
		timeout = time.Minute
	case variant == withAutoloads || variant == idleOnly:
		for i := range pack {
			if pack[i].Path == "override.cfg" {
				pack[i].Data = append(pack[i].Data, "\n[autoload]\n\nGodotMcpIdle=\"*res://webgodot/idle.gd\"\n"...)
			}
		}
		pack = append(pack, webgodot.PackFile{Path: "webgodot/idle.gd", Data: []byte("extends Node\n")})
	}
	warm, err := w.runner.StartWarm(ctx, pack, webgodot.WarmOptions{StartTimeout: timeout})
	if err != nil {
		return err
	}
	w.warm, w.root, w.stamps, w.base, w.classes, w.held = warm, root, stamps, base, classes, map[string][32]byte{}
	w.variant = variant
	w.autoloads = map[string]bool{}
	if variant != withAutoloads {
		for _, a := range autoloads(files["project.godot"]) {
			w.autoloads[a.Name] = true
		}
	}
	// A text not on disk went into the pack: the engine holds it.
	for p, code := range override {
		if _, ok := stamps[strings.TrimPrefix(p, "res://")]; !ok {
			w.held[p] = sha256.Sum256([]byte(code))
		}
	}
	w.starts++
	return nil
}

// noiseRE are engine messages about the check itself, not the script: the
// checked text takes the path of a script the engine already holds.
var noiseRE = regexp.MustCompile(`^Another resource is loaded from path`)

// notFoundRE is the compiler's error for a global it does not have.
var notFoundRE = regexp.MustCompile(`^Compile Error: Identifier not found: ([A-Za-z_][A-Za-z0-9_]*)`)

// editorClassRE finds classes of the editor, which the web runtime does not
// have: errors naming one say nothing about the script in the editor.
var editorClassRE = regexp.MustCompile(`\b(Editor[A-Z][A-Za-z0-9]*|ScriptEditor[A-Za-z0-9]*|FileSystemDock|EditorInterface)\b`)

// read turns the engine's lines into verdicts, in the targets' order.
func (w *webChecker) read(targets []engineTarget, lines []webgodot.Line) []engineVerdict {
	type raw struct {
		Path       string `json:"path"`
		OK         bool   `json:"ok"`
		Registered bool   `json:"registered"`
		Errors     []struct {
			Message string `json:"message"`
			File    string `json:"file"`
			Line    int    `json:"line"`
			Type    int    `json:"type"`
		} `json:"errors"`
	}
	var out []engineVerdict
	i := 0
	for _, l := range lines {
		j, ok := strings.CutPrefix(l.Text, "@@R ")
		if l.Stream != webgodot.Stdout || !ok {
			continue
		}
		var r raw
		if json.Unmarshal([]byte(j), &r) != nil {
			continue
		}
		code := ""
		if i < len(targets) {
			code = targets[i].Code
		}
		i++
		if r.Registered {
			w.held[r.Path] = sha256.Sum256([]byte(code))
		}
		v := engineVerdict{Path: r.Path, OK: r.OK}
		seen := map[string]bool{}
		for _, e := range r.Errors {
			msg := strings.TrimSpace(e.Message)
			if noiseRE.MatchString(msg) || !strings.HasPrefix(e.File, "res://") {
				continue
			}
			if m := notFoundRE.FindStringSubmatch(msg); m != nil && w.autoloads[m[1]] {
				continue
			}
			if editorClassRE.MatchString(msg) {
				v.Unverified = "it uses " + editorClassRE.FindString(msg) + ", an editor class the web runtime does not have"
			}
			key := fmt.Sprintf("%s:%d:%s", e.File, e.Line, msg)
			if seen[key] {
				continue
			}
			seen[key] = true
			src := code
			if e.File != r.Path {
				src = ""
			}
			kind := "SCRIPT ERROR"
			if e.Type == 1 {
				kind = "WARNING"
			}
			v.Errors = append(v.Errors, scriptError{File: e.File, Line: e.Line, Column: column(src, e.Line, msg), Message: msg, Kind: kind})
		}
		if v.Unverified != "" {
			v.Errors = nil
		} else if !r.OK && len(v.Errors) == 0 {
			v.Errors = []scriptError{{File: r.Path, Message: "Godot did not compile the script and logged no error with a line for it", Kind: "SCRIPT ERROR"}}
		}
		out = append(out, v)
	}
	return out
}

var quotedRE = regexp.MustCompile(`"([A-Za-z_][A-Za-z0-9_]*)(?:\(\))?"`)

// column finds where on its line an error is: where the first name the
// message quotes stands (the web build prints no columns); 0 when unknown.
func column(src string, line int, msg string) int {
	if src == "" || line < 1 {
		return 0
	}
	ls := strings.Split(src, "\n")
	if line > len(ls) {
		return 0
	}
	text := ls[line-1]
	for _, q := range quotedRE.FindAllStringSubmatch(msg, -1) {
		if loc := regexp.MustCompile(`\b` + regexp.QuoteMeta(q[1]) + `\b`).FindStringIndex(text); loc != nil {
			return len([]rune(text[:loc[0]])) + 1
		}
	}
	return 0
}

// Close stops the engine and the browser.
func (w *webChecker) Close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.warm != nil {
		w.warm.Close()
		w.warm = nil
	}
	if w.runner != nil {
		_ = w.runner.Close()
		w.runner = nil
	}
}

// webName names the web runtime in checker_detail.
func webName() string { return warmengine.Name() }
