package supervisor

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestTailKeepsLastLines(t *testing.T) {
	tl := newTail()
	w := tl.writer()
	for i := range stderrLines + 10 {
		fmt.Fprintf(w, "line %d\n", i)
	}
	fmt.Fprint(w, "partial")
	lines := tl.Lines()
	if len(lines) != stderrLines || lines[0] != "line 10" || lines[len(lines)-1] != fmt.Sprintf("line %d", stderrLines+9) {
		t.Fatalf("kept %d lines: first %q last %q", len(lines), lines[0], lines[len(lines)-1])
	}
	// go-plugin writes a line and its newline separately.
	w.Write([]byte(" end"))
	w.Write([]byte("\n"))
	if got := tl.Lines()[stderrLines-1]; got != "partial end" {
		t.Fatalf("joined partial line %q", got)
	}
	w.Write([]byte(strings.Repeat("x", 3*maxLineBytes) + "\n"))
	if got := tl.Lines()[stderrLines-1]; len(got) > maxLineBytes+8 {
		t.Fatalf("long line kept at %d bytes", len(got))
	}
}

func TestPanicReport(t *testing.T) {
	stderr := []string{
		`{"@level":"info","@message":"serving"}`,
		"panic: boom",
		"",
		"goroutine 7 [running]:",
		"main.main.func1()",
		"\t/src/main.go:10 +0x25",
		"created by main.main in goroutine 1",
		"\t/src/main.go:9 +0x1a",
		"",
		"goroutine 1 [chan receive]:",
	}
	got := panicReport(stderr)
	want := strings.Join(stderr[1:2], "\n") + "\n" + strings.Join(stderr[3:8], "\n")
	if got != want {
		t.Fatalf("panicReport:\n%s\nwant:\n%s", got, want)
	}
	if panicReport([]string{"just a log line"}) != "" {
		t.Fatal("no panic, no report")
	}
}

func TestBackoff(t *testing.T) {
	ts := &toolset{}
	var got []time.Duration
	now := time.Now()
	for range 8 {
		ts.crashes = append(ts.crashes, now)
		got = append(got, ts.backoff())
	}
	want := []time.Duration{0, 250 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("backoff %v, want %v", got, want)
	}
	ts.crashes = []time.Time{now.Add(-2 * crashLoopWindow)}
	if ts.recordCrash(now) || len(ts.crashes) != 1 {
		t.Fatalf("old crashes must age out: %v", ts.crashes)
	}
}
