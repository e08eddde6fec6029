// Package callpipe carries tool calls between the godot-mcp host and a
// toolset plugin over a private stream socket, beside go-plugin's gRPC
// connection.
//
// Why it exists: a tools/call crosses three processes (the MCP client, the
// host, the plugin) on a machine that may have two CPUs. Over gRPC the hop
// from the host to the plugin and back costs three goroutine hand-offs per
// direction (the caller hands the frame to grpc-go's writer goroutine, the
// peer's reader hands it to the handler), each a thread wake-up, and it was
// most of what a call through the host cost beyond a plain MCP server
// (docs/PERFORMANCE.md). Here the caller writes its frame itself; on the
// plugin's end the goroutine that reads a call runs it and writes the
// result itself, having handed the reading to an idle worker; on the
// host's end the caller reads its own result, so with one call in flight
// the result wakes the goroutine that waits for it and no other.
//
// How it is set up (docs/plugin-protocol.md §7): the host creates a socket
// pair when it starts a plugin and passes one end as an inherited descriptor
// whose number is in GODOT_MCP_CALL_FD. A plugin that serves the pipe says so
// in its ConfigureResponse (call_pipe); from then on the host sends calls
// there. Everything else (Describe, Configure, the host services, the health
// check) stays on gRPC, and a plugin that ignores the descriptor is called
// over gRPC as before. The socket pair is private to the two processes: no
// path, no listener, nothing another user could connect to.
//
// # Frames
//
// Every frame is a 13-byte header and a payload:
//
//	length  uint32, big-endian: payload bytes
//	kind    uint8 (Kind)
//	call id uint64, big-endian: chosen by the host, unique per connection
//	payload length bytes
//
// The host sends KindCall (payload: a protobuf CallRequest) and KindCancel
// (no payload: the caller gave up). The plugin answers each call with zero
// or more KindEvent frames (payload: a protobuf CallEvent) of which the
// last, and only the last, holds the result; or with one KindFail frame
// (payload: UTF-8 text) when it cannot run the call at all, such as an
// unknown tool. After a cancel the plugin may send nothing more for that id;
// the host discards whatever still arrives.
//
// The same pipe carries the plugin's calls to the host's services
// (HostWorkspace, HostEditor, HostLog) made while a call runs, so a headless
// edit's workspace commit skips the gRPC broker too. The plugin sends
// KindHostCall (payload: the gRPC method name, e.g.
// "/godotmcp.toolset.v1.HostWorkspace/Commit", as a big-endian uint16
// length and the name, then the protobuf request) and KindHostCancel; the
// host answers with KindHostReply (the protobuf response) or KindHostFail
// (UTF-8 text). Host calls have their own ids, chosen by the plugin. A
// plugin may make host calls on the pipe only while it runs a call that
// came over the pipe: before that the host may not be reading yet.
//
// A frame of an unknown kind, or larger than MaxFrameBytes, breaks the
// connection: the other side cannot know where the next frame starts.
package callpipe

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"

	"github.com/godot-mcp/godot-mcp/sdk/wire"
)

// FDEnv names the environment variable through which the host tells a
// plugin the number of the inherited descriptor holding its end of the call
// pipe. A plugin that does not serve the pipe ignores it.
const FDEnv = "GODOT_MCP_CALL_FD"

// Kind is the type of a frame.
type Kind uint8

// The frame kinds; see the package documentation.
const (
	KindCall   Kind = 1 // host → plugin: a CallRequest
	KindCancel Kind = 2 // host → plugin: the caller gave up on the call
	KindEvent  Kind = 3 // plugin → host: a CallEvent; the one with the result ends the call
	KindFail   Kind = 4 // plugin → host: why the plugin could not run the call

	KindHostCall   Kind = 5 // plugin → host: a call of a host service
	KindHostCancel Kind = 6 // plugin → host: the plugin gave up on its host call
	KindHostReply  Kind = 7 // host → plugin: the host service's response
	KindHostFail   Kind = 8 // host → plugin: why the host call failed
)

func (k Kind) String() string {
	switch k {
	case KindCall:
		return "call"
	case KindCancel:
		return "cancel"
	case KindEvent:
		return "event"
	case KindFail:
		return "fail"
	case KindHostCall:
		return "host call"
	case KindHostCancel:
		return "host cancel"
	case KindHostReply:
		return "host reply"
	case KindHostFail:
		return "host fail"
	}
	return fmt.Sprintf("kind %d", uint8(k))
}

// headerBytes is the size of a frame header.
const headerBytes = 13

// MaxFrameBytes bounds the payload of every frame, in both directions: the
// same bound as every gRPC message between host and plugin.
const MaxFrameBytes = wire.MaxMessageBytes

// readBufferBytes is the size of each side's read buffer: a small call or
// result is read with one system call.
const readBufferBytes = 64 << 10

// ErrClosed is wrapped by every error that means the connection is gone
// (the peer exited or closed it, or it broke the protocol). No call on it
// can succeed any more.
var ErrClosed = errors.New("call pipe closed")

// header is a decoded frame header.
type header struct {
	size uint32
	kind Kind
	id   uint64
}

// readHeader reads one frame header from r into buf.
func readHeader(r *bufio.Reader, buf *[headerBytes]byte) (header, error) {
	if _, err := io.ReadFull(r, buf[:]); err != nil {
		return header{}, err
	}
	return header{
		size: binary.BigEndian.Uint32(buf[0:4]),
		kind: Kind(buf[4]),
		id:   binary.BigEndian.Uint64(buf[5:13]),
	}, nil
}

// readPayload reads a frame's payload of h.size bytes.
func readPayload(r *bufio.Reader, h header) ([]byte, error) {
	b := make([]byte, h.size)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, err
	}
	return b, nil
}

// discard skips a payload that will not be used, so the next header is read
// from the right place.
func discard(r *bufio.Reader, h header) error {
	_, err := r.Discard(int(h.size))
	return err
}

// frameWriter writes whole frames to a connection shared by several
// goroutines. A frame goes out in one writev: header and payload are never
// copied into one buffer, and frames never interleave.
type frameWriter struct {
	mu   sync.Mutex
	conn net.Conn
	hdr  [headerBytes]byte // guarded by mu
}

func (w *frameWriter) write(kind Kind, id uint64, payload []byte) error {
	if len(payload) > MaxFrameBytes {
		return fmt.Errorf("a %s frame of %d bytes is larger than the %d MiB a frame may hold", kind, len(payload), MaxFrameBytes>>20)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	binary.BigEndian.PutUint32(w.hdr[0:4], uint32(len(payload)))
	w.hdr[4] = byte(kind)
	binary.BigEndian.PutUint64(w.hdr[5:13], id)
	bufs := net.Buffers{w.hdr[:]}
	if len(payload) > 0 {
		bufs = append(bufs, payload)
	}
	_, err := bufs.WriteTo(w.conn)
	return err
}
