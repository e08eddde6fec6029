package bridge

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// The per-install bridge token. `godot-mcp bridge-token` creates it once,
// with a random value, in a file only its owner can read; from then on every
// `godot-mcp serve` of that user (with GODOT_MCP_BRIDGE_TOKEN unset) requires
// it from the editor, and a launcher passes it to the editor with
//
//	GODOT_MCP_BRIDGE_TOKEN="$(godot-mcp bridge-token)" godot --editor --path PROJECT
//
// It is opt-in because the addon reads its token only from its environment
// (or its start() argument): an editor started from a desktop icon or the
// project manager has none, and must keep working out of the box. Web pages
// are kept out without it (guard); the token keeps out other local users
// and their processes, which the loopback checks cannot tell from the addon.

// TokenCommand is the command that prints the per-install token, for
// messages that say how to pass it.
const TokenCommand = "godot-mcp bridge-token"

// tokenBytes is the token's entropy; it is written hex-encoded.
const tokenBytes = 32

// DefaultTokenFile is where the per-install token lives:
// os.UserConfigDir()/godot-mcp/bridge-token.
func DefaultTokenFile() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", &sdk.Error{Code: sdk.CodePreconditionFailed,
			Message: "no user configuration directory for the bridge token file: " + err.Error(),
			Hint:    "set HOME (or XDG_CONFIG_HOME), or pass the token in " + TokenEnv + " instead"}
	}
	return filepath.Join(dir, "godot-mcp", "bridge-token"), nil
}

// ReadTokenFile returns the token stored at path; ok is false when there is
// no such file (the token is not turned on). A file others can read, or an
// empty one, is an error: it would protect nothing.
func ReadTokenFile(path string) (token string, ok bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, &sdk.Error{Code: sdk.CodePreconditionFailed, Message: "reading the bridge token file: " + err.Error(),
			Hint: "make " + path + " readable by this user, or delete it to turn the bridge token off"}
	}
	if err := checkPrivate(path); err != nil {
		return "", false, err
	}
	token = strings.TrimSpace(string(data))
	if token == "" {
		return "", false, &sdk.Error{Code: sdk.CodePreconditionFailed, Message: "the bridge token file " + path + " is empty",
			Hint: "run `" + TokenCommand + " --reset` to write a new token, or delete the file to turn the bridge token off"}
	}
	return token, true, nil
}

// EnsureTokenFile returns the token at path, first writing a new random
// one when there is none or reset is set. The file is created 0600 in a
// 0700 directory; a new token replaces the old one atomically.
func EnsureTokenFile(path string, reset bool) (string, error) {
	if !reset {
		if tok, ok, err := ReadTokenFile(path); ok || err != nil {
			return tok, err
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", tokenWriteError(path, err)
	}
	buf := make([]byte, tokenBytes)
	if _, err := rand.Read(buf); err != nil {
		return "", tokenWriteError(path, err)
	}
	token := hex.EncodeToString(buf)
	tmp, err := os.CreateTemp(filepath.Dir(path), ".bridge-token-*")
	if err != nil {
		return "", tokenWriteError(path, err)
	}
	defer os.Remove(tmp.Name()) // after the rename, nothing is left to remove
	// CreateTemp makes the file 0600 already; Chmod says so where a umask
	// or platform might not.
	if err := tmp.Chmod(0o600); err != nil && runtime.GOOS != "windows" {
		tmp.Close()
		return "", tokenWriteError(path, err)
	}
	if _, err := tmp.WriteString(token + "\n"); err != nil {
		tmp.Close()
		return "", tokenWriteError(path, err)
	}
	if err := tmp.Close(); err != nil {
		return "", tokenWriteError(path, err)
	}
	if !reset {
		// Two first calls at once must agree on one token: the first link
		// wins, and the loser reads it.
		if err := os.Link(tmp.Name(), path); err == nil {
			return token, nil
		} else if !errors.Is(err, fs.ErrExist) {
			if err := os.Rename(tmp.Name(), path); err != nil { // no hard links here
				return "", tokenWriteError(path, err)
			}
			return token, nil
		}
		tok, _, err := ReadTokenFile(path)
		return tok, err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", tokenWriteError(path, err)
	}
	return token, nil
}

func tokenWriteError(path string, err error) error {
	return &sdk.Error{Code: sdk.CodePreconditionFailed, Message: "writing the bridge token file " + path + ": " + err.Error(),
		Hint: "make its directory writable by this user, or pass a token in " + TokenEnv + " instead"}
}

// checkPrivate refuses a token file that anyone but its owner may read.
// Windows has no such mode bits; its user profile directory is private.
func checkPrivate(path string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	fi, err := os.Stat(path)
	if err != nil {
		return &sdk.Error{Code: sdk.CodePreconditionFailed, Message: "reading the bridge token file: " + err.Error(),
			Hint: "check " + path}
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return &sdk.Error{Code: sdk.CodePreconditionFailed,
			Message: fmt.Sprintf("the bridge token file %s may be read by other users (mode %04o), so it keeps nobody out", path, perm),
			Hint:    fmt.Sprintf("run `chmod 600 %s`, or `%s --reset` to write a new token privately, then restart the editor with the new token", path, TokenCommand)}
	}
	return nil
}
