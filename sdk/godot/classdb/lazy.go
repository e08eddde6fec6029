package classdb

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
)

// The embedded database is decoded lazily. Every plugin that reads it used
// to decode all of it (about 20 MB of allocations, 13 MB resident, 60–110
// ms of CPU) although a tool touches a handful of classes. Now the first
// Embedded gunzips the stored JSON once into one buffer it keeps (2 MB)
// and reads from it only what answers "which classes exist and how are
// they related": each class's name, parent, API, instantiable and
// disabled flags, and where its JSON lies in the buffer. A class's
// members (properties, methods, signals, enums, constants, overrides) are
// decoded the first time anything asks for them; the project settings and
// key names the first time a setting or key is looked up.

// lazyClass is the stored JSON of one class whose members are not decoded
// yet.
type lazyClass struct {
	once sync.Once
	raw  []byte
}

// lazyDB holds the parts of the embedded database decoded on first use.
type lazyDB struct {
	settingsOnce sync.Once
	settingsRaw  []byte
	keysOnce     sync.Once
	keysRaw      []byte
}

// load decodes the class's members if they have not been yet. Every
// accessor of members calls it first, so a *Class handed out is complete.
func (c *Class) load() {
	if c.lazy == nil {
		return
	}
	c.lazy.once.Do(func() {
		var sc StoredClass
		if err := json.Unmarshal(c.lazy.raw, &sc); err != nil {
			// The embedded file is checked class by class in the
			// package's tests, so this is a build defect, like a
			// failing MustEmbedded.
			panic(fmt.Sprintf("classdb: the embedded class %s does not decode: %v", c.Name, err))
		}
		full := storedClass(&sc)
		c.Enums, c.Methods, c.Properties = full.Enums, full.Methods, full.Properties
		c.Signals, c.Constants = full.Signals, full.Constants
		c.methods, c.props, c.enums, c.signals = full.methods, full.props, full.enums, full.signals
		c.overrides = full.overrides
		c.lazy.raw = nil
	})
}

// loadSettings decodes the project settings of a lazily decoded database.
func (db *DB) loadSettings() {
	if db.lazy == nil {
		return
	}
	db.lazy.settingsOnce.Do(func() {
		var settings []StoredSetting
		if err := json.Unmarshal(db.lazy.settingsRaw, &settings); err != nil {
			panic(fmt.Sprintf("classdb: the embedded project settings do not decode: %v", err))
		}
		db.settings, db.settingNames = settingsIndex(settings)
		db.lazy.settingsRaw = nil
	})
}

// loadKeys decodes the key names of a lazily decoded database.
func (db *DB) loadKeys() {
	if db.lazy == nil {
		return
	}
	db.lazy.keysOnce.Do(func() {
		var keys map[string]int64
		if err := json.Unmarshal(db.lazy.keysRaw, &keys); err != nil {
			panic(fmt.Sprintf("classdb: the embedded key names do not decode: %v", err))
		}
		db.keys, db.keyNames = keys, keyIndex(keys)
		db.lazy.keysRaw = nil
	})
}

func settingsIndex(settings []StoredSetting) (map[string]Setting, []string) {
	byName := make(map[string]Setting, len(settings))
	names := make([]string, 0, len(settings))
	for _, st := range settings {
		byName[st.Name] = Setting(st)
		names = append(names, st.Name)
	}
	slices.Sort(names)
	return byName, names
}

func keyIndex(keys map[string]int64) map[int64]string {
	out := make(map[int64]string, len(keys))
	for name, code := range keys {
		if old, ok := out[code]; !ok || name < old {
			out[code] = name
		}
	}
	return out
}

// decodeLazy reads a gzip-compressed stored database (as Stored.Encode
// writes it) into a DB whose classes, settings and keys are decoded on
// first use. It checks what Decode checks of the structure (format, names,
// duplicates, cycles); the JSON inside each class is checked when the
// class is decoded, which for the embedded file the package's tests do
// for every class.
func decodeLazy(gz []byte) (*DB, error) {
	buf, err := gunzip(gz)
	if err != nil {
		return nil, fmt.Errorf("classdb: stored class database: %w", err)
	}
	db := &DB{classes: map[string]*Class{}, globalEnums: map[string]Enum{}, lazy: &lazyDB{}}
	var s Stored // the header fields only
	header := map[string]any{
		"format": &s.Format, "engine": &s.Engine, "version": &s.Version,
		"source": &s.Source, "generator": &s.Generator,
	}
	sc := &scanner{b: buf}
	err = sc.object(func(key string) error {
		switch key {
		case "classes":
			return sc.array(func(i int) error { return db.indexClass(sc, i) })
		case "settings":
			v, err := sc.value()
			db.lazy.settingsRaw = v
			return err
		case "keys":
			v, err := sc.value()
			db.lazy.keysRaw = v
			return err
		}
		v, err := sc.value()
		if err != nil {
			return err
		}
		if dst, ok := header[key]; ok {
			return json.Unmarshal(v, dst)
		}
		return nil
	})
	if err == nil && sc.ws() < len(buf) {
		err = fmt.Errorf("unexpected data after the JSON object at byte %d", sc.i)
	}
	if err != nil {
		return nil, fmt.Errorf("classdb: stored class database: %w", err)
	}
	if s.Format != StoredFormat {
		return nil, fmt.Errorf("classdb: stored class database has format %d, this build reads %d; regenerate it with go generate ./sdk/godot/classdb", s.Format, StoredFormat)
	}
	if db.lazy.settingsRaw == nil {
		db.lazy.settingsRaw = []byte("null")
	}
	if db.lazy.keysRaw == nil {
		db.lazy.keysRaw = []byte("null")
	}
	db.provenance = Provenance{Engine: s.Engine, Source: s.Source, Generator: s.Generator}
	db.version = storedVersion(&s)
	if err := db.index(); err != nil {
		return nil, err
	}
	for _, c := range db.classes {
		c.RefCounted = db.Inherits(c.Name, "RefCounted")
	}
	return db, nil
}

