package sdk

import (
	"encoding/json"
	"strings"
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
