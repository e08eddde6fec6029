package classdb

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// The raw* types mirror the JSON schema, keeping only the keys this package
// uses; encoding/json skips the others (hashes, signals, docs, ...).

type rawHeader struct {
	VersionMajor    int    `json:"version_major"`
	VersionMinor    int    `json:"version_minor"`
	VersionPatch    int    `json:"version_patch"`
	VersionStatus   string `json:"version_status"`
	VersionBuild    string `json:"version_build"`
	VersionFullName string `json:"version_full_name"`
	Precision       string `json:"precision"`
}

type rawClass struct {
	Name           *string       `json:"name"`
	IsRefcounted   bool          `json:"is_refcounted"`
	IsInstantiable bool          `json:"is_instantiable"`
	Inherits       string        `json:"inherits"`
	APIType        string        `json:"api_type"`
	Enums          []rawEnum     `json:"enums"`
	Methods        []rawMethod   `json:"methods"`
	Properties     []rawProperty `json:"properties"`
}

type rawEnum struct {
	Name       string `json:"name"`
	IsBitfield bool   `json:"is_bitfield"`
	Values     []struct {
		Name  string `json:"name"`
		Value int64  `json:"value"`
	} `json:"values"`
}

type rawMethod struct {
	Name        string `json:"name"`
	IsConst     bool   `json:"is_const"`
	IsVararg    bool   `json:"is_vararg"`
	IsStatic    bool   `json:"is_static"`
	IsVirtual   bool   `json:"is_virtual"`
	ReturnValue *struct {
		Type string `json:"type"`
	} `json:"return_value"`
	Arguments []struct {
		Name         string `json:"name"`
		Type         string `json:"type"`
		Meta         string `json:"meta"`
		DefaultValue string `json:"default_value"`
	} `json:"arguments"`
}

type rawProperty struct {
	Type   string `json:"type"`
	Name   string `json:"name"`
	Setter string `json:"setter"`
	Getter string `json:"getter"`
	Index  *int   `json:"index"`
}

// skipValue consumes a JSON value without keeping it. The decoder still
// validates the value, but hands it over as a slice of its own buffer, so
// the large sections this package ignores (builtin_classes, utility
// functions, ...) cost no copies or allocations.
type skipValue struct{}

func (*skipValue) UnmarshalJSON([]byte) error { return nil }

// LoadFile reads an extension_api.json file; see Load.
func LoadFile(path string) (*DB, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("classdb: %w", err)
	}
	defer f.Close()
	db, err := Load(f)
	if err != nil {
		return nil, fmt.Errorf("%w (file %s)", err, path)
	}
	return db, nil
}

// Load reads extension_api.json from r. The document is streamed: classes
// are decoded one at a time and unused sections are skipped, so memory use
// stays near the size of the result rather than the file.
//
// Load fails on malformed JSON (reporting the byte offset), on a document
// without a "classes" array, on a class without a name, on two classes with
// one name and on inheritance cycles. A class whose parent is missing from
// the file is accepted, so trimmed files work; its chain simply ends there.
func Load(r io.Reader) (*DB, error) {
	dec := json.NewDecoder(r) // buffers internally; no bufio needed
	db := &DB{classes: map[string]*Class{}, globalEnums: map[string]Enum{}}

	if err := expectDelim(dec, '{', "extension_api.json must be a JSON object"); err != nil {
		return nil, err
	}
	sawClasses := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, syntaxErr(dec, err)
		}
		key, _ := tok.(string) // object keys are always strings
		switch key {
		case "header":
			var h rawHeader
			if err := dec.Decode(&h); err != nil {
				return nil, decodeErr(dec, "header", err)
			}
			db.version = Version{
				Major: h.VersionMajor, Minor: h.VersionMinor, Patch: h.VersionPatch,
				Status: h.VersionStatus, Build: h.VersionBuild,
				FullName: h.VersionFullName, Precision: h.Precision,
			}
		case "classes":
			if err := db.readClasses(dec); err != nil {
				return nil, err
			}
			sawClasses = true
		case "global_enums":
			var enums []rawEnum
			if err := dec.Decode(&enums); err != nil {
				return nil, decodeErr(dec, "global_enums", err)
			}
			for _, e := range enums {
				db.globalEnums[e.Name] = convertEnum(e)
			}
		default:
			if err := dec.Decode(&skipValue{}); err != nil {
				return nil, syntaxErr(dec, err)
			}
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, syntaxErr(dec, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("classdb: unexpected data after the JSON object near byte %d", dec.InputOffset())
	}
	if !sawClasses {
		return nil, errors.New(`classdb: the document has no "classes" array; ` +
			`expected the output of "godot --headless --dump-extension-api"`)
	}
	if err := db.index(); err != nil {
		return nil, err
	}
	return db, nil
}

func (db *DB) readClasses(dec *json.Decoder) error {
	if err := expectDelim(dec, '[', `"classes" must be an array`); err != nil {
		return err
	}
	for i := 0; dec.More(); i++ {
		var rc rawClass
		if err := dec.Decode(&rc); err != nil {
			return decodeErr(dec, fmt.Sprintf("classes[%d]", i), err)
		}
		if rc.Name == nil || *rc.Name == "" {
			return fmt.Errorf("classdb: classes[%d] has no name (near byte %d)", i, dec.InputOffset())
		}
		name := *rc.Name
		if _, dup := db.classes[name]; dup {
			return fmt.Errorf("classdb: class %q is listed twice (classes[%d])", name, i)
		}
		db.classes[name] = convertClass(name, rc)
	}
	_, err := dec.Token() // the closing bracket
	if err != nil {
		return syntaxErr(dec, err)
	}
	return nil
}

