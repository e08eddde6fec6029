package godotrun

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/godotrun/godottest"
)

// The runner's own cost around a process (guard, process group, pipe,
// capture, parse) measured against running the same command bare with
// exec.Command(...).CombinedOutput(). Compare the pairs side by side in
// one run; see docs/PERFORMANCE.md.

func benchBare(b *testing.B, name string, args ...string) {
	for b.Loop() {
		cmd := exec.Command(name, args...)
		if _, err := cmd.CombinedOutput(); err != nil {
			if _, ok := err.(*exec.ExitError); !ok {
				b.Fatal(err)
			}
		}
	}
}

func benchRun(b *testing.B, bin *Binary, args ...string) {
	for b.Loop() {
		if _, err := Run(context.Background(), Spec{Bin: bin, Args: args, Timeout: time.Minute, MaxOutput: 64 << 10}); err != nil {
			b.Fatal(err)
		}
	}
}

// A process that does nothing: the fixed cost of a run.
func BenchmarkSpawnBare(b *testing.B) { benchBare(b, "/bin/true") }
func BenchmarkSpawnRun(b *testing.B) {
	benchRun(b, &Binary{Path: "/bin/true", Major: 3, Server: true})
}

// A process that prints 1 MiB of Godot-style output with errors in it:
// the cost of capturing and parsing.
func outputFile(b *testing.B) string {
	src, err := os.ReadFile("../godotlog/testdata/godot4-run.txt")
	if err != nil {
		b.Fatal(err)
	}
	p := filepath.Join(b.TempDir(), "out.txt")
	if err := os.WriteFile(p, []byte(strings.Repeat(string(src), (1<<20)/len(src)+1)), 0o644); err != nil {
		b.Fatal(err)
	}
	return p
}

func BenchmarkOutput1MiBBare(b *testing.B) { benchBare(b, "/bin/cat", outputFile(b)) }
func BenchmarkOutput1MiBRun(b *testing.B) {
	benchRun(b, &Binary{Path: "/bin/cat", Major: 3, Server: true}, outputFile(b))
}

// A real Godot 3 project that prints 200 lines and quits.
func godotProject(b *testing.B) string {
	godottest.RequireGodot3(b)
	return godottest.Godot3Project(b, "extends Node\n\nfunc _ready():\n\tfor i in range(200):\n\t\tprint(\"line \", i)\n\tget_tree().quit()\n", nil)
}

func BenchmarkGodotBare(b *testing.B) {
	dir := godotProject(b)
	benchBare(b, "godot3-server", "--path", dir)
}

func BenchmarkGodotRun(b *testing.B) {
	dir := godotProject(b)
	bin, err := (&Finder{}).Find(context.Background(), 3)
	if err != nil {
		b.Fatal(err)
	}
	benchRun(b, bin, "--path", dir)
}
