package classdbgen

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

func str(s string) *string { return &s }

func TestTypeSpelling(t *testing.T) {
	tn := func(i int) string { return []string{"Nil", "bool", "int", "float"}[min(i, 3)] }
	for _, tt := range []struct {
		p    RawProperty
		want string
	}{
		{RawProperty{Type: typeInt}, "int"},
		{RawProperty{Type: typeInt, ClassName: "Node.ProcessMode", Usage: usageClassIsEnum}, "enum::Node.ProcessMode"},
		{RawProperty{Type: typeInt, ClassName: "Control.SizeFlags", Usage: usageClassIsBitfield}, "bitfield::Control.SizeFlags"},
		{RawProperty{Type: typeObject, Hint: hintResourceType, HintString: "Texture2D"}, "Texture2D"},
		{RawProperty{Type: typeObject, ClassName: "Node"}, "Node"},
		{RawProperty{Type: typeObject}, "Object"},
		{RawProperty{Type: typeArray, Hint: hintArrayType, HintString: "NodePath"}, "typedarray::NodePath"},
		{RawProperty{Type: typeDictionary, Hint: hintDictionaryType, HintString: "String;int"}, "typeddictionary::String;int"},
		{RawProperty{Type: typeNil}, "Variant"},
		{RawProperty{Type: 3}, "float"},
	} {
		if got := typeSpelling(tt.p, tn); got != tt.want {
			t.Errorf("typeSpelling(%+v) = %q, want %q", tt.p, got, tt.want)
		}
	}
}

// TestResolveDefaults: an abstract class's null defaults come from its
// nearest concrete subclass, and subclasses that change a default get an
// override that DB.Default honours.
func TestResolveDefaults(t *testing.T) {
	raw := &Raw{
		Version: map[string]any{"major": 4.0, "minor": 6.0, "status": "stable", "build": "official", "hash": "abcdef123456"},
		Types:   []string{"Nil", "bool", "int"},
		Classes: []RawClass{
			{Name: "Object", CanInstantiate: true, IsEnabled: true},
			{Name: "Base", Parent: "Object", IsEnabled: true, Properties: []RawProperty{
				{Name: "flag", Type: 1, Usage: classdb.UsageStorage, Default: str("null")},
				{Name: "mode", Type: 2, Usage: classdb.UsageStorage, Default: str("null")},
			}},
			{Name: "A", Parent: "Base", CanInstantiate: true, IsEnabled: true, Defaults: map[string]string{"flag": "true", "mode": "0"}},
			{Name: "B", Parent: "Base", CanInstantiate: true, IsEnabled: true, Defaults: map[string]string{"flag": "true", "mode": "2"}},
			{Name: "C", Parent: "B", CanInstantiate: true, IsEnabled: true, Defaults: map[string]string{"flag": "true", "mode": "2"}},
		},
	}
	st, err := Convert(raw)
	if err != nil {
		t.Fatal(err)
	}
	if st.Engine != "4.6.stable.official.abcdef123" {
		t.Errorf("engine %q", st.Engine)
	}
	db, err := classdb.FromStored(st)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ class, prop, want string }{
		{"Base", "flag", "true"}, // from A, the first concrete subclass
		{"Base", "mode", "0"},
		{"A", "mode", "0"},
		{"B", "mode", "2"}, // override
		{"C", "mode", "2"}, // inherited override, none of its own
	} {
		if got, ok := db.Default(tt.class, tt.prop); !ok || got != tt.want {
			t.Errorf("Default(%s, %s) = %q, %v; want %q", tt.class, tt.prop, got, ok, tt.want)
		}
	}
	for _, c := range st.Classes {
		if c.Name == "C" && len(c.Overrides) != 0 {
			t.Errorf("C repeats its parent's override: %v", c.Overrides)
		}
	}
}

// TestEmbeddedIsCurrent regenerates the class database with the engine
// and compares it with the embedded file byte for byte: the generator is
// deterministic, so a difference means the embedded file is stale (run
// go generate ./sdk/godot/classdb) or the generator changed.
func TestEmbeddedIsCurrent(t *testing.T) {
	setup, err := webgodot.Locate()
	if err != nil {
		testenv.Missing(t, "the Godot web engine (Chromium and the npm package "+webgodot.RuntimePackage+")", err.Error())
	}
	r, err := webgodot.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	raw, err := Dump(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Convert(raw)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := st.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	root := testenv.RepoRoot()
	embedded, err := os.ReadFile(filepath.Join(root, "sdk", "godot", "classdb", "godot-4.6.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), embedded) {
		t.Errorf("the generator's output (%d bytes) differs from the embedded file (%d bytes); run go generate ./sdk/godot/classdb", buf.Len(), len(embedded))
	}
	if len(st.Classes) < 850 || len(st.Settings) < 500 || len(st.Keys) < 100 {
		t.Errorf("dump looks short: %d classes, %d settings, %d keys", len(st.Classes), len(st.Settings), len(st.Keys))
	}
}
