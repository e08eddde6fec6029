package classdb

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
)

// The embedded database is decoded lazily. Every plugin that reads it used
// to decode all of it (about 20 MB of allocations, 6 MB kept on the heap,
// 60–110 ms of CPU) although a tool touches a handful of classes. Now the
// first Embedded decodes only the index of the packed form (pack.go):
// which classes exist and how they are related (name, parent, API,
// instantiable and disabled flags) and where each class's JSON lies in the
// embedded data. A class's members (properties, methods, signals, enums,
// constants, overrides) are decoded the first time anything asks for them;
// the project settings and key names the first time a setting or key is
// looked up. The embedded data is read-only memory of the executable, so
// the parts no lookup touched are never read from the file.

// lazyClass is the stored JSON of one class whose members are not decoded
// yet.
type lazyClass struct {
	once sync.Once
	raw  string // a slice of the embedded data; "" once decoded
	// docs, when set, names the arguments of the class's methods as
	// they are decoded (docs.go).
	docs *docTable
}

// lazyDB holds the parts of the embedded database decoded on first use.
type lazyDB struct {
	settingsOnce sync.Once
	settingsRaw  string
	keysOnce     sync.Once
	keysRaw      string
}

// load decodes the class's members if they have not been yet. Every
// accessor of members calls it first, so a *Class handed out is complete.
func (c *Class) load() {
	if c.lazy == nil {
		return
	}
	c.lazy.once.Do(func() {
		var sc StoredClass
		if err := json.Unmarshal([]byte(c.lazy.raw), &sc); err != nil {
			// The embedded file is checked class by class in the
			// package's tests, so this is a build defect, like a
			// failing MustEmbedded.
			panic(fmt.Sprintf("classdb: the embedded class %s does not decode: %v", c.Name, err))
		}
		full := storedClass(&sc)
		if block := c.lazy.docs.class(c.Name); block != "" {
			nameArguments(block, full.Methods, full.methods)
		}
		c.Enums, c.Methods, c.Properties = full.Enums, full.Methods, full.Properties
		c.Signals, c.Constants = full.Signals, full.Constants
		c.methods, c.props, c.enums, c.signals = full.methods, full.props, full.enums, full.signals
		c.overrides = full.overrides
		c.lazy.raw = ""
	})
}

// loadSettings decodes the project settings of a lazily decoded database.
func (db *DB) loadSettings() {
	if db.lazy == nil {
		return
	}
	db.lazy.settingsOnce.Do(func() {
		var settings []StoredSetting
		if err := json.Unmarshal([]byte(db.lazy.settingsRaw), &settings); err != nil {
			panic(fmt.Sprintf("classdb: the embedded project settings do not decode: %v", err))
		}
		db.settings, db.settingNames = settingsIndex(settings)
		db.lazy.settingsRaw = ""
	})
}

// loadKeys decodes the key names of a lazily decoded database.
func (db *DB) loadKeys() {
	if db.lazy == nil {
		return
	}
	db.lazy.keysOnce.Do(func() {
		var keys map[string]int64
		if err := json.Unmarshal([]byte(db.lazy.keysRaw), &keys); err != nil {
			panic(fmt.Sprintf("classdb: the embedded key names do not decode: %v", err))
		}
		db.keys, db.keyNames = keys, keyIndex(keys)
		db.lazy.keysRaw = ""
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
