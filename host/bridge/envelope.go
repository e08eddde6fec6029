package bridge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Wire names of the addon protocol (ADDON-PROTOCOL.md §2, §3). They are the
// addon's, not ours: changing one breaks every installed editor.
const (
	cmdAuth           = "cmd_auth"
	cmdPeerHello      = "cmd_peer_hello"
	cmdGetAddonInfo   = "cmd_get_addon_info"
	cmdServerHello    = "cmd_server_hello"
	cmdToolsetsUpdate = "cmd_toolsets_update"

	// Wire error codes the host puts on frames it sends the addon.
	wireValidationError = "VALIDATION_ERROR"
	wirePeerReplaced    = "PEER_REPLACED"

	// requiredBridgeToken is the required token of the auth refusal.
	requiredBridgeToken = "bridge_token"
)

// MaxFrame is the largest frame either side may send: the addon raises both
// of its WebSocket buffers to 32 MiB (2^25) so that full-size screenshots
// fit, and a frame larger than that is dropped by Godot without a word.
const MaxFrame = 32 << 20

// frameKind says what an inbound frame is.
type frameKind int

const (
	// frameJunk: not a JSON object. The addon never sends one; it is logged
	// and dropped, and a waiter (if any) times out, as with the reference
	// server, because there is no id to complete.
	frameJunk frameKind = iota
	// frameReply: {id, ok:true, result} or {id, ok:false, error, hint, required}.
	frameReply
	// frameBadReply: an object with a string id that is not a valid reply.
	// If the id is pending, that request fails with INTERNAL_ERROR at once.
	frameBadReply
	// frameAuth: the addon's cmd_auth control message.
	frameAuth
	// frameHello: the addon's cmd_peer_hello control message.
	frameHello
	// frameCommand: any other object with a command; the addon never sends
	// commands to the server, so it is logged and dropped.
	frameCommand
)

// frame is a decoded inbound frame.
type frame struct {
	kind frameKind
	// id is the envelope id for replies and bad replies ("" when absent or
	// not a string).
	id string
	// command is set for frameAuth, frameHello and frameCommand.
	command string
	// ok, result, code, hint and required are a frameReply's fields.
	ok       bool
	result   json.RawMessage
	code     string
	hint     string
	required string
	// token is cmd_auth's params.token.
	token string
	// hello is cmd_peer_hello's params.
	hello Hello
	// problem says why a frame is junk or a bad reply, for the log.
	problem string
}

// Hello is the identity an editor announces in cmd_peer_hello.
type Hello struct {
	ProjectPath  string `json:"project_path"`
	GodotVersion string `json:"godot_version"`
	AddonVersion string `json:"addon_version"`
}

// rawEnvelope holds the fields of either direction's envelope undecoded, so
// that their JSON types can be checked one by one.
type rawEnvelope struct {
	ID       json.RawMessage `json:"id"`
	Command  json.RawMessage `json:"command"`
	Params   json.RawMessage `json:"params"`
	OK       json.RawMessage `json:"ok"`
	Result   json.RawMessage `json:"result"`
	Error    json.RawMessage `json:"error"`
	Hint     json.RawMessage `json:"hint"`
	Required json.RawMessage `json:"required"`
}

// decodeFrame classifies one text frame from the addon. It never fails: what
// it cannot use is a frameJunk or frameBadReply with a problem that says why.
// It is the parser every byte from the editor goes through, so it is fuzzed
// (FuzzDecodeFrame).
func decodeFrame(data []byte) frame {
	if f, ok := fastReply(data); ok {
		return f
	}
	return slowDecode(data)
}

// Godot writes JSON with sorted keys and no spaces, so almost every reply
// is {"id":"<digits>","ok":true,"result":{…}}, byte for byte. fastReply
// recognises exactly that and skips the reflective decoder; anything else,
// or a result that is not exactly one valid JSON object, goes the slow way.
// FuzzDecodeFrame checks that both ways agree.
var (
	fastHead = []byte(`{"id":"`)
	fastMid  = []byte(`","ok":true,"result":{`)
)

func fastReply(data []byte) (frame, bool) {
	if !bytes.HasPrefix(data, fastHead) || len(data) == 0 || data[len(data)-1] != '}' {
		return frame{}, false
	}
	rest := data[len(fastHead):]
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if i == 0 || !bytes.HasPrefix(rest[i:], fastMid) {
		return frame{}, false
	}
	res := rest[i+len(fastMid)-1 : len(rest)-1]
	if !json.Valid(res) {
		return frame{}, false
	}
	return frame{kind: frameReply, id: string(rest[:i]), ok: true, result: bytes.Clone(res)}, true
}