func convertClass(name string, rc rawClass) *Class {
	c := &Class{
		Name:         name,
		Inherits:     rc.Inherits,
		APIType:      APIType(rc.APIType),
		Instantiable: rc.IsInstantiable,
		RefCounted:   rc.IsRefcounted,
		methods:      make(map[string]int, len(rc.Methods)),
		props:        make(map[string]int, len(rc.Properties)),
		enums:        make(map[string]int, len(rc.Enums)),
	}
	for _, e := range rc.Enums {
		c.enums[e.Name] = len(c.Enums)
		c.Enums = append(c.Enums, convertEnum(e))
	}
	for _, m := range rc.Methods {
		method := Method{
			Name: m.Name, IsVirtual: m.IsVirtual, IsStatic: m.IsStatic,
			IsConst: m.IsConst, IsVararg: m.IsVararg,
		}
		if m.ReturnValue != nil {
			method.ReturnType = m.ReturnValue.Type
		}
		for _, a := range m.Arguments {
			method.Arguments = append(method.Arguments, Argument{
				Name: a.Name, Type: a.Type, Meta: a.Meta, Default: a.DefaultValue,
			})
		}
		c.methods[m.Name] = len(c.Methods)
		c.Methods = append(c.Methods, method)
	}
	for _, p := range rc.Properties {
		idx := -1
		if p.Index != nil {
			idx = *p.Index
		}
		c.props[p.Name] = len(c.Properties)
		c.Properties = append(c.Properties, Property{
			Name: p.Name, Type: p.Type, Setter: p.Setter, Getter: p.Getter,
			Index: idx, Class: name,
		})
	}
	return c
}

func convertEnum(e rawEnum) Enum {
	out := Enum{Name: e.Name, IsBitfield: e.IsBitfield, Values: make([]EnumValue, len(e.Values))}
	for i, v := range e.Values {
		out.Values[i] = EnumValue{Name: v.Name, Value: v.Value}
	}
	return out
}

// index builds the sorted name list and subclass lists and rejects
// inheritance cycles, which would make "is this a Node" undecidable.
func (db *DB) index() error {
	db.names = make([]string, 0, len(db.classes))
	db.children = map[string][]string{}
	for name, c := range db.classes {
		db.names = append(db.names, name)
		if c.Inherits != "" {
			db.children[c.Inherits] = append(db.children[c.Inherits], name)
		}
	}
	slices.Sort(db.names)
	for _, kids := range db.children {
		slices.Sort(kids)
	}

	// Colour each class by whether its chain is known to end (done) or is
	// being followed now (onPath); meeting an onPath class is a cycle.
	const (
		onPath = 1
		done   = 2
	)
	state := make(map[string]int, len(db.classes))
	for _, start := range db.names {
		var path []string
		name := start
		for {
			c, ok := db.classes[name]
			if !ok || state[name] == done {
				break
			}
			if state[name] == onPath {
				cycle := slices.Concat(path[slices.Index(path, name):], []string{name})
				return fmt.Errorf("classdb: inheritance cycle %s; every chain must end at Object",
					strings.Join(cycle, " -> "))
			}
			state[name] = onPath
			path = append(path, name)
			if c.Inherits == "" {
				break
			}
			name = c.Inherits
		}
		for _, n := range path {
			state[n] = done
		}
	}
	return nil
}

func expectDelim(dec *json.Decoder, want json.Delim, what string) error {
	tok, err := dec.Token()
	if err == io.EOF {
		return errors.New("classdb: empty input; expected extension_api.json, a JSON object")
	}
	if err != nil {
		return syntaxErr(dec, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("classdb: %s, found %s near byte %d", what, describeToken(tok), dec.InputOffset())
	}
	return nil
}

func describeToken(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		return fmt.Sprintf("%q", string(t))
	case string:
		return fmt.Sprintf("the string %q", t)
	case nil:
		return "null"
	default:
		return fmt.Sprintf("%v", t)
	}
}

// syntaxErr reports a JSON error with the position it was found at.
func syntaxErr(dec *json.Decoder, err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF {
		return fmt.Errorf("classdb: malformed JSON: the input ends early, near byte %d; is the file truncated?", dec.InputOffset())
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("classdb: malformed JSON near byte %d: %w", dec.InputOffset(), err)
	}
	return fmt.Errorf("classdb: reading extension_api.json: %w", err)
}

// decodeErr reports an error decoding one section, naming the section so a
// wrong-typed field can be found.
func decodeErr(dec *json.Decoder, where string, err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		// te.Offset counts from the start of this section, not the file,
		// so report where the decoder stands instead.
		return fmt.Errorf("classdb: %s: field %q holds a JSON %s, expected %s (in the value ending near byte %d)",
			where, te.Field, te.Value, te.Type, dec.InputOffset())
	}
	return syntaxErr(dec, err)
}
