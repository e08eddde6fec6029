package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// AuthTokenEnv names the environment variable holding the operator's bearer
// token for HTTP. A non-loopback listener refuses to start without a token.
const AuthTokenEnv = "GODOT_MCP_AUTH_TOKEN"

// OperatorPrincipal is the principal of a caller that presents the
// GODOT_MCP_AUTH_TOKEN token. It runs without a profile restriction (the
// operator lists and the transport ceiling still apply). The policy config
// reserves the name, and HTTPHandler refuses a config token with the same
// secret, so no other caller can pass for the operator.
const OperatorPrincipal = config.OperatorPrincipal

// Protocol versions that decide the HTTP route.
const (
	sessionlessVersion  = "2026-07-28"
	protocolHeader      = "Mcp-Protocol-Version"
	metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"
	maxPeekBytes        = mcp.DefaultMaxRequestBodyBytes
	shutdownGrace       = 2 * time.Second
	readHeaderTimeout   = 10 * time.Second
	defaultEndpointPath = "/mcp"
)

// Defaults of the HTTP limits (HTTPOptions); docs/http.md lists them.
const (
	// DefaultSessionTimeout ends a 2025-11-25 session after this long
	// without a request. Clients that go quiet for longer start a new
	// session (the protocol's 404 on an unknown session id tells them to).
	DefaultSessionTimeout = 30 * time.Minute
	// DefaultMaxSessions caps concurrent 2025-11-25 sessions; one user's
	// clients need a handful, so the cap only stops leaks and floods.
	DefaultMaxSessions = 256
	// DefaultBodyTimeout bounds how long a request body may take to arrive.
	// It applies to the body only, never to a response stream.
	DefaultBodyTimeout = 30 * time.Second
	// DefaultIdleTimeout closes keep-alive connections with no request.
	DefaultIdleTimeout = 2 * time.Minute
)

// HTTPOptions configure the streamable HTTP transport.
type HTTPOptions struct {
	// Addr is host:port to listen on. Port 0 picks a free port (see Ready).
	Addr string
	// Path of the MCP endpoint; default "/mcp".
	Path string
	// Token is the operator's bearer token (GODOT_MCP_AUTH_TOKEN); "" for none.
	Token string
	// Principal authenticates the policy config's tokens
	// (config.Config.Principal); nil when there are none. HasPrincipals says
	// whether any are configured, because a non-loopback listener needs at
	// least one token.
	Principal     func(token string) (name, profile string, ok bool)
	HasPrincipals bool
	// AllowedOrigins are extra browser origins (scheme://host[:port]) that
	// may call the endpoint, besides same-origin requests and, on a loopback
	// listener, loopback origins.
	AllowedOrigins []string
	// Ready, if set, is called with the bound address once the listener is
	// open (before any request is served).
	Ready func(net.Addr)

	// SessionTimeout ends idle 2025-11-25 sessions (default
	// DefaultSessionTimeout; negative: never).
	SessionTimeout time.Duration
	// MaxSessions caps concurrent 2025-11-25 sessions (default
	// DefaultMaxSessions; negative: no cap); MaxSessionsPerPrincipal caps
	// those of one principal (default DefaultMaxSessionsPerPrincipal;
	// negative: no cap). A new session beyond a cap evicts the least
	// recently used idle session (the principal's own for its cap), and is
	// refused with 503 only when every session has a request in flight.
	MaxSessions             int
	MaxSessionsPerPrincipal int
	// BodyTimeout bounds the time to receive a request body (default
	// DefaultBodyTimeout). Slow-body clients are cut off after it.
	BodyTimeout time.Duration
	// IdleTimeout closes idle keep-alive connections (default
	// DefaultIdleTimeout).
	IdleTimeout time.Duration
}

