package server

import (
	"strings"
	"testing"
)

// A config token whose secret is the operator's token would run as the
// operator, without its profile: the HTTP endpoint refuses to start, naming
// the token but never the secret.
func TestConfigTokenMayNotEqualOperatorToken(t *testing.T) {
	const secret = "s3cret-operator-token"
	principal := func(tok string) (string, string, bool) {
		if tok == secret {
			return "ci-bot", "ci", true
		}
		return "", "", false
	}
	e := newEnv(t, envOptions{godot: "4.5"})
	_, err := e.srv.HTTPHandler(HTTPOptions{Token: secret, Principal: principal, HasPrincipals: true}, true)
	if err == nil {
		t.Fatal("HTTPHandler accepted a config token equal to the operator token")
	}
	if msg := err.Error(); !strings.Contains(msg, `"ci-bot"`) || !strings.Contains(msg, AuthTokenEnv) || strings.Contains(msg, secret) {
		t.Fatalf("error %q should name the token and %s, and not show the secret", msg, AuthTokenEnv)
	}
	if _, err := e.srv.HTTPHandler(HTTPOptions{Token: "another-token", Principal: principal, HasPrincipals: true}, true); err != nil {
		t.Fatalf("distinct secrets refused: %v", err)
	}
}
