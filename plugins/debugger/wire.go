package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// The remote debugger's framing: every packet is a 32-bit little-endian
// length and that many bytes of one encoded Variant (PacketPeerStream in
// Godot 3, RemoteDebuggerPeerTCP in Godot 4).
//
// Godot 3.2 (core/script_debugger_remote.cpp) sends a message as separate
// packets: the message name, the number of values, then each value. It
// reads a command as one packet holding an Array [name, args…].
//
// Godot 4 (core/debugger/remote_debugger.cpp) sends and reads one packet
// per message, an Array [name, thread id, data Array]; 4.0 and 4.1 had no
// thread id, [name, data].

// maxPacket bounds one packet: Godot's own debugger limits a variable to
// far less (it sends null for a bigger one), so a larger length is a
// broken or hostile peer.
const maxPacket = 8 << 20

// maxValues bounds the number of values of one Godot 3 message.
const maxValues = 1 << 16

// message is one message of the game.
type message struct {
	Name string
	// Thread is the Godot 4 thread the message is about (0 in Godot 3).
	Thread int64
	Data   []any
}

// readPacket reads one packet.
func readPacket(r io.Reader) ([]byte, error) {
	var h [4]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return nil, err
	}
	n := binary.LittleEndian.Uint32(h[:])
	if n > maxPacket {
		return nil, malformed("a packet of %d bytes (at most %d)", n, maxPacket)
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(r, p); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return p, nil
}

// writePacket encodes v and writes it as one packet.
func writePacket(w io.Writer, d Dialect, v any) error {
	b, err := d.Encode(v)
	if err != nil {
		return err
	}
	if len(b) > maxPacket {
		return fmt.Errorf("a packet of %d bytes (at most %d)", len(b), maxPacket)
	}
	out := binary.LittleEndian.AppendUint32(make([]byte, 0, 4+len(b)), uint32(len(b)))
	_, err = w.Write(append(out, b...))
	return err
}

// msgReader reads the game's messages in one dialect.
type msgReader struct {
	r *bufio.Reader
	d Dialect
	// threaded is set once a Godot 4 peer sent a message with a thread
	// id: commands then carry one too.
	threaded bool
}

func (m *msgReader) value() (any, error) {
	p, err := readPacket(m.r)
	if err != nil {
		return nil, err
	}
	return m.d.Decode(p)
}

// next reads one message.
func (m *msgReader) next() (message, error) {
	if m.d == Godot3 {
		return m.next3()
	}
	v, err := m.value()
	if err != nil {
		return message{}, err
	}
	arr, ok := v.([]any)
	if !ok || len(arr) < 2 || len(arr) > 3 {
		return message{}, malformed("a message that is not [name, thread, data] (%T)", v)
	}
	name, ok := arr[0].(string)
	if !ok {
		return message{}, malformed("a message whose name is a %T", arr[0])
	}
	msg := message{Name: name}
	data := arr[1]
	if len(arr) == 3 {
		t, ok := arr[1].(int64)
		if !ok {
			return message{}, malformed("message %q whose thread is a %T", name, arr[1])
		}
		msg.Thread, data = t, arr[2]
		m.threaded = true
	}
	if msg.Data, ok = data.([]any); !ok {
		return message{}, malformed("message %q whose data is a %T", name, data)
	}
	return msg, nil
}

func (m *msgReader) next3() (message, error) {
	v, err := m.value()
	if err != nil {
		return message{}, err
	}
	name, ok := v.(string)
	if !ok {
		return message{}, malformed("a message name that is a %T", v)
	}
	v, err = m.value()
	if err != nil {
		return message{}, err
	}
	n, ok := v.(int64)
	if !ok || n < 0 || n > maxValues {
		return message{}, malformed("message %q with %v values", name, v)
	}
	msg := message{Name: name, Data: make([]any, 0, min(n, 64))}
	for range n {
		v, err := m.value()
		if err != nil {
			return message{}, err
		}
		msg.Data = append(msg.Data, v)
	}
	return msg, nil
}

// command encodes a command to the game: name and args, for thread (Godot
// 4; 0 means the main thread).
func command(w io.Writer, d Dialect, threaded bool, thread int64, name string, args ...any) error {
	if args == nil {
		args = []any{}
	}
	if d == Godot3 {
		return writePacket(w, d, append([]any{name}, args...))
	}
	if !threaded {
		return writePacket(w, d, []any{name, args})
	}
	if thread == 0 {
		thread = mainThread
	}
	return writePacket(w, d, []any{name, thread, args})
}

// mainThread is Godot 4's Thread::MAIN_ID.
const mainThread = 1
