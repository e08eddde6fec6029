// Command shader is the first-party "shader" toolset: text shaders
// (.gdshader) and the ShaderMaterials that use them.
//
// It creates shaders of every Godot 4 shader type from the editor's
// templates, reads them (with their uniforms, types and hints), assigns a
// ShaderMaterial to a node (inline in the scene, or as a .tres), sets and
// reads shader parameters (converted to each uniform's declared type and
// written as the editor writes them, shader_parameter/name = ...), and
// validates shaders with the real engine: Godot's own shader compiler,
// in the embedded Godot 4.6 web runtime, kept warm between calls. Without
// the engine, validation falls back to a built-in syntax check and says
// so.
//
// With a Godot editor attached the tools forward to the godot-mcp addon;
// headless, they edit the files through the host's workspace: atomic,
// journaled (godot_undo reverts it) and honouring dry_run.
package main

import (
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

func main() {
	sdk.Serve(Toolset())
}

// Toolset returns the shader toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "shader",
		Version: "0.1.0",
		Description: "Text shaders (.gdshader): create from templates, read with their uniforms, validate with the real engine's " +
			"shader compiler, assign as a ShaderMaterial and set its parameters.",
		Godot: ">= 4.0",
		Warm:  classdb.Warm,
		Tools: []sdk.Tool{
			sdk.NewTool("create",
				"Create or overwrite a .gdshader file. Without code, writes the editor's template for shader_type "+
					"(spatial, canvas_item, particles, sky or fog; default canvas_item). Check it with godot_shader_validate.",
				sdk.Mutating, createShader, sdk.EditorCommand("cmd_create_shader", createShaderCommand),
				sdk.DryRunAnswer(createShaderDryRun, "created"), sdk.WithTitle("Create shader")),
			sdk.NewTool("read",
				"Read a .gdshader file: its source, shader type, render modes and uniforms (each with its type, hints, default and line).",
				sdk.ReadOnly, readShader, sdk.EditorFunc(readShaderEditor), sdk.WithTitle("Read shader")),
			sdk.NewTool("validate",
				"Compile a shader with the real engine (Godot's shader compiler) and report its errors and warnings as res://file:line:col. "+
					"Pass shader_path, or code (optionally with shader_path to name it). Without the engine, a built-in syntax check runs "+
					"instead; checker says which ran.",
				sdk.ReadOnly, validateShader, sdk.WithTitle("Validate shader")),
			sdk.NewTool("assign_material",
				"Assign a new ShaderMaterial using shader_path to a node's material slot (material for a CanvasItem, material_override "+
					"for a GeometryInstance3D): inline in the scene, or saved as material_path (.tres) and referenced. In editor mode the "+
					"addon assigns it inline.",
				sdk.Mutating, assignMaterial, sdk.EditorFunc(assignMaterialEditor), sdk.WithTitle("Assign shader material")),
			sdk.NewTool("set_param",
				"Set a shader uniform on the node's ShaderMaterial, converted to the uniform's declared type (float, int, bool, "+
					"vectors as [x,y,z] or {x,y,z}, colours as \"#ff0000\" or {r,g,b,a}, textures as a res:// path); null removes it. "+
					"Written as the editor writes it: shader_parameter/name = value.",
				sdk.Mutating, setParam, sdk.EditorFunc(setParamEditor), sdk.WithTitle("Set shader parameter")),
			sdk.NewTool("get_param",
				"Read a shader uniform of the node's ShaderMaterial: the stored value (or null and the declared default), its type "+
					"and hints; exists is false when the shader declares no such uniform.",
				sdk.ReadOnly, getParam, sdk.EditorFunc(getParamEditor), sdk.WithTitle("Get shader parameter")),
			sdk.NewTool("preview",
				"Render a shader to a PNG with the engine's renderer and return the image: a spatial shader (or a VisualShader .tres) on a "+
					"sphere, plane or quad under a light, a canvas_item shader on a rectangle; shader_path, or material_path for a "+
					"ShaderMaterial with its parameters; params override uniforms.",
				sdk.ReadOnly, preview, sdk.WithTitle("Preview shader")),
		},
	}
}
