package main

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

// The built-in checker against Godot 4.6's compiler on real code: every
// script of the shared demo projects and of two large addons (GUT and
// gdUnit4), each compiled by the engine in its own project (one engine run
// per project, all its scripts in one request). Every script the engine
// compiles must pass the built-in checker: a false error is worse than
// none. Then, to measure what the name checks catch, each script the
// engine compiles gets one typo in a call of a method of its engine base
// class (move_and_slide() becomes move_and_slid()) and both checkers judge
// it again. The figures are in docs/PERFORMANCE.md.
//
//	go test ./plugins/scripts -run TestBuiltInNeverRejectsWhatGodotCompiles -v
func TestBuiltInNeverRejectsWhatGodotCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("one engine run per project: a few minutes")
	}
	w := useEngine(t)
	fx := filepath.Join(testenv.RepoRoot(), "..", "shared", "fixtures")
	var roots []string
	ents, err := os.ReadDir(filepath.Join(fx, "projects"))
	if err != nil {
		testenv.Missing(t, "the shared fixture projects", err.Error())
	}
	for _, e := range ents {
		if _, err := os.Stat(filepath.Join(fx, "projects", e.Name(), "project.godot")); err == nil {
			roots = append(roots, filepath.Join(fx, "projects", e.Name()))
		}
	}
	// The addons ship without a project: each goes into one, under addons/.
	for _, name := range []string{"gut", "gdUnit4"} {
		dir := t.TempDir()
		if err := os.CopyFS(filepath.Join(dir, "addons", name), os.DirFS(filepath.Join(fx, "addons", name))); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "project.godot"), []byte("config_version=5\n\n[application]\n\nconfig/name=\""+name+"\"\nconfig/features=PackedStringArray(\"4.6\")\n"), 0o644)
		roots = append(roots, dir)
	}
	db, err := classdb.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	var total, compiled, rejected, unverified, falseRejections, caught, mutants, mutRejected, mutCaught int
	for _, root := range roots {
		name := filepath.Base(root)
		var targets []engineTarget
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != root {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(p, ".gd") {
				rel, _ := filepath.Rel(root, p)
				b, _ := os.ReadFile(p)
				targets = append(targets, engineTarget{Path: "res://" + filepath.ToSlash(rel), Code: string(b)})
			}
			return nil
		})
		sort.Slice(targets, func(i, j int) bool { return targets[i].Path < targets[j].Path })
		if len(targets) == 0 {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		v, err := w.compile(ctx, root, targets)
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		globals := globalsOf(root)
		var muts []engineTarget
		mutLine := map[string]int{}
		for i, r := range v {
			total++
			tg := targets[i]
			ours := builtin(tg.Path, tg.Code, globals)
			switch {
			case r.Unverified != "":
				unverified++
				continue
			case r.OK && len(r.Errors) == 0:
				compiled++
				if len(ours) > 0 {
					falseRejections++
					t.Errorf("%s %s: Godot compiles it, the built-in checker rejects it: %d:%d %s", name, tg.Path, ours[0].Line, ours[0].Column, ours[0].Message)
				}
				if m, line, ok := typo(tg.Code, db); ok {
					muts = append(muts, engineTarget{Path: tg.Path, Code: m})
					mutLine[tg.Path] = line
				}
			default:
				rejected++
				if len(ours) > 0 {
					caught++
				}
				t.Logf("%s %s: Godot rejects it (%v); the built-in checker: %v", name, tg.Path, r.Errors, ours)
			}
		}
		if len(muts) == 0 {
			continue
		}
		ctx, cancel = context.WithTimeout(context.Background(), 5*time.Minute)
		mv, err := w.compile(ctx, root, muts)
		cancel()
		if err != nil {
			t.Fatalf("%s mutants: %v", name, err)
		}
		for i, r := range mv {
			mutants++
			if r.OK {
				continue // Godot takes it (an untyped base): nothing to catch
			}
			mutRejected++
			ours := builtin(muts[i].Path, muts[i].Code, globals)
			if len(ours) > 0 && ours[0].Line == mutLine[muts[i].Path] {
				mutCaught++
			} else {
				t.Logf("%s %s: a typo at line %d that Godot rejects (%v) passes the built-in checker", name, muts[i].Path, mutLine[muts[i].Path], r.Errors)
			}
		}
	}
	t.Logf("projects %d; scripts %d: Godot compiles %d, rejects %d, cannot judge %d (editor classes); "+
		"built-in checker rejects %d of those Godot compiles, catches %d of those it rejects; "+
		"typo mutants %d: Godot rejects %d, the built-in checker catches %d on the same line",
		len(roots), total, compiled, rejected, unverified, falseRejections, caught, mutants, mutRejected, mutCaught)
	if compiled == 0 {
		t.Fatal("the engine compiled nothing: the check measured nothing")
	}
}

// globalsOf are a project's class_names and autoloads, as projectGlobals
// finds them for a call.
func globalsOf(root string) []string {
	var out []string
	if proj, err := os.ReadFile(filepath.Join(root, "project.godot")); err == nil {
		for _, a := range autoloads(proj) {
			out = append(out, a.Name)
		}
	}
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".gd") {
			if m := classNameRE.FindSubmatch(mustRead(p)); m != nil {
				out = append(out, string(m[1]))
			}
		}
		return nil
	})
	return out
}

var classNameRE = regexp.MustCompile(`(?m)^class_name\s+([A-Za-z_][A-Za-z0-9_]*)`)

func mustRead(p string) []byte { b, _ := os.ReadFile(p); return b }

var callRE = regexp.MustCompile(`^(\s+)([a-z][a-z0-9_]*[a-z])\(`)

// typo drops the last letter of the first statement that calls a method
// of the script's engine base class (move_and_slide() -> move_and_slid()),
// where the result is no name the script or the class has; it returns the
// mutant and the line.
func typo(src string, db *classdb.DB) (string, int, bool) {
	base := "RefCounted"
	if m := regexp.MustCompile(`(?m)^extends\s+([A-Za-z_][A-Za-z0-9_]*)\s*$`).FindStringSubmatch(src); m != nil {
		base = m[1]
	} else if strings.Contains(src, "\nextends") || strings.HasPrefix(src, "extends") {
		return "", 0, false
	}
	if _, ok := db.Class(base); !ok {
		return "", 0, false
	}
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		m := callRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if _, ok := db.Method(base, m[2]); !ok {
			continue
		}
		bad := m[2][:len(m[2])-1]
		if _, ok := db.Method(base, bad); ok || strings.Contains(src, bad+"(") || regexp.MustCompile(`\b`+bad+`\b`).MatchString(src) {
			continue
		}
		lines[i] = m[1] + bad + l[len(m[1])+len(m[2]):]
		return strings.Join(lines, "\n"), i + 1, true
	}
	return "", 0, false
}
