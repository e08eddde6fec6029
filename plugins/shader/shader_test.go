package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/warmengine"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestMain(m *testing.M) { enginecheck.Main(m, enginecheck.IgnoreLeaks) }

// requireEngine stops a test that needs the engine when it is missing
// (skipped locally, failed in CI).
func requireEngine(t *testing.T) {
	t.Helper()
	if _, err := webgodot.Locate(); err != nil {
		testenv.Missing(t, "the Godot web engine", err.Error())
	}
}

func validate(t *testing.T, h *sdktest.Host, args map[string]any) validateResult {
	t.Helper()
	return plugintest.CallAs[validateResult](t, h, "validate", args)
}

const project = "config_version=5\n\n[application]\n\nconfig/name=\"shaders\"\nconfig/features=PackedStringArray(\"4.6\")\n"

// Every template create writes compiles in the engine, and the shaders of
// the demo projects do too.
func TestShadersCompileInTheEngine(t *testing.T) {
	requireEngine(t)
	dir := plugintest.Project(t, map[string]string{"project.godot": project})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	for _, typ := range ShaderTypes {
		p := "res://shaders/" + typ + ".gdshader"
		res := plugintest.CallAs[createResult](t, h, "create", map[string]any{"shader_path": p, "shader_type": typ})
		if !res.Created || res.ShaderType != typ {
			t.Errorf("create %s: %+v", typ, res)
		}
		v := validate(t, h, map[string]any{"shader_path": p})
		if !v.Valid || v.Checker != checkerEngine || v.ShaderType != typ {
			t.Errorf("%s: %+v", p, v)
		}
	}
	n := 0
	for _, name := range []string{"2d-screen_space_shaders", "2d-sprite_shaders", "3d-platformer"} {
		dir := plugintest.CorpusProject(t, name)
		h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(p) != ".gdshader" {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			v := validate(t, h, map[string]any{"shader_path": "res://" + filepath.ToSlash(rel)})
			if !v.Valid || v.Checker != checkerEngine {
				t.Errorf("%s/%s: %+v", name, rel, v)
			}
			n++
			return nil
		})
	}
	if n < 20 {
		t.Errorf("validated %d fixture shaders, want the 21 of the corpus", n)
	}
}

// An error is reported at its line, as res://file:line:col, by the
// engine; includes are compiled too, and an error in one is reported in
// the include file.
func TestErrorsAreReportedAtTheirLine(t *testing.T) {
	requireEngine(t)
	dir := plugintest.Project(t, map[string]string{
		"project.godot":       project,
		"bad.gdshader":        "shader_type canvas_item;\n\nuniform float amount = 1.0;\n\nvoid fragment() {\n\tCOLOR = vec4(amount) * undefined_thing;\n}\n",
		"typo.gdshader":       "shader_type spatial;\nvoid fragment() {\n\tALBEDO = vec3(1.0)\n}\n",
		"inc/lib.gdshaderinc": "float twice(float x) {\n\treturn x * 2.0;\n}\n\nfloat broken() { return nope; }\n",
		"notype.gdshader":     "void fragment() {}\n",
		"uses.gdshader":       "shader_type canvas_item;\n#include \"inc/lib.gdshaderinc\"\nvoid fragment() {\n\tCOLOR = vec4(twice(0.25));\n}\n",
	})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	for _, c := range []struct {
		path, location, text string
	}{
		{"res://bad.gdshader", "res://bad.gdshader:6:25", "Unknown identifier in expression: 'undefined_thing'."},
		{"res://typo.gdshader", "res://typo.gdshader:4:1", "Expected a ';'."},
		{"res://uses.gdshader", "res://inc/lib.gdshaderinc:5:25", "'nope'"},
		{"res://notype.gdshader", "res://notype.gdshader:1:1", "Expected 'shader_type'"},
	} {
		v := validate(t, h, map[string]any{"shader_path": c.path})
		if v.Valid || v.Checker != checkerEngine || len(v.Errors) == 0 {
			t.Errorf("%s: %+v", c.path, v)
			continue
		}
		e := v.Errors[0]
		if !strings.HasPrefix(e.Location, c.location) || !strings.Contains(e.Message, c.text) {
			t.Errorf("%s: got %s %q, want %s… %q", c.path, e.Location, e.Message, c.location, c.text)
		}
	}
	// code instead of a file: positions name "code".
	v := validate(t, h, map[string]any{"code": "shader_type sky;\nuniform float unused;\nvoid sky() {\n\tCOLOR = vec3(1.0) + x;\n}\n"})
	if v.Valid || len(v.Errors) != 1 || v.Errors[0].Location != "code:4:22" {
		t.Errorf("code: %+v", v)
	}
	if len(v.Warnings) != 1 || v.Warnings[0].Location != "code:2:15" || !strings.Contains(v.Warnings[0].Message, "'unused'") {
		t.Errorf("warnings: %+v", v.Warnings)
	}
}

