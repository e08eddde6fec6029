package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestGlobMatch(t *testing.T) {
	tests := []struct {
		pat, path string
		want      bool
	}{
		{"**/*.tscn", "scenes/levels/level1.tscn", true},
		{"**/*.tscn", "main.tscn", true},
		{"scenes/**/*.tscn", "scenes/main.tscn", true},
		{"scenes/**/*.tscn", "scenes/a/b/c/x.tscn", true},
		{"scenes/**/*.tscn", "other/x.tscn", false},
		{"**", "a/b/c", true},
		{"a/**/b/**/c", "a/x/b/y/z/c", true},
		{"a/**/b/**/c", "a/x/c/y/b", false},
		{"a/**/b", "a/b", true},
		{"a/**", "a", true},
		{"**/b/**", "a/b", true},
		{"*/b", "a/b/c", false},
		{"a/?/c", "a/x/c", true},
		{"a/[xy]/c", "a/z/c", false},
	}
	for _, tt := range tests {
		if got := globMatch(strings.Split(tt.pat, "/"), strings.Split(tt.path, "/")); got != tt.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", tt.pat, tt.path, got, tt.want)
		}
	}
}

// Many "**" against a deep path that almost matches: the comparisons stay
// within (segments+1) × (pattern segments+1); a recursive matcher makes
// exponentially many.
func TestGlobMatchIsLinear(t *testing.T) {
	pat := strings.Split(strings.Repeat("**/a/", 20)+"b", "/")
	segs := strings.Split(strings.Repeat("a/", 60)+"c", "/")
	ok, steps := globMatchSteps(pat, segs)
	if ok {
		t.Fatal("matched")
	}
	if bound := (len(pat) + 1) * (len(segs) + 1); steps > bound {
		t.Fatalf("%d comparisons for %d pattern and %d path segments, want at most %d", steps, len(pat), len(segs), bound)
	}
}

// A cancelled search stops: the tool returns the cancellation instead of
// walking (and matching) on.
func TestSearchHonoursCancellation(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "project.godot"), []byte("config_version=5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	deep := dir
	for i := range 30 {
		deep = filepath.Join(deep, "a")
		if err := os.MkdirAll(deep, 0o755); err != nil {
			t.Fatal(err)
		}
		for j := range 20 {
			if err := os.WriteFile(filepath.Join(deep, "f"+string(rune('a'+j))+".txt"), []byte(strings.Repeat("x", i)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := h.Call(ctx, "search_files", map[string]any{"pattern": strings.Repeat("**/a/", 15) + "zzz", "content": "y"})
	if res.Err == nil && !res.IsError {
		t.Fatalf("a cancelled search answered: %s", res.Text())
	}
}

// Reading a file for content search checks cancellation between chunks.
func TestReadFileHonoursCancellation(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.txt")
	if err := os.WriteFile(p, []byte(strings.Repeat("x", 3*readChunk)), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := readFileCtx(context.Background(), p, 16<<20)
	if err != nil || len(data) != 3*readChunk {
		t.Fatalf("read %d bytes, %v", len(data), err)
	}
	if data, _ := readFileCtx(context.Background(), p, readChunk+5); len(data) != readChunk+5 {
		t.Fatalf("limit: read %d bytes", len(data))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := readFileCtx(ctx, p, 16<<20); err == nil {
		t.Fatal("a cancelled read went on")
	}
	if _, _, ok := findInFile(ctx, p, []byte("x"), false, 16<<20); ok {
		t.Fatal("a cancelled content search matched")
	}
}

// refGlob is the obvious recursive matcher (exponential in the number of
// "**"), kept as the reference the linear one must agree with.
func refGlob(pat, segs []string) bool {
	if len(pat) == 0 {
		return len(segs) == 0
	}
	if pat[0] == "**" {
		for i := 0; i <= len(segs); i++ {
			if refGlob(pat[1:], segs[i:]) {
				return true
			}
		}
		return false
	}
	return len(segs) > 0 && segmentMatch(pat[0], segs[0]) && refGlob(pat[1:], segs[1:])
}

func TestGlobMatchAgreesWithReference(t *testing.T) {
	patAtoms := []string{"**", "a", "b", "*", "?", "[ab]"}
	segAtoms := []string{"a", "b", "c", "ab"}
	rng := uint64(1)
	next := func(n int) int {
		rng = rng*6364136223846793005 + 1442695040888963407
		return int((rng >> 33) % uint64(n))
	}
	for range 20000 {
		pat := make([]string, 1+next(5))
		for i := range pat {
			pat[i] = patAtoms[next(len(patAtoms))]
		}
		segs := make([]string, 1+next(6))
		for i := range segs {
			segs[i] = segAtoms[next(len(segAtoms))]
		}
		if got, want := globMatch(pat, segs), refGlob(pat, segs); got != want {
			t.Fatalf("globMatch(%q, %q) = %v, reference says %v", pat, segs, got, want)
		}
	}
}
