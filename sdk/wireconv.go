package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
)

// The conversions between the SDK's types and the wire messages of
// toolset.proto live here, one function per direction, so that the plugin
// side (which sends results) and the host (which receives them) cannot
// drift apart.
//
// Protobuf strings must be valid UTF-8, and a tool's text often is not under
// its author's control (a user's file name in another encoding). Every
// string is therefore made valid on the way out (invalid bytes become
// U+FFFD): the caller gets the text with a replacement character, not a
// marshalling failure blamed on the toolset.

// validUTF8 replaces invalid UTF-8 sequences in s with U+FFFD.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// Wire converts e to the wire ToolError, with every string valid UTF-8.
// Toolset, Source, Detail and Err stay on this side: the receiver knows who
// sent the error.
func (e *Error) Wire() *pb.ToolError {
	code := e.Code
	if code == "" {
		code = CodeToolError
	}
	return &pb.ToolError{
		Code:     validUTF8(code),
		Message:  validUTF8(e.Message),
		Hint:     validUTF8(e.Hint),
		Required: validUTF8(e.Required),
	}
}

// ErrorFromWire converts a wire ToolError; nil stays nil. An empty code
// becomes CodeToolError, so every error the caller sees has one.
func ErrorFromWire(w *pb.ToolError) *Error {
	if w == nil {
		return nil
	}
	e := &Error{Code: w.GetCode(), Message: w.GetMessage(), Hint: w.GetHint(), Required: w.GetRequired()}
	if e.Code == "" {
		e.Code = CodeToolError
	}
	return e
}

// contentToWire converts one piece of content; nil pointers are dropped.
func contentToWire(c Content) *pb.Content {
	switch c := c.(type) {
	case TextContent:
		return &pb.Content{Content: &pb.Content_Text{Text: &pb.TextContent{Text: validUTF8(c.Text)}}}
	case *TextContent:
		if c != nil {
			return contentToWire(*c)
		}
	case ImageContent:
		return &pb.Content{Content: &pb.Content_Image{Image: &pb.ImageContent{Data: c.Data, MimeType: validUTF8(c.MIMEType)}}}
	case *ImageContent:
		if c != nil {
			return contentToWire(*c)
		}
	case AudioContent:
		return &pb.Content{Content: &pb.Content_Audio{Audio: &pb.AudioContent{Data: c.Data, MimeType: validUTF8(c.MIMEType)}}}
	case *AudioContent:
		if c != nil {
			return contentToWire(*c)
		}
	}
	return nil
}

// resultToWire converts a result whose structured content is already JSON
// (structured) and, when err is set, the failure. A failure travels as the
// wire ToolError and its one text rendering.
func resultToWire(res Result, structured []byte, err *Error) *pb.CallResult {
	if err != nil {
		w := err.Wire()
		return &pb.CallResult{
			IsError: true,
			Content: []*pb.Content{contentToWire(TextContent{Text: ErrorFromWire(w).Text()})},
			Error:   w,
		}
	}
	out := &pb.CallResult{IsError: res.IsError, StructuredContentJson: structured}
	for _, c := range res.Content {
		if w := contentToWire(c); w != nil {
			out.Content = append(out.Content, w)
		}
	}
	return out
}

// ResultFromWire converts a plugin's wire result for the host. A failure
// the plugin described with a ToolError comes back as the *Error, marked
// SourcePlugin; the result then holds only the content that is not its
// text (the error's own text rendering is made again from the error, in
// the one format). Structured content is returned as raw JSON.
func ResultFromWire(w *pb.CallResult) (Result, *Error) {
	res := Result{IsError: w.GetIsError()}
	for _, c := range w.GetContent() {
		switch c := c.GetContent().(type) {
		case *pb.Content_Text:
			res.Content = append(res.Content, TextContent{Text: c.Text.GetText()})
		case *pb.Content_Image:
			res.Content = append(res.Content, ImageContent{Data: c.Image.GetData(), MIMEType: c.Image.GetMimeType()})
		case *pb.Content_Audio:
			res.Content = append(res.Content, AudioContent{Data: c.Audio.GetData(), MIMEType: c.Audio.GetMimeType()})
		}
	}
	if e := ErrorFromWire(w.GetError()); e != nil && w.GetIsError() {
		e.Source = SourcePlugin
		var rest []Content
		for _, c := range res.Content {
			if _, text := c.(TextContent); !text {
				rest = append(rest, c)
			}
		}
		res.Content = rest
		return res, e
	}
	if sc := w.GetStructuredContentJson(); len(sc) > 0 {
		res.Structured = json.RawMessage(sc)
	}
	return res, nil
}

