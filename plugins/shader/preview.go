package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/warmengine"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// previewHandler runs in a warm engine with its renderer (WebGL2 through
// SwiftShader): it draws a material into a SubViewport — a spatial
// shader on a mesh under a light and a camera, a canvas_item shader on a
// rectangle — and prints the frame as PNG.
const previewHandler = `extends Node

func handle(body: String) -> void:
	var req = JSON.parse_string(body)
	var code := str(req.get("code", ""))
	if req.has("graph"):
		var f := FileAccess.open("user://mcp_preview_graph.tres", FileAccess.WRITE)
		f.store_string(str(req["graph"]))
		f.close()
		var vs = ResourceLoader.load("user://mcp_preview_graph.tres", "", ResourceLoader.CACHE_MODE_IGNORE)
		if not (vs is VisualShader):
			print("@@error the graph does not load as a VisualShader")
			return
		code = vs.get_code()
	var s := Shader.new()
	s.code = code
	var mat := ShaderMaterial.new()
	mat.shader = s
	var params: Dictionary = req.get("params", {})
	for k in params:
		mat.set_shader_parameter(k, str_to_var(str(params[k])))
	var size := int(req.get("size", 256))
	var vp := SubViewport.new()
	vp.size = Vector2i(size, size)
	vp.render_target_update_mode = SubViewport.UPDATE_ALWAYS
	match s.get_mode():
		Shader.MODE_CANVAS_ITEM:
			var r := ColorRect.new()
			r.size = Vector2(size, size)
			r.material = mat
			vp.add_child(r)
		Shader.MODE_SPATIAL:
			vp.own_world_3d = true
			var mi := MeshInstance3D.new()
			var eye := Vector3(0, 0, 1.3)
			match str(req.get("mesh", "sphere")):
				"plane":
					# A floor seen from above at an angle: the shader in
					# perspective, as on the ground of a scene.
					var p := PlaneMesh.new()
					p.size = Vector2(1.0, 1.0)
					mi.mesh = p
					eye = Vector3(0, 1.0, 1.0)
				"quad":
					var q := QuadMesh.new()
					q.size = Vector2(1.0, 1.0)
					mi.mesh = q
				_:
					mi.mesh = SphereMesh.new()
			mi.material_override = mat
			vp.add_child(mi)
			var cam := Camera3D.new()
			cam.transform = Transform3D(Basis(), eye).looking_at(Vector3.ZERO, Vector3.UP)
			cam.fov = 60.0
			vp.add_child(cam)
			var light := DirectionalLight3D.new()
			light.rotation_degrees = Vector3(-40, 30, 0)
			vp.add_child(light)
			var env := Environment.new()
			env.background_mode = Environment.BG_COLOR
			env.background_color = Color(0.16, 0.16, 0.18)
			env.ambient_light_source = Environment.AMBIENT_SOURCE_COLOR
			env.ambient_light_color = Color(0.35, 0.35, 0.35)
			var we := WorldEnvironment.new()
			we.environment = env
			vp.add_child(we)
		_:
			print("@@error only spatial and canvas_item shaders can be previewed")
			return
	add_child(vp)
	await RenderingServer.frame_post_draw
	await RenderingServer.frame_post_draw
	await RenderingServer.frame_post_draw
	var img := vp.get_texture().get_image()
	print("@@png ", Marshalls.raw_to_base64(img.save_png_to_buffer()))
	vp.queue_free()
`

type previewArgs struct {
	ShaderPath   sdk.ResPath    `json:"shader_path,omitempty" jsonschema:"a .gdshader, or a VisualShader .tres" godot:"ext=.gdshader|.tres"`
	MaterialPath sdk.ResPath    `json:"material_path,omitempty" jsonschema:"a ShaderMaterial .tres: its shader and its parameters" godot:"ext=.tres"`
	Mesh         string         `json:"mesh,omitempty" jsonschema:"sphere (default), plane or quad, for a spatial shader; a canvas_item shader draws on a rectangle"`
	Size         int            `json:"size,omitempty" jsonschema:"the image's width and height in pixels, 16 to 1024 (default 256)"`
	Params       map[string]any `json:"params,omitempty" jsonschema:"uniform values, converted to each uniform's declared type (textures are not loaded)"`
}

type previewResult struct {
	ShaderPath string       `json:"shader_path"`
	ShaderType string       `json:"shader_type"`
	Mesh       string       `json:"mesh,omitempty"`
	Width      int          `json:"width"`
	Height     int          `json:"height"`
	Bytes      int          `json:"png_bytes"`
	Errors     []Diagnostic `json:"errors" jsonschema:"compile errors; a shader that does not compile draws the engine's fallback"`
	Engine     string       `json:"engine"`
}

