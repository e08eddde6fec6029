package logsummary_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/godot-mcp/godot-mcp/internal/logsummary"
	"github.com/godot-mcp/godot-mcp/internal/syncbuf"
)

func newLog(level hclog.Level) (hclog.Logger, *syncbuf.Buffer) {
	buf := &syncbuf.Buffer{}
	return hclog.New(&hclog.LoggerOptions{Output: buf, Level: level}), buf
}

func lines(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == '\n' })
}

func TestBurstThenSummary(t *testing.T) {
	for _, c := range []struct {
		name         string
		burst, sent  int
		logged       int
		summary      string
		summaryCount int
	}{
		{"within the burst", 5, 3, 3, "", 0},
		{"a flood", 5, 200000, 5, "suppressed 199995 similar log lines", 1},
		{"summary only", 0, 3000, 0, "suppressed 3000 similar log lines", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			log, buf := newLog(hclog.Info)
			// An hour-long window: the test ends it with Flush, as the
			// timer would, so a slow machine cannot split the flood.
			lim := logsummary.New(log, time.Hour, c.burst)
			for i := 0; i < c.sent; i++ {
				lim.Log(hclog.Warn, "junk", "dropped a frame", "frame", i)
			}
			lim.Log(hclog.Warn, "other", "another kind passes") // kinds are limited apart
			lim.Flush()
			out := lines(buf.String())
			if got := strings.Count(buf.String(), "dropped a frame"); got != c.logged+c.summaryCount {
				t.Fatalf("%d lines name the kind, want %d logged + %d summary:\n%.2000s", got, c.logged, c.summaryCount, buf.String())
			}
			if len(out) != c.logged+c.summaryCount+1 {
				t.Fatalf("%d lines:\n%.2000s", len(out), buf.String())
			}
			if c.summary != "" {
				var last string
				for _, l := range out {
					if strings.Contains(l, "suppressed") && strings.Contains(l, "dropped a frame") {
						last = l
					}
				}
				if !strings.Contains(last, c.summary) || !strings.Contains(last, "dropped a frame") || !strings.Contains(last, "first_frame="+strconv.Itoa(c.burst)) {
					t.Fatalf("summary %q", last)
				}
			}
		})
	}
}

// A window ends by itself: the summary arrives without a Flush, and the
// next window logs its burst again.
func TestWindowEnds(t *testing.T) {
	log, buf := newLog(hclog.Info)
	lim := logsummary.New(log, 50*time.Millisecond, 1)
	defer lim.Close()
	for i := 0; i < 10; i++ {
		lim.Log(hclog.Warn, "k", "stray request")
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(buf.String(), "suppressed 9 similar log lines") {
		if time.Now().After(deadline) {
			t.Fatalf("no summary after the window:\n%s", buf.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if !lim.Log(hclog.Warn, "k", "stray request") {
		t.Fatal("a new window did not log its first line")
	}
}

// Lines below the logger's level cost nothing and are not summarised.
func TestBelowLevel(t *testing.T) {
	log, buf := newLog(hclog.Info)
	lim := logsummary.New(log, time.Hour, 0)
	for i := 0; i < 100; i++ {
		lim.Log(hclog.Debug, "k", "debug noise")
	}
	lim.Close()
	if buf.String() != "" {
		t.Fatalf("log %q", buf.String())
	}
}
