package webgodot

import (
	"context"
	"encoding/base64"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// BenchmarkGameSession measures what a headless game session costs, on
// the test game (testdata/game, 320x240):
//
//   - ms/cold-start: a new Runner (Chromium start, empty cache) until the
//     probe answers: what the first play_scene of a plugin pays;
//   - ms/warm-start: another session in the same browser;
//   - ms/property-read: one read_property through the channel, warm;
//   - ms/screenshot: one frame grab encoded as PNG and decoded from base64;
//   - ms/property-read-settled: read_property again once the game has run
//     for a second (its first frames, which compile shaders and upload
//     glyphs, hold the page's main thread and every call with it);
//   - ms/devtools-floor: a DevTools evaluate of a resolved promise in the
//     game's page, the engine not involved: the round trip every call
//     pays, plus the wait for the engine's frame in progress.
//
// Each figure is the median over b.N iterations (reads, screenshots and
// evaluates 10 per iteration).
//
//	go test -run '^$' -bench BenchmarkGameSession -benchtime 3x ./internal/webgodot/
func BenchmarkGameSession(b *testing.B) {
	setup := requireSetup(b)
	pck, err := GamePack("testdata/game", "")
	if err != nil {
		b.Fatal(err)
	}
	var cold, warm, reads, shots, settled, floor []time.Duration
	for b.Loop() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		start := time.Now()
		r, err := New(setup)
		if err != nil {
			b.Fatal(err)
		}
		s, err := r.StartGame(ctx, pck, GameOptions{})
		if err != nil {
			b.Fatal(err)
		}
		cold = append(cold, time.Since(start))
		s.Stop()
		start = time.Now()
		s, err = r.StartGame(ctx, pck, GameOptions{})
		if err != nil {
			b.Fatal(err)
		}
		warm = append(warm, time.Since(start))
		for range 10 {
			start = time.Now()
			if err := s.Call(ctx, "read_property", map[string]any{"node_path": "Player", "property": "position"}, nil); err != nil {
				b.Fatal(err)
			}
			reads = append(reads, time.Since(start))
		}
		for range 10 {
			start = time.Now()
			var shot struct{ Base64 string }
			if err := s.Call(ctx, "capture", nil, &shot); err != nil {
				b.Fatal(err)
			}
			if _, err := base64.StdEncoding.DecodeString(shot.Base64); err != nil {
				b.Fatal(err)
			}
			shots = append(shots, time.Since(start))
		}
		time.Sleep(time.Second)
		for range 10 {
			start = time.Now()
			if err := s.Call(ctx, "read_property", map[string]any{"node_path": "Player", "property": "position"}, nil); err != nil {
				b.Fatal(err)
			}
			settled = append(settled, time.Since(start))
		}
		for range 10 {
			start = time.Now()
			if _, err := chromedp.Run(s.tabCtx, chromedp.Evaluate[int]("Promise.resolve(1)", chromedp.EvalAwaitPromise)); err != nil {
				b.Fatal(err)
			}
			floor = append(floor, time.Since(start))
		}
		s.Stop()
		r.Close()
		cancel()
	}
	b.ReportMetric(median(cold), "ms/cold-start")
	b.ReportMetric(median(warm), "ms/warm-start")
	b.ReportMetric(median(reads), "ms/property-read")
	b.ReportMetric(median(shots), "ms/screenshot")
	b.ReportMetric(median(settled), "ms/property-read-settled")
	b.ReportMetric(median(floor), "ms/devtools-floor")
}