func (o HTTPOptions) sessionTimeout() time.Duration {
	switch {
	case o.SessionTimeout < 0:
		return 0 // the go-sdk's "never"
	case o.SessionTimeout == 0:
		return DefaultSessionTimeout
	}
	return o.SessionTimeout
}

func orDefault[T int | time.Duration](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}

func (o HTTPOptions) authRequired() bool { return o.Token != "" || o.HasPrincipals }

// ListenAndServe listens on o.Addr and serves the MCP endpoint until ctx ends.
//
// Safety, in order: a non-loopback address without any bearer token
// refuses to start; every request's Host and Origin are checked against DNS
// rebinding; with tokens configured every request needs a valid bearer
// token (401 otherwise). Requests of the 2026-07-28 protocol go to the SDK's
// sessionless handler, which checks the headers that protocol requires
// (Mcp-Protocol-Version matching the body, Mcp-Method, Mcp-Name); everything
// else goes to the session handler of 2025-11-25.
func (s *Server) ListenAndServe(ctx context.Context, o HTTPOptions) error {
	host, _, err := net.SplitHostPort(o.Addr)
	if err != nil {
		return fmt.Errorf("--http %q: %v; use host:port, e.g. 127.0.0.1:8765", o.Addr, err)
	}
	loopback := isLoopbackHost(host)
	if !loopback && !o.authRequired() {
		return fmt.Errorf("refusing to serve MCP on %s without authentication: a non-loopback address is reachable from other machines; "+
			"set %s to a long random token (or add [[tokens]] to the policy config), or listen on 127.0.0.1", o.Addr, AuthTokenEnv)
	}
	handler, err := s.HTTPHandler(o, loopback)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", o.Addr, err)
	}
	path := o.Path
	if path == "" {
		path = defaultEndpointPath
	}
	mux := http.NewServeMux()
	mux.Handle(path, handler)
	if mh := s.metricsHandler(o, loopback); mh != nil {
		mux.Handle(metricsPath, mh)
	}
	hs := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: readHeaderTimeout,
		// No ReadTimeout or WriteTimeout: they would also cut the
		// long-lived response streams (GET listen, subscriptions/listen).
		// Request bodies get their own deadline (bodyDeadline).
		IdleTimeout: orDefault(o.IdleTimeout, DefaultIdleTimeout),
		ErrorLog:    s.log.Named("http").StandardLogger(nil),
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	s.log.Info("serving MCP over streamable HTTP", "url", "http://"+ln.Addr().String()+path, "auth", o.authRequired())
	if o.Ready != nil {
		o.Ready(ln.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Listen streams never end on their own: give in-flight calls a moment,
	// then close every connection.
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// HTTPHandler returns the endpoint handler (without a listener), for
// embedding and tests. loopback says whether the listener is loopback-only.
func (s *Server) HTTPHandler(o HTTPOptions, loopback bool) (http.Handler, error) {
	for _, origin := range o.AllowedOrigins {
		if _, err := url.Parse(origin); err != nil || !strings.Contains(origin, "://") {
			return nil, fmt.Errorf("allowed origin %q is not scheme://host[:port]", origin)
		}
	}
	if o.Token != "" && o.Principal != nil {
		// The operator token is checked first, so a config token with the
		// same secret would silently run as the operator, without its
		// profile. Only the token's name is reported, never the secret.
		if name, _, ok := o.Principal(o.Token); ok {
			return nil, fmt.Errorf("refusing to serve MCP over HTTP: the policy config's token %q has the same secret as %s; "+
				"give every token its own secret (callers could not be told apart, and that token would bypass its profile)", name, AuthTokenEnv)
		}
	}
	slogger := slog.New(newSlogHandler(s.log.Named("http")))
	getServer := func(*http.Request) *mcp.Server { return s.mcp }
	sessions := mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{
		Logger:         slogger,
		SessionTimeout: o.sessionTimeout(),
	})
	caps := newSessionCaps(s.mcp, orDefault(o.MaxSessions, DefaultMaxSessions), orDefault(o.MaxSessionsPerPrincipal, DefaultMaxSessionsPerPrincipal))
	sessionless := mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{
		Logger:    slogger,
		Stateless: true,
		// A client that drops a 2026-07-28 request cancels it, and with it
		// the plugin call.
		PropagateRequestCancellation: true,
	})
	var h http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if v := r.Header.Get(protocolHeader); v != "" && !slices.Contains(mcp.SupportedProtocolVersions(), v) {
			refuseVersion(w, r, v)
			return
		}
		if sessionlessRequest(r) {
			sessionless.ServeHTTP(w, r)
			return
		}
		caps.serve(w, r, sessions)
	})
	if o.authRequired() {
		h = auth.RequireBearerToken(o.verifier(), &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(h)
		h = bearerChallenge(h)
	}
	h = bodyDeadline(h, orDefault(o.BodyTimeout, DefaultBodyTimeout))
	return guard(h, loopback, o.AllowedOrigins), nil
}

