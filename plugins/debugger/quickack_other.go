//go:build !linux

package main

import (
	"io"
	"net"
)

func quickAck(c net.Conn) io.Reader { return c }
