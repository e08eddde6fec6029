package classdb

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"os"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite godot-4.6.classdb from godot-4.6.json.gz")

const (
	storedFile = "godot-4.6.json.gz" // what the generator writes
	packedFile = "godot-4.6.classdb" // what is embedded, derived from it
)

// storedGz is the generator's file, the source of the embedded pack.
func storedGz(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(storedFile)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPackedUpToDate: the embedded pack is exactly what the generator's
// file packs to. Run with -update (go generate does) after regenerating.
func TestPackedUpToDate(t *testing.T) {
	zr, err := gzip.NewReader(bytes.NewReader(storedGz(t)))
	if err != nil {
		t.Fatal(err)
	}
	var s Stored
	if err := json.NewDecoder(zr).Decode(&s); err != nil {
		t.Fatal(err)
	}
	want, err := encodePacked(&s)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(packedFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(packedFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is not what %s packs to; run go generate ./sdk/godot/classdb (or this test with -update)", packedFile, storedFile)
	}
	if string(got) != embeddedPack {
		t.Fatalf("the embedded pack differs from %s; rebuild", packedFile)
	}
}

// TestEmbeddedLazyAgreesWithDecode: the lazily decoded embedded database
// answers exactly as the whole-file Decode does, class by class (which
// also decodes every class's JSON, so a broken class fails here and not
// in a plugin).
func TestEmbeddedLazyAgreesWithDecode(t *testing.T) {
	lazy, err := decodePacked(embeddedPack)
	if err != nil {
		t.Fatal(err)
	}
	eager, err := Decode(bytes.NewReader(storedGz(t)))
	if err != nil {
		t.Fatal(err)
	}
	if lazy.Version() != eager.Version() || lazy.Provenance() != eager.Provenance() || lazy.Len() != eager.Len() {
		t.Fatalf("header: lazy %v %+v %d, eager %v %+v %d", lazy.Version(), lazy.Provenance(), lazy.Len(),
			eager.Version(), eager.Provenance(), eager.Len())
	}
	if !reflect.DeepEqual(lazy.Classes(), eager.Classes()) || !reflect.DeepEqual(lazy.children, eager.children) {
		t.Fatal("class names or subclass lists differ")
	}
	for _, name := range eager.Classes() {
		l, _ := lazy.Class(name)
		e, _ := eager.Class(name)
		lc, ec := *l, *e
		lc.lazy = nil
		if !reflect.DeepEqual(lc, ec) {
			t.Errorf("class %s differs:\nlazy  %+v\neager %+v", name, lc, ec)
		}
	}
	if !reflect.DeepEqual(lazy.Settings(), eager.Settings()) || !reflect.DeepEqual(lazy.settings, eager.settings) {
		t.Error("settings differ")
	}
	if !reflect.DeepEqual(lazy.KeyNames(), eager.KeyNames()) || !reflect.DeepEqual(lazy.keyNames, eager.keyNames) {
		t.Error("key names differ")
	}
}

// loaded returns the classes whose members have been decoded.
func loaded(db *DB) []string {
	var out []string
	for _, n := range db.names {
		c := db.classes[n]
		if c.lazy != nil && c.lazy.raw == "" {
			out = append(out, n)
		}
	}
	return out
}

// TestEmbeddedDecodesOnDemand: questions the index answers decode no class;
// a property lookup decodes the classes it walks and no others.
func TestEmbeddedDecodesOnDemand(t *testing.T) {
	db, err := decodePacked(embeddedPack)
	if err != nil {
		t.Fatal(err)
	}
	_ = db.ValidNodeType("Sprite2d")
	_ = db.ValidNodeType("CanvasItem")
	_ = db.IsNode("Sprite2D")
	_ = db.Chain("Sprite2D")
	_ = db.Suggest("Buton")
	if got := loaded(db); len(got) != 0 {
		t.Fatalf("index questions decoded %v", got)
	}
	if p, ok := db.Property("Sprite2D", "position"); !ok || p.Class != "Node2D" {
		t.Fatalf("Property(Sprite2D, position) = %+v, %v", p, ok)
	}
	if got := loaded(db); !reflect.DeepEqual(got, []string{"Node2D", "Sprite2D"}) {
		t.Errorf("decoded %v, want the walk's Sprite2D and Node2D", got)
	}
	if db.lazy.settingsRaw == "" || db.lazy.keysRaw == "" {
		t.Error("settings or keys decoded before any was asked for")
	}
	if _, ok := db.Setting("display/window/size/viewport_width"); !ok {
		t.Error("viewport_width unknown")
	}
	if c, ok := db.KeyCode("Space"); !ok || c != 32 {
		t.Errorf("KeyCode(Space) = %d, %v", c, ok)
	}
}

// TestEmbeddedConcurrentFirstUse: many goroutines asking about one
// undecoded class at once see it whole (run with -race).
func TestEmbeddedConcurrentFirstUse(t *testing.T) {
	db, err := decodePacked(embeddedPack)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			switch i % 4 {
			case 0:
				if d, ok := db.Default("Button", "focus_mode"); !ok || d != "2" {
					t.Errorf("Default(Button, focus_mode) = %q, %v", d, ok)
				}
			case 1:
				if c, _ := db.Class("Button"); len(c.Properties) == 0 {
					t.Error("Button has no properties")
				}
			case 2:
				if _, ok := db.Signal("Button", "pressed"); !ok {
					t.Error("Button has no pressed signal")
				}
			case 3:
				if _, ok := db.Setting("application/config/name"); !ok {
					t.Error("application/config/name unknown")
				}
			}
		}()
	}
	wg.Wait()
}