// Without the engine, the built-in check runs and says so.
func TestBuiltinCheckWhenNoEngine(t *testing.T) {
	saved := theEngine
	theEngine = warmengine.New(func() (webgodot.Setup, error) {
		return webgodot.Setup{}, &sdk.Error{Code: sdk.CodePreconditionFailed, Message: "no Chromium here", Hint: "install it"}
	})
	defer func() { theEngine = saved }()
	dir := plugintest.Project(t, map[string]string{"project.godot": project,
		"a.gdshader": "shader_type canvas_item;\nvoid fragment() {\n\tCOLOR = vec4(1.0;\n}\n",
		"b.gdshader": "void fragment() {}\n",
		"c.gdshader": "shader_type canvas_item;\nvoid fragment() { COLOR = vec4(1.0); }\n",
	})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	for _, c := range []struct {
		path, location string
	}{
		{"res://a.gdshader", "res://a.gdshader:3:14"},
		{"res://b.gdshader", "res://b.gdshader:1:1"},
		{"res://c.gdshader", ""},
	} {
		v := validate(t, h, map[string]any{"shader_path": c.path})
		if v.Checker != checkerBuiltin || !strings.Contains(v.Note, "no Chromium here") {
			t.Errorf("%s: checker %q note %q", c.path, v.Checker, v.Note)
		}
		switch {
		case c.location == "" && !v.Valid:
			t.Errorf("%s: %+v", c.path, v.Errors)
		case c.location != "" && (v.Valid || v.Errors[0].Location != c.location):
			t.Errorf("%s: %+v, want an error at %s", c.path, v.Errors, c.location)
		}
	}
}

func TestParseSource(t *testing.T) {
	src := ParseSource(`shader_type spatial;
render_mode unshaded, cull_disabled;
// uniform float commented;
uniform float amount : hint_range(0.0, 1.0, 0.1) = 0.5; /* trailing */
uniform vec4 tint : source_color = vec4(1.0);
uniform highp vec3 dir;
uniform sampler2D tex : source_color, filter_nearest;
uniform float weights[4];
instance uniform float per_instance;
global uniform vec4 wind;
uniform mat3
	basis;
void fragment() { ALBEDO = tint.rgb * amount; }
`)
	if src.ShaderType != "spatial" || !slices.Equal(src.RenderModes, []string{"unshaded", "cull_disabled"}) {
		t.Errorf("type %q modes %v", src.ShaderType, src.RenderModes)
	}
	want := []struct{ name, typ, godot, def string }{
		{"amount", "float", "float", "0.5"}, {"tint", "vec4", "Color", "vec4(1.0)"}, {"dir", "vec3", "Vector3", ""},
		{"tex", "sampler2D", "Texture2D", ""}, {"weights", "float", "PackedFloat32Array", ""},
		{"per_instance", "float", "float", ""}, {"wind", "vec4", "Vector4", ""}, {"basis", "mat3", "Basis", ""},
	}
	if len(src.Uniforms) != len(want) {
		t.Fatalf("uniforms %+v", src.Uniforms)
	}
	for i, w := range want {
		u := src.Uniforms[i]
		if u.Name != w.name || u.Type != w.typ || u.GodotType != w.godot || u.Default != w.def {
			t.Errorf("%d: %+v, want %+v", i, u, w)
		}
	}
	if u := src.Uniforms[0]; u.Line != 4 || !slices.Equal(u.Hints, []string{"hint_range(0.0, 1.0, 0.1)"}) {
		t.Errorf("amount: %+v", u)
	}
	if src.Uniforms[7].Line != 11 || src.Uniforms[5].Scope != "instance" || src.Uniforms[6].Scope != "global" {
		t.Errorf("%+v", src.Uniforms)
	}
}

