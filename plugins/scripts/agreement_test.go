package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/webgodot/loadcheck"
	"github.com/godot-mcp/godot-mcp/sdk/godot/gdscript"
)

// The agreement of the built-in checker with Godot 4.6's compiler.
//
// For every project under $GODOT_MCP_GDSCRIPT_CORPUS (a folder of Godot 4
// projects, each with its project.godot) the engine loads all scripts
// twice: as they are, and with one deliberate syntax error per script
// (mutate). A script agrees when both checkers accept it, or both reject it
// with the first error on the same line. Without the variable the test
// measures the scripts of this file. The figures are in
// docs/PERFORMANCE.md.

// mutation breaks a script the way a careless edit would.
type mutation struct {
	name  string
	apply func(lines []string, i int) bool // breaks line i if it can
}

func lead(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

var mutations = []mutation{
	{"drop block colon", func(l []string, i int) bool {
		t := strings.TrimRight(l[i], " \t")
		trim := strings.TrimSpace(t)
		for _, kw := range []string{"if ", "for ", "while ", "func ", "elif "} {
			if strings.HasPrefix(trim, kw) && strings.HasSuffix(t, ":") && !strings.Contains(t, "#") {
				l[i] = strings.TrimSuffix(t, ":")
				return true
			}
		}
		return false
	}},
	{"unclosed call", func(l []string, i int) bool {
		t := strings.TrimRight(l[i], " \t")
		if strings.HasSuffix(t, "()") && !strings.Contains(t, "#") && !strings.HasSuffix(strings.TrimSpace(t), ":") {
			l[i] = strings.TrimSuffix(t, ")")
			return true
		}
		return false
	}},
	{"stray bracket", func(l []string, i int) bool {
		t := strings.TrimSpace(l[i])
		if strings.HasPrefix(t, "var ") && strings.Contains(t, " = ") && !strings.Contains(t, "#") && !strings.HasSuffix(t, ":") {
			l[i] += ")"
			return true
		}
		return false
	}},
	{"unterminated string", func(l []string, i int) bool {
		t := l[i]
		if strings.Count(t, "\"") == 2 && !strings.Contains(t, "#") && !strings.Contains(t, "\"\"\"") && !strings.Contains(t, "\\") {
			j := strings.LastIndex(t, "\"")
			l[i] = t[:j] + t[j+1:]
			return true
		}
		return false
	}},
	{"extra indent", func(l []string, i int) bool {
		if i == 0 || lead(l[i]) == "" || strings.TrimSpace(l[i]) == "" || strings.HasPrefix(strings.TrimSpace(l[i]), "#") {
			return false
		}
		prev := strings.TrimRight(l[i-1], " \t")
		if prev == "" || strings.HasSuffix(prev, ":") || strings.HasSuffix(prev, ",") || strings.HasSuffix(prev, "(") ||
			strings.HasSuffix(prev, "[") || strings.HasSuffix(prev, "{") || strings.HasSuffix(prev, "\\") || lead(prev) != lead(l[i]) ||
			strings.Contains(prev, "\"\"\"") {
			return false
		}
		l[i] = lead(l[i])[:1] + l[i]
		return true
	}},
	{"doubled operator", func(l []string, i int) bool {
		t := strings.TrimSpace(l[i])
		if strings.Contains(t, " = ") && !strings.Contains(t, "\"") && !strings.Contains(t, "#") && !strings.HasPrefix(t, "@") {
			l[i] = strings.Replace(l[i], " = ", " = = ", 1)
			return true
		}
		return false
	}},
}

// mutate applies the first mutation (starting at seed) that fits a line,
// scanning from a line picked by seed. It returns the broken text and the
// changed line (1-based).
func mutate(src string, seed int) (string, int, string, bool) {
	lines := strings.Split(src, "\n")
	// Lines inside triple-quoted strings are left alone.
	inString := make([]bool, len(lines))
	open := false
	for i, l := range lines {
		inString[i] = open
		if strings.Count(l, "\"\"\"")%2 == 1 {
			open = !open
			inString[i] = true
		}
	}
	for k := range mutations {
		m := mutations[(seed+k)%len(mutations)]
		for j := range lines {
			i := (seed*7 + j) % len(lines)
			if inString[i] || (i > 0 && strings.HasSuffix(strings.TrimRight(lines[i-1], " \t"), "\\")) {
				continue
			}
			c := append([]string(nil), lines...)
			if m.apply(c, i) {
				return strings.Join(c, "\n"), i + 1, m.name, true
			}
		}
	}
	return "", 0, "", false
}

// firstLines maps each script to its first error line (-1: failed with no
// line). With parseOnly, only parse errors count: a broken script can make
// the scripts that use its class fail analysis, which is not their syntax.
var className = regexp.MustCompile(`(?m)^class_name\s+\w+[ \t]*`)

func firstLines(rep *loadcheck.Report, parseOnly bool) map[string]int {
	out := map[string]int{}
	for _, p := range rep.Problems {
		if p.IsWarning() || p.Line == 0 || !strings.HasSuffix(p.File, ".gd") {
			continue
		}
		if parseOnly && !strings.HasPrefix(p.Message, "Parse Error") {
			continue
		}
		if l, ok := out[p.File]; !ok || p.Line < l {
			out[p.File] = p.Line
		}
	}
	// A script that failed to load with no line still failed.
	for _, p := range rep.Problems {
		if strings.HasSuffix(p.File, ".gd") && !p.IsWarning() && !parseOnly {
			if _, ok := out[p.File]; !ok {
				out[p.File] = -1
			}
		}
	}
	return out
}

func TestAgreementWithGodot(t *testing.T) {
	corpus := os.Getenv("GODOT_MCP_GDSCRIPT_CORPUS")
	var projects []string
	if corpus == "" {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "project.godot"), []byte("config_version=5\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "player.gd"), []byte(playerGD), 0o644)
		projects = []string{dir}
	} else {
		filepath.Walk(corpus, func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() && info.Name() == "project.godot" {
				projects = append(projects, filepath.Dir(p))
			}
			return nil
		})
		sort.Strings(projects)
	}
	var cleanParseMissed int
	var cleanBoth, cleanOnlyGodotRejects, cleanWeReject, mutants, mutSame, mutGodotAccepts, mutWeAccept, mutOtherLine int
	byKind := map[string][2]int{}
	// All projects' scripts go into one engine run (and their mutants into
	// a second), each under its project's own folder. Paths between them
	// break, which only the analyzer notices; parse errors do not depend
	// on them, and a script that does not parse is never analyzed.
	files := map[string][]byte{"project.godot": []byte("config_version=5\n")}
	var scripts []string
	for pi, dir := range projects {
		filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() || !strings.HasSuffix(p, ".gd") {
				return nil
			}
			rel, _ := filepath.Rel(dir, p)
			key := fmt.Sprintf("p%03d_%s/%s", pi, filepath.Base(dir), filepath.ToSlash(rel))
			b, err := os.ReadFile(p)
			if err == nil {
				files[key] = b
				scripts = append(scripts, key)
			}
			return nil
		})
	}
	sort.Strings(scripts)
	origRep := enginecheck.Run(t, files, loadcheck.Options{AllowMissing: true})
	orig, origParse := firstLines(origRep, false), firstLines(origRep, true)
	// The mutants go beside the intact originals, under mutants/, so a
	// broken script cannot break the scripts that use its class; their
	// class_name is dropped (keeping the line numbers) so it does not
	// clash with the original's.
	broken := map[string][]byte{}
	for f, b := range files {
		broken[f] = b
	}
	lineOf, kindOf := map[string]int{}, map[string]string{}
	for si, s := range scripts {
		src := string(files[s])
		ours := gdscript.Check(src)
		switch {
		case ours == nil && orig[s] == 0:
			cleanBoth++
		case ours == nil:
			cleanOnlyGodotRejects++
			if origParse[s] != 0 {
				cleanParseMissed++
				t.Logf("%s: Godot reports a parse error at line %d, the built-in checker accepts: %s", s, origParse[s], messageAt(origRep, s, origParse[s]))
			}
		default:
			cleanWeReject++
			t.Logf("%s: built-in checker rejects a script (%d:%d %s); Godot line %d", s, ours.Line, ours.Column, ours.Message, orig[s])
		}
		if orig[s] != 0 || ours != nil {
			continue // mutate only scripts both accept
		}
		m, line, kind, ok := mutate(src, si)
		if !ok {
			continue
		}
		m = className.ReplaceAllString(m, "")
		broken["mutants/"+s], lineOf[s], kindOf[s] = []byte(m), line, kind
	}
	got := firstLines(enginecheck.Run(t, broken, loadcheck.Options{AllowMissing: true}), true)
	for s, line := range lineOf {
		mutants++
		ours := gdscript.Check(string(broken["mutants/"+s]))
		k := byKind[kindOf[s]]
		k[0]++
		g := got["mutants/"+s]
		switch {
		case g == 0:
			mutGodotAccepts++
			if ours == nil {
				k[1]++ // both accept: agreement
			}
		case ours == nil:
			mutWeAccept++
			t.Logf("%s (%s at line %d): Godot rejects at %d, built-in checker accepts", s, kindOf[s], line, g)
		case ours.Line == g:
			mutSame++
			k[1]++
		default:
			mutOtherLine++
			t.Logf("%s (%s at line %d): Godot line %d, built-in checker line %d (%s)", s, kindOf[s], line, g, ours.Line, ours.Message)
		}
		byKind[kindOf[s]] = k
	}
	total := cleanBoth + cleanOnlyGodotRejects + cleanWeReject
	summary := fmt.Sprintf("projects %d; scripts %d: both accept %d, only Godot rejects %d (of which with a \"Parse Error\" %d), built-in checker rejects %d; "+
		"mutants %d: same first-error line %d, other line %d, Godot accepts %d, only built-in accepts %d",
		len(projects), total, cleanBoth, cleanOnlyGodotRejects, cleanParseMissed, cleanWeReject, mutants, mutSame, mutOtherLine, mutGodotAccepts, mutWeAccept)
	t.Log(summary)
	kinds := []string{}
	for k, v := range byKind {
		kinds = append(kinds, fmt.Sprintf("%s %d/%d", k, v[1], v[0]))
	}
	sort.Strings(kinds)
	t.Log("agreement by mutation: " + strings.Join(kinds, ", "))
	if cleanWeReject > 0 {
		t.Errorf("the built-in checker rejected %d script(s) Godot's parser accepts", cleanWeReject)
	}
	if mutWeAccept > 0 || (mutants > 0 && mutSame*10 < (mutants-mutGodotAccepts)*9) {
		t.Errorf("agreement on broken scripts below 90%%: %s", summary)
	}
}

func messageAt(rep *loadcheck.Report, file string, line int) string {
	for _, p := range rep.Problems {
		if p.File == file && p.Line == line {
			return p.Message
		}
	}
	return ""
}