// slowDecode is decodeFrame for every frame fastReply does not take.
func slowDecode(data []byte) frame {
	var env rawEnvelope
	if err := json.Unmarshal(data, &env); err != nil {
		return frame{kind: frameJunk, problem: "not a JSON object: " + shortErr(err)}
	}
	if !isKind(data, '{') {
		// Unmarshal into a struct accepts null.
		return frame{kind: frameJunk, problem: "not a JSON object"}
	}
	f := frame{}
	idOK := false
	if len(env.ID) > 0 {
		f.id, idOK = jsonString(env.ID)
	}
	if len(env.Command) > 0 && !isNull(env.Command) {
		cmd, ok := jsonString(env.Command)
		if !ok {
			return frame{kind: frameJunk, problem: "'command' is not a string"}
		}
		f.command = cmd
		switch cmd {
		case cmdAuth:
			f.kind = frameAuth
			var p struct {
				Token json.RawMessage `json:"token"`
			}
			if len(env.Params) > 0 && isKind(env.Params, '{') {
				_ = json.Unmarshal(env.Params, &p)
			}
			// A missing or non-string token is a wrong token, not junk: the
			// editor gets the refusal that tells its user what to fix.
			f.token, _ = jsonString(p.Token)
		case cmdPeerHello:
			f.kind = frameHello
			if len(env.Params) > 0 && isKind(env.Params, '{') {
				var p struct {
					ProjectPath  json.RawMessage `json:"project_path"`
					GodotVersion json.RawMessage `json:"godot_version"`
					AddonVersion json.RawMessage `json:"addon_version"`
				}
				_ = json.Unmarshal(env.Params, &p)
				f.hello.ProjectPath, _ = jsonString(p.ProjectPath)
				f.hello.GodotVersion, _ = jsonString(p.GodotVersion)
				f.hello.AddonVersion, _ = jsonString(p.AddonVersion)
			}
		default:
			f.kind = frameCommand
		}
		return f
	}
	if !idOK {
		return frame{kind: frameJunk, problem: "no string 'id' and no 'command'"}
	}
	f.kind = frameBadReply
	switch {
	case len(env.OK) == 0:
		f.problem = "no 'ok'"
		return f
	case bytes.Equal(env.OK, []byte("true")):
		f.ok = true
	case bytes.Equal(env.OK, []byte("false")):
	default:
		f.problem = "'ok' is not a boolean"
		return f
	}
	if f.ok {
		switch {
		case len(env.Result) == 0:
			// Every addon handler answers with an object; an ok reply
			// without one carries no data, which is still a success.
			f.result = json.RawMessage("{}")
		case isKind(env.Result, '{'):
			f.result = env.Result
		default:
			f.problem = "'result' is not an object"
			return f
		}
		f.kind = frameReply
		return f
	}
	code, ok := jsonString(env.Error)
	if !ok || code == "" {
		f.problem = "a failure without a string 'error' code"
		return f
	}
	if len(env.Hint) > 0 && !isNull(env.Hint) {
		if f.hint, ok = jsonString(env.Hint); !ok {
			f.problem = "'hint' is not a string"
			return f
		}
	}
	if len(env.Required) > 0 && !isNull(env.Required) {
		if f.required, ok = jsonString(env.Required); !ok {
			f.problem = "'required' is not a string"
			return f
		}
	}
	f.kind, f.code = frameReply, code
	return f
}

// jsonString decodes a JSON string; ok is false for anything else.
func jsonString(raw json.RawMessage) (string, bool) {
	if !isKind(raw, '"') {
		return "", false
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// isKind reports whether raw's first non-space byte is c.
func isKind(raw []byte, c byte) bool {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	return len(raw) > 0 && raw[0] == c
}

func isNull(raw []byte) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

func shortErr(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%v at byte %d", se, se.Offset)
	}
	return err.Error()
}

// errParamsNotObject is returned for params that do not encode to a JSON
// object: the addon refuses those with "'params' must be an object.".
var errParamsNotObject = errors.New("params must encode to a JSON object")

// errTooBig is returned for a command that cannot fit in one frame.
var errTooBig = errors.New("the command exceeds the addon's 32 MiB frame limit")

// encodeCommand builds {"id":…,"command":…,"params":…}. params is nil (an
// empty object), json.RawMessage or []byte holding a JSON object, or any
// value that marshals to one.
func encodeCommand(id, command string, params any) ([]byte, error) {
	var p []byte
	switch v := params.(type) {
	case nil:
		p = []byte("{}")
	case json.RawMessage:
		p = v
	case []byte:
		p = v
	default:
		b, err := json.Marshal(params)
		if err != nil {
			return nil, fmt.Errorf("encoding params: %w", err)
		}
		p = b
	}
	p = bytes.TrimSpace(p)
	if len(p) == 0 {
		p = []byte("{}")
	}
	if len(p) > MaxFrame {
		return nil, errTooBig // checked before the costly validation
	}
	if p[0] != '{' || !json.Valid(p) {
		return nil, errParamsNotObject
	}
	var cmd []byte
	if plainName(command) {
		cmd = append(append(append(make([]byte, 0, len(command)+2), '"'), command...), '"')
	} else {
		var err error
		if cmd, err = json.Marshal(command); err != nil {
			return nil, err
		}
	}
	buf := make([]byte, 0, len(p)+len(cmd)+len(id)+32)
	buf = append(buf, `{"id":`...)
	buf = strconv.AppendQuote(buf, id) // ids are digits; quoting is exact
	buf = append(buf, `,"command":`...)
	buf = append(buf, cmd...)
	buf = append(buf, `,"params":`...)
	buf = append(buf, p...)
	buf = append(buf, '}')
	return buf, nil
}

// plainName reports a command name JSON writes as is between quotes; every
// addon command (cmd_[a-z0-9_]+) is one.
func plainName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// notice builds a server→addon notice: an ok-shaped envelope without a
// command, which the addon logs to its dock; with ok:false it then drops the
// link (and with PEER_REPLACED stops reconnecting).
func notice(id, code, hint, required string) []byte {
	n := struct {
		ID       string `json:"id"`
		OK       bool   `json:"ok"`
		Error    string `json:"error"`
		Hint     string `json:"hint"`
		Required string `json:"required,omitempty"`
	}{id, false, code, hint, required}
	b, _ := json.Marshal(n) // strings only: cannot fail
	return b
}
