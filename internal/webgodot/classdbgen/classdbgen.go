// Package classdbgen generates the class database embedded in
// sdk/godot/classdb by running the real engine: dump.gd walks ClassDB,
// ProjectSettings and the key names inside Godot's web runtime, prints one
// JSON line per class, and Dump reads those lines; Convert turns them into
// the stored form the sdk embeds.
//
// Regenerate with: go generate ./sdk/godot/classdb
package classdbgen

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

//go:embed dump.gd
var dumpScript string

// Command is the command that regenerates the embedded database, recorded
// in its provenance.
const Command = "go generate ./sdk/godot/classdb"

// Raw is what the engine printed, decoded.
type Raw struct {
	Version  map[string]any   `json:"version"`
	Flags    map[string]int64 `json:"flags"`
	Types    []string         `json:"types"`
	Classes  []RawClass       `json:"classes"`
	Settings []RawSetting     `json:"settings"`
	Keys     map[string]int64 `json:"keys"`
}

// RawClass is one class as dump.gd prints it.
type RawClass struct {
	Name           string             `json:"name"`
	Parent         string             `json:"parent"`
	CanInstantiate bool               `json:"can_instantiate"`
	IsEnabled      bool               `json:"is_enabled"`
	APIType        int                `json:"api_type"`
	Properties     []RawProperty      `json:"properties"`
	Signals        []RawSignal        `json:"signals"`
	Methods        []RawMethod        `json:"methods"`
	Enums          map[string]RawEnum `json:"enums"`
	Constants      map[string]int64   `json:"constants"`
	// Defaults holds the default of every stored property of an
	// instantiable class, inherited ones included.
	Defaults map[string]string `json:"defaults"`
	// Single lists the class's own float properties the engine holds as
	// 32-bit floats, found by setting and reading them back.
	Single []string `json:"single"`
}

// RawProperty is a PropertyInfo dictionary, with the accessors and the
// default of stored properties.
type RawProperty struct {
	Name       string  `json:"name"`
	Type       int     `json:"type"`
	ClassName  string  `json:"class_name"`
	Hint       int     `json:"hint"`
	HintString string  `json:"hint_string"`
	Usage      uint32  `json:"usage"`
	Setter     string  `json:"setter"`
	Getter     string  `json:"getter"`
	Default    *string `json:"default"`
}

// RawSignal is a signal.
type RawSignal struct {
	Name string        `json:"name"`
	Args []RawProperty `json:"args"`
}

// RawMethod is a MethodInfo dictionary.
type RawMethod struct {
	Name        string        `json:"name"`
	Flags       int           `json:"flags"`
	Args        []RawProperty `json:"args"`
	DefaultArgs []string      `json:"default_args"`
	Return      RawProperty   `json:"return"`
}

// RawEnum is an enum.
type RawEnum struct {
	Bitfield bool             `json:"bitfield"`
	Values   map[string]int64 `json:"values"`
}

// RawSetting is a project setting.
type RawSetting struct {
	Name       string `json:"name"`
	Type       int    `json:"type"`
	Hint       int    `json:"hint"`
	HintString string `json:"hint_string"`
	Usage      uint32 `json:"usage"`
	Default    string `json:"default"`
}

// Dump runs dump.gd in the engine and decodes what it printed. It takes
// a few seconds.
func Dump(ctx context.Context, r *webgodot.Runner) (*Raw, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	res, err := r.Run(ctx, webgodot.ScriptProject(dumpScript))
	if err != nil {
		return nil, err
	}
	return Parse(res)
}

// Parse decodes the lines dump.gd printed.
func Parse(res *webgodot.Result) (*Raw, error) {
	raw := &Raw{}
	done := -1
	for _, line := range res.Stdout() {
		tag, body, _ := strings.Cut(line, " ")
		var err error
		switch tag {
		case "V":
			var v struct {
				Version map[string]any   `json:"version"`
				Flags   map[string]int64 `json:"flags"`
			}
			err = json.Unmarshal([]byte(body), &v)
			raw.Version, raw.Flags = v.Version, v.Flags
		case "T":
			err = json.Unmarshal([]byte(body), &raw.Types)
		case "C":
			var c RawClass
			err = json.Unmarshal([]byte(body), &c)
			raw.Classes = append(raw.Classes, c)
		case "S":
			err = json.Unmarshal([]byte(body), &raw.Settings)
		case "K":
			err = json.Unmarshal([]byte(body), &raw.Keys)
		case "DONE":
			done, err = strconv.Atoi(body)
		}
		if err != nil {
			return nil, fmt.Errorf("classdbgen: reading the engine's %q line: %w", tag, err)
		}
	}
	if done < 0 || done != len(raw.Classes) {
		return nil, fmt.Errorf("classdbgen: the dump is incomplete (%d classes read, DONE line says %d; exit %v %d); stderr: %s",
			len(raw.Classes), done, res.Exited, res.ExitCode, strings.Join(lastN(res.Stderr(), 10), " | "))
	}
	if err := checkFlags(raw.Flags); err != nil {
		return nil, err
	}
	return raw, nil
}

