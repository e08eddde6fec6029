package server

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxSessionsPerPrincipal caps the 2025-11-25 sessions one
// principal (one token, or every unauthenticated local caller together)
// may hold, a quarter of DefaultMaxSessions: one low-privilege token can
// then never fill the shared cap and lock the operator out.
const DefaultMaxSessionsPerPrincipal = 64

// anonymous keys the sessions of callers without a token (a loopback
// listener without authentication).
const anonymous = ""

// sessionCaps admits new 2025-11-25 sessions. It knows every session the
// HTTP handler created, whose principal opened it, when it was last used
// and how many requests it has in flight (a POST, or the GET stream a
// listening client keeps open). A new session past a cap first evicts the
// least recently used idle session (no request in flight) — the
// principal's own when its cap is reached, anyone's when the shared cap
// is — and is refused only when none is idle: abandoned sessions no longer
// make live clients wait for the idle timeout.
type sessionCaps struct {
	srv          *mcp.Server
	max, perUser int // <= 0: no cap

	mu       sync.Mutex
	sessions map[string]*trackedSession
	pending  map[string]int // new sessions being created, per principal
}

type trackedSession struct {
	principal string
	lastUsed  time.Time
	inflight  int
}

func newSessionCaps(srv *mcp.Server, max, perUser int) *sessionCaps {
	return &sessionCaps{srv: srv, max: max, perUser: perUser,
		sessions: map[string]*trackedSession{}, pending: map[string]int{}}
}

func principalOf(r *http.Request) string {
	if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
		return ti.UserID
	}
	return anonymous
}

// serve runs one request of the session handler next under the caps.
func (c *sessionCaps) serve(w http.ResponseWriter, r *http.Request, next http.Handler) {
	if id := r.Header.Get("Mcp-Session-Id"); id != "" {
		c.begin(id)
		defer c.end(id)
		next.ServeHTTP(w, r)
		return
	}
	if r.Method != http.MethodPost {
		next.ServeHTTP(w, r)
		return
	}
	principal := principalOf(r)
	if refusal := c.admit(principal); refusal != "" {
		w.Header().Set("Retry-After", "30")
		http.Error(w, refusal, http.StatusServiceUnavailable)
		return
	}
	sw := &sessionIDWriter{ResponseWriter: w}
	defer func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.pending[principal]--
		if c.pending[principal] == 0 {
			delete(c.pending, principal)
		}
		if sw.id != "" && c.live(sw.id) {
			c.sessions[sw.id] = &trackedSession{principal: principal, lastUsed: time.Now()}
		}
	}()
	next.ServeHTTP(sw, r)
}

func (c *sessionCaps) begin(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.sessions[id]; ok {
		s.inflight++
		s.lastUsed = time.Now()
	}
}

func (c *sessionCaps) end(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.sessions[id]; ok {
		s.inflight--
		s.lastUsed = time.Now()
	}
}

// live reports whether the go-sdk still holds the session; c.mu is held.
func (c *sessionCaps) live(id string) bool {
	for ss := range c.srv.Sessions() {
		if ss.ID() == id {
			return true
		}
	}
	return false
}

// admit reserves a slot for a new session of principal, evicting idle
// sessions as needed, or returns why it cannot.
func (c *sessionCaps) admit(principal string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	open := c.prune()
	if c.perUser > 0 && c.count(principal)+c.pending[principal] >= c.perUser {
		if !c.evictWhere(func(s *trackedSession) bool { return s.principal == principal }) {
			return fmt.Sprintf("Service Unavailable: %s has %d MCP sessions open, the most one principal may hold, and none is idle; "+
				"close unused clients of this token, or raise the limit (--max-sessions-per-principal)", principalName(principal), c.perUser)
		}
		open--
	}
	if c.max > 0 && open+c.pendingTotal() >= c.max {
		if !c.evictWhere(func(*trackedSession) bool { return true }) {
			return fmt.Sprintf("Service Unavailable: %d MCP sessions are open, the most this server allows, and none is idle; "+
				"close unused clients, or raise the limit (--max-sessions)", c.max)
		}
	}
	c.pending[principal]++
	return ""
}

func principalName(p string) string {
	if p == anonymous {
		return "the local caller (no token)"
	}
	return fmt.Sprintf("principal %q", p)
}

// prune forgets sessions the go-sdk has ended (idle timeout, DELETE) and
// returns how many are open; c.mu is held.
func (c *sessionCaps) prune() int {
	alive := map[string]bool{}
	for ss := range c.srv.Sessions() {
		alive[ss.ID()] = true
	}
	for id := range c.sessions {
		if !alive[id] {
			delete(c.sessions, id)
		}
	}
	return len(c.sessions)
}

func (c *sessionCaps) count(principal string) int {
	n := 0
	for _, s := range c.sessions {
		if s.principal == principal {
			n++
		}
	}
	return n
}

func (c *sessionCaps) pendingTotal() int {
	n := 0
	for _, v := range c.pending {
		n += v
	}
	return n
}

// evictWhere closes the least recently used idle session that match
// accepts and reports whether there was one; c.mu is held.
func (c *sessionCaps) evictWhere(match func(*trackedSession) bool) bool {
	var victim string
	var oldest time.Time
	for id, s := range c.sessions {
		if s.inflight > 0 || !match(s) {
			continue
		}
		if victim == "" || s.lastUsed.Before(oldest) {
			victim, oldest = id, s.lastUsed
		}
	}
	if victim == "" {
		return false
	}
	delete(c.sessions, victim)
	for ss := range c.srv.Sessions() {
		if ss.ID() == victim {
			// Closing runs the go-sdk's own cleanup; the client's next
			// request gets 404 and, as the protocol says, a new session.
			go ss.Close()
			break
		}
	}
	return true
}

// sessionIDWriter records the session id the go-sdk assigns in its answer.
type sessionIDWriter struct {
	http.ResponseWriter
	id string
}

func (w *sessionIDWriter) WriteHeader(code int) {
	if w.id == "" {
		w.id = w.Header().Get("Mcp-Session-Id")
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *sessionIDWriter) Write(b []byte) (int, error) {
	if w.id == "" {
		w.id = w.Header().Get("Mcp-Session-Id")
	}
	return w.ResponseWriter.Write(b)
}

func (w *sessionIDWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *sessionIDWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
