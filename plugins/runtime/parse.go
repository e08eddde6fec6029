package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/godotlog"
	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/sdk"
)

type parseArgs struct {
	Script string `json:"script,omitempty" jsonschema:"res:// path of one .gd script to check; default: every .gd file of the project"`
}

type parseError struct {
	Kind     string `json:"kind" jsonschema:"PARSE ERROR, SCRIPT ERROR, … as Godot printed it"`
	Message  string `json:"message"`
	File     string `json:"file" jsonschema:"res:// script the error is in"`
	Line     int    `json:"line,omitempty"`
	Function string `json:"function,omitempty"`
	Hint     string `json:"hint,omitempty" jsonschema:"what probably causes it, when known"`
}

type parseResult struct {
	Checked        int          `json:"checked" jsonschema:"number of scripts checked"`
	FilesWithError int          `json:"files_with_errors"`
	Errors         []parseError `json:"errors"`
	Warnings       []parseError `json:"warnings"`
	Godot          string       `json:"godot" jsonschema:"version of the Godot binary that checked"`
	Summary        string       `json:"summary"`
}

// Limits of a check.
const (
	checkTimeout = 20 * time.Second // one script
	maxScripts   = 5000
)

func getParseErrors(ctx context.Context, call *sdk.Call, in parseArgs) (sdk.Result, error) {
	t, err := godotrun.Prepare(ctx, call, finder)
	if err != nil {
		return sdk.Result{}, err
	}
	var scripts []string
	if in.Script != "" {
		abs, err := t.Project.Resolve(in.Script)
		if err != nil {
			return sdk.Result{}, err
		}
		if filepath.Ext(abs) != ".gd" {
			return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass a res:// path of a .gd file, or nothing to check every script",
				"%q is not a GDScript file", in.Script)
		}
		scripts = []string{t.Project.ResPath(abs)}
	} else if scripts, err = listScripts(t.Project); err != nil {
		return sdk.Result{}, err
	}
	found, err := checkScripts(ctx, call, t, scripts)
	if err != nil {
		return sdk.Result{}, err
	}
	found.Checked = len(scripts)
	found.Godot = t.Bin.Version
	addClassNameHints(t, found)
	files := map[string]bool{}
	for _, e := range found.Errors {
		files[e.File] = true
	}
	found.FilesWithError = len(files)
	found.Summary = fmt.Sprintf("checked %d script(s) with Godot %s: %d error(s) in %d file(s)",
		found.Checked, t.Bin.Version, len(found.Errors), len(files))
	return sdk.JSON(found), nil
}

// listScripts returns the res:// paths of the project's .gd files, skipping
// hidden entries and Godot's own .godot/ and .import/ directories. Links are
// not followed.
func listScripts(p *sdk.Project) ([]string, error) {
	var out []string
	err := filepath.WalkDir(p.Root(), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: skip it
		}
		if path != p.Root() && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".gd") {
			out = append(out, p.ResPath(path))
			if len(out) > maxScripts {
				return fmt.Errorf("stop")
			}
		}
		return nil
	})
	if len(out) > maxScripts {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "check scripts one at a time with the script argument",
			"the project has more than %d scripts", maxScripts)
	}
	if err != nil {
		return nil, err
	}
	sort.Strings(out)
	return out, nil
}

// checkScripts runs `--check-only --script` for each script, a few at a
// time, and merges what they printed. Godot exits 0 after a parse error in
// some versions, so the printed errors are the signal, not the exit code.
func checkScripts(ctx context.Context, call *sdk.Call, t *godotrun.Target, scripts []string) (*parseResult, error) {
	res := &parseResult{Errors: []parseError{}, Warnings: []parseError{}}
	var (
		mu    sync.Mutex
		seen  = map[string]bool{}
		done  int
		first error
	)
	add := func(list *[]parseError, e godotlog.Entry) {
		if e.File == "" {
			return // engine follow-ups ("Method failed") repeat the script error
		}
		key := fmt.Sprintf("%s:%d:%s", e.File, e.Line, e.Message)
		if seen[key] {
			return
		}
		seen[key] = true
		*list = append(*list, parseError{Kind: e.Kind, Message: e.Message, File: e.File, Line: e.Line, Function: e.Function})
	}
	workers := min(runtime.GOMAXPROCS(0), 4, len(scripts))
	jobs := make(chan string)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range jobs {
				o, err := godotrun.Run(ctx, godotrun.Spec{
					Bin: t.Bin, Dir: t.Project.Root(), Timeout: checkTimeout, MaxOutput: 4 << 10,
					Args: []string{"--path", t.Project.Root(), "--check-only", "--script", s},
				})
				mu.Lock()
				done++
				switch {
				case err != nil:
					if first == nil {
						first = err
					}
				case o.TimedOut:
					res.Errors = append(res.Errors, parseError{Kind: "TIMEOUT", File: s,
						Message: fmt.Sprintf("Godot did not finish checking this script within %s", checkTimeout)})
				default:
					for _, e := range o.Errors {
						add(&res.Errors, e)
					}
					for _, e := range o.Warnings {
						add(&res.Warnings, e)
					}
				}
				n := done
				mu.Unlock()
				if len(scripts) > 1 {
					call.Progress(float64(n), float64(len(scripts)), "checked "+s)
				}
			}
		}()
	}
	for _, s := range scripts {
		select {
		case jobs <- s:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(jobs)
	wg.Wait()
	if ctx.Err() != nil {
		return nil, sdk.Errorf(sdk.CodeCancelled, "", "the check was cancelled")
	}
	if first != nil {
		return nil, first
	}
	sort.SliceStable(res.Errors, func(i, j int) bool {
		a, b := res.Errors[i], res.Errors[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	return res, nil
}

var (
	classNameRE  = regexp.MustCompile(`(?m)^class_name\s+([A-Za-z_][A-Za-z0-9_]*)`)
	undeclaredRE = regexp.MustCompile(`["']([A-Za-z_][A-Za-z0-9_]*)["'] (?:isn't declared|not declared|is not declared)`)
)

// addClassNameHints explains the most common false alarm of a headless
// check: a class_name that Godot has not registered yet, because the
// project was never opened in the editor since the class was added (Godot
// 3 keeps the list in project.godot, Godot 4 in .godot/).
func addClassNameHints(t *godotrun.Target, res *parseResult) {
	var declared map[string]string
	for i, e := range res.Errors {
		m := undeclaredRE.FindStringSubmatch(e.Message)
		if m == nil {
			continue
		}
		if declared == nil {
			declared = map[string]string{}
			scripts, _ := listScripts(t.Project)
			for _, s := range scripts {
				abs := filepath.Join(t.Project.Root(), filepath.FromSlash(strings.TrimPrefix(s, "res://")))
				if data, err := os.ReadFile(abs); err == nil {
					for _, c := range classNameRE.FindAllStringSubmatch(string(data), -1) {
						declared[c[1]] = s
					}
				}
			}
		}
		if where, ok := declared[m[1]]; ok {
			res.Errors[i].Hint = fmt.Sprintf("%s is declared with class_name in %s, but Godot has not registered it: "+
				"open the project in the Godot editor once (it records global classes), then check again", m[1], where)
		}
	}
}
