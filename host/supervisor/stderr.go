package supervisor

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"golang.org/x/time/rate"
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
func (t *tail) writer() *lineWriter { return &lineWriter{add: t.add} }

// lineWriter splits what it is given into lines (each cut to maxLineBytes)
// and passes them to add. Not safe for concurrent use.
type lineWriter struct {
	add     func(string)
	partial []byte
}

// Close passes on a last line that had no newline.
func (w *lineWriter) Close() error {
	if len(w.partial) > 0 {
		w.add(strings.TrimRight(string(w.partial), "\r"))
		w.partial = w.partial[:0]
	}
	return nil
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
		w.add(strings.TrimRight(string(w.partial), "\r"))
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

// Plugin output logging limits. A plugin may write as much as it likes to
// stderr; the host log gets at most stderrRate bytes a second of it (after a
// burst of stderrBurst), each line cut to maxLineBytes. What is dropped is
// counted and reported in one summary line once logging resumes and when
// the plugin exits, so a flood costs the log a few lines, not its volume.
const (
	stderrRate  = 64 << 10
	stderrBurst = 256 << 10
)

// outputLog is where one plugin instance's stderr (and anything it writes
// to stdout after the handshake) goes: every line into the crash tail, and
// a rate-limited share into the host log. Lines in hclog's JSON format keep
// their level; all other lines are logged at debug level
// (docs/plugin-protocol.md §7).
type outputLog struct {
	log  hclog.Logger
	tail *tail

	mu           sync.Mutex
	limit        *rate.Limiter
	droppedLines int
	droppedBytes int
}

func newOutputLog(log hclog.Logger, t *tail) *outputLog {
	return &outputLog{log: log, tail: t, limit: rate.NewLimiter(stderrRate, stderrBurst)}
}

// writer returns a line splitter feeding o; every source gets its own.
func (o *outputLog) writer() *lineWriter { return &lineWriter{add: o.line} }

// line takes one complete line (without its newline).
func (o *outputLog) line(s string) {
	o.tail.add(s)
	if len(s) > maxLineBytes {
		s = s[:maxLineBytes] + "…"
	}
	o.mu.Lock()
	if !o.limit.AllowN(time.Now(), len(s)+1) {
		o.droppedLines++
		o.droppedBytes += len(s) + 1
		o.mu.Unlock()
		return
	}
	lines, bytes := o.droppedLines, o.droppedBytes
	o.droppedLines, o.droppedBytes = 0, 0
	o.mu.Unlock()
	if lines > 0 {
		o.summary(lines, bytes)
	}
	o.emit(s)
}

// flush reports what was dropped since the last summary; called when the
// plugin's output ends.
func (o *outputLog) flush() {
	o.mu.Lock()
	lines, bytes := o.droppedLines, o.droppedBytes
	o.droppedLines, o.droppedBytes = 0, 0
	o.mu.Unlock()
	if lines > 0 {
		o.summary(lines, bytes)
	}
}

func (o *outputLog) summary(lines, bytes int) {
	o.log.Warn("plugin output rate-limited: lines dropped from the log (the crash report still keeps the last lines)",
		"dropped_lines", lines, "dropped_bytes", bytes, "limit_bytes_per_second", stderrRate)
}

// emit logs one line: hclog JSON at its own level (never above warn for
// info-or-lower, and error only when the plugin says error), anything else
// at debug.
func (o *outputLog) emit(s string) {
	if strings.HasPrefix(s, "{") {
		var entry map[string]any
		if json.Unmarshal([]byte(s), &entry) == nil {
			msg, _ := entry["@message"].(string)
			lvl, _ := entry["@level"].(string)
			if level := hclog.LevelFromString(lvl); msg != "" && level != hclog.NoLevel {
				args := make([]any, 0, 2*len(entry))
				for k, v := range entry {
					if !strings.HasPrefix(k, "@") {
						args = append(args, k, v)
					}
				}
				o.log.Log(level, msg, args...)
				return
			}
		}
	}
	o.log.Debug(s)
}