// indexClass reads the i-th element of "classes": the fields the index
// needs, and the element's bytes for later.
func (db *DB) indexClass(sc *scanner, i int) error {
	start := sc.ws()
	c := &Class{}
	err := sc.object(func(key string) error {
		v, err := sc.value()
		if err != nil {
			return err
		}
		switch key {
		case "name":
			return json.Unmarshal(v, &c.Name)
		case "parent":
			return json.Unmarshal(v, &c.Inherits)
		case "api":
			return json.Unmarshal(v, (*string)(&c.APIType))
		case "inst":
			return json.Unmarshal(v, &c.Instantiable)
		case "disabled":
			return json.Unmarshal(v, &c.Disabled)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("classes[%d]: %w", i, err)
	}
	if c.Name == "" {
		return fmt.Errorf("stored classes[%d] has no name", i)
	}
	if _, dup := db.classes[c.Name]; dup {
		return fmt.Errorf("stored class %q is listed twice", c.Name)
	}
	c.lazy = &lazyClass{raw: sc.b[start:sc.i:sc.i]}
	db.classes[c.Name] = c
	return nil
}

// gunzip decompresses gz into one buffer of exactly the stored size (the
// gzip trailer's ISIZE), so the kept buffer is not a grown slice with
// slack behind it.
func gunzip(gz []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	size := 0
	if len(gz) >= 4 {
		size = int(binary.LittleEndian.Uint32(gz[len(gz)-4:]))
	}
	out := bytes.NewBuffer(make([]byte, 0, size+1)) // +1: ReadFrom reads on to see EOF
	if _, err := out.ReadFrom(zr); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// scanner finds the extent of JSON values in b without decoding them: the
// lazy index needs to know where each class starts and ends, which
// encoding/json can only say by decoding (or scanning several times).
// It checks structure (brackets, strings, separators) but not the
// spelling of numbers and literals, which json.Unmarshal checks when a
// value is decoded.
type scanner struct {
	b []byte
	i int
}

var errEOF = errors.New("the input ends early; is the file truncated?")

// ws skips white space and returns the new position.
func (s *scanner) ws() int {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return s.i
		}
	}
	return s.i
}

func (s *scanner) expect(c byte) error {
	if s.ws() >= len(s.b) {
		return errEOF
	}
	if s.b[s.i] != c {
		return fmt.Errorf("expected %q at byte %d, found %q", c, s.i, s.b[s.i])
	}
	s.i++
	return nil
}

// peek returns the next non-space byte without consuming it, or 0 at the end.
func (s *scanner) peek() byte {
	if s.ws() >= len(s.b) {
		return 0
	}
	return s.b[s.i]
}

// object reads an object, calling fn with each key; fn must consume the
// key's value.
func (s *scanner) object(fn func(key string) error) error {
	if err := s.expect('{'); err != nil {
		return err
	}
	if s.peek() == '}' {
		s.i++
		return nil
	}
	for {
		raw, err := s.str()
		if err != nil {
			return err
		}
		key, err := unquote(raw)
		if err != nil {
			return err
		}
		if err := s.expect(':'); err != nil {
			return err
		}
		if err := fn(key); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return nil
		case 0:
			return errEOF
		default:
			return fmt.Errorf("expected ',' or '}' at byte %d, found %q", s.i, s.b[s.i])
		}
	}
}

// array reads an array, calling fn for each element; fn must consume it.
func (s *scanner) array(fn func(i int) error) error {
	if err := s.expect('['); err != nil {
		return err
	}
	if s.peek() == ']' {
		s.i++
		return nil
	}
	for i := 0; ; i++ {
		if err := fn(i); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			return nil
		case 0:
			return errEOF
		default:
			return fmt.Errorf("expected ',' or ']' at byte %d, found %q", s.i, s.b[s.i])
		}
	}
}

// str reads a string and returns it with its quotes.
func (s *scanner) str() ([]byte, error) {
	if s.ws() >= len(s.b) {
		return nil, errEOF
	}
	if s.b[s.i] != '"' {
		return nil, fmt.Errorf("expected a string at byte %d, found %q", s.i, s.b[s.i])
	}
	start := s.i
	for s.i++; s.i < len(s.b); s.i++ {
		switch s.b[s.i] {
		case '\\':
			s.i++
		case '"':
			s.i++
			return s.b[start:s.i], nil
		}
	}
	return nil, errEOF
}

// value skips one value and returns its bytes.
func (s *scanner) value() ([]byte, error) {
	start := s.ws()
	if start >= len(s.b) {
		return nil, errEOF
	}
	switch s.b[s.i] {
	case '"':
		return s.str()
	case '{', '[':
		depth := 0
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case '"':
				if _, err := s.str(); err != nil {
					return nil, err
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.i++
					return s.b[start:s.i], nil
				}
			}
			s.i++
		}
		return nil, errEOF
	}
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			if s.i == start {
				return nil, fmt.Errorf("expected a value at byte %d", s.i)
			}
			return s.b[start:s.i], nil
		case '{', '[', '"', ':':
			return nil, fmt.Errorf("unexpected %q at byte %d", s.b[s.i], s.i)
		}
		s.i++
	}
	return s.b[start:s.i], nil
}

// unquote decodes a JSON string with its quotes; strings without escapes
// (all the keys of the stored form) take no decoder.
func unquote(raw []byte) (string, error) {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), nil
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}
