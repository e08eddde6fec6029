package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

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

// lineScreen stands between a byte stream and the go-sdk's newline-delimited
// JSON transport. The go-sdk ends the whole connection on the first line it
// cannot decode — one stray line from a client (or a line over the size cap)
// would kill the session and, on stdio, the server with every plugin. The
// screen reads line by line, passes on only lines that decode as JSON-RPC
// messages, and answers every other line itself with a JSON-RPC error
// (-32700 for bad JSON, -32600 for JSON that is no JSON-RPC message, or a
// line over max bytes), so the client learns what was wrong and the session
// keeps serving.
//
// Replies the screen writes and the go-sdk's own messages share one writer
// (lockedLineWriter), so the two never interleave inside a line.
type lineScreen struct {
	in      *bufio.Reader
	out     *lockedLineWriter
	maxLine int
	pw      *io.PipeWriter
	done    chan struct{}
}

// screenStdio returns the reader the go-sdk transport should read and the
// writer it should write; it screens lines from in until in ends or ctx is
// done.
func screenStdio(ctx context.Context, in io.Reader, out io.Writer, maxLine int) (io.ReadCloser, io.WriteCloser) {
	pr, pw := io.Pipe()
	s := &lineScreen{
		in:      bufio.NewReaderSize(in, 64<<10),
		out:     &lockedLineWriter{w: out},
		maxLine: maxLine,
		pw:      pw,
		done:    make(chan struct{}),
	}
	go s.run(ctx)
	return pr, s.out
}

func (s *lineScreen) run(ctx context.Context) {
	defer close(s.done)
	for ctx.Err() == nil {
		line, tooLong, err := s.readLine()
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			if tooLong {
				s.reply(nil, rpcInvalidRequest, fmt.Sprintf("Invalid Request: the line is longer than %d bytes and was skipped; send smaller messages (large data belongs in files the tools read)", s.maxLine))
			} else if id, code, msg, ok := screen(line); !ok {
				s.reply(id, code, msg)
			} else if _, werr := s.pw.Write(append(line, '\n')); werr != nil {
				return // the transport closed its end
			}
		}
		if err != nil {
			// EOF or a read error: end the stream the transport reads, so
			// the session ends the way it would have without the screen.
			if errors.Is(err, io.EOF) {
				s.pw.Close()
			} else {
				s.pw.CloseWithError(err)
			}
			return
		}
	}
	s.pw.CloseWithError(ctx.Err())
}

// readLine reads one line without its newline. A line over max bytes is
// consumed to its end and reported as tooLong, holding no more than max
// bytes in memory.
func (s *lineScreen) readLine() (line []byte, tooLong bool, err error) {
	for {
		chunk, rerr := s.in.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > s.maxLine+1 { // +1: the newline itself
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

// screen decides whether a line may go on to the transport. For a line
// that may not, it returns the id to answer (when one can be read) and the
// JSON-RPC error to answer with.
func screen(line []byte) (id any, code int, msg string, ok bool) {
	if !json.Valid(line) {
		return nil, rpcParseError, "Parse error: the line is not valid JSON; send one JSON-RPC message per line", false
	}
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var batch []json.RawMessage
		if json.Unmarshal(trimmed, &batch) != nil || len(batch) == 0 {
			return nil, rpcInvalidRequest, "Invalid Request: an empty or malformed batch; send one JSON-RPC message per line", false
		}
		for _, raw := range batch {
			if _, err := jsonrpc.DecodeMessage(raw); err != nil {
				return nil, rpcInvalidRequest, "Invalid Request: a batch element is not a JSON-RPC message: " + err.Error(), false
			}
		}
		return nil, 0, "", true
	}
	if _, err := jsonrpc.DecodeMessage(trimmed); err != nil {
		var probe struct {
			ID any `json:"id"`
		}
		_ = json.Unmarshal(trimmed, &probe)
		return probe.ID, rpcInvalidRequest, "Invalid Request: " + err.Error() + `; a request needs "jsonrpc":"2.0", a "method" and an "id"`, false
	}
	return nil, 0, "", true
}

func (s *lineScreen) reply(id any, code int, msg string) {
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
	_, _ = s.out.Write(append(data, '\n'))
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
	r, w := screenStdio(ctx, in, out, MaxStdioLine)
	// The screen already bounds lines; the transport's own cap stays as a
	// second line of defence.
	return s.mcp.Run(ctx, &mcp.IOTransport{Reader: r, Writer: w})
}