// The engine's uniform list agrees with the parser's types (the engine is
// the oracle for what a ShaderMaterial stores).
func TestUniformTypesAgreeWithTheEngine(t *testing.T) {
	requireEngine(t)
	code := "shader_type spatial;\nuniform float f;\nuniform int i;\nuniform uint u;\nuniform bool b;\nuniform vec2 v2;\nuniform vec3 v3;\nuniform vec3 c3 : source_color;\n" +
		"uniform vec4 v4;\nuniform vec4 c4 : source_color;\nuniform ivec2 i2;\nuniform ivec3 i3;\nuniform ivec4 i4;\nuniform mat3 m3;\nuniform mat4 m4;\n" +
		"uniform sampler2D t2;\nuniform sampler2DArray ta;\nuniform sampler3D t3;\nuniform samplerCube tc;\nuniform float fa[2];\nuniform int ia[2];\nuniform vec2 va[2];\n" +
		"uniform vec3 vb[2];\nuniform vec4 vc[2];\nuniform vec4 cc[2] : source_color;\nvoid fragment() {}\n"
	c, err := compile(context.Background(), nil, "code", code)
	if err != nil {
		t.Fatal(err)
	}
	src := ParseSource(code)
	if len(c.Uniforms) != len(src.Uniforms) || len(c.Errors) != 0 {
		t.Fatalf("engine %+v errors %+v", c.Uniforms, c.Errors)
	}
	for i, eu := range c.Uniforms {
		u := src.Uniforms[i]
		want := eu.Type
		if eu.Type == "Object" {
			want = eu.HintString
		}
		if u.Name != eu.Name || u.GodotType != want {
			t.Errorf("%s: parser says %s, engine %s (%s)", u.Name, u.GodotType, eu.Type, eu.HintString)
		}
	}
}

// A warm validation: the engine stays up between calls.
//
//	go test -run '^$' -bench BenchmarkValidateWarm -benchtime 20x ./plugins/shader/
func BenchmarkValidateWarm(b *testing.B) {
	if _, err := webgodot.Locate(); err != nil {
		b.Skip(err)
	}
	dir := b.TempDir()
	_ = os.WriteFile(filepath.Join(dir, "project.godot"), []byte(project), 0o644)
	_ = os.WriteFile(filepath.Join(dir, "s.gdshader"), []byte("shader_type canvas_item;\nuniform float amount : hint_range(0, 1) = 0.5;\nvoid fragment() {\n\tCOLOR = vec4(vec3(amount), 1.0);\n}\n"), 0o644)
	h := sdktest.New(b, Toolset(), sdktest.Options{ProjectDir: dir})
	args := map[string]any{"shader_path": "res://s.gdshader"}
	if r := h.Call(context.Background(), "validate", args); r.IsError {
		b.Fatal(r.Text())
	}
	var took []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if r := h.Call(context.Background(), "validate", args); r.IsError || r.Err != nil {
			b.Fatal(r.Text(), r.Err)
		}
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "median-ms/validation")
}

// A native Godot 4, when one is found, compiles instead of the web
// runtime; a Godot 3 binary is passed over.
func TestNativeGodotWhenFound(t *testing.T) {
	requireEngine(t)
	dir := plugintest.Project(t, map[string]string{"project.godot": project,
		"bad.gdshader": "shader_type canvas_item;\nvoid fragment() {\n\tCOLOR = vec4(1.0) * nope;\n}\n"})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	t.Run("native Godot 4 compiles", func(t *testing.T) {
		b, err := finder.Find(context.Background(), 4)
		if err != nil {
			// Godot 4 has no package scripts/test.sh could install, so
			// this is a skip in CI too (testenv.Missing is for parts it
			// installs).
			t.Skipf("no native Godot 4 here, so the native path is not exercised: %v", err)
		}
		v := validate(t, h, map[string]any{"shader_path": "res://bad.gdshader"})
		if !strings.Contains(v.Engine, "native") || len(v.Errors) != 1 || v.Errors[0].Location != "res://bad.gdshader:3:22" {
			t.Errorf("native %s: %+v", b.Path, v)
		}
	})
	t.Run("Godot 3 is passed over", func(t *testing.T) {
		t.Setenv("GODOT_MCP_GODOT_BIN", testenv.RequireBinary(t, "godot3-server", "godot3-server"))
		v := validate(t, h, map[string]any{"shader_path": "res://bad.gdshader"})
		if !strings.Contains(v.Engine, "web runtime") || len(v.Errors) != 1 || v.Errors[0].Location != "res://bad.gdshader:3:22" {
			t.Errorf("with a Godot 3 binary: %+v", v)
		}
	})
}
