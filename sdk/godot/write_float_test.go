package godot

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// Both float spellings, as scalars (".0" when the text would read as an
// int) and as float32 components (no ".0"). The FloatsShortest rows are
// what Godot 4.6 writes (measured, and checked against the engine for
// thousands of values in internal/enginecheck); the FloatsSixDigits rows
// are printf("%g"), what Godot 4.0 to 4.4 write.
func TestFloatStyles(t *testing.T) {
	negZero := math.Copysign(0, -1)
	tests := []struct {
		v                float64
		shortest, sixDig string // scalar spelling
	}{
		{10000000, "10000000.0", "1e+07"},
		{-10000000, "-10000000.0", "-1e+07"},
		{123456789, "123456789.0", "1.23457e+08"},
		{999999999999999, "999999999999999.0", "1e+15"},
		{1e14, "100000000000000.0", "1e+14"},
		{1e15, "1e+15", "1e+15"},
		{1e6, "1000000.0", "1e+06"},
		{100000, "100000.0", "100000.0"},
		{1e-4, "0.0001", "0.0001"},
		{1e-5, "1e-05", "1e-05"},
		{0.00012345678, "0.00012345678", "0.000123457"},
		{1.5e-7, "1.5e-07", "1.5e-07"},
		{0.1, "0.1", "0.1"},
		{1.0 / 3, "0.3333333333333333", "0.333333"},
		{0.1234567, "0.1234567", "0.123457"},
		{-2.5, "-2.5", "-2.5"},
		{1e100, "1e+100", "1e+100"},
		{5e-324, "5e-324", "4.94066e-324"},
		{math.MaxFloat64, "1.7976931348623157e+308", "1.79769e+308"},
		// A float32-exact value gets float32 digits in the new form.
		{float64(float32(0.1)), "0.1", "0.1"},
		{float64(float32(123456789)), "123456790.0", "1.23457e+08"},
		// Grisu2 is not always the shortest form; the engine's choice wins.
		{-0.899395, "-0.8993949999999999", "-0.899395"},
		{0, "0.0", "0.0"},
		{negZero, "0.0", "0.0"},
		{math.Inf(1), "inf", "inf"},
		{math.Inf(-1), "inf_neg", "inf_neg"},
		{math.NaN(), "nan", "nan"},
	}
	for _, tt := range tests {
		for _, c := range []struct {
			style FloatStyle
			want  string
		}{{FloatsShortest, tt.shortest}, {FloatsSixDigits, tt.sixDig}} {
			if got := FormatValueFor(Float(tt.v), c.style); got != c.want {
				t.Errorf("%s: Float(%v) = %s, want %s", c.style, tt.v, got, c.want)
			}
		}
	}
	if got := FormatValue(Float(1e7)); got != "10000000.0" {
		t.Errorf("FormatValue uses the current spelling: got %s", got)
	}

	components := []struct {
		v                Value
		shortest, sixDig string
	}{
		{Vector2{10000000, 1e-05}, "Vector2(10000000, 1e-05)", "Vector2(1e+07, 1e-05)"},
		// Components are float32 in the engine: 123456789 is held as
		// 123456792 and written with float32 digits.
		{Vector3{123456789, 1e15, 0.5}, "Vector3(123456790, 1e+15, 0.5)", "Vector3(1.23457e+08, 1e+15, 0.5)"},
		{Vector2{negZero, -1e7}, "Vector2(0, -10000000)", "Vector2(0, -1e+07)"},
		{Color{0.1234567, 1, 0, 1}, "Color(0.1234567, 1, 0, 1)", "Color(0.123457, 1, 0, 1)"},
		{PackedFloat32Array{1e7, 1e-5}, "PackedFloat32Array(10000000, 1e-05)", "PackedFloat32Array(1e+07, 1e-05)"},
		// PackedFloat64Array holds doubles: no float32 rounding.
		{PackedFloat64Array{123456789, 1.0 / 3}, "PackedFloat64Array(123456789, 0.3333333333333333)", "PackedFloat64Array(1.23457e+08, 0.333333)"},
		{PackedVector2Array{{1e7, 1e15}}, "PackedVector2Array(10000000, 1e+15)", "PackedVector2Array(1e+07, 1e+15)"},
		// The text of a float32 value parsed back as float64 is kept.
		{Quaternion{0.04670327, 0.7870346, -0.3169294, 0.52721083}, "Quaternion(0.04670327, 0.7870346, -0.3169294, 0.52721083)", "Quaternion(0.0467033, 0.787035, -0.316929, 0.527211)"},
		{Array{Items: []Value{Float(1e7), Vector2{1e7, 0}}}, "[10000000.0, Vector2(10000000, 0)]", "[1e+07, Vector2(1e+07, 0)]"},
		{Dictionary{Entries: []DictEntry{{String("k"), Float(1e7)}}}, "{\n\"k\": 10000000.0\n}", "{\n\"k\": 1e+07\n}"},
	}
	for _, tt := range components {
		for _, c := range []struct {
			style FloatStyle
			want  string
		}{{FloatsShortest, tt.shortest}, {FloatsSixDigits, tt.sixDig}} {
			got := FormatValueFor(tt.v, c.style)
			if got != c.want {
				t.Errorf("%s: %#v = %s, want %s", c.style, tt.v, got, c.want)
			}
			if _, err := ParseValue([]byte(got)); err != nil {
				t.Errorf("%s: %s does not parse: %v", c.style, got, err)
			}
		}
	}
}

