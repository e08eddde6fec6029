package server

//lint:file-ignore SA1019 MCP logging is deprecated by 2026-07-28 but is how 2025-11-25 clients see the host's events; it stays until that protocol is retired.

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/events"
	"github.com/godot-mcp/godot-mcp/internal/logsummary"
)

// logSendTimeout bounds one logging notification to one session, so a
// stuck client delays only the logging sink's queue, never an action.
const logSendTimeout = 2 * time.Second

// LoggingSink returns the events sink that sends every event as an MCP
// notifications/message to each connected session, honouring the level the
// session chose with logging/setLevel (a session that never set one gets
// nothing, as the spec asks). Sessions of the 2026-07-28 protocol have no
// session level, and the protocol deprecates logging: they get none.
//
// Subscribe it to the bus; the bus runs it on its own goroutine.
func (s *Server) LoggingSink() events.Sink {
	log := s.log.Named("mcp-logging")
	return events.SinkFunc(func(e events.Event) error {
		params := &mcp.LoggingMessageParams{Level: mcp.LoggingLevel(e.Level), Logger: Name, Data: e}
		for ss := range s.mcp.Sessions() {
			ctx, cancel := context.WithTimeout(context.Background(), logSendTimeout)
			err := ss.Log(ctx, params)
			cancel()
			if err != nil {
				// Per session and expected (a session without a stream for
				// unsolicited messages); at debug so it cannot flood.
				log.Debug("logging notification not delivered", "session", ss.ID(), "kind", e.Kind, "error", err)
			}
		}
		return nil
	})
}

// slogHandler sends the go-sdk's slog output to the host's hclog logger.
// The SDK logs every connect and disconnect at info; those become debug so
// the host log stays about decisions. Warnings stay warnings, except one
// kind: the SDK warns once per session for every notification it could not
// deliver, so a toggle with many dead sessions wrote thousands of lines.
// Those are summarised (logsummary, shared with the editor bridge): one
// line per burst, with the count.
type slogHandler struct {
	log   hclog.Logger
	attrs []any
	group string
	fails *logsummary.Limiter // shared by every handler derived from this one
}

func newSlogHandler(log hclog.Logger) *slogHandler {
	return &slogHandler{log: log, fails: newNotifyFailures(log, notifySummaryWindow)}
}

// newNotifyFailures gathers undelivered-notification warnings: none is
// logged by itself, one summary line per window counts them all.
func newNotifyFailures(log hclog.Logger, window time.Duration) *logsummary.Limiter {
	return logsummary.New(log, window, 0)
}

// notifySummaryWindow is how long failures are gathered before the one
// summary line; the SDK sends a toggle's notifications in one loop, well
// within it.
const notifySummaryWindow = time.Second

// notifyFailurePrefix starts the SDK's warning for an undelivered
// notification ("calling notifications/tools/list_changed: …").
const notifyFailurePrefix = "calling notifications/"

// notifyFailureMsg is what the summary says the lines were.
const notifyFailureMsg = "notifications could not be delivered (sessions that are gone or not reading; idle sessions expire)"

func (h *slogHandler) level(l slog.Level) hclog.Level {
	switch {
	case l >= slog.LevelError:
		return hclog.Error
	case l >= slog.LevelWarn:
		return hclog.Warn
	case l >= slog.LevelInfo:
		return hclog.Debug
	}
	return hclog.Trace
}

func (h *slogHandler) Enabled(_ context.Context, l slog.Level) bool {
	return h.log.GetLevel() <= h.level(l) && h.log.GetLevel() != hclog.Off
}

func (h *slogHandler) Handle(_ context.Context, r slog.Record) error {
	if r.Level >= slog.LevelWarn && strings.HasPrefix(r.Message, notifyFailurePrefix) && h.fails != nil {
		h.fails.Log(hclog.Warn, "notify_failure", notifyFailureMsg, "error", r.Message)
		return nil
	}
	args := append([]any(nil), h.attrs...)
	r.Attrs(func(a slog.Attr) bool {
		args = append(args, h.key(a.Key), a.Value.Resolve().Any())
		return true
	})
	h.log.Log(h.level(r.Level), r.Message, args...)
	return nil
}

func (h *slogHandler) key(k string) string {
	if h.group == "" {
		return k
	}
	return h.group + "." + k
}

func (h *slogHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	n := *h
	n.attrs = append([]any(nil), h.attrs...)
	for _, a := range attrs {
		n.attrs = append(n.attrs, h.key(a.Key), a.Value.Resolve().Any())
	}
	return &n
}

func (h *slogHandler) WithGroup(name string) slog.Handler {
	n := *h
	n.group = h.key(name)
	return &n
}
