package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/internal/warmengine"
	"github.com/godot-mcp/godot-mcp/sdk"
)

type createArgs struct {
	ShaderPath sdk.ResPath `json:"shader_path" jsonschema:"res:// path of the .gdshader file" godot:"ext=.gdshader"`
	Code       string      `json:"code,omitempty" jsonschema:"the shader source; without it, the editor's template for shader_type"`
	ShaderType string      `json:"shader_type,omitempty" jsonschema:"spatial, canvas_item, particles, sky or fog: the template written without code (default canvas_item)"`
}

type createResult struct {
	ShaderPath string           `json:"shader_path"`
	Created    bool             `json:"created" jsonschema:"false when an existing file was overwritten (or in a dry run)"`
	ShaderType string           `json:"shader_type"`
	Commit     sdk.CommitResult `json:"commit"`
}

// sourceFor returns the code create writes, checking shader_type.
func sourceFor(in createArgs) (string, error) {
	if in.Code != "" {
		return in.Code, nil
	}
	typ := in.ShaderType
	if typ == "" {
		typ = "canvas_item"
	}
	t, ok := templates[typ]
	if !ok {
		return "", &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "shader_type",
			Message: fmt.Sprintf("unknown shader_type %q", in.ShaderType), Hint: "pass one of " + strings.Join(ShaderTypes, ", ")}
	}
	return t, nil
}

func createShaderCommand(in createArgs) (any, error) {
	code, err := sourceFor(in)
	if err != nil {
		return nil, err
	}
	return map[string]any{"shader_path": in.ShaderPath, "code": code}, nil
}

func createShader(ctx context.Context, call *sdk.Call, in createArgs) (sdk.Result, error) {
	code, err := sourceFor(in)
	if err != nil {
		return sdk.Result{}, err
	}
	ws := call.Workspace()
	p := string(in.ShaderPath)
	fi, err := ws.Stat(ctx, p)
	if err != nil {
		return sdk.Result{}, err
	}
	var base sdk.FileVersion
	if fi.Exists {
		f, err := ws.Read(ctx, p)
		if err != nil {
			return sdk.Result{}, err
		}
		base = f.Version
	}
	cr, err := ws.Begin("Create shader "+p).Write(p, []byte(code), base).Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(createResult{ShaderPath: p, Created: !fi.Exists && !cr.DryRun, ShaderType: ParseSource(code).ShaderType, Commit: cr}), nil
}

type readArgs struct {
	ShaderPath sdk.ResPath `json:"shader_path" jsonschema:"res:// path of the .gdshader file" godot:"ext=.gdshader|.gdshaderinc"`
}

type readResult struct {
	ShaderPath string `json:"shader_path"`
	Code       string `json:"code"`
	Source
}

// readShaderEditor asks the editor (which may hold the shader unsaved)
// for the code, and parses it like the headless path.
func readShaderEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in readArgs) (sdk.Result, error) {
	var out struct {
		ShaderPath string `json:"shader_path"`
		Code       string `json:"code"`
	}
	if err := ed.Query(ctx, "cmd_read_shader", map[string]any{"shader_path": in.ShaderPath}, &out); err != nil {
		return sdk.Result{}, err
	}
	if out.ShaderPath == "" {
		out.ShaderPath = string(in.ShaderPath)
	}
	return sdk.JSON(readResult{ShaderPath: out.ShaderPath, Code: out.Code, Source: ParseSource(out.Code)}), nil
}

func readShader(ctx context.Context, call *sdk.Call, in readArgs) (sdk.Result, error) {
	code, err := readCode(ctx, call, string(in.ShaderPath))
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(readResult{ShaderPath: string(in.ShaderPath), Code: code, Source: ParseSource(code)}), nil
}

func readCode(ctx context.Context, call *sdk.Call, p string) (string, error) {
	f, err := call.Workspace().Read(ctx, p)
	if err != nil {
		if e, ok := errors.AsType[*sdk.Error](err); ok && e.Code == sdk.CodeNotFound {
			e.Hint = "check the path with godot_project_search_files, or create it with godot_shader_create"
		}
		return "", err
	}
	return string(f.Data), nil
}

type validateArgs struct {
	ShaderPath sdk.ResPath `json:"shader_path,omitempty" jsonschema:"res:// path of the .gdshader to check; with code, the name its positions use" godot:"ext=.gdshader"`
	Code       string      `json:"code,omitempty" jsonschema:"shader source to check instead of the file's"`
}

type validateResult struct {
	ShaderPath string       `json:"shader_path,omitempty"`
	Valid      bool         `json:"valid"`
	Checker    string       `json:"checker" jsonschema:"engine (Godot's shader compiler) or builtin (the syntax check, when no engine is at hand)"`
	Engine     string       `json:"engine,omitempty" jsonschema:"which engine compiled"`
	Note       string       `json:"note,omitempty" jsonschema:"why the built-in check ran"`
	ShaderType string       `json:"shader_type"`
	Errors     []Diagnostic `json:"errors"`
	Warnings   []Diagnostic `json:"warnings"`
	Uniforms   []Uniform    `json:"uniforms"`
}

func validateShader(ctx context.Context, call *sdk.Call, in validateArgs) (sdk.Result, error) {
	file, code := string(in.ShaderPath), in.Code
	switch {
	case code == "" && file == "":
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "shader_path",
			Message: "nothing to validate", Hint: "pass shader_path (a .gdshader file) or code"}
	case code == "":
		c, err := readCode(ctx, call, file)
		if err != nil {
			return sdk.Result{}, err
		}
		code = c
	case file == "":
		file = "code"
	}
	src := ParseSource(code)
	out := validateResult{ShaderPath: string(in.ShaderPath), ShaderType: src.ShaderType, Uniforms: src.Uniforms,
		Errors: []Diagnostic{}, Warnings: []Diagnostic{}}
	// The release engine has no shader warnings; the built-in ones
	// (uniforms never used) are added either way.
	var builtinWarnings []Diagnostic
	builtin := syntaxCheck(file, code)
	for _, d := range builtin {
		if d.Severity == "warning" {
			builtinWarnings = append(builtinWarnings, d)
		}
	}
	c, engineName, err := compileWith(ctx, call, file, code)
	var un warmengine.Unavailable
	switch {
	case errors.As(err, &un):
		out.Checker, out.Note = checkerBuiltin, "the engine is not available, so only the built-in syntax check ran (it cannot see type errors or unknown names): "+un.Error()
		for _, d := range builtin {
			if d.Severity == "error" {
				out.Errors = append(out.Errors, d)
			}
		}
		out.Warnings = append(out.Warnings, builtinWarnings...)
	case err != nil:
		return sdk.Result{}, err
	default:
		out.Checker, out.Engine = checkerEngine, engineName
		out.Errors = append(out.Errors, c.Errors...)
		out.Warnings = append(append(out.Warnings, c.Warnings...), builtinWarnings...)
	}
	sortDiagnostics(out.Errors)
	sortDiagnostics(out.Warnings)
	out.Valid = len(out.Errors) == 0
	return sdk.JSON(out), nil
}

// sortDiagnostics orders diagnostics by file, line and column.
func sortDiagnostics(ds []Diagnostic) {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Column - b.Column
	})
}

// createShaderDryRun is what a dry run of create answers without writing.
func createShaderDryRun(in createArgs) map[string]any {
	out := map[string]any{"shader_path": string(in.ShaderPath)}
	if code, err := sourceFor(in); err == nil {
		out["shader_type"] = ParseSource(code).ShaderType
	}
	return out
}
