package sdk

import "fmt"

// Result is what a tool returns: content for the caller to read, optional
// structured content for callers that parse it, and whether it is a failure.
// Build one with [Text] or [JSON], or fill it yourself.
type Result struct {
	// Content is what the caller reads: text and images.
	Content []Content
	// Structured is marshalled to JSON and sent as MCP structured content.
	// It must marshal to a JSON object. When Content is empty the SDK adds
	// the same compact JSON as text, for clients that ignore structured
	// content.
	Structured any
	// Summary, when Content is empty, is a line for a reader that the SDK
	// puts before the structured content's JSON in the text: the text still
	// carries the whole result, for clients that drop structured content.
	Summary string
	// IsError marks the result as a failure the caller should see. Returning
	// an error from the handler is usually clearer: it sets IsError and a
	// machine-readable code.
	IsError bool
}

// Content is one piece of a result: [TextContent], [ImageContent] or
// [AudioContent].
type Content interface{ isContent() }

// TextContent is plain text.
type TextContent struct {
	Text string
}

// ImageContent is an encoded image, such as a PNG screenshot.
type ImageContent struct {
	Data     []byte
	MIMEType string // for example "image/png"
}

// AudioContent is encoded audio.
type AudioContent struct {
	Data     []byte
	MIMEType string // for example "audio/wav"
}

func (TextContent) isContent()  {}
func (ImageContent) isContent() {}
func (AudioContent) isContent() {}

// Text returns a result holding one text, formatted like fmt.Sprintf.
func Text(format string, args ...any) Result {
	return Result{Content: []Content{TextContent{Text: fmt.Sprintf(format, args...)}}}
}

// Summarized returns a result whose structured content is v and whose text
// is summary followed by the same JSON (see Result.Summary).
func Summarized(summary string, v any) Result {
	return Result{Summary: summary, Structured: v}
}

// JSON returns a result whose structured content is v. v must marshal to a
// JSON object, so use a struct or a map. Clients that do not read
// structured content get the same JSON as text: the SDK encodes v once and
// sends those bytes as both (see Result.Structured).
func JSON(v any) Result {
	return Result{Structured: v}
}
