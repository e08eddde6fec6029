package bridge

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// Environment variables the host and the addon share: the addon reads the
// same two, so one setting points both ends at each other.
const (
	URLEnv   = "GODOT_MCP_BRIDGE_URL"
	TokenEnv = "GODOT_MCP_BRIDGE_TOKEN"
)

// DefaultURL is where the addon dials when GODOT_MCP_BRIDGE_URL is unset.
const DefaultURL = "ws://127.0.0.1:9080"

// defaultPort is the port of a URL that names none.
const defaultPort = "9080"

// listenAddress turns a bridge URL into the host:port to listen on and
// whether it is loopback. Like the reference server it listens on the URL's
// host and port and ignores the path; "localhost" becomes 127.0.0.1 because
// the addon dials IPv4 and would miss a listener on ::1.
func listenAddress(raw string) (addr string, loopback bool, err error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", false, fmt.Errorf("bridge URL %q: %v", raw, err)
	}
	if u.Scheme != "ws" {
		// wss would need a certificate the addon has no way to trust.
		return "", false, fmt.Errorf("bridge URL %q: the scheme must be ws:// (the addon dials plain WebSocket), e.g. %s", raw, DefaultURL)
	}
	host, port := u.Hostname(), u.Port()
	if host == "" {
		return "", false, fmt.Errorf("bridge URL %q names no host; use e.g. %s", raw, DefaultURL)
	}
	if port == "" {
		port = defaultPort
	}
	if strings.EqualFold(host, "localhost") {
		host = "127.0.0.1"
	}
	ip := net.ParseIP(host)
	loopback = ip != nil && ip.IsLoopback()
	return net.JoinHostPort(host, port), loopback, nil
}
