package main

// A preset configures a particle node in one step: the node's own
// properties, a new process material with these fields, and a colour ramp
// (evenly spaced stops). fire, smoke, explosion and sparks are the
// reference addon's, value for value; rain and snow are ours. The values
// are written down in docs/toolsets/particles.md: keep the two in step.
type preset struct {
	node     map[string]any
	material map[string]any
	gradient []any
}

// referencePresets are the presets the addon's cmd_apply_particle_preset
// knows; the others are applied in the editor field by field.
var referencePresets = []string{"fire", "smoke", "explosion", "sparks"}

func vec(x, y, z float64) []any { return []any{x, y, z} }

var presets = map[string]preset{
	"fire": {
		node: map[string]any{"amount": 32.0, "lifetime": 1.0, "explosiveness": 0.1},
		material: map[string]any{"direction": vec(0, -1, 0), "spread": 20.0, "gravity": vec(0, -30, 0),
			"initial_velocity_min": 30.0, "initial_velocity_max": 60.0, "scale_min": 1.5, "scale_max": 3.0, "color": "#ffcc33"},
		gradient: []any{"#ffee88ff", "#ff6600cc", "#cc220000"},
	},
	"smoke": {
		node: map[string]any{"amount": 24.0, "lifetime": 2.5, "explosiveness": 0.0},
		material: map[string]any{"direction": vec(0, -1, 0), "spread": 12.0, "gravity": vec(0, -8, 0),
			"initial_velocity_min": 8.0, "initial_velocity_max": 18.0, "scale_min": 2.0, "scale_max": 5.0, "color": "#888888"},
		gradient: []any{"#aaaaaaaa", "#66666666", "#33333300"},
	},
	"explosion": {
		node: map[string]any{"amount": 48.0, "lifetime": 0.8, "one_shot": true, "explosiveness": 1.0},
		material: map[string]any{"spread": 180.0, "gravity": vec(0, 0, 0), "initial_velocity_min": 60.0, "initial_velocity_max": 140.0,
			"scale_min": 1.0, "scale_max": 2.5, "color": "#ffaa33", "damping_min": 20.0, "damping_max": 40.0},
		gradient: []any{"#ffffccff", "#ff8800cc", "#88110000"},
	},
	"sparks": {
		node: map[string]any{"amount": 24.0, "lifetime": 0.6, "explosiveness": 0.4},
		material: map[string]any{"spread": 45.0, "gravity": vec(0, 60, 0), "initial_velocity_min": 40.0, "initial_velocity_max": 90.0,
			"scale_min": 0.4, "scale_max": 1.0, "color": "#ffee99"},
		gradient: []any{"#ffffddff", "#ffcc33ff", "#ff660000"},
	},
	"rain": {
		node: map[string]any{"amount": 200.0, "lifetime": 1.2, "explosiveness": 0.0},
		material: map[string]any{"emission_shape": "EMISSION_SHAPE_BOX", "emission_box_extents": vec(320, 1, 1),
			"direction": vec(0, 1, 0), "spread": 3.0, "gravity": vec(0, 400, 0),
			"initial_velocity_min": 300.0, "initial_velocity_max": 400.0, "scale_min": 0.5, "scale_max": 1.0, "color": "#aaccff"},
		gradient: []any{"#aaccffcc", "#aaccff66"},
	},
	"snow": {
		node: map[string]any{"amount": 120.0, "lifetime": 6.0, "explosiveness": 0.0},
		material: map[string]any{"emission_shape": "EMISSION_SHAPE_BOX", "emission_box_extents": vec(320, 1, 1),
			"direction": vec(0, 1, 0), "spread": 20.0, "gravity": vec(0, 10, 0),
			"initial_velocity_min": 20.0, "initial_velocity_max": 40.0, "scale_min": 0.5, "scale_max": 1.5, "color": "#ffffff"},
		gradient: []any{"#ffffffff", "#ffffffff", "#ffffff00"},
	},
}

// presetNames lists the presets in the order the docs give them.
var presetNames = []string{"fire", "smoke", "explosion", "sparks", "rain", "snow"}

// cpuName is a ParticleProcessMaterial field's name on a CPUParticles
// node, where it differs.
func cpuName(field string) string {
	switch field {
	case "scale_min":
		return "scale_amount_min"
	case "scale_max":
		return "scale_amount_max"
	}
	return field
}
