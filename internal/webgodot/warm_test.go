package webgodot

import (
	"context"
	"slices"
	"sort"
	"strconv"
	"testing"
	"time"
)

const echoHandler = `extends Node
func handle(body: String) -> void:
	print("got ", body)
	printerr("err ", body.length())
	await get_tree().process_frame
	print("after a frame")
`

// A warm engine answers request after request, each with exactly the
// lines its handler printed (stdout and stderr, in order), also when the
// handler awaits frames.
func TestWarmAnswersEachRequestWithItsLines(t *testing.T) {
	r, err := New(requireSetup(t))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	w, err := r.StartWarm(ctx, WarmProject(echoHandler), WarmOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{"one", "two \"quoted\"\nand a newline", "three"} {
		lines, err := w.Do(ctx, body)
		if err != nil {
			t.Fatal(err)
		}
		want := []Line{{Stdout, "got " + body}}
		if body == "two \"quoted\"\nand a newline" {
			want = []Line{{Stdout, "got two \"quoted\""}, {Stdout, "and a newline"}}
		}
		want = append(want, Line{Stderr, "err " + strconv.Itoa(len(body))}, Line{Stdout, "after a frame"})
		if !slices.Equal(lines, want) {
			t.Errorf("%q: got %v, want %v", body, lines, want)
		}
	}
	w.Close()
	if w.Alive() {
		t.Error("alive after Close")
	}
	if _, err := w.Do(ctx, "x"); err == nil {
		t.Error("a closed engine answered")
	}
}

// BenchmarkWarmRequest measures one request to a warm engine (a handler
// that compiles a small shader), the cost a warm validation pays.
//
//	go test -run '^$' -bench BenchmarkWarmRequest -benchtime 20x ./internal/webgodot/
func BenchmarkWarmRequest(b *testing.B) {
	r, err := New(requireSetup(b))
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	ctx := context.Background()
	w, err := r.StartWarm(ctx, WarmProject(`extends Node
func handle(body: String) -> void:
	var s := Shader.new()
	s.code = body
	print(s.get_shader_uniform_list().size())
`), WarmOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	code := "shader_type canvas_item;\nuniform float x = 0.5;\nvoid fragment() { COLOR = vec4(x); }\n"
	var took []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if _, err := w.Do(ctx, code); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "median-ms/request")
}
