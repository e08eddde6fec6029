// Package logsummary keeps one kind of log line from flooding the host
// log. Per kind, the first Burst lines of each window are logged as they
// come; the rest are counted, and when the window ends one summary line
// says how many were suppressed, with the first suppressed line's fields
// as an example:
//
//	suppressed 199995 similar log lines in the last 1m0s: editor bridge: dropped a frame from the editor
//
// A flood of anything a peer can make the host log (junk frames, stray
// requests, undeliverable notifications) then costs the log a few lines per
// window instead of its volume, and nothing is hidden: the count says how
// much happened.
//
//	lim := logsummary.New(log, time.Minute, 5)
//	defer lim.Close() // the last summaries
//	lim.Log(hclog.Warn, "bad_frame", "dropped a frame", "frame", excerpt)
package logsummary

import (
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
)

// Limiter rate-limits log lines by kind. Its methods are safe for
// concurrent use.
type Limiter struct {
	log    hclog.Logger
	window time.Duration
	burst  int

	mu     sync.Mutex
	kinds  map[string]*kind
	closed bool
}

// kind is one kind's current window.
type kind struct {
	start      time.Time
	level      hclog.Level // the highest level seen, for the summary
	msg        string      // the window's first message, which the summary names
	logged     int
	suppressed int
	example    []any // the first suppressed line's fields
	timer      *time.Timer
}

// New returns a Limiter logging to log at most burst lines of each kind per
// window (burst 0: none, only the summary).
func New(log hclog.Logger, window time.Duration, burst int) *Limiter {
	return &Limiter{log: log, window: window, burst: max(burst, 0), kinds: map[string]*kind{}}
}

// Log logs msg with args at level, unless burst lines of kind were already
// logged in the current window; then it is counted for the summary. Lines
// below the logger's level are neither logged nor counted. It reports
// whether the line was logged.
func (l *Limiter) Log(level hclog.Level, kindName, msg string, args ...any) bool {
	if lv := l.log.GetLevel(); lv == hclog.Off || lv > level {
		return false
	}
	now := time.Now()
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		l.log.Log(level, msg, args...)
		return true
	}
	k := l.kinds[kindName]
	if k != nil && k.suppressed == 0 && now.Sub(k.start) >= l.window {
		k = nil // a quiet window ended; nothing to summarise
	}
	if k == nil {
		k = &kind{start: now, level: level, msg: msg}
		l.kinds[kindName] = k
	}
	k.level = max(k.level, level)
	if k.logged < l.burst {
		k.logged++
		l.mu.Unlock()
		l.log.Log(level, msg, args...)
		return true
	}
	k.suppressed++
	if k.suppressed == 1 {
		k.example = append([]any(nil), args...)
		// Summarise when the window ends: a flood that stops still gets
		// its count into the log.
		k.timer = time.AfterFunc(max(l.window-now.Sub(k.start), 0), func() { l.flushKind(kindName, k) })
	}
	l.mu.Unlock()
	return false
}

// flushKind ends k's window, if it is still kindName's current one.
func (l *Limiter) flushKind(kindName string, k *kind) {
	l.mu.Lock()
	if l.kinds[kindName] != k {
		l.mu.Unlock()
		return
	}
	delete(l.kinds, kindName)
	l.mu.Unlock()
	l.summarise(k, l.window)
}

// Flush ends every window now and logs the summaries of what was
// suppressed in them.
func (l *Limiter) Flush() {
	l.mu.Lock()
	kinds := l.kinds
	l.kinds = map[string]*kind{}
	l.mu.Unlock()
	now := time.Now()
	for _, name := range slices.Sorted(maps.Keys(kinds)) {
		k := kinds[name]
		if k.timer != nil {
			k.timer.Stop()
		}
		l.summarise(k, min(now.Sub(k.start), l.window))
	}
}

// Close flushes, and lets every later line through unlimited (a closing
// component logs a few last lines, and there is no window left to count
// them in).
func (l *Limiter) Close() {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
	l.Flush()
}

func (l *Limiter) summarise(k *kind, span time.Duration) {
	if k.suppressed == 0 {
		return
	}
	args := make([]any, 0, 2+len(k.example))
	args = append(args, "suppressed", k.suppressed)
	for i := 0; i+1 < len(k.example); i += 2 {
		args = append(args, fmt.Sprintf("first_%v", k.example[i]), k.example[i+1])
	}
	l.log.Log(k.level, fmt.Sprintf("suppressed %d similar log lines in the last %s: %s", k.suppressed, roundSpan(span), k.msg), args...)
}

// roundSpan makes a window readable ("1m0s", "2.5s", not "2.500134871s").
func roundSpan(d time.Duration) time.Duration {
	switch {
	case d >= 10*time.Second:
		return d.Round(time.Second)
	case d >= 100*time.Millisecond:
		return d.Round(100 * time.Millisecond)
	}
	return max(d.Round(time.Millisecond), time.Millisecond)
}