// ErrorToWire converts any error for the wire: an *Error keeps its fields, a
// context error is CANCELLED, anything else INTERNAL_ERROR; nil stays nil.
func ErrorToWire(err error) *pb.ToolError {
	if err == nil {
		return nil
	}
	var e *Error
	if !errors.As(err, &e) {
		code := CodeInternalError
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			code = CodeCancelled
		}
		e = &Error{Code: code, Message: err.Error()}
	}
	return e.Wire()
}

// File names are bytes to the operating system, and a project can hold one
// whose name is not valid UTF-8 (copied from an old archive, another
// encoding). A path cannot cross as a protobuf string as it is, and replacing
// the bad bytes would name a file that does not exist. So a path crosses in
// an escaped form: each byte that is not part of valid UTF-8, and each byte
// of a literal U+FFFD, is written as U+FFFD followed by its two lowercase hex
// digits ("caf\xe9.gd" is "caf\uFFFDe9.gd"). The form is valid UTF-8, reads
// like the usual replacement text with the byte added, and maps back to the
// exact name, so a path listed by the host can be passed back to read or
// change that file.

const escapeMark = '\uFFFD'

// PathToWire returns the wire form of a file path: the path itself when it
// is valid UTF-8 without U+FFFD (every ordinary path), else its escaped form.
// The host sends every path it reports this way.
func PathToWire(p string) string {
	if utf8.ValidString(p) && !strings.ContainsRune(p, escapeMark) {
		return p
	}
	const hex = "0123456789abcdef"
	var b strings.Builder
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRuneInString(p[i:])
		if r == utf8.RuneError || r == escapeMark {
			for _, c := range []byte(p[i : i+n]) {
				b.WriteRune(escapeMark)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&15])
			}
		} else {
			b.WriteString(p[i : i+n])
		}
		i += n
	}
	return b.String()
}

// PathFromWire undoes [PathToWire]: U+FFFD followed by two lowercase hex
// digits is that byte; anything else is kept. The host applies it to every
// path a plugin sends.
func PathFromWire(p string) string {
	if !strings.ContainsRune(p, escapeMark) {
		return p
	}
	mark := string(escapeMark)
	var b strings.Builder
	for {
		i := strings.Index(p, mark)
		if i < 0 {
			b.WriteString(p)
			return b.String()
		}
		b.WriteString(p[:i])
		rest := p[i+len(mark):]
		if len(rest) >= 2 && isLowerHex(rest[0]) && isLowerHex(rest[1]) {
			b.WriteByte(unhex(rest[0])<<4 | unhex(rest[1]))
			p = rest[2:]
			continue
		}
		b.WriteString(mark)
		p = rest
	}
}

// PathEscaped reports whether a path in wire form names a file whose name is
// not plain UTF-8 (it carries escapes), so a caller can warn about it.
func PathEscaped(p string) bool { return PathFromWire(p) != p }

// requestPath is the wire form of a path a plugin sends: already valid text
// (including a wire form the host reported) goes as it is; raw bytes are
// escaped, so marshalling cannot fail.
func requestPath(p string) string {
	if utf8.ValidString(p) {
		return p
	}
	return PathToWire(p)
}

func isLowerHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' }

func unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c - 'a' + 10
}

func pathsToWire(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = PathToWire(p)
	}
	return out
}

func stringsToWire(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = validUTF8(s)
	}
	return out
}

// escapedNameWarning is the warning a listing carries for an escaped name.
func escapedNameWarning(p string) string {
	return p + ": the file name is not valid UTF-8; it is shown with each such byte as U+FFFD and its hex " +
		"(pass it back as shown to read or change the file). Godot cannot open it: rename it to a UTF-8 name"
}

// Workspace messages, host side (to the wire) and plugin side (from it).

// FileToWire converts a read file.
func FileToWire(f File) *pb.WorkspaceReadResponse {
	return &pb.WorkspaceReadResponse{Path: PathToWire(f.Path), Data: f.Data, Version: validUTF8(string(f.Version))}
}

// FileFromWire converts a read response (without its error).
func FileFromWire(w *pb.WorkspaceReadResponse) File {
	return File{Path: w.GetPath(), Data: w.GetData(), Version: FileVersion(w.GetVersion())}
}

// FileInfoToWire converts a stat result.
func FileInfoToWire(fi FileInfo) *pb.WorkspaceStatResponse {
	out := &pb.WorkspaceStatResponse{Path: PathToWire(fi.Path), Exists: fi.Exists, IsDir: fi.IsDir, Size: fi.Size,
		Version: validUTF8(string(fi.Version))}
	if !fi.ModTime.IsZero() {
		out.ModTimeUnixNano = fi.ModTime.UnixNano()
	}
	return out
}

