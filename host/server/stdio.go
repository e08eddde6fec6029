package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	sjson "github.com/segmentio/encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxStdioLine is the longest JSON-RPC line the stdio transport accepts
// (the go-sdk's own default frame cap). A longer line is answered with an
// error and skipped; the session goes on.
const MaxStdioLine = mcp.DefaultMaxLineLength

// JSON-RPC error codes the stdio screen answers with itself.
const (
	rpcParseError     = -32700
	rpcInvalidRequest = -32600
)

// stdioConn is the host's stdio transport: an mcp.Connection over a
// newline-delimited JSON stream that screens every line before the go-sdk
// sees it. The go-sdk's own stdio transport ends the whole connection on
// the first line it cannot decode: one stray line from a client (or a line
// over the size cap) would kill the session and, on stdio, the server with
// every plugin. The screen reads line by line, hands on the lines that
// decode as JSON-RPC messages, and answers every other line itself with a
// JSON-RPC error (-32700 for bad JSON, -32600 for JSON that is no JSON-RPC
// message, a batch, or a line over max bytes), so the client learns what
// was wrong and the session keeps serving.
//
// Each line is decoded once, here, and the decoded message goes straight
// to the session: screening in front of the go-sdk's transport cost a
// second decode, a third scan and a pipe hop per request, a measurable
// share of a tools/call (docs/PERFORMANCE.md).
//
// JSON-RPC batches are answered with -32600: MCP dropped them in 2025-06-18,
// and the go-sdk ends a session that sends one under a later protocol.
//
// Replies the screen writes and the session's own messages share one
// writer (lockedLineWriter), so the two never interleave inside a line.
type stdioConn struct {
	in       *bufio.Reader
	out      *lockedLineWriter
	maxLine  int
	incoming chan decoded
	closed   chan struct{}
	once     sync.Once
	done     chan struct{} // the screen has returned
}

type decoded struct {
	msg jsonrpc.Message
	err error
}

// newStdioConn screens lines from in until in ends, ctx is done or the
// connection is closed.
func newStdioConn(ctx context.Context, in io.Reader, out io.Writer, maxLine int) *stdioConn {
	c := &stdioConn{
		in:       bufio.NewReaderSize(in, 64<<10),
		out:      &lockedLineWriter{w: out},
		maxLine:  maxLine,
		incoming: make(chan decoded),
		closed:   make(chan struct{}),
		done:     make(chan struct{}),
	}
	go c.screen(ctx)
	return c
}

func (c *stdioConn) screen(ctx context.Context) {
	defer close(c.done)
	for ctx.Err() == nil {
		line, tooLong, err := c.readLine()
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			if tooLong {
				c.reply(nil, rpcInvalidRequest, fmt.Sprintf("Invalid Request: the line is longer than %d bytes and was skipped; send smaller messages (large data belongs in files the tools read)", c.maxLine))
			} else if msg, id, code, text := screen(line); msg == nil {
				c.reply(id, code, text)
			} else if !c.hand(decoded{msg: msg}) {
				return
			}
		}
		if err != nil {
			// EOF or a read error ends the session the way it would have
			// ended without the screen.
			c.hand(decoded{err: err})
			return
		}
	}
	c.hand(decoded{err: ctx.Err()})
}

// hand passes d to the session's Read; false when the connection closed.
func (c *stdioConn) hand(d decoded) bool {
	select {
	case c.incoming <- d:
		return true
	case <-c.closed:
		return false
	}
}

// readLine reads one line without its newline. A line over max bytes is
// consumed to its end and reported as tooLong, holding no more than max
// bytes in memory.
func (c *stdioConn) readLine() (line []byte, tooLong bool, err error) {
	for {
		chunk, rerr := c.in.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > c.maxLine+1 { // +1: the newline itself
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if rerr == bufio.ErrBufferFull {
			continue
		}
		if rerr == nil {
			line = bytes.TrimSuffix(line, []byte{'\n'})
			line = bytes.TrimSuffix(line, []byte{'\r'})
		}
		return line, tooLong, rerr
	}
}

// screen decodes a line. For a line that is no JSON-RPC message it returns
// a nil message, the id to answer (when one can be read) and the JSON-RPC
// error to answer with.
func screen(line []byte) (msg jsonrpc.Message, id any, code int, text string) {
	trimmed := bytes.TrimSpace(line)
	// json.Valid first: the go-sdk's decoder takes a message followed by
	// trailing bytes ("{...} x") without a word.
	if !json.Valid(trimmed) {
		return nil, nil, rpcParseError, "Parse error: the line is not valid JSON; send one JSON-RPC message per line"
	}
	if trimmed[0] == '[' {
		return nil, nil, rpcInvalidRequest, "Invalid Request: JSON-RPC batches are not supported (MCP removed them in 2025-06-18); send one JSON-RPC message per line"
	}
	msg, err := decodeMessage(trimmed)
	if err == nil {
		return msg, nil, 0, ""
	}
	var probe struct {
		ID any `json:"id"`
	}
	_ = json.Unmarshal(trimmed, &probe)
	return nil, probe.ID, rpcInvalidRequest, "Invalid Request: " + err.Error() + `; a request needs "jsonrpc":"2.0", a "method" and an "id"`
}

// Read implements mcp.Connection.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case d := <-c.incoming:
		return d.msg, d.err
	}
}

