package deps

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// genProject writes a project of n files: n/3 scenes (each instancing the
// previous scene and using a script, a material and a texture), n/3
// scripts (preloading a neighbour), n/6 .tres materials and n/6 textures.
func genProject(tb testing.TB, n int) string {
	tb.Helper()
	dir := tb.TempDir()
	w := func(rel, body string) {
		abs := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(body), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	scenes, scripts, mats := n/3, n/3, n/6
	w("project.godot", "config_version=5\n\n[application]\n\nrun/main_scene=\"res://scenes/s0/scene_0.tscn\"\n")
	for i := 0; i < mats; i++ {
		w(fmt.Sprintf("materials/m%d/mat_%d.tres", i%20, i), fmt.Sprintf(
			"[gd_resource type=\"StandardMaterial3D\" format=3 uid=\"uid://mat%d\"]\n\n[ext_resource type=\"Texture2D\" path=\"res://textures/tex_%d.png\" id=\"1\"]\n\n[resource]\nalbedo_texture = ExtResource(\"1\")\nalbedo_color = Color(1, 0.5, 0.25, 1)\nmetallic = 0.5\n", i, i))
		w(fmt.Sprintf("textures/tex_%d.png", i), "PNG")
	}
	for i := 0; i < scripts; i++ {
		w(fmt.Sprintf("scripts/c%d/script_%d.gd", i%20, i), fmt.Sprintf(
			"extends Node2D\n\nconst NEXT = preload(\"res://scripts/c%d/script_%d.gd\")\nsignal hit(amount)\n\nvar speed := 400.0\n\nfunc _ready() -> void:\n\t$Timer.timeout.connect(_on_timeout)\n\tvar s = load(\"res://scenes/s%d/scene_%d.tscn\")\n\nfunc _on_timeout() -> void:\n\tposition += Vector2(speed, 0) # move\n\thit.emit(1)\n",
			(i+1)%20, (i+1)%scripts, i%20, i%scenes))
	}
	for i := 0; i < scenes; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "[gd_scene format=3 uid=\"uid://scene%d\"]\n\n", i)
		fmt.Fprintf(&b, "[ext_resource type=\"Script\" path=\"res://scripts/c%d/script_%d.gd\" id=\"1_s\"]\n", i%20, i)
		fmt.Fprintf(&b, "[ext_resource type=\"Material\" uid=\"uid://mat%d\" path=\"res://materials/m%d/mat_%d.tres\" id=\"2_m\"]\n", i%mats, (i%mats)%20, i%mats)
		if i > 0 {
			fmt.Fprintf(&b, "[ext_resource type=\"PackedScene\" uid=\"uid://scene%d\" path=\"res://scenes/s%d/scene_%d.tscn\" id=\"3_p\"]\n", i-1, (i-1)%20, i-1)
		}
		b.WriteString("\n[sub_resource type=\"RectangleShape2D\" id=\"shape\"]\nsize = Vector2(32, 32)\n\n")
		b.WriteString("[node name=\"Root\" type=\"Node2D\"]\nscript = ExtResource(\"1_s\")\n\n")
		for k := 0; k < 8; k++ {
			fmt.Fprintf(&b, "[node name=\"Body%d\" type=\"CharacterBody2D\" parent=\".\"]\nposition = Vector2(%d, %d)\n\n", k, k*10, k*20)
			fmt.Fprintf(&b, "[node name=\"Shape\" type=\"CollisionShape2D\" parent=\"Body%d\"]\nshape = SubResource(\"shape\")\n\n", k)
			fmt.Fprintf(&b, "[node name=\"Sprite\" type=\"Sprite2D\" parent=\"Body%d\"]\nmaterial = ExtResource(\"2_m\")\nmodulate = Color(1, 1, 1, 0.5)\n\n", k)
		}
		b.WriteString("[node name=\"Timer\" type=\"Timer\" parent=\".\"]\nwait_time = 0.5\n\n")
		if i > 0 {
			b.WriteString("[node name=\"Prev\" parent=\".\" instance=ExtResource(\"3_p\")]\n\n")
		}
		b.WriteString("[connection signal=\"timeout\" from=\"Timer\" to=\".\" method=\"_on_timeout\"]\n")
		w(fmt.Sprintf("scenes/s%d/scene_%d.tscn", i%20, i), b.String())
	}
	return dir
}

