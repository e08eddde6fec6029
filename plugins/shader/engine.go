package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/warmengine"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// The checkers validate_shader names in its answer.
const (
	checkerEngine  = "engine"
	checkerBuiltin = "builtin"
)

// compileHandler runs in the warm engine: it compiles one shader (the
// dummy renderer of a headless engine runs Godot's own shader compiler)
// and prints the uniforms the engine found.
const compileHandler = `extends Node

func handle(body: String) -> void:
	var req = JSON.parse_string(body)
	var incs: Dictionary = req.get("includes", {})
	for p in incs:
		DirAccess.make_dir_recursive_absolute(str(p).get_base_dir())
		var f := FileAccess.open(str(p), FileAccess.WRITE)
		f.store_string(str(incs[p]))
		f.close()
	var s := Shader.new()
	s.code = str(req["code"])
	s.get_rid()
	var uniforms := []
	for u in s.get_shader_uniform_list():
		uniforms.append({"name": u["name"], "type": type_string(int(u["type"])), "hint_string": u["hint_string"]})
	print("@@uniforms ", JSON.stringify(uniforms))
`

// includeDir is where the engine gets the include files of a shader: the
// pack is read-only, so res:// includes are rewritten to it (same line,
// so positions hold) and mapped back in the errors.
const includeDir = "user://mcp_inc/"

// theEngine is this plugin process's warm engine, started on the first
// validation and kept for the next ones.
var theEngine = warmengine.New(webgodot.Locate)

// compiled is what the engine said about one shader.
type compiled struct {
	Errors   []Diagnostic
	Warnings []Diagnostic
	Uniforms []engineUniform
}

type engineUniform struct {
	Name       string `json:"name"`
	Type       string `json:"type"`
	HintString string `json:"hint_string"`
}

var (
	shaderMsgRE = regexp.MustCompile(`^SHADER (ERROR|WARNING): (.*)$`)
	shaderAtRE  = regexp.MustCompile(`^\s*at: .* \(([^()]*):(\d+)\)$`)
	// A shader without a valid shader_type never reaches the compiler.
	shaderTypeErrRE = regexp.MustCompile(`^ERROR: Shader type (\S*) ?not supported`)
	includeArg      = regexp.MustCompile(`(#include\s+")([^"]+)(")`)
)

// includes reads the include files of a shader (and theirs), rewriting
// each #include to the engine's copy; it returns the rewritten code and
// the files to write.
func includes(ctx context.Context, call *sdk.Call, file, code string, files map[string]string, depth int) (string, error) {
	dir := path.Dir(strings.TrimPrefix(file, "res://"))
	var ferr error
	out := includeArg.ReplaceAllStringFunc(code, func(m string) string {
		p := includeArg.FindStringSubmatch(m)
		target := p[2]
		if !strings.HasPrefix(target, "res://") {
			target = "res://" + path.Join(dir, target)
		}
		eng := includeDir + strings.TrimPrefix(target, "res://")
		if _, done := files[eng]; !done && depth < 8 && ferr == nil {
			f, err := call.Workspace().Read(ctx, target)
			if err != nil {
				ferr = sdk.Errorf(sdk.CodeNotFound, "create the include file or fix the #include path", "%s includes %s, which cannot be read: %v", file, target, err)
				return m
			}
			files[eng] = "" // against cycles
			sub, err := includes(ctx, call, target, string(f.Data), files, depth+1)
			if err != nil {
				ferr = err
				return m
			}
			files[eng] = sub
		}
		return p[1] + eng + p[3]
	})
	return out, ferr
}

// compile compiles code in the engine. file names the shader in the
// positions (res://... or "code").
func compile(ctx context.Context, call *sdk.Call, file, code string) (*compiled, error) {
	c, _, err := compileWith(ctx, call, file, code)
	return c, err
}

// compileWith compiles with a native Godot 4 when one is found, else with
// the warm web runtime; it names the engine that ran.
func compileWith(ctx context.Context, call *sdk.Call, file, code string) (*compiled, string, error) {
	files := map[string]string{}
	rewritten, err := includes(ctx, call, file, code, files, 0)
	if err != nil {
		return nil, "", err
	}
	req := map[string]any{"code": rewritten, "includes": files}
	body, _ := json.Marshal(req)
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if lines, name, ok, err := nativeCompile(ctx, string(body)); ok {
		if err != nil {
			return nil, "", err
		}
		return parseCompile(file, code, files, lines), name, nil
	}
	lines, err := theEngine.Do(ctx, false, compileHandler, string(body))
	if err != nil {
		return nil, "", err
	}
	return parseCompile(file, code, files, lines), warmengine.Name(), nil
}

// parseCompile reads the engine's lines: each SHADER ERROR is followed by
// an "at:" line with the line number (the web build knows no columns; the
// column is where the message's quoted name or the statement starts).
func parseCompile(file, code string, files map[string]string, lines []webgodot.Line) *compiled {
	out := &compiled{}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if l.Stream == webgodot.Stdout {
			if j, ok := strings.CutPrefix(l.Text, "@@uniforms "); ok {
				_ = json.Unmarshal([]byte(j), &out.Uniforms)
			}
			continue
		}
		if t := shaderTypeErrRE.FindStringSubmatch(l.Text); t != nil {
			msg := "Expected 'shader_type' at the beginning of shader. Valid types are: spatial, canvas_item, particles, sky, fog."
			if t[1] != "" {
				msg = fmt.Sprintf("Invalid shader type '%s'. Valid types are: spatial, canvas_item, particles, sky, fog.", t[1])
			}
			line := 1
			for i, text := range strings.Split(code, "\n") {
				if strings.HasPrefix(strings.TrimSpace(text), "shader_type") {
					line = i + 1
					break
				}
			}
			out.Errors = append(out.Errors, diag(file, line, column(code, line, "'"+t[1]+"'"), "error", msg))
			continue
		}
		m := shaderMsgRE.FindStringSubmatch(l.Text)
		if m == nil {
			continue
		}
		where, line, src := file, 1, code
		if i+1 < len(lines) {
			if at := shaderAtRE.FindStringSubmatch(lines[i+1].Text); at != nil {
				i++
				line, _ = strconv.Atoi(at[2])
				if p, ok := strings.CutPrefix(at[1], includeDir); ok {
					where, src = "res://"+p, files[at[1]]
				}
			}
		}
		d := diag(where, line, column(src, line, m[2]), strings.ToLower(m[1]), m[2])
		if d.Severity == "error" {
			out.Errors = append(out.Errors, d)
		} else {
			out.Warnings = append(out.Warnings, d)
		}
	}
	return out
}

var quotedRE = regexp.MustCompile(`'([A-Za-z_][A-Za-z0-9_]*)'`)

// column guesses the column of a message on a line: where the name the
// message quotes stands, else the line's first character.
func column(src string, line int, msg string) int {
	ls := strings.Split(src, "\n")
	if line < 1 || line > len(ls) {
		return 1
	}
	text := ls[line-1]
	for _, q := range quotedRE.FindAllStringSubmatch(msg, -1) {
		if loc := regexp.MustCompile(`\b` + regexp.QuoteMeta(q[1]) + `\b`).FindStringIndex(text); loc != nil {
			return loc[0] + 1
		}
	}
	return len(text) - len(strings.TrimLeft(text, " \t")) + 1
}
