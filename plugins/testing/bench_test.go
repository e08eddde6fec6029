package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// BenchmarkSuiteOverhead is what running a test suite costs over the
// bare engine: the same project run once with a main scene that quits in
// its first _ready (the engine's start and exit: page, engine, pack), and
// once as run_tests runs it (the framework's start, the suite, its
// report, and the tool's parsing): GUT 9.6 on a three-test suite, and
// gdUnit4 6.1 on a two-test suite. Both in the web runtime, the browser
// already up.
func BenchmarkSuiteOverhead(b *testing.B) {
	b.Run("gut", func(b *testing.B) {
		suiteOverhead(b, map[string]string{"test/test_math.gd": gutSuite}, "gut", 3)
	})
	b.Run("gdunit4", func(b *testing.B) {
		suiteOverhead(b, map[string]string{"test/test_calc.gd": gdunitSuite}, "gdUnit4", 2)
	})
}

func suiteOverhead(b *testing.B, testFiles map[string]string, addon string, tests int) {
	setup, err := webgodot.Locate()
	if err != nil {
		b.Skip(err)
	}
	files := map[string]string{
		"quit.tscn": "[gd_scene load_steps=2 format=3]\n\n[ext_resource type=\"Script\" path=\"res://quit.gd\" id=\"1\"]\n\n[node name=\"Quit\" type=\"Node\"]\nscript = ExtResource(\"1\")\n",
		"quit.gd":   "extends Node\n\nfunc _ready() -> void:\n\tget_tree().quit(0)\n",
	}
	for k, v := range testFiles {
		files[k] = v
	}
	dir := godot4Project(b, files, addon)
	r, err := web.Get(setup)
	if err != nil {
		b.Fatal(err)
	}
	defer web.Close()
	pack, err := webgodot.ReadGameFiles(dir, "res://quit.tscn")
	if err != nil {
		b.Fatal(err)
	}
	pck, err := webgodot.BuildPCK(webgodot.RuntimeVersion, pack)
	if err != nil {
		b.Fatal(err)
	}
	h := sdktest.New(b, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	bare := func() time.Duration {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		start := time.Now()
		s, err := r.StartGame(ctx, pck, webgodot.GameOptions{NoProbe: true})
		if err != nil {
			b.Fatal(err)
		}
		select {
		case <-s.Done():
		case <-ctx.Done():
			b.Fatal("the bare run did not exit")
		}
		s.Stop()
		return time.Since(start)
	}
	suite := func() time.Duration {
		start := time.Now()
		res := h.Call(context.Background(), "run_tests", map[string]any{"engine": "web", "framework": strings.ToLower(addon)})
		var out testResult
		if err := res.Structured(&out); err != nil || out.Totals.Tests != tests {
			b.Fatalf("%v %s", err, res.Text())
		}
		return time.Since(start)
	}
	bare() // the browser's first tab, and the engine's files into its cache
	var sumBare, sumSuite time.Duration
	b.ResetTimer()
	for range b.N {
		sumBare += bare()
		sumSuite += suite()
	}
	n := float64(b.N)
	b.ReportMetric(float64(sumBare.Milliseconds())/n, "bare-ms/op")
	b.ReportMetric(float64(sumSuite.Milliseconds())/n, "suite-ms/op")
	b.ReportMetric(float64((sumSuite-sumBare).Milliseconds())/n, "overhead-ms/op")
}