func TestFloatStyleFor(t *testing.T) {
	for v, want := range map[string]FloatStyle{
		"": FloatsShortest, "4.7": FloatsShortest, "4.6": FloatsShortest, "4.5": FloatsShortest,
		"4.5.1": FloatsShortest, "5.0": FloatsShortest, "10.1": FloatsShortest, "unknown": FloatsShortest,
		"4.4": FloatsSixDigits, "4.4.1": FloatsSixDigits, "4.0": FloatsSixDigits, "4": FloatsSixDigits,
		"3": FloatsSixDigits, "3.6": FloatsSixDigits,
	} {
		if got := FloatStyleFor(v); got != want {
			t.Errorf("FloatStyleFor(%q) = %s, want %s", v, got, want)
		}
	}
}

// An edit writes floats in the spelling of the project's version; the
// style is set on the parsed file (sdk.Workspace.ParseFile does it from
// the project's version) and project.godot takes its own version.
func TestEditsUseFileFloatStyle(t *testing.T) {
	const scene = "[gd_scene format=3]\n\n[node name=\"Root\" type=\"Node2D\"]\n"
	for _, tt := range []struct {
		style FloatStyle
		want  string
	}{
		{FloatsShortest, "position = Vector2(10000000, 0)\nscale = 1e+15\nrotation = 10000000.0\n"},
		{FloatsSixDigits, "position = Vector2(1e+07, 0)\nscale = 1e+15\nrotation = 1e+07\n"},
	} {
		f, err := ParseFile("a.tscn", []byte(scene))
		if err != nil {
			t.Fatal(err)
		}
		f.SetFloatStyle(tt.style)
		root := f.Root()
		root.Set("position", Vector2{1e7, 0})
		root.Set("scale", Float(1e15))
		root.Set("rotation", Float(1e7))
		if got := string(f.Bytes()); !strings.HasSuffix(got, tt.want) {
			t.Errorf("%s: got\n%s\nwant suffix\n%s", tt.style, got, tt.want)
		}
		if got := f.FormatValue(Float(1e7)); got != strings.TrimSuffix(strings.TrimPrefix(tt.want[strings.LastIndex(tt.want, "rotation = "):], "rotation = "), "\n") {
			t.Errorf("%s: File.FormatValue = %s", tt.style, got)
		}
	}

	for _, tt := range []struct {
		project, want string
	}{
		{"config_version=5\n\n[application]\n\nconfig/features=PackedStringArray(\"4.7\", \"Forward Plus\")\n", "10000000.0"},
		{"config_version=5\n\n[application]\n\nconfig/features=PackedStringArray(\"4.2\", \"Forward Plus\")\n", "1e+07"},
		{"config_version=4\n\n[application]\n\nconfig/name=\"old\"\n", "1e+07"},
		{"config_version=5\n\n[application]\n\nconfig/name=\"no version\"\n", "10000000.0"},
	} {
		p, err := ParseProject("project.godot", []byte(tt.project))
		if err != nil {
			t.Fatal(err)
		}
		p.SetSetting("physics/2d/default_gravity", Float(1e7))
		if got := string(p.Bytes()); !strings.Contains(got, "default_gravity="+tt.want+"\n") {
			t.Errorf("%q: got\n%s", tt.project, got)
		}
	}
	p, _ := ParseProject("project.godot", []byte("config_version=5\n\n[application]\n\nconfig/features=PackedStringArray(\"4.2\")\n"))
	p.SetVersion("4.6")
	if p.FloatStyle() != FloatsShortest {
		t.Errorf("SetVersion(4.6) keeps style %s", p.FloatStyle())
	}
}

