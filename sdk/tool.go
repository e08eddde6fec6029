package sdk

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/godot-mcp/godot-mcp/sdk/args"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// Tool is one tool of a toolset. Build it with [NewTool]; the zero value is
// not usable.
type Tool struct {
	spec manifest.Tool
	// err is a problem found while building the tool (an argument type
	// without a JSON Schema, say). NewTool cannot return it, so it surfaces
	// in Toolset.Manifest, which Serve checks before anything else.
	err error
	out *jsonschema.Resolved
	// run decodes the arguments, checks the path arguments and runs the
	// path the call's mode picks (modes.go).
	run func(ctx context.Context, call *Call, args []byte) (Result, error)
}

// Name returns the tool's bare name.
func (t Tool) Name() string { return t.spec.Name }

// Handler runs one call of a tool. In is the arguments type: a struct whose
// exported fields are the arguments. The SDK derives the tool's input schema
// from it (see [NewTool]) and hands the handler arguments that already passed
// that schema.
//
// Return a [Result] for success. Return an error for failure: a [*Error]
// keeps its code and hint, any other error becomes code TOOL_ERROR. Either
// way the caller receives a tool result with isError set, not a protocol
// error.
//
// A panic is not recovered: it crashes the plugin, the host shows the panic
// text and restarts the plugin. A tool that hides its own crashes would keep
// running in an unknown state, so let it crash.
type Handler[In any] func(ctx context.Context, call *Call, in In) (Result, error)

// ToolOption configures a tool built by [NewTool].
type ToolOption func(*toolOptions)

type toolOptions struct {
	title      string
	scope      manifest.Scope
	output     func() (*jsonschema.Schema, error)
	editor     editorOption // the editor path; the zero value is AnyMode
	editorOnly bool         // NewEditorTool: no headless handler
	dispatch   string
	performs   []string
	overwrite  string
	dryRun     dryRunAnswer // DryRunAnswer's fields and undone flags
}

// ConfirmOverwrite says the tool creates or replaces the res:// file named
// by argument arg. Creating a file is not destructive, replacing one is: on
// a Mutating tool the host then requires confirm=true (as for a
// destructive tool) exactly when that file already exists, and a dry run
// needs none.
func ConfirmOverwrite(arg string) ToolOption {
	return func(o *toolOptions) { o.overwrite = arg }
}

// WithDispatch declares that the argument path ("ARG[*].FIELD", such as
// "commands[*].command") names other tools' operations. The host then checks
// each named operation as a direct call of that tool by the same caller
// (policy, enabled toolset, safety class, confirm) and refuses the whole call
// before it reaches the handler when one would be refused; the handler gets
// each FIELD rewritten to the exposed name of the tool the host checked.
func WithDispatch(path string) ToolOption {
	return func(o *toolOptions) { o.dispatch = path }
}

// WithPerforms declares, by exposed name, other tools whose work this tool
// always does (a batch edit of a property does what
// godot_scene_edit_set_node_property does). The host refuses a call to this
// tool whenever the caller's policy withholds one of them, so a batch tool is
// never a way around a rule about the single one.
func WithPerforms(tools ...string) ToolOption {
	return func(o *toolOptions) { o.performs = append(o.performs, tools...) }
}

// WithTitle sets the human-readable title clients show instead of the
// name. Without it the title is derived from the name (DefaultTitle).
func WithTitle(title string) ToolOption {
	return func(o *toolOptions) { o.title = title }
}

// CLIOnly limits the tool to operators running `godot-mcp call`; it is never
// exposed to agents.
func CLIOnly() ToolOption {
	return func(o *toolOptions) { o.scope = manifest.CLIScope }
}

// WithOutputSchema declares the shape of the tool's structured result,
// derived from Out the same way the input schema is derived from In. Out must
// be a struct (structured content is a JSON object). The SDK checks every
// structured result against it, so a mismatch shows up in your tests.
func WithOutputSchema[Out any]() ToolOption {
	return func(o *toolOptions) {
		o.output = func() (*jsonschema.Schema, error) { return outputSchemaFor[Out]() }
	}
}

// NewTool builds a tool from a typed handler.
//
// The input schema is derived from In by [SchemaFor]: the `json` tag names
// a property, the `jsonschema` tag is its description, every field without
// omitempty (or omitzero) is required, and `default`, `minimum` and
// `maximum` tags declare limits. Unknown arguments are rejected. In must be a struct (or a map with string keys);
// use struct{} for a tool without arguments.
//
// Problems with the definition (a bad name, an In type without a JSON
// Schema, a reserved argument such as dry_run) do not panic: they are
// reported by [Toolset.Manifest], and [Serve] refuses to start.
//
// h is the tool's headless path. What the tool does with an editor attached
// is an option: [EditorCommand], [EditorFunc], [AnyMode] (the default: h
// serves both modes) or [HeadlessOnly]; see the package's notes on modes.
func NewTool[In any](name, description string, class SafetyClass, h Handler[In], opts ...ToolOption) Tool {
	return newTool(name, description, class, h, opts...)
}