func packed(t testing.TB, s *Stored) string {
	t.Helper()
	b, err := encodePacked(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDecodePackedErrors: a damaged pack gets an error naming what is
// wrong, never a panic or a half-built DB.
func TestDecodePackedErrors(t *testing.T) {
	good := packed(t, &Stored{Format: StoredFormat, Classes: []StoredClass{{Name: "Object", API: "core"}}})
	head, _, _ := strings.Cut(strings.TrimPrefix(good, packMagic), "\n")
	for _, tt := range []struct{ name, in, want string }{
		{"empty", "", "no \"godot-mcp classdb pack 1\" header"},
		{"gzip", "\x1f\x8b\x08", "header"},
		{"no index end", packMagic + `{"format":1`, "index line has no end"},
		{"bad index", packMagic + "{\n", "index"},
		{"truncated body", good[:len(good)-5], "outside the body"},
		{"wrong format", packed(t, &Stored{Format: 99}), "go generate ./sdk/godot/classdb"},
		{"no name", packed(t, &Stored{Format: StoredFormat, Classes: []StoredClass{{API: "core"}}}), "classes[0] has no name"},
		{"duplicate", packed(t, &Stored{Format: StoredFormat, Classes: []StoredClass{{Name: "A"}, {Name: "A"}}}), `"A" is listed twice`},
		{"cycle", packed(t, &Stored{Format: StoredFormat, Classes: []StoredClass{{Name: "A", Parent: "B"}, {Name: "B", Parent: "A"}}}), "inheritance cycle"},
		{"negative span", packMagic + strings.Replace(head, `"at":[0,`, `"at":[-1,`, 1) + "\n" + "{}", "outside the body"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db, err := decodePacked(tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("decodePacked = %v, %v; want an error containing %q", db, err, tt.want)
			}
		})
	}
	db, err := decodePacked(good)
	if err != nil {
		t.Fatalf("decodePacked(good) = %v", err)
	}
	if !db.Exists("Object") || db.Len() != 1 {
		t.Errorf("decodePacked(good) = %v", db)
	}
}

// TestDecodePackedEscapes: names and members with JSON escapes read as
// encoding/json reads them, and a pack without settings has none.
func TestDecodePackedEscapes(t *testing.T) {
	def := "x]}"
	db, err := decodePacked(packed(t, &Stored{Format: StoredFormat, Keys: map[string]int64{"Space": 32},
		Classes: []StoredClass{{Name: `A"b`, Properties: []StoredProperty{{Name: "x]}\n", Type: "int", Usage: 6, Default: &def}}}}}))
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := db.Default(`A"b`, "x]}\n"); !ok || d != def {
		t.Errorf("Default = %q, %v", d, ok)
	}
	if n, ok := db.KeyName(32); !ok || n != "Space" {
		t.Errorf("KeyName(32) = %q, %v", n, ok)
	}
	if _, ok := db.Setting("x"); ok {
		t.Error("a pack without settings has a setting")
	}
}

func oneEdit(db *DB) {
	_, _ = db.PropertyType("Camera3D", "position")
	_ = db.IsDefault("Camera3D", "position", nil)
	_ = db.SuggestProperty("MeshInstance3D", "positon")
}

// openWithDocs opens the pack as Embedded does, with a fresh copy of the
// class reference table so that its indexing is measured each time.
func openWithDocs() (*DB, error) {
	db, err := decodePacked(embeddedPack)
	if err != nil {
		return nil, err
	}
	return db, db.withDocs(&docTable{data: embeddedDocs})
}

// BenchmarkEmbeddedHeap measures what a process keeps on the heap for the
// embedded database: all of it decoded (the old Embedded), the lazy index
// alone (after Warm), and the index with the classes one scene edit
// touches decoded; the last three with the class reference table as
// Embedded attaches it.
//
//	cd sdk && go test -run '^$' -bench EmbeddedHeap -benchtime 5x ./godot/classdb/
func BenchmarkEmbeddedHeap(b *testing.B) {
	gzData := storedGz(b)
	for _, tt := range []struct {
		name string
		open func() (*DB, error)
		use  func(*DB)
	}{
		{"decode_all", func() (*DB, error) { return Decode(bytes.NewReader(gzData)) }, nil},
		{"lazy_index", func() (*DB, error) { return decodePacked(embeddedPack) }, nil},
		{"lazy_one_edit", func() (*DB, error) { return decodePacked(embeddedPack) }, oneEdit},
		// As Embedded opens it: with the class reference table (docs.go),
		// whose header alone is read at open.
		{"lazy_index_docs", openWithDocs, nil},
		{"lazy_one_edit_docs", openWithDocs, oneEdit},
		{"lazy_describe_node_docs", openWithDocs, func(db *DB) {
			c, _ := db.Class("Node")
			_, _ = c.Method("add_child")
			_ = db.Brief("Node")
		}},
	} {
		b.Run(tt.name, func(b *testing.B) {
			var heap float64
			var took time.Duration
			for range b.N {
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				t0 := time.Now()
				db, err := tt.open()
				if err != nil {
					b.Fatal(err)
				}
				if tt.use != nil {
					tt.use(db)
				}
				took += time.Since(t0)
				runtime.GC()
				runtime.ReadMemStats(&after)
				heap += float64(after.HeapAlloc-before.HeapAlloc) / (1 << 20)
				runtime.KeepAlive(db)
			}
			b.ReportMetric(heap/float64(b.N), "MB-heap/db")
			b.ReportMetric(float64(took.Microseconds())/1000/float64(b.N), "ms/open")
		})
	}
}
