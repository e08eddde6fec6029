package supervisor

import (
	"bytes"
	"strings"
	"sync"
)

// stderrLines is how many of a plugin's last stderr lines are kept. A Go
// panic prints the panic value, a blank line and the panicking goroutine's
// trace first, so the start of the report fits even when the process had
// many goroutines.
const stderrLines = 64

// maxLineBytes bounds one kept line, so a plugin that writes one enormous
// line cannot make the host hold it.
const maxLineBytes = 4 << 10

// tail keeps the last stderrLines lines a plugin wrote to stderr. It is the
// evidence behind PLUGIN_CRASHED: go-plugin copies every raw stderr line into
// it (ClientConfig.Stderr) while also logging the line.
//
// Several sources feed one tail (the process's stderr pipe and go-plugin's
// stdio stream); each gets its own line splitter from writer so that their
// partial lines never mix.
type tail struct {
	mu    sync.Mutex
	lines []string // ring of at most stderrLines
	next  int      // where the next line goes once the ring is full
}

func newTail() *tail { return &tail{lines: make([]string, 0, stderrLines)} }

func (t *tail) add(line string) {
	if len(line) > maxLineBytes {
		line = line[:maxLineBytes] + "…"
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.lines) < stderrLines {
		t.lines = append(t.lines, line)
		return
	}
	t.lines[t.next] = line
	t.next = (t.next + 1) % stderrLines
}

// Lines returns the kept lines, oldest first.
func (t *tail) Lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]string, 0, len(t.lines))
	out = append(out, t.lines[t.next:]...)
	return append(out, t.lines[:t.next]...)
}

// writer returns an io.Writer that splits what it is given into lines and
// adds them. Not safe for concurrent use; every source gets its own.
func (t *tail) writer() *lineWriter { return &lineWriter{t: t} }

type lineWriter struct {
	t       *tail
	partial []byte
}

func (w *lineWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			if room := maxLineBytes - len(w.partial); room > 0 {
				w.partial = append(w.partial, p[:min(len(p), room+1)]...)
			}
			break
		}
		if room := maxLineBytes - len(w.partial); room > 0 {
			w.partial = append(w.partial, p[:min(i, room+1)]...)
		}
		w.t.add(strings.TrimRight(string(w.partial), "\r"))
		w.partial = w.partial[:0]
		p = p[i+1:]
	}
	return n, nil
}

// panicReport extracts what a caller needs from a dead plugin's stderr: the
// panic (or fatal error) line and the frames that say where it happened. The
// whole tail goes into Error.Detail; this is the readable part for Message.
// It returns "" when the process died without a Go panic (killed by a
// signal, os.Exit).
func panicReport(lines []string) string {
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ") {
			start = i
			break
		}
	}
	if start < 0 {
		return ""
	}
	// The panic value can span lines; then comes a blank line, the goroutine
	// header, and pairs of function / file:line. Keep the value, the header
	// and the first three frames: enough to find the bug.
	var out []string
	frames := -1
	for _, l := range lines[start:] {
		if frames < 0 {
			if strings.HasPrefix(l, "goroutine ") {
				frames = 0
			}
			if l != "" {
				out = append(out, l)
			}
			continue
		}
		if l == "" || frames >= 6 {
			break
		}
		out = append(out, l)
		frames++
	}
	return strings.Join(out, "\n")
}