func lastN(s []string, n int) []string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// The flag values Convert relies on, as the engine defines them.
var wantFlags = map[string]int64{
	"PROPERTY_USAGE_STORAGE":           classdb.UsageStorage,
	"PROPERTY_USAGE_GROUP":             usageGroup,
	"PROPERTY_USAGE_SUBGROUP":          usageSubgroup,
	"PROPERTY_USAGE_CATEGORY":          usageCategory,
	"PROPERTY_USAGE_CLASS_IS_ENUM":     usageClassIsEnum,
	"PROPERTY_USAGE_CLASS_IS_BITFIELD": usageClassIsBitfield,
	"PROPERTY_HINT_RESOURCE_TYPE":      hintResourceType,
	"PROPERTY_HINT_ARRAY_TYPE":         hintArrayType,
	"PROPERTY_HINT_DICTIONARY_TYPE":    hintDictionaryType,
	"METHOD_FLAG_CONST":                classdb.MethodFlagConst,
	"METHOD_FLAG_VIRTUAL":              classdb.MethodFlagVirtual,
	"METHOD_FLAG_VARARG":               classdb.MethodFlagVararg,
	"METHOD_FLAG_STATIC":               classdb.MethodFlagStatic,
}

const (
	usageGroup           = 64
	usageSubgroup        = 256
	usageCategory        = 128
	usageClassIsEnum     = 1 << 16
	usageNilIsVariant    = 1 << 17
	usageClassIsBitfield = 512
	hintResourceType     = 17
	hintArrayType        = 31
	hintDictionaryType   = 38
	typeNil              = 0
	typeInt              = 2
	typeObject           = 24
	typeDictionary       = 27
	typeArray            = 28
)

func checkFlags(got map[string]int64) error {
	var bad []string
	for k, want := range wantFlags {
		if got[k] != want {
			bad = append(bad, fmt.Sprintf("%s = %d (assumed %d)", k, got[k], want))
		}
	}
	if len(bad) > 0 {
		slices.Sort(bad)
		return fmt.Errorf("classdbgen: the engine's flag values differ from the converter's: %s; update classdbgen", strings.Join(bad, ", "))
	}
	return nil
}

// Source describes the engine build the runner runs.
func Source() string {
	return "Godot web export template (single-threaded, no GDExtension) from npm " +
		webgodot.RuntimePackage + "@" + webgodot.RuntimePackageVersion + ", run headless in Chromium"
}