// The generated project is understood exactly: every file, every
// reference resolved, no findings, everything reachable from the main scene
// through the chain of instances.
func TestGeneratedProject(t *testing.T) {
	dir := genProject(t, 3000)
	g, err := Scan(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(g.Paths()); n != 3001 {
		t.Fatalf("%d files, want 3001", n)
	}
	edges := g.Edges(false)
	// scenes: script + material (+ previous scene); materials: texture;
	// scripts: preload + load; project: main scene.
	want := 1000*2 + 999 + 500 + 1000*2 + 1
	if len(edges) != want {
		t.Errorf("%d edges, want %d", len(edges), want)
	}
	if f := g.Integrity(nil); len(f) != 0 {
		t.Errorf("findings on a clean project: %v", f[:min(3, len(f))])
	}
	// The scripts preload their neighbour in a ring: one cycle of 1,000.
	if cyc, _ := g.Cycles(true, 10); len(cyc) != 1 || len(cyc[0]) != 1000 {
		t.Errorf("cycles: %d, want the one preload ring of 1000 scripts", len(cyc))
	}
	if u := g.Unused(); len(u) != 0 {
		t.Errorf("%d unused files in a fully connected project: %v", len(u), u[:min(3, len(u))])
	}
}

func walkFiles(tb testing.TB, dir string) map[string][]byte {
	out := map[string][]byte{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			out[p] = b
		}
		return nil
	})
	return out
}