func preview(ctx context.Context, call *sdk.Call, in previewArgs) (sdk.Result, error) {
	size := in.Size
	if size == 0 {
		size = 256
	}
	if size < 16 || size > 1024 {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "size", Message: fmt.Sprintf("size %d is out of range", size), Hint: "pass 16 to 1024"}
	}
	mesh := in.Mesh
	if mesh == "" {
		mesh = "sphere"
	}
	if mesh != "sphere" && mesh != "plane" && mesh != "quad" {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "mesh", Message: fmt.Sprintf("unknown mesh %q", in.Mesh), Hint: "pass sphere, plane or quad"}
	}
	shader := string(in.ShaderPath)
	params := map[string]string{}
	if in.MaterialPath != "" {
		f, err := call.Workspace().Read(ctx, string(in.MaterialPath))
		if err != nil {
			return sdk.Result{}, err
		}
		doc, err := call.Workspace().ParseFile(ctx, f)
		if err != nil || doc.ResourceType() != "ShaderMaterial" || doc.Resource() == nil {
			return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass a ShaderMaterial .tres", "%s is not a ShaderMaterial", in.MaterialPath)
		}
		for _, p := range doc.Resource().Properties() {
			if name, ok := strings.CutPrefix(p.Key, paramPrefix); ok {
				if _, isRes := p.Value.(godot.ExtResource); !isRes {
					params[name] = godot.FormatValue(p.Value)
				}
			}
			if p.Key == "shader" {
				if r, ok := p.Value.(godot.ExtResource); ok && doc.ExtResource(r.ID) != nil {
					shader = doc.ExtResource(r.ID).Path()
				}
			}
		}
	}
	if shader == "" {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "shader_path", Message: "nothing to preview", Hint: "pass shader_path (a .gdshader or VisualShader .tres) or material_path"}
	}
	f, err := call.Workspace().Read(ctx, shader)
	if err != nil {
		return sdk.Result{}, err
	}
	req := map[string]any{"size": size, "mesh": mesh}
	out := previewResult{ShaderPath: shader, Width: size, Height: size, Errors: []Diagnostic{}, Engine: warmengine.Name()}
	var src Source
	if strings.HasSuffix(shader, ".tres") {
		doc, err := call.Workspace().ParseFile(ctx, f)
		if err != nil || doc.ResourceType() != "VisualShader" {
			return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass a .gdshader or a VisualShader .tres", "%s is not a VisualShader", shader)
		}
		req["graph"] = string(f.Data)
		out.ShaderType = "visual_shader"
	} else {
		code := string(f.Data)
		files := map[string]string{}
		rewritten, err := includes(ctx, call, shader, code, files, 0)
		if err != nil {
			return sdk.Result{}, err
		}
		if len(files) > 0 {
			return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "shader_path", Message: shader + " uses #include, which the preview cannot load yet", Hint: "validate it with godot_shader_validate; preview a shader without includes"}
		}
		req["code"] = rewritten
		src = ParseSource(code)
		out.ShaderType = src.ShaderType
	}
	for k, raw := range in.Params {
		typ := ""
		if u, ok := src.Uniform(k); ok {
			typ = u.GodotType
		}
		v, err := godot.FromJSON(raw, typ)
		if err != nil {
			return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "params", Message: fmt.Sprintf("params.%s: %v", k, err), Hint: "pass a value of the uniform's type"}
		}
		params[k] = godot.FormatValue(v)
	}
	req["params"] = params
	if out.ShaderType == "spatial" || out.ShaderType == "visual_shader" {
		out.Mesh = mesh
	}
	body, _ := json.Marshal(req)
	cctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	lines, err := theEngine.Do(cctx, true, previewHandler, string(body))
	if err != nil {
		return sdk.Result{}, err
	}
	var png []byte
	for _, l := range lines {
		if b, ok := strings.CutPrefix(l.Text, "@@png "); ok {
			png, _ = base64.StdEncoding.DecodeString(b)
		}
		if e, ok := strings.CutPrefix(l.Text, "@@error "); ok {
			return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "shader_path", Message: shader + ": " + e, Hint: "preview a spatial or canvas_item shader"}
		}
	}
	c := parseCompile(shader, string(f.Data), nil, lines)
	out.Errors = append(out.Errors, c.Errors...)
	sort.SliceStable(out.Errors, func(i, j int) bool { return out.Errors[i].Line < out.Errors[j].Line })
	if len(png) == 0 {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeToolError, Message: "the engine drew no image", Hint: "try again; godot_shader_validate shows whether the shader compiles"}
	}
	out.Bytes = len(png)
	summary, _ := json.Marshal(out)
	return sdk.Result{Content: []sdk.Content{sdk.ImageContent{Data: png, MIMEType: "image/png"}, sdk.TextContent{Text: string(summary)}}, Structured: out}, nil
}
