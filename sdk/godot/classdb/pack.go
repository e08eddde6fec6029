package classdb

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// The packed form is how the embedded database is stored: the stored form
// (Stored) rearranged so that a process can read one class without
// reading the others. It is derived from godot-4.6.json.gz, which the
// generator writes, by go generate (TestPackedUpToDate -update), and a
// test fails when the two disagree.
//
//	packMagic
//	one line of JSON: packIndex
//	the body: each class's StoredClass JSON, then the settings' and the
//	keys' JSON, at the offsets the index gives
//
// It is not compressed: embedded uncompressed, it lies in the executable's
// read-only data, which the kernel reads from the file page by page as
// lookups touch it, so a class nobody asks about costs no memory at all.
// Compressed, the whole of it would have to be unpacked into the heap
// first (2 MB per process).
const packMagic = "godot-mcp classdb pack 1\n"

// packIndex is the first line of the packed form.
type packIndex struct {
	Format    int           `json:"format"`
	Engine    string        `json:"engine"`
	Version   StoredVersion `json:"version"`
	Source    string        `json:"source"`
	Generator string        `json:"generator"`
	Classes   []packClass   `json:"classes"`
	Settings  packSpan      `json:"settings"`
	Keys      packSpan      `json:"keys"`
}

// packClass is what the index keeps of a class: what answers "which
// classes exist and how are they related", and where the rest lies.
type packClass struct {
	Name         string   `json:"n"`
	Parent       string   `json:"p,omitempty"`
	API          string   `json:"a"`
	Instantiable bool     `json:"i,omitempty"`
	Disabled     bool     `json:"d,omitempty"`
	At           packSpan `json:"at"`
}

// packSpan is [offset, length] of a JSON value in the body.
type packSpan [2]int

// encodePacked writes s in the packed form.
func encodePacked(s *Stored) ([]byte, error) {
	idx := packIndex{Format: s.Format, Engine: s.Engine, Version: s.Version, Source: s.Source, Generator: s.Generator}
	var body bytes.Buffer
	add := func(v any) (packSpan, error) {
		b, err := json.Marshal(v)
		if err != nil {
			return packSpan{}, err
		}
		at := packSpan{body.Len(), len(b)}
		body.Write(b)
		return at, nil
	}
	for i := range s.Classes {
		sc := &s.Classes[i]
		at, err := add(sc)
		if err != nil {
			return nil, fmt.Errorf("classdb: packing class %s: %w", sc.Name, err)
		}
		idx.Classes = append(idx.Classes, packClass{Name: sc.Name, Parent: sc.Parent, API: sc.API,
			Instantiable: sc.Instantiable, Disabled: sc.Disabled, At: at})
	}
	var err error
	if idx.Settings, err = add(s.Settings); err != nil {
		return nil, fmt.Errorf("classdb: packing the settings: %w", err)
	}
	if idx.Keys, err = add(s.Keys); err != nil {
		return nil, fmt.Errorf("classdb: packing the keys: %w", err)
	}
	head, err := json.Marshal(idx)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(packMagic)+len(head)+1+body.Len())
	out = append(out, packMagic...)
	out = append(out, head...)
	out = append(out, '\n')
	return append(out, body.Bytes()...), nil
}

// decodePacked builds a DB from the packed form that decodes each class,
// the settings and the keys on first use. It checks what FromStored checks
// of the structure (format, names, duplicates, cycles) and that every
// span lies in the body; the JSON of a class is checked when the class is
// decoded, which for the embedded data the package's tests do for every
// class. pack is kept: the DB's lazy parts are slices of it.
func decodePacked(pack string) (*DB, error) {
	rest, ok := strings.CutPrefix(pack, packMagic)
	if !ok {
		return nil, fmt.Errorf("classdb: packed class database: no %q header; regenerate it with go generate ./sdk/godot/classdb", strings.TrimSpace(packMagic))
	}
	head, body, ok := strings.Cut(rest, "\n")
	if !ok {
		return nil, fmt.Errorf("classdb: packed class database: the index line has no end; is the file truncated?")
	}
	var idx packIndex
	if err := json.Unmarshal([]byte(head), &idx); err != nil {
		return nil, fmt.Errorf("classdb: packed class database: index: %w", err)
	}
	if idx.Format != StoredFormat {
		return nil, fmt.Errorf("classdb: packed class database has format %d, this build reads %d; regenerate it with go generate ./sdk/godot/classdb", idx.Format, StoredFormat)
	}
	span := func(at packSpan, what string) (string, error) {
		off, n := at[0], at[1]
		if off < 0 || n <= 0 || off > len(body) || n > len(body)-off {
			return "", fmt.Errorf("classdb: packed class database: %s lies at [%d, +%d), outside the body of %d bytes; is the file truncated?", what, off, n, len(body))
		}
		return body[off : off+n], nil
	}
	db := &DB{
		classes:     make(map[string]*Class, len(idx.Classes)),
		globalEnums: map[string]Enum{},
		lazy:        &lazyDB{},
		provenance:  Provenance{Engine: idx.Engine, Source: idx.Source, Generator: idx.Generator},
		version:     storedVersion(&Stored{Engine: idx.Engine, Version: idx.Version}),
	}
	for i, pc := range idx.Classes {
		if pc.Name == "" {
			return nil, fmt.Errorf("classdb: packed classes[%d] has no name", i)
		}
		if _, dup := db.classes[pc.Name]; dup {
			return nil, fmt.Errorf("classdb: packed class %q is listed twice", pc.Name)
		}
		raw, err := span(pc.At, "class "+pc.Name)
		if err != nil {
			return nil, err
		}
		db.classes[pc.Name] = &Class{Name: pc.Name, Inherits: pc.Parent, APIType: APIType(pc.API),
			Instantiable: pc.Instantiable, Disabled: pc.Disabled, lazy: &lazyClass{raw: raw}}
	}
	var err error
	if db.lazy.settingsRaw, err = span(idx.Settings, "the settings"); err != nil {
		return nil, err
	}
	if db.lazy.keysRaw, err = span(idx.Keys, "the keys"); err != nil {
		return nil, err
	}
	if err := db.index(); err != nil {
		return nil, err
	}
	for _, c := range db.classes {
		c.RefCounted = db.Inherits(c.Name, "RefCounted")
	}
	return db, nil
}