// refuseVersion answers a request whose Mcp-Protocol-Version this server
// does not speak as the 2026-07-28 schema wants (SEP-2575): HTTP 400 with a
// JSON-RPC error -32022 whose data lists the supported versions, so a
// client can pick one instead of parsing prose. The id is the request's
// when its body has one, else null; a huge version is not echoed whole.
func refuseVersion(w http.ResponseWriter, r *http.Request, v string) {
	id := json.RawMessage("null")
	if r.Method == http.MethodPost && r.Body != nil {
		body, _ := io.ReadAll(io.LimitReader(r.Body, maxPeekBytes))
		var msg struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(body, &msg) == nil && len(msg.ID) > 0 && (msg.ID[0] == '"' || msg.ID[0] == '-' || (msg.ID[0] >= '0' && msg.ID[0] <= '9')) {
			id = msg.ID
		}
	}
	supported := mcp.SupportedProtocolVersions()
	data, _ := json.Marshal(mcp.UnsupportedProtocolVersionData{Supported: supported, Requested: cutInput(v)})
	resp, _ := json.Marshal(rpcErrorResponse{JSONRPC: "2.0", ID: id, Error: rpcError{
		Code: mcp.CodeUnsupportedProtocolVersion,
		Message: fmt.Sprintf("unsupported %s %s; send one of the versions this server speaks: %s",
			protocolHeader, sdk.QuoteInput(v), strings.Join(supported, ", ")),
		Data: data,
	}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(resp)
}

// rpcErrorResponse is a JSON-RPC error answer written before the go-sdk
// sees the request.
type rpcErrorResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   rpcError        `json:"error"`
}

type rpcError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// cutInput cuts a caller-supplied string to the length sdk.QuoteInput
// shows, unquoted, for a JSON field.
func cutInput(v string) string {
	const max = 64
	if len(v) <= max {
		return v
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	return v[:cut] + "…"
}

// sessionCount counts the open MCP sessions.
func (s *Server) sessionCount() int {
	n := 0
	for range s.mcp.Sessions() {
		n++
	}
	return n
}

// bearerChallenge makes every 401 carry the WWW-Authenticate challenge
// RFC 6750 requires, so clients know to send a bearer token.
func bearerChallenge(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(&challengeWriter{ResponseWriter: w, hadToken: r.Header.Get("Authorization") != ""}, r)
	})
}

type challengeWriter struct {
	http.ResponseWriter
	hadToken bool
}

