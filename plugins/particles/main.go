// Command particles is the first-party "particles" toolset: it adds
// particle systems (GPUParticles2D/3D, CPUParticles2D/3D) and configures
// them — the ParticleProcessMaterial's fields, a colour ramp over the
// particles' lifetime, named presets (fire, smoke, explosion, sparks, rain,
// snow) — and reads a system's material back.
//
// Every tool works in two modes with the same arguments, the reference
// server's:
//
//   - With a Godot editor attached it sends the godot-mcp addon's command
//     (cmd_create_particles, cmd_set_particle_material,
//     cmd_set_particle_color_gradient, cmd_apply_particle_preset,
//     cmd_get_particle_material) with exactly the addon's params, on
//     scene_path's tab.
//   - Headless it edits the scene (scene_path, else the workspace's active
//     scene) through the workspace: atomic, compare-and-swap, one undoable
//     action per call, dry_run previews. The material, its
//     GradientTexture1D and Gradient are [sub_resource] sections written
//     as Godot's ResourceSaver writes them; a material saved as a .tres is
//     edited in its file.
//
// See docs/toolsets/particles.md. Install it as godot-mcp-toolset-particles
// in the plugins directory.
package main

import "github.com/godot-mcp/godot-mcp/sdk"

func main() {
	sdk.Serve(Toolset())
}

// Toolset returns the particles toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "particles",
		Version: "0.1.0",
		Description: "Create and configure particle systems (GPUParticles2D/3D with a ParticleProcessMaterial, CPUParticles2D/3D): material fields, colour ramps, presets; " +
			"in the attached Godot editor or headless on the scene files.",
		Godot: ">= 4.0, < 5.0",
		Tools: []sdk.Tool{
			sdk.NewTool("create",
				"Add a particle node under parent_path: particles_type GPUParticles2D (the default) or GPUParticles3D, with a new ParticleProcessMaterial, or CPUParticles2D/CPUParticles3D (their fields are the node's own); "+
					"amount (default 8), lifetime (default 1.0 s) and node properties such as one_shot, explosiveness, emitting. A GPUParticles3D draws nothing until draw_pass_1 has a mesh: "+
					"pass properties {\"draw_pass_1\": {\"type\": \"QuadMesh\"}} headless. Answers node_path. Next: apply_preset or set_material.",
				sdk.Mutating, createParticles, sdk.EditorFunc(createParticlesEditor), sdk.DryRunAnswer(createDryRun, "created"), sdk.WithTitle("Add a particle system")),
			sdk.NewTool("set_material",
				"Set fields of the ParticleProcessMaterial of the particle node at node_path (made when it has none): direction, spread, gravity, initial_velocity_min/max, "+
					"scale_min/max, color, damping_min/max, emission_shape, angular_velocity_min/max, … (unknown fields are refused with the closest name). "+
					"On a CPUParticles2D/3D the same fields are the node's own. Answers the values set. Read them back with get_material.",
				sdk.Mutating, setMaterial, sdk.EditorFunc(setMaterialEditor), sdk.WithTitle("Configure a particle material")),
			sdk.NewTool("set_color_gradient",
				"Set the colour of the particles over their lifetime: colors are the gradient's stops (\"#ff8800\", \"#ff880080\" with alpha, [r, g, b, a] or {\"r\", \"g\", \"b\", \"a\"}), "+
					"offsets their 0..1 positions (default evenly spaced). Builds a Gradient in a GradientTexture1D as the material's color_ramp (a CPUParticles node's color_ramp takes the Gradient).",
				sdk.Mutating, setColorGradient, sdk.EditorFunc(setColorGradientEditor), sdk.WithTitle("Set a particle colour ramp")),
			sdk.NewTool("apply_preset",
				"Configure the particle node at node_path as a preset — fire, smoke, explosion, sparks (the reference's four) or rain, snow — in one step: "+
					"a new process material with the preset's fields and colour ramp, and the node's amount, lifetime, explosiveness (one_shot for explosion). "+
					"Values are in docs/toolsets/particles.md; tweak them afterwards with set_material.",
				sdk.Mutating, applyPreset, sdk.EditorFunc(applyPresetEditor), sdk.WithTitle("Apply a particle preset")),
			sdk.NewTool("get_material",
				"Read the process material of the particle node at node_path: has_material, properties (every field with its value, defaults included) and color_ramp "+
					"({colors: [{r, g, b, a}], offsets} or null). On a CPUParticles node, the node's own fields.",
				sdk.ReadOnly, getMaterial, sdk.EditorFunc(getMaterialEditor), sdk.WithTitle("Read a particle material")),
		},
	}
}
