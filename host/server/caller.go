package server

import (
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/exposure"
)

// Keys of auth.TokenInfo.Extra set by the HTTP token verifier.
const (
	extraProfile  = "profile"
	extraLoopback = "loopback"
)

// clientInfoer is implemented by every *mcp.ServerRequest; it reads the
// client's identity from the session (2025-11-25) or the request's _meta
// (2026-07-28).
type clientInfoer interface {
	ClientInfo() *mcp.Implementation
}

// caller works out who sent req, the input of every exposure decision:
//
//   - an HTTP request carries the bearer token's principal and profile (set
//     by the token verifier) and whether the peer is on loopback;
//   - an HTTP request without a token reached a loopback-only listener (the
//     server refuses to listen elsewhere without a token): someone on this
//     machine, like the stdio client, so it runs as the configured local
//     profile too; with no profile it would escape the one the operator set;
//   - anything else is the local transport: stdio, or cli for `godot-mcp
//     call`, running as the configured local profile.
func (s *Server) caller(req mcp.Request) exposure.Caller {
	var c exposure.Caller
	extra := req.GetExtra()
	switch {
	case extra != nil && extra.TokenInfo != nil:
		c = exposure.Caller{Transport: exposure.TransportHTTP, Principal: extra.TokenInfo.UserID}
		c.Profile, _ = extra.TokenInfo.Extra[extraProfile].(string)
		c.Loopback, _ = extra.TokenInfo.Extra[extraLoopback].(bool)
	case extra != nil && extra.Header != nil:
		c = exposure.Caller{Transport: exposure.TransportHTTP, Loopback: true, Profile: s.opts.LocalProfile}
	default:
		c = exposure.Caller{Transport: s.opts.LocalTransport, Profile: s.opts.LocalProfile}
	}
	if ci, ok := req.(clientInfoer); ok {
		if info := ci.ClientInfo(); info != nil {
			c.ClientName = info.Name
		}
	}
	return c
}

// tokenInfo builds the auth.TokenInfo the HTTP verifier hands to the SDK.
func tokenInfo(principal, profile string, loopback bool) *auth.TokenInfo {
	return &auth.TokenInfo{
		UserID: principal,
		Extra:  map[string]any{extraProfile: profile, extraLoopback: loopback},
	}
}