func newTool[In any](name, description string, class SafetyClass, h Handler[In], opts ...ToolOption) Tool {
	var o toolOptions
	for _, opt := range opts {
		opt(&o)
	}
	if o.title == "" {
		o.title = DefaultTitle(name)
	}
	t := Tool{spec: manifest.Tool{
		Name:             name,
		Title:            o.title,
		Description:      description,
		SafetyClass:      class,
		Scope:            o.scope,
		Dispatch:         o.dispatch,
		Performs:         o.performs,
		ConfirmOverwrite: o.overwrite,
	}}
	var errs []error
	// The field checks name the field and its type; the schema library's
	// own error (for the same problem) would name its internals, so it is
	// reported only when the fields are fine.
	fieldErr := checkArgsType(reflect.TypeFor[In]())
	if fieldErr != nil {
		errs = append(errs, fmt.Errorf("arguments: %w", fieldErr))
	}
	_, inJSON, err := deriveSchema(SchemaFor[In]) // resolved only to refuse a bad schema: the host validates calls
	if err != nil && fieldErr == nil {
		errs = append(errs, fmt.Errorf("input schema: %w", err))
	}
	if vargs, err := valueArgs(reflect.TypeFor[In]()); err != nil {
		errs = append(errs, fmt.Errorf("arguments: %w", err))
	} else if inJSON != nil {
		if inJSON, err = typeValueArgs(inJSON, vargs); err != nil {
			errs = append(errs, fmt.Errorf("input schema: %w", err))
		}
		t.spec.ValueArgs = vargs
	}
	t.spec.InputSchema = inJSON
	if o.output != nil {
		infer := o.output
		if class == Mutating || class == Destructive {
			infer = func() (*jsonschema.Schema, error) { return withPreviewFields(o.output()) }
		}
		out, outJSON, err := deriveSchema(infer)
		if err != nil {
			errs = append(errs, fmt.Errorf("output schema: %w", err))
		}
		t.out, t.spec.OutputSchema = out, outJSON
	}
	dispatch, err := bindModes(&t, h, o)
	if err != nil {
		errs = append(errs, err)
	}
	fields, err := dryRunFields[In](o.dryRun)
	if err != nil {
		errs = append(errs, err)
	}
	paths, err := pathFields(reflect.TypeFor[In]())
	if err != nil {
		errs = append(errs, fmt.Errorf("arguments: %w", err))
	}
	aliases, err := aliasFields(reflect.TypeFor[In]())
	if err != nil {
		errs = append(errs, fmt.Errorf("arguments: %w", err))
	}
	t.err = errors.Join(errs...)
	t.run = func(ctx context.Context, call *Call, args []byte) (Result, error) {
		if len(aliases) > 0 {
			var err error
			if args, err = applyAliases(args, aliases); err != nil {
				return Result{}, err
			}
		}
		var v In
		if err := decodeArgs(args, &v); err != nil {
			return Result{}, err
		}
		if len(paths) > 0 {
			if err := checkPaths(ctx, call, paths, reflect.ValueOf(&v)); err != nil {
				return Result{}, err
			}
		}
		res, err := dispatch(ctx, call, v)
		if err == nil && call.DryRun {
			var known map[string]any
			if fields != nil {
				known = fields(v)
			}
			res = call.preview(ctx, res, known, o.dryRun.undone)
		}
		return res, err
	}
	return t
}

// DefaultTitle is the title of a tool whose author gave none: its bare
// name as words, capitalised once ("create_node" → "Create node"). Clients
// list tools by title, and an untitled tool shows up as its raw name.
func DefaultTitle(name string) string {
	words := strings.Fields(strings.NewReplacer("_", " ", "-", " ").Replace(name))
	if len(words) == 0 {
		return name
	}
	t := strings.Join(words, " ")
	r, size := utf8.DecodeRuneInString(t)
	return string(unicode.ToUpper(r)) + t[size:]
}

// deriveSchema infers a schema, checks that it describes an object, and
// resolves it for validation.
func deriveSchema(infer func() (*jsonschema.Schema, error)) (*jsonschema.Resolved, json.RawMessage, error) {
	s, err := infer()
	if err != nil {
		return nil, nil, err
	}
	if s.Type != "object" {
		got := s.Type
		if got == "" {
			got = strings.Join(s.Types, " or ")
		}
		return nil, nil, fmt.Errorf("must describe a JSON object (use a struct, not a pointer, or a map with string keys), got %q", got)
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, nil, err
	}
	r, err := s.Resolve(nil)
	if err != nil {
		return nil, nil, err
	}
	return r, raw, nil
}

// decodeArgs decodes the arguments into v, once. It does not validate them
// against the input schema again: the host has (duplicate keys, types,
// limits, required arguments; sdktest applies the same screen), so this
// one strict decode only keeps what the host passed from meaning anything
// but the struct. Failures are *Error with code INVALID_ARGUMENT.
func decodeArgs(raw []byte, v any) error {
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		raw = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return &Error{Code: CodeInvalidArgument, Message: "invalid arguments: " + decodeErrorText(err),
			Hint: "check the arguments against the tool's input schema"}
	}
	if _, err := dec.Token(); err != io.EOF {
		return &Error{Code: CodeInvalidArgument, Message: "invalid arguments: trailing data after the JSON object",
			Hint: "pass exactly one JSON object"}
	}
	return nil
}

// schemaErrorText shortens a validation error to name the argument.
func schemaErrorText(err error) string { return args.Humanize(err) }

func decodeErrorText(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("%s: cannot use a JSON %s here, want %s", te.Field, te.Value, te.Type)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}
