package classdb

import (
	"bytes"
	"compress/gzip"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestEmbeddedLazyAgreesWithDecode: the lazily decoded embedded database
// answers exactly as the whole-file Decode does, class by class (which
// also decodes every class's JSON, so a broken class fails here and not
// in a plugin).
func TestEmbeddedLazyAgreesWithDecode(t *testing.T) {
	lazy, err := decodeLazy(embedded)
	if err != nil {
		t.Fatal(err)
	}
	eager, err := Decode(bytes.NewReader(embedded))
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
		if c.lazy != nil && c.lazy.raw == nil {
			out = append(out, n)
		}
	}
	return out
}

// TestEmbeddedDecodesOnDemand: questions the index answers decode no class;
// a property lookup decodes the classes it walks and no others.
func TestEmbeddedDecodesOnDemand(t *testing.T) {
	db, err := decodeLazy(embedded)
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
	if db.lazy.settingsRaw == nil || db.lazy.keysRaw == nil {
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
	db, err := decodeLazy(embedded)
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

func gz(t testing.TB, s string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(s))
	zw.Close()
	return buf.Bytes()
}

// TestDecodeLazyErrors: a damaged stored file gets an error naming what is
// wrong, never a panic or a half-built DB.
func TestDecodeLazyErrors(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"not json", "hello", `expected '{'`},
		{"empty", "", "ends early"},
		{"truncated", `{"format":1,"classes":[{"name":"Object"`, "ends early"},
		{"truncated string", `{"format":1,"classes":[{"name":"Obj`, "ends early"},
		{"wrong format", `{"format":99,"classes":[]}`, "go generate ./sdk/godot/classdb"},
		{"no name", `{"format":1,"classes":[{"api":"core"}]}`, "classes[0] has no name"},
		{"duplicate", `{"format":1,"classes":[{"name":"A"},{"name":"A"}]}`, `"A" is listed twice`},
		{"cycle", `{"format":1,"classes":[{"name":"A","parent":"B"},{"name":"B","parent":"A"}]}`, "inheritance cycle"},
		{"bad name type", `{"format":1,"classes":[{"name":3}]}`, "classes[0]"},
		{"missing comma", `{"format":1 "classes":[]}`, `expected ',' or '}'`},
		{"trailing", `{"format":1,"classes":[]} x`, "unexpected data"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db, err := decodeLazy(gz(t, tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("decodeLazy(%s) = %v, %v; want an error containing %q", tt.in, db, err, tt.want)
			}
		})
	}
	if _, err := decodeLazy([]byte("not gzip")); err == nil || !strings.Contains(err.Error(), "stored class database") {
		t.Errorf("decodeLazy(garbage) = %v", err)
	}
}

// TestDecodeLazyEscapes: keys and names with JSON escapes read as
// encoding/json reads them.
func TestDecodeLazyEscapes(t *testing.T) {
	db, err := decodeLazy(gz(t, `{"format":1,"cla\u0073ses":[{"name":"A\"b","props":[{"n":"x]}","t":"int","u":6}]}],"keys":{"Space":32}}`))
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := db.Property(`A"b`, "x]}"); !ok || p.Type != "int" {
		t.Errorf("Property = %+v, %v", p, ok)
	}
	if n, ok := db.KeyName(32); !ok || n != "Space" {
		t.Errorf("KeyName(32) = %q, %v", n, ok)
	}
	if _, ok := db.Setting("x"); ok {
		t.Error("a file without settings has a setting")
	}
}

// BenchmarkEmbeddedHeap measures what a process keeps on the heap for the
// embedded database: all of it decoded (the old Embedded), the lazy index
// alone (after Warm), and the index with the classes one scene edit
// touches decoded.
//
//	cd sdk && go test -run '^$' -bench EmbeddedHeap -benchtime 5x ./godot/classdb/
func BenchmarkEmbeddedHeap(b *testing.B) {
	for _, tt := range []struct {
		name string
		open func() (*DB, error)
		use  func(*DB)
	}{
		{"decode_all", func() (*DB, error) { return Decode(bytes.NewReader(embedded)) }, nil},
		{"lazy_index", func() (*DB, error) { return decodeLazy(embedded) }, nil},
		{"lazy_one_edit", func() (*DB, error) { return decodeLazy(embedded) }, func(db *DB) {
			_, _ = db.PropertyType("Camera3D", "position")
			_ = db.IsDefault("Camera3D", "position", nil)
			_ = db.SuggestProperty("MeshInstance3D", "positon")
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