// Minus infinity is "-inf" only in format=4 resource files; everywhere
// else (format=3 files, project.godot, var_to_str) the engine writes
// inf_neg.
func TestNegativeInfinitySpelling(t *testing.T) {
	for format, want := range map[string]string{"3": "a = inf_neg\n", "4": "a = -inf\n"} {
		f, err := ParseFile("a.tres", []byte("[gd_resource type=\"Resource\" format="+format+"]\n\n[resource]\n"))
		if err != nil {
			t.Fatal(err)
		}
		f.Resource().Set("a", Float(math.Inf(-1)))
		if got := string(f.Bytes()); !strings.HasSuffix(got, want) {
			t.Errorf("format=%s: got\n%s", format, got)
		}
	}
}

// FuzzFloatWriter: every finite float written in the current style reads
// back as the same number (as a float32 when it is one: the engine holds
// it so), and the six-digit style is stable once written.
func FuzzFloatWriter(f *testing.F) {
	for _, v := range []float64{0, 1e7, 123456789, 1e-5, 1e15, 0.1, -0.899395, 5e-324, math.MaxFloat64} {
		f.Add(math.Float64bits(v))
	}
	f.Fuzz(func(t *testing.T, b uint64) {
		v := math.Float64frombits(b)
		if v != v || math.IsInf(v, 0) {
			return
		}
		s := FormatValueFor(Float(v), FloatsShortest)
		got, err := ParseValue([]byte(s))
		if err != nil {
			t.Fatalf("%v: %s does not parse: %v", v, s, err)
		}
		if g := float64(got.(Float)); g != v && !(v == 0 && g == 0) {
			t.Fatalf("%v: %s reads back as %v", v, s, g)
		}
		vec := FormatValueFor(Vector2{v, 0}, FloatsShortest)
		if got, err := ParseValue([]byte(vec)); err != nil {
			t.Fatalf("%v: %s does not parse: %v", v, vec, err)
		} else if x := float32(got.(Vector2).X); x != float32(v) && !math.IsInf(float64(float32(v)), 0) {
			t.Fatalf("%v: %s reads back as float32 %v, want %v", v, vec, x, float32(v))
		}
		six := FormatValueFor(Float(v), FloatsSixDigits)
		back, err := ParseValue([]byte(six))
		if err != nil {
			t.Fatalf("%v: %s does not parse: %v", v, six, err)
		}
		if again := FormatValueFor(back, FloatsSixDigits); again != six {
			t.Fatalf("%v: six digits %s re-written as %s", v, six, again)
		}
		if want := strconv.FormatFloat(float64(back.(Float)), 'g', 6, 64); !strings.HasPrefix(six, want) {
			t.Fatalf("%v: six digits %s, printf %s", v, six, want)
		}
	})
}