// FileInfoFromWire converts a stat response (without its error).
func FileInfoFromWire(w *pb.WorkspaceStatResponse) FileInfo {
	fi := FileInfo{Path: w.GetPath(), Exists: w.GetExists(), IsDir: w.GetIsDir(),
		Size: w.GetSize(), Version: FileVersion(w.GetVersion())}
	if ns := w.GetModTimeUnixNano(); ns != 0 {
		fi.ModTime = time.Unix(0, ns)
	}
	return fi
}

// DirEntriesToWire converts a listing; a name that is not valid UTF-8 is
// listed in its escaped form (see [PathToWire]) instead of failing the whole
// listing.
func DirEntriesToWire(ents []DirEntry) *pb.WorkspaceListResponse {
	out := &pb.WorkspaceListResponse{Entries: make([]*pb.WorkspaceEntry, len(ents))}
	for i, e := range ents {
		out.Entries[i] = &pb.WorkspaceEntry{Path: PathToWire(e.Path), IsDir: e.IsDir, Size: e.Size}
	}
	return out
}

// DirEntriesFromWire converts a list response (without its error); an entry
// whose name arrived escaped carries a Warning.
func DirEntriesFromWire(w *pb.WorkspaceListResponse) []DirEntry {
	out := make([]DirEntry, 0, len(w.GetEntries()))
	for _, e := range w.GetEntries() {
		de := DirEntry{Path: e.GetPath(), IsDir: e.GetIsDir(), Size: e.GetSize()}
		if PathEscaped(de.Path) {
			de.Warning = escapedNameWarning(de.Path)
		}
		out = append(out, de)
	}
	return out
}

// CommitResultToWire converts a commit's outcome.
func CommitResultToWire(res CommitResult) *pb.WorkspaceCommitResponse {
	out := &pb.WorkspaceCommitResponse{ActionId: res.ActionID, DryRun: res.DryRun, Warnings: stringsToWire(res.Warnings),
		Files: make([]*pb.WorkspaceFileChange, len(res.Files))}
	for i, f := range res.Files {
		out.Files[i] = &pb.WorkspaceFileChange{Path: PathToWire(f.Path), Change: validUTF8(f.Change),
			BytesBefore: f.BytesBefore, BytesAfter: f.BytesAfter,
			VersionBefore: validUTF8(string(f.VersionBefore)), VersionAfter: validUTF8(string(f.VersionAfter)),
			Diff: validUTF8(f.Diff)}
	}
	return out
}

// CommitResultFromWire converts a commit response (without its error).
func CommitResultFromWire(w *pb.WorkspaceCommitResponse) CommitResult {
	out := CommitResult{ActionID: w.GetActionId(), DryRun: w.GetDryRun(),
		Files: make([]FileChange, 0, len(w.GetFiles())), Warnings: w.GetWarnings()}
	for _, f := range w.GetFiles() {
		out.Files = append(out.Files, FileChange{
			Path: f.GetPath(), Change: f.GetChange(),
			BytesBefore: f.GetBytesBefore(), BytesAfter: f.GetBytesAfter(),
			VersionBefore: FileVersion(f.GetVersionBefore()), VersionAfter: FileVersion(f.GetVersionAfter()),
			Diff: f.GetDiff(),
		})
	}
	return out
}

// ScenesToWire converts the headless scene state, or the error that
// replaced it.
func ScenesToWire(sc Scenes, err error) *pb.WorkspaceScenesResponse {
	if err != nil {
		return &pb.WorkspaceScenesResponse{Error: ErrorToWire(err)}
	}
	return &pb.WorkspaceScenesResponse{Active: PathToWire(sc.Active), Open: pathsToWire(sc.Open)}
}

// ScenesFromWire converts a scenes response (without its error).
func ScenesFromWire(w *pb.WorkspaceScenesResponse) Scenes {
	return Scenes{Active: w.GetActive(), Open: append([]string{}, w.GetOpen()...)}
}

// progressToWire converts a progress report; a message in another
// encoding must not end the call's stream.
func progressToWire(done, total float64, message string) *pb.CallEvent {
	return &pb.CallEvent{Event: &pb.CallEvent_Progress{Progress: &pb.Progress{
		Progress: done, Total: total, Message: validUTF8(message),
	}}}
}

// logToWire makes a log line's strings valid UTF-8: a toolset's log output
// (a file name it prints) is not always.
func logToWire(req *pb.LogRequest) *pb.LogRequest {
	req.Level = validUTF8(req.GetLevel())
	req.Message = validUTF8(req.GetMessage())
	req.Fields = stringsToWire(req.GetFields())
	return req
}
