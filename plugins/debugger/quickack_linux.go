//go:build linux

package main

import (
	"io"
	"net"
	"syscall"
)

// quickAck wraps the game's connection so every read re-arms
// TCP_QUICKACK. Godot writes a Godot 3 message as several small packets
// with Nagle's algorithm on; with Linux's delayed ACKs each message
// would wait about 40 ms for our ACK before the game sent the rest of it.
func quickAck(c net.Conn) io.Reader {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return c
	}
	raw, err := tc.SyscallConn()
	if err != nil {
		return c
	}
	return &ackReader{c: c, raw: raw}
}

type ackReader struct {
	c   net.Conn
	raw syscall.RawConn
}

func (a *ackReader) Read(p []byte) (int, error) {
	n, err := a.c.Read(p)
	_ = a.raw.Control(func(fd uintptr) {
		_ = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_QUICKACK, 1)
	})
	return n, err
}
