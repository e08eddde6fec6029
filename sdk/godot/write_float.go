package godot

import (
	"math"
	"strconv"
)

// FloatStyle is how a Godot version spells floats in text files. The value
// is the same whatever the style; only the text differs, so a file keeps
// reading back identically in every version. Edits should use the style of
// the project's Godot version so that the editor, saving the file again,
// writes the same bytes and version control shows no noise.
//
// The zero value is the spelling of current Godot versions.
type FloatStyle uint8

const (
	// FloatsShortest is the spelling of Godot 4.5 and later
	// (String::num_scientific on Grisu2, godotengine/godot#98750, first in
	// 4.5-dev5): Grisu2's shortest digits that read back as the same number,
	// float32 digits for a value a float32 holds exactly, fixed notation
	// when the decimal exponent is in [-4, 15) and scientific notation
	// otherwise: 10000000.0, 123456789.0, 0.0001, 1e+15, 1e-05.
	FloatsShortest FloatStyle = iota
	// FloatsSixDigits is the spelling of Godot 3.x and 4.0 to 4.4
	// (printf's "%g"): six significant digits, scientific notation when the
	// decimal exponent is below -4 or at least 6: 1e+07, 1.23457e+08,
	// 0.333333. It loses precision, as those editors did on every save.
	FloatsSixDigits
)

// String names the style.
func (s FloatStyle) String() string {
	if s == FloatsSixDigits {
		return "six-digits"
	}
	return "shortest"
}

// FloatStyleFor returns the float spelling of a Godot version such as
// "4.4", "4.7.1" or "3" (Project.Version, sdk.Env.GodotVersion): versions
// before 4.5 get FloatsSixDigits. An empty or unrecognised version gets
// FloatsShortest, the current spelling: every editor since 4.5 writes it,
// every 4.x editor reads it, and a Godot 4 project.godot without a
// version in config/features is rare enough that guessing an old editor
// would be wrong more often than right.
func FloatStyleFor(version string) FloatStyle {
	major, minor, ok := leadingVersion(version)
	if !ok {
		return FloatsShortest
	}
	if major < 4 || (major == 4 && minor < 5) {
		return FloatsSixDigits
	}
	return FloatsShortest
}

// leadingVersion reads "<major>[.<minor>]" from the start of s.
func leadingVersion(s string) (major, minor int, ok bool) {
	i := 0
	for i < len(s) && isDigit(s[i]) && i < 4 {
		major = major*10 + int(s[i]-'0')
		i++
	}
	if i == 0 {
		return 0, 0, false
	}
	if i < len(s) && s[i] == '.' {
		j := i + 1
		for j < len(s) && isDigit(s[j]) && j < i+5 {
			minor = minor*10 + int(s[j]-'0')
			j++
		}
	}
	return major, minor, true
}

// appendReal writes a float the way the engine's rtos_fix does for the
// components of vectors, colors and packed arrays: no ".0" suffix, 0 for
// both zeros (a negative zero would only be noise in version control),
// nan, inf, and inf_neg for minus infinity: the engine writes "-inf" only
// in format=4 resource files; var_to_str, ConfigFile and format=3 files
// keep the old spelling (VariantWriter's p_compat).
func (w writer) appendReal(dst []byte, f float64) []byte {
	switch {
	case f == 0:
		return append(dst, '0')
	case f != f:
		return append(dst, "nan"...)
	case math.IsInf(f, 1):
		return append(dst, "inf"...)
	case math.IsInf(f, -1):
		if w.bytes == bytesAsBase64 {
			return append(dst, "-inf"...)
		}
		return append(dst, "inf_neg"...)
	}
	if w.floats == FloatsSixDigits {
		return strconv.AppendFloat(dst, f, 'g', 6, 64)
	}
	// Values that are exactly representable as float32 (everything the
	// engine stores as real_t) use the shortest float32 text, so 0.1f is
	// "0.1" and not "0.10000000149011612".
	return appendGrisu(dst, f, float64(float32(f)) == f)
}

// appendScalarFloat writes a standalone float: like appendReal, plus ".0"
// when the text would otherwise read back as an integer.
func (w writer) appendScalarFloat(dst []byte, f float64) []byte {
	start := len(dst)
	dst = w.appendReal(dst, f)
	if f != f || math.IsInf(f, 0) {
		return dst
	}
	for _, c := range dst[start:] {
		if c == '.' || c == 'e' || c == 'E' {
			return dst
		}
	}
	return append(dst, ".0"...)
}

// appendReals writes components of vectors, colors, transforms and packed
// vector and color arrays. The engine holds those as float32 (real_t in
// official builds, float for colors), so they are rounded to float32
// first: a value parsed from the text "0.3169294" is the float64 nearest
// to it, which Grisu2 would spell with 17 digits, while the engine holds
// and writes float32(0.3169294).
func (w writer) appendReals(dst []byte, fs ...float64) []byte {
	for i, f := range fs {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = w.appendReal(dst, float64(float32(f)))
	}
	return dst
}