// Convert turns the raw dump into the stored form: groups dropped, types
// spelled as extension_api.json spells them, everything sorted so that
// the output is reproducible.
func Convert(raw *Raw) (*classdb.Stored, error) {
	ver := func(k string) int { f, _ := raw.Version[k].(float64); return int(f) }
	str := func(k string) string { s, _ := raw.Version[k].(string); return s }
	hash := str("hash")
	if len(hash) > 9 {
		hash = hash[:9]
	}
	engine := fmt.Sprintf("%d.%d", ver("major"), ver("minor"))
	if p := ver("patch"); p != 0 {
		engine += "." + strconv.Itoa(p)
	}
	engine += "." + str("status") + "." + str("build") + "." + hash
	st := &classdb.Stored{
		Format: classdb.StoredFormat,
		Engine: engine,
		Version: classdb.StoredVersion{Major: ver("major"), Minor: ver("minor"), Patch: ver("patch"),
			Status: str("status"), Build: str("build")},
		Source:    Source(),
		Generator: Command,
		Keys:      raw.Keys,
	}
	tn := func(t int) string {
		if t >= 0 && t < len(raw.Types) {
			return raw.Types[t]
		}
		return "Variant"
	}
	for _, rc := range raw.Classes {
		c := classdb.StoredClass{
			Name: rc.Name, Parent: rc.Parent, API: apiName(rc.APIType),
			Instantiable: rc.CanInstantiate, Disabled: !rc.IsEnabled,
		}
		for _, p := range rc.Properties {
			if p.Usage&(usageGroup|usageSubgroup|usageCategory) != 0 {
				continue
			}
			c.Properties = append(c.Properties, classdb.StoredProperty{
				Name: p.Name, Type: typeSpelling(p, tn), Hint: p.Hint, HintString: p.HintString,
				Usage: p.Usage, Setter: p.Setter, Getter: p.Getter, Default: p.Default,
				Float32: slices.Contains(rc.Single, p.Name),
			})
		}
		for _, s := range rc.Signals {
			sig := classdb.StoredSignal{Name: s.Name}
			for _, a := range s.Args {
				sig.Args = append(sig.Args, classdb.StoredArg{Name: a.Name, Type: typeSpelling(a, tn)})
			}
			c.Signals = append(c.Signals, sig)
		}
		sortBy(c.Signals, func(s classdb.StoredSignal) string { return s.Name })
		for _, m := range rc.Methods {
			sm := classdb.StoredMethod{Name: m.Name, Flags: m.Flags, Defaults: m.DefaultArgs}
			for _, a := range m.Args {
				sm.Args = append(sm.Args, classdb.StoredArg{Name: a.Name, Type: typeSpelling(a, tn)})
			}
			if m.Return.Type != typeNil || m.Return.Usage&usageNilIsVariant != 0 {
				sm.Return = typeSpelling(m.Return, tn)
			}
			c.Methods = append(c.Methods, sm)
		}
		sortBy(c.Methods, func(m classdb.StoredMethod) string { return m.Name })
		for name, e := range rc.Enums {
			se := classdb.StoredEnum{Name: name, Bitfield: e.Bitfield, Values: values(e.Values)}
			c.Enums = append(c.Enums, se)
		}
		sortBy(c.Enums, func(e classdb.StoredEnum) string { return e.Name })
		c.Constants = values(rc.Constants)
		st.Classes = append(st.Classes, c)
	}
	sortBy(st.Classes, func(c classdb.StoredClass) string { return c.Name })
	resolveDefaults(raw, st)
	// dump.gd lists the settings in ProjectSettings' property-list order,
	// which is their registration order: the order a section's keys are
	// saved in.
	for i, s := range raw.Settings {
		st.Settings = append(st.Settings, classdb.StoredSetting{
			Name: s.Name, Type: tn(s.Type), Hint: s.Hint, HintString: s.HintString, Usage: s.Usage, Default: s.Default,
			Order: i + 1,
		})
	}
	sortBy(st.Settings, func(s classdb.StoredSetting) string { return s.Name })
	if _, err := classdb.FromStored(st); err != nil {
		return nil, fmt.Errorf("classdbgen: the converted database does not load: %w", err)
	}
	return st, nil
}

// typeSpelling spells a PropertyInfo's type as extension_api.json does:
// enum::C.E and bitfield::C.E for enum ints, the class (or the resource
// hint's class list) for objects, typedarray::T and typeddictionary::K;V
// for typed containers, Variant for a nil that means any value.
func typeSpelling(p RawProperty, tn func(int) string) string {
	switch p.Type {
	case typeNil:
		return "Variant"
	case typeInt:
		if p.ClassName != "" {
			if p.Usage&usageClassIsBitfield != 0 {
				return classdb.BitfieldPrefix + p.ClassName
			}
			return classdb.EnumPrefix + p.ClassName
		}
	case typeObject:
		if p.Hint == hintResourceType && p.HintString != "" {
			return p.HintString
		}
		if p.ClassName != "" {
			return p.ClassName
		}
		return "Object"
	case typeArray:
		if p.Hint == hintArrayType && p.HintString != "" {
			return classdb.TypedArrayPrefix + p.HintString
		}
	case typeDictionary:
		if p.Hint == hintDictionaryType && p.HintString != "" {
			return classdb.TypedDictionaryPrefix + p.HintString
		}
	}
	return tn(p.Type)
}

func apiName(t int) string {
	switch t {
	case 0:
		return string(classdb.APICore)
	case 1:
		return string(classdb.APIEditor)
	case 2:
		return string(classdb.APIExtension)
	case 3:
		return string(classdb.APIEditorExtension)
	}
	return "none"
}

func values(m map[string]int64) []classdb.EnumValue {
	out := make([]classdb.EnumValue, 0, len(m))
	for k, v := range m {
		out = append(out, classdb.EnumValue{Name: k, Value: v})
	}
	sortBy(out, func(e classdb.EnumValue) string { return e.Name })
	if len(out) == 0 {
		return nil
	}
	return out
}