func (c *challengeWriter) WriteHeader(code int) {
	if code == http.StatusUnauthorized && c.Header().Get("WWW-Authenticate") == "" {
		v := `Bearer realm="godot-mcp"`
		if c.hadToken {
			v += `, error="invalid_token"`
		}
		c.Header().Set("WWW-Authenticate", v)
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *challengeWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// bodyDeadline gives a request body d to arrive, then lifts the deadline
// once the body is read, so response streams stay open as long as they
// need. A slow-body client is cut off after d instead of holding a
// connection and a goroutine.
func bodyDeadline(next http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
			next.ServeHTTP(w, r)
			return
		}
		if err := rc.SetReadDeadline(time.Now().Add(d)); err != nil {
			next.ServeHTTP(w, r) // not a net/http connection (tests)
			return
		}
		r.Body = &deadlineBody{ReadCloser: r.Body, lift: func() { _ = rc.SetReadDeadline(time.Time{}) }}
		next.ServeHTTP(w, r)
	})
}

type deadlineBody struct {
	io.ReadCloser
	lift   func()
	lifted bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && !b.lifted {
		b.lifted = true
		b.lift()
	}
	return n, err
}

// sessionlessRequest reports whether r speaks the 2026-07-28 protocol: its
// Mcp-Protocol-Version header says so, or (header missing) its body carries
// the per-request protocol version in _meta. The second case goes to the
// sessionless handler too, so the client is told the header is required
// rather than that the version is unsupported.
func sessionlessRequest(r *http.Request) bool {
	if v := r.Header.Get(protocolHeader); v != "" {
		// Only supported versions get here (HTTPHandler checks), and they
		// are dates, so they order as strings do.
		return v >= sessionlessVersion
	}
	if r.Method != http.MethodPost || r.Body == nil {
		return false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxPeekBytes+1))
	r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), r.Body))
	if err != nil {
		return false
	}
	var msg struct {
		Params struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &msg) != nil {
		return false
	}
	_, ok := msg.Params.Meta[metaProtocolVersion]
	return ok
}

// verifier authenticates a bearer token: the operator token first, then
// the policy config's tokens, both compared in constant time. The result
// records whether the peer is on loopback, for the transport ceiling.
func (o HTTPOptions) verifier() auth.TokenVerifier {
	var opDigest [sha256.Size]byte
	if o.Token != "" {
		opDigest = sha256.Sum256([]byte(o.Token))
	}
	return func(_ context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
		loop := isLoopbackRemote(r.RemoteAddr)
		if o.Token != "" {
			got := sha256.Sum256([]byte(token))
			if subtle.ConstantTimeCompare(got[:], opDigest[:]) == 1 {
				return tokenInfo(OperatorPrincipal, "", loop), nil
			}
		}
		if o.Principal != nil {
			if name, profile, ok := o.Principal(token); ok {
				return tokenInfo(name, profile, loop), nil
			}
		}
		return nil, fmt.Errorf("%w: the bearer token matches neither %s nor a token of the policy config", auth.ErrInvalidToken, AuthTokenEnv)
	}
}

// guard rejects requests a browser could have been tricked into sending
// (DNS rebinding, cross-site requests): on a loopback listener the Host
// header must name a loopback host; and an Origin header, when present,
// must be the endpoint's own origin, an allowed origin, or (on a loopback
// listener) a loopback origin. Clients that are not browsers send no
// Origin and are unaffected.
func guard(next http.Handler, loopback bool, allowed []string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if loopback && !isLoopbackHost(hostOnly(r.Host)) {
			http.Error(w, fmt.Sprintf("Forbidden: Host %q is not a loopback name; this server only answers requests addressed to localhost", r.Host), http.StatusForbidden)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !originAllowed(origin, r.Host, loopback, allowed) {
			http.Error(w, fmt.Sprintf("Forbidden: Origin %q may not call this MCP endpoint; add it to the allowed origins if it is yours", origin), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func originAllowed(origin, host string, loopback bool, allowed []string) bool {
	if slices.Contains(allowed, origin) {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false // "null" and other opaque origins
	}
	if u.Host == host {
		return true // same origin
	}
	return loopback && isLoopbackHost(u.Hostname())
}

func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}

func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

func isLoopbackRemote(remote string) bool {
	return isLoopbackHost(hostOnly(remote))
}
