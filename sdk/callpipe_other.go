//go:build !unix

package sdk

import (
	"errors"
	"net"
)

// callPipeConn refuses: the host passes a call pipe on Unix only.
func callPipeConn(string) (net.Conn, error) {
	return nil, errors.New("the call pipe is only served on Unix")
}