// plainParse is the baseline: read every file and parse the scenes and
// resources with godot.ParseFile, one after the other: no hashing, no
// script scanning, no graph, no cache.
func plainParse(b *testing.B, dir string) {
	for p, src := range walkFiles(b, dir) {
		if strings.HasSuffix(p, ".tscn") || strings.HasSuffix(p, ".tres") {
			if _, err := godot.ParseFile(p, src); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkAnalysis3000 runs the contestants interleaved in one loop on
// one generated 3,000-file project, so machine noise hits them alike, and
// reports each one's milliseconds per run and its ratio to the plain parse:
//
//   - plain: the baseline above;
//   - cold: a new Index's Graph (walk, read, hash, parse in parallel,
//     scan scripts, build the graph);
//   - warm: Graph on an index that has seen the unchanged project (walk
//     and stat only, graph rebuilt from cached summaries);
//   - warm_all: warm plus every whole-project query (integrity, cycles,
//     unused, orphaned);
//   - one_edit: warm after rewriting one scene (one file read and parsed).
func BenchmarkAnalysis3000(b *testing.B) {
	dir := genProject(b, 3000)
	ctx := context.Background()
	warm := New(dir)
	if _, err := warm.Graph(ctx); err != nil {
		b.Fatal(err)
	}
	edited := filepath.Join(dir, "scenes", "s5", "scene_5.tscn")
	orig, err := os.ReadFile(edited)
	if err != nil {
		b.Fatal(err)
	}
	var plain, cold, hot, all, edit time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		plainParse(b, dir)
		t1 := time.Now()
		if _, err := Scan(ctx, dir); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		if _, err := warm.Graph(ctx); err != nil {
			b.Fatal(err)
		}
		t3 := time.Now()
		g, err := warm.Graph(ctx)
		if err != nil {
			b.Fatal(err)
		}
		g.Integrity(nil)
		g.Cycles(true, 100)
		g.Unused()
		g.Orphaned()
		t4 := time.Now()
		b.StopTimer()
		body := append([]byte(nil), orig...)
		body = append(body, fmt.Sprintf("[connection signal=\"timeout\" from=\"Timer\" to=\".\" method=\"m%d\"]\n", i)...)
		if err := os.WriteFile(edited, body, 0o644); err != nil {
			b.Fatal(err)
		}
		warm.Invalidate("res://scenes/s5/scene_5.tscn")
		b.StartTimer()
		t5 := time.Now()
		if _, err := warm.Graph(ctx); err != nil {
			b.Fatal(err)
		}
		if st := warm.LastStats(); st.Parsed != 1 {
			b.Fatalf("one edit parsed %d files", st.Parsed)
		}
		edit += time.Since(t5)
		plain += t1.Sub(t0)
		cold += t2.Sub(t1)
		hot += t3.Sub(t2)
		all += t4.Sub(t3)
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
	b.ReportMetric(ms(plain), "plain_ms")
	b.ReportMetric(ms(cold), "cold_ms")
	b.ReportMetric(ms(hot), "warm_ms")
	b.ReportMetric(ms(all), "warm_all_ms")
	b.ReportMetric(ms(edit), "one_edit_ms")
	b.ReportMetric(float64(cold)/float64(plain), "cold/plain")
	b.ReportMetric(float64(all)/float64(plain), "warm_all/plain")
}

// bigScene writes a project whose one scene is about size bytes: nodes
// with a padded metadata string, like a scene with huge embedded data.
func bigScene(tb testing.TB, size int) string {
	tb.Helper()
	dir := tb.TempDir()
	var b strings.Builder
	b.Grow(size + 8<<10)
	b.WriteString("[gd_scene format=3]\n\n[ext_resource type=\"Texture2D\" path=\"res://tex.png\" id=\"1\"]\n\n[node name=\"Big\" type=\"Node\"]\n")
	pad := strings.Repeat("x", 200)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "[node name=\"N%d\" type=\"Sprite2D\" parent=\".\"]\ntexture = ExtResource(\"1\")\nmetadata/pad = \"%s\"\n\n", i, pad)
	}
	for name, body := range map[string]string{"project.godot": "config_version=5\n", "big.tscn": b.String(), "tex.png": "PNG"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// BenchmarkIndexBigScene measures what one big scene costs the index:
// bytes allocated by a cold Graph and bytes still held by the index
// afterwards. At the limit (16 MiB) the file is parsed; over it (32 MiB)
// it is skipped; "nolimit" is the 32 MiB scene with the limit lifted, what
// every big file cost before the limit. Run with -benchtime 1x.
func BenchmarkIndexBigScene(b *testing.B) {
	for _, bc := range []struct {
		name  string
		size  int
		limit int64
	}{
		{"16MiB-at-limit", DefaultMaxFileSize - 1<<10, 0},
		{"32MiB-skipped", 32 << 20, 0},
		{"32MiB-nolimit", 32 << 20, 1 << 40},
	} {
		b.Run(bc.name, func(b *testing.B) {
			dir := bigScene(b, bc.size)
			var allocated, retained float64
			for b.Loop() {
				runtime.GC()
				var before, after, held runtime.MemStats
				runtime.ReadMemStats(&before)
				ix := New(dir)
				ix.SetMaxFileSize(bc.limit)
				g, err := ix.Graph(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				runtime.ReadMemStats(&after)
				runtime.GC()
				runtime.ReadMemStats(&held)
				runtime.KeepAlive(ix)
				runtime.KeepAlive(g)
				allocated += float64(after.TotalAlloc - before.TotalAlloc)
				retained += float64(int64(held.HeapAlloc) - int64(before.HeapAlloc))
			}
			b.ReportMetric(allocated/float64(b.N)/(1<<20), "alloc-MB/op")
			b.ReportMetric(retained/float64(b.N)/(1<<20), "retained-MB/op")
		})
	}
}