// Write implements mcp.Connection: one message, one line.
func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("marshaling message: %w", err)
	}
	_, err = c.out.Write(append(data, '\n'))
	return err
}

// Close implements mcp.Connection. It does not close the streams: stdin and
// stdout outlive a session.
func (c *stdioConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

// SessionID implements mcp.Connection: stdio has no session id.
func (c *stdioConn) SessionID() string { return "" }

// stdioTransport hands the session its one connection.
type stdioTransport struct{ conn *stdioConn }

func (t stdioTransport) Connect(context.Context) (mcp.Connection, error) { return t.conn, nil }

func (c *stdioConn) reply(id any, code int, msg string) {
	resp := struct {
		JSONRPC string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id}
	switch id.(type) {
	case string, float64, nil:
	default:
		resp.ID = nil // an id must be a string or a number
	}
	resp.Error.Code, resp.Error.Message = code, msg
	data, _ := json.Marshal(resp)
	_, _ = c.out.Write(append(data, '\n'))
}

// lockedLineWriter serialises writers that each write whole lines, so a
// reply from the screen never lands inside a line of the go-sdk's.
type lockedLineWriter struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte // a partial line, kept until its newline arrives
}

func (l *lockedLineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buf) == 0 && len(p) > 0 && p[len(p)-1] == '\n' {
		return l.w.Write(p) // the common case: one whole line
	}
	l.buf = append(l.buf, p...)
	if i := bytes.LastIndexByte(l.buf, '\n'); i >= 0 {
		if _, err := l.w.Write(l.buf[:i+1]); err != nil {
			return 0, err
		}
		l.buf = append(l.buf[:0], l.buf[i+1:]...)
	}
	return len(p), nil
}

// Close does not close the underlying writer (stdout outlives a session).
func (l *lockedLineWriter) Close() error { return nil }

// serveScreened runs the MCP server over a screened newline-delimited JSON
// stream until in ends or ctx is done.
func (s *Server) serveScreened(ctx context.Context, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	return s.mcp.Run(ctx, stdioTransport{newStdioConn(ctx, in, out, MaxStdioLine)})
}

// maxNesting is how deep a message may nest, as the go-sdk's own decoder
// allows: parsing recurses, and a line of a million '[' would otherwise
// grow a goroutine's stack past its limit and kill the host.
const maxNesting = 1000

// wireIn is a JSON-RPC message as it arrives, the go-sdk's own wire form.
type wireIn struct {
	VersionTag string          `json:"jsonrpc"`
	ID         any             `json:"id,omitempty"`
	Method     json.RawMessage `json:"method"`
	Params     json.RawMessage `json:"params,omitempty"`
}

// decodeMessage decodes one valid JSON line as jsonrpc.DecodeMessage does,
// with the same decoder and options (case-sensitive keys) but without the
// 64 KB buffer that function allocates and clears for every message: on a
// small tools/call that buffer was most of the host's allocation and a
// quarter of its CPU time. Requests and notifications, the messages a
// client sends, take this path; responses (to the server's own requests)
// go to the go-sdk's decoder. The message keeps pointing into data, which
// must not be reused.
func decodeMessage(data []byte) (jsonrpc.Message, error) {
	if nestedDeeper(data, maxNesting) {
		return nil, fmt.Errorf("the message nests deeper than %d levels", maxNesting)
	}
	var w wireIn
	if _, err := sjson.Parse(data, &w, sjson.DontMatchCaseInsensitiveStructFields); err != nil {
		return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
	}
	if len(w.Method) == 0 {
		return jsonrpc.DecodeMessage(data)
	}
	if w.VersionTag != "2.0" {
		return nil, fmt.Errorf("invalid message version tag %q; expected %q", w.VersionTag, "2.0")
	}
	id, err := jsonrpc.MakeID(w.ID)
	if err != nil {
		return nil, err
	}
	var method string
	if _, err := sjson.Parse(w.Method, &method, sjson.DontMatchCaseInsensitiveStructFields); err != nil {
		return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
	}
	return &jsonrpc.Request{ID: id, Method: method, Params: w.Params}, nil
}

// nestedDeeper reports whether the JSON text data opens more than max
// objects or arrays inside one another.
func nestedDeeper(data []byte, max int) bool {
	depth, inString, escaped := 0, false, false
	for _, b := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			depth++
			if depth > max {
				return true
			}
		case b == '}' || b == ']':
			depth--
		}
	}
	return false
}
