package godotrun

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
	"github.com/godot-mcp/godot-mcp/sdk"
)

// The parse check: `--check-only --script` per script. It lives here, not in
// the runtime toolset, so that every toolset that edits scripts can check
// them the same way when a Godot binary is present.

// ScriptError is an error or warning of a script check.
type ScriptError struct {
	Kind     string `json:"kind" jsonschema:"PARSE ERROR, SCRIPT ERROR, … as Godot printed it"`
	Message  string `json:"message"`
	File     string `json:"file" jsonschema:"res:// script the error is in"`
	Line     int    `json:"line,omitempty"`
	Function string `json:"function,omitempty"`
	Hint     string `json:"hint,omitempty" jsonschema:"what probably causes it, when known"`
}

// CheckResult is what CheckScripts found, errors sorted by file and line.
type CheckResult struct {
	Errors   []ScriptError
	Warnings []ScriptError
}

// Limits of a check.
const (
	checkTimeout = 20 * time.Second // one script
	maxScripts   = 5000
)

// ListScripts returns the res:// paths of the project's .gd files, skipping
// hidden entries and Godot's own .godot/ and .import/ directories. Links are
// not followed.
func ListScripts(p *sdk.Project) ([]string, error) {
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

// CheckScripts runs `--check-only --script` for each script, a few at a
// time, and merges what they printed. Godot exits 0 after a parse error in
// some versions, so the printed errors are the signal, not the exit code.
func CheckScripts(ctx context.Context, t *Target, scripts []string, progress func(done, total int, script string)) (*CheckResult, error) {
	res := &CheckResult{Errors: []ScriptError{}, Warnings: []ScriptError{}}
	var (
		mu    sync.Mutex
		seen  = map[string]bool{}
		done  int
		first error
	)
	add := func(list *[]ScriptError, e godotlog.Entry) {
		if e.File == "" {
			return // engine follow-ups ("Method failed") repeat the script error
		}
		key := fmt.Sprintf("%s:%d:%s", e.File, e.Line, e.Message)
		if seen[key] {
			return
		}
		seen[key] = true
		*list = append(*list, ScriptError{Kind: e.Kind, Message: e.Message, File: e.File, Line: e.Line, Function: e.Function})
	}
	workers := min(runtime.GOMAXPROCS(0), 4, len(scripts))
	jobs := make(chan string)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range jobs {
				o, err := Run(ctx, Spec{
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
					res.Errors = append(res.Errors, ScriptError{Kind: "TIMEOUT", File: s,
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
				if progress != nil {
					progress(n, len(scripts), s)
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
	addClassNameHints(t, res)
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
func addClassNameHints(t *Target, res *CheckResult) {
	var declared map[string]string
	for i, e := range res.Errors {
		m := undeclaredRE.FindStringSubmatch(e.Message)
		if m == nil {
			continue
		}
		if declared == nil {
			declared = map[string]string{}
			scripts, _ := ListScripts(t.Project)
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

// Editor is the part of a tool call that reaches the attached editor
// (*sdk.Call has it).
type Editor interface {
	Editor(ctx context.Context, command string, params, result any) error
}

// EditorScanning waits, up to wait and asking every poll, while an attached
// editor rescans the project (files a tool just wrote are invisible to it
// until then), as the contract's server does before a parse check. It
// reports whether the editor was still scanning at the deadline. Without an
// editor there is nothing to wait for.
func EditorScanning(ctx context.Context, ed Editor, wait, poll time.Duration) bool {
	deadline := time.Now().Add(wait)
	for {
		var st struct {
			Scanning bool `json:"scanning"`
		}
		if err := ed.Editor(ctx, "cmd_get_scan_state", nil, &st); err != nil || !st.Scanning {
			return false
		}
		if time.Now().Add(poll).After(deadline) {
			return true
		}
		select {
		case <-ctx.Done():
			return true
		case <-time.After(poll):
		}
	}
}

// EditorQueries lets an editor path's [sdk.Editor] serve as an [Editor]
// for read-only commands (a dry run sends them too).
type EditorQueries struct{ Ed *sdk.Editor }

// Editor runs a query through the sdk.Editor.
func (q EditorQueries) Editor(ctx context.Context, command string, params, result any) error {
	return q.Ed.Query(ctx, command, params, result)
}

// EditorCommands lets an [sdk.Editor] serve as an [Editor] for commands
// that may change the editor: in a dry run those are recorded, not sent.
type EditorCommands struct{ Ed *sdk.Editor }

// Editor applies a command through the sdk.Editor.
func (c EditorCommands) Editor(ctx context.Context, command string, params, result any) error {
	return c.Ed.Apply(ctx, command, params, result)
}
