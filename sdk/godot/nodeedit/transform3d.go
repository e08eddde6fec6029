package nodeedit

import (
	"math"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// A Node3D saves position, rotation and scale as one transform. These
// arguments take them apart, as the inspector shows them: transform3D
// composes them the way Node3D does (Basis.from_euler in the default YXZ
// order, times the scale; single-precision, as the engine computes it),
// so the saved transform is the one the editor would save.

// transformKeys are the parts a transform is made of.
var transformKeys = []string{"position", "rotation", "rotation_degrees", "scale"}

// WithTransform replaces rotation, rotation_degrees and scale (and
// position with them) of a Node3D by the transform they make; props of
// other classes come back unchanged.
func WithTransform(class string, props map[string]any) (map[string]any, error) {
	if !DB().Inherits(class, "Node3D") {
		return props, nil
	}
	_, r := props["rotation"]
	_, rd := props["rotation_degrees"]
	_, sc := props["scale"]
	if !r && !rd && !sc {
		return props, nil // position alone: nodeedit saves it as the origin
	}
	if _, ok := props["transform"]; ok {
		return nil, Invalid("properties", "pass either transform or position/rotation/scale", "transform and its parts are both given")
	}
	if r && rd {
		return nil, Invalid("properties", "pass rotation (radians) or rotation_degrees, not both", "rotation and rotation_degrees are both given")
	}
	vec := func(k string, def godot.Vector3) (godot.Vector3, error) {
		raw, ok := props[k]
		if !ok {
			return def, nil
		}
		v, err := ConvertType("Vector3", raw)
		if err != nil {
			return def, Invalid("properties", "pass [x, y, z] or {\"x\", \"y\", \"z\"}", "%s: %v", k, err)
		}
		return v.(godot.Vector3), nil
	}
	pos, err := vec("position", godot.Vector3{})
	if err != nil {
		return nil, err
	}
	rot, err := vec("rotation", godot.Vector3{})
	if err != nil {
		return nil, err
	}
	if rd {
		if rot, err = vec("rotation_degrees", godot.Vector3{}); err != nil {
			return nil, err
		}
		rot = godot.Vector3{X: deg(rot.X), Y: deg(rot.Y), Z: deg(rot.Z)}
	}
	scale, err := vec("scale", godot.Vector3{X: 1, Y: 1, Z: 1})
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	for k, v := range props {
		out[k] = v
	}
	for _, k := range transformKeys {
		delete(out, k)
	}
	out["transform"] = godot.FormatValue(transform3D(pos, rot, scale))
	return out, nil
}

func deg(d float64) float64 { return float64(float32(d) * float32(math.Pi/180)) }

type mat3 [3][3]float32

func (a mat3) mul(b mat3) mat3 {
	var m mat3
	for i := range 3 {
		for j := range 3 {
			m[i][j] = a[i][0]*b[0][j] + a[i][1]*b[1][j] + a[i][2]*b[2][j]
		}
	}
	return m
}

// transform3D is Node3D's transform for position, rotation (radians, YXZ)
// and scale.
func transform3D(pos, rot, scale godot.Vector3) godot.Transform3D {
	sc := func(a float64) (float32, float32) {
		f := float64(float32(a))
		return float32(math.Sin(f)), float32(math.Cos(f))
	}
	sx, cx := sc(rot.X)
	sy, cy := sc(rot.Y)
	sz, cz := sc(rot.Z)
	x := mat3{{1, 0, 0}, {0, cx, -sx}, {0, sx, cx}}
	y := mat3{{cy, 0, sy}, {0, 1, 0}, {-sy, 0, cy}}
	z := mat3{{cz, -sz, 0}, {sz, cz, 0}, {0, 0, 1}}
	s := mat3{{float32(scale.X), 0, 0}, {0, float32(scale.Y), 0}, {0, 0, float32(scale.Z)}}
	m := y.mul(x).mul(z).mul(s)
	var b godot.Basis
	for i := range 3 {
		b.Rows[i] = godot.Vector3{X: float64(m[i][0]), Y: float64(m[i][1]), Z: float64(m[i][2])}
	}
	return godot.Transform3D{Basis: b, Origin: pos}
}
