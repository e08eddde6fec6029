package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk/godot/deps"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// corpus returns the shared Godot 4 fixture corpus beside the checkout.
func corpus(t *testing.T) string {
	t.Helper()
	wd, _ := os.Getwd()
	for dir := wd; filepath.Dir(dir) != dir; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			fx := filepath.Join(dir, "..", "shared", "fixtures", "godot4")
			if _, err := os.Stat(fx); err != nil {
				t.Skipf("SKIPPING corpus test: no corpus at %s", fx)
			}
			return fx
		}
	}
	t.Skip("SKIPPING corpus test: no go.work above the working directory")
	return ""
}

// extLine is an [ext_resource] as the file says it, found with a plain
// regular expression (independent of the parser under test).
type extLine struct {
	file string
	line int
	path string
}

var extRe = regexp.MustCompile(`^\[ext_resource [^\]]*path="(res://[^"]+)"`)
var settingRe = regexp.MustCompile(`"\*?(res://[^":]+)[^"]*"`)

// extLines reads every ext_resource declaration and res:// setting of a
// project directory.
func extLines(t *testing.T, dir string) (exts []extLine, settings []string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		res := "res://" + filepath.ToSlash(rel)
		ext := filepath.Ext(p)
		if ext != ".tscn" && ext != ".tres" && rel != "project.godot" {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for n := 1; sc.Scan(); n++ {
			if m := extRe.FindStringSubmatch(sc.Text()); m != nil {
				exts = append(exts, extLine{res, n, m[1]})
			}
			if rel == "project.godot" {
				for _, m := range settingRe.FindAllStringSubmatch(sc.Text(), -1) {
					settings = append(settings, m[1])
				}
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return exts, settings
}

// copyProject copies a corpus project into a temporary directory and adds a
// stand-in for every file its scenes and settings name that the corpus
// leaves out (scripts, images, sounds: see the corpus's SOURCES.md), so the
// copy is a complete project.
func copyProject(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join(corpus(t), name)
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	exts, settings := extLines(t, dst)
	need := settings
	for _, e := range exts {
		need = append(need, e.path)
	}
	for _, p := range need {
		abs := filepath.Join(dst, filepath.FromSlash(strings.TrimPrefix(p, "res://")))
		if _, err := os.Stat(abs); err == nil {
			continue
		}
		body := ""
		switch filepath.Ext(abs) {
		case ".tscn":
			body = "[gd_scene format=3]\n\n[node name=\"Stub\" type=\"Node\"]\n"
		case ".tres":
			body = "[gd_resource type=\"Resource\" format=3]\n\n[resource]\n"
		case ".gd":
			body = "extends Node\n"
		}
		plugintest.WriteFile(t, dst, strings.TrimPrefix(p, "res://"), body)
	}
	return dst
}

func call[T any](t *testing.T, h *sdktest.Host, tool string, args any) T {
	t.Helper()
	res := h.Call(context.Background(), tool, args)
	if res.Err != nil || res.IsError {
		t.Fatalf("%s: %v %s", tool, res.Err, res.Text())
	}
	var out T
	if err := res.Structured(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

func projects(t *testing.T) []string {
	ents, err := os.ReadDir(corpus(t))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	if len(out) < 20 {
		t.Fatalf("corpus has %d projects, expected the 24 of SOURCES.md", len(out))
	}
	return out
}

// Every ext_resource of every corpus project is an edge of the graph at the
// file and line where the file declares it, and nothing else is an
// ext_resource edge; an untouched project has no integrity findings.
func TestCorpusGraphAndNoFalseAlarms(t *testing.T) {
	for _, name := range projects(t) {
		t.Run(name, func(t *testing.T) {
			dir := copyProject(t, name)
			want, _ := extLines(t, dir)
			h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
			defer h.Close()
			got := call[depsResult](t, h, "analyze_dependencies", map[string]any{"limit": 5000})
			var have []extLine
			for _, e := range got.Edges {
				if e.Via == deps.ViaExtResource {
					have = append(have, extLine{e.From, e.Line, e.To})
				}
			}
			key := func(l []extLine) []string {
				var s []string
				for _, e := range l {
					s = append(s, fmt.Sprintf("%s:%d→%s", e.file, e.line, e.path))
				}
				sort.Strings(s)
				return s
			}
			if w, g := strings.Join(key(want), "\n"), strings.Join(key(have), "\n"); w != g {
				t.Errorf("ext_resource edges differ from the files:\nwant\n%s\ngot\n%s", w, g)
			}
			if len(want) == 0 && name != "2d-pong" && name != "gui-control_gallery" {
				t.Logf("note: %s declares no ext_resource", name)
			}
			integ := call[integrityResult](t, h, "validate_scene_integrity", map[string]any{"include_scripts": true})
			if len(integ.Findings) != 0 {
				t.Errorf("untouched project has findings: %+v", integ.Findings)
			}
			cyc := call[cyclesResult](t, h, "detect_circular_dependencies", map[string]any{})
			if cyc.Count != 0 {
				t.Errorf("untouched project has cycles: %v", cyc.Cycles)
			}
		})
	}
}
