package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/godot-mcp/godot-mcp/sdk/editorcmd"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// A Godot tool works in two modes, and the SDK, not the tool, picks one per
// call:
//
//   - editor mode, when a Godot editor with the godot-mcp addon is attached
//     to the host: the tool's editor path sends addon commands, the user sees
//     the change at once and Ctrl+Z undoes it;
//   - headless mode, when none is: the tool's handler edits the project files
//     through [Call.Workspace].
//
// A tool declares its paths when it is built: the handler given to [NewTool]
// is the headless path, and one option says what happens with an editor
// attached:
//
//   - [EditorCommand]: one addon command built from the arguments, whose
//     reply is the result;
//   - [EditorFunc]: a function that queries the editor and then applies
//     commands, through an [*Editor];
//   - [AnyMode] (the default): the handler serves both modes, because it
//     only reads the project files or writes them through the workspace,
//     which keeps an attached editor in sync;
//   - [HeadlessOnly]: with an editor attached the tool refuses, saying why.
//
// [NewEditorTool] builds a tool that only has an editor path.
//
// Dry runs are the SDK's too. In editor mode an [*Editor] records the
// commands that would change something instead of sending them (queries
// still run, and commands that preview themselves are sent with their
// preview flag); headless, [Tx.Commit] writes nothing and reports the diff.
// Either way the SDK adds the same preview fields to the tool's answer:
// dry_run, mode, and the commands or the file changes. There is no way to
// reach the editor but through an *Editor, so a tool cannot change the
// user's scene during a dry run, and the host refuses such a command anyway.

// Mode is how one call reaches Godot.
type Mode = manifest.Mode

// The modes.
const (
	// ModeHeadless works on the project files, with no editor attached.
	ModeHeadless = manifest.ModeHeadless
	// ModeEditor forwards to an attached Godot editor.
	ModeEditor = manifest.ModeEditor
)

// EditorHandler is a tool's editor path: it reaches the editor through ed
// (and the project files through call, when it must read them too).
type EditorHandler[In any] func(ctx context.Context, call *Call, ed *Editor, in In) (Result, error)

// editorKind is how a tool serves a call with an editor attached.
type editorKind int

const (
	editorFiles   editorKind = iota // the headless handler, on the files
	editorCommand                   // one addon command from the arguments
	editorFunc                      // an EditorHandler
	editorRefused                   // headless only
)

// editorOption is what the editor-path options record; NewTool checks that
// its function takes the tool's argument type.
type editorOption struct {
	kind    editorKind
	command string
	fn      any    // func(In) (any, error) or EditorHandler[In]
	why     string // HeadlessOnly's reason
}

// EditorCommand makes the tool's editor path one addon command: params
// builds the command's parameters from the arguments (nil for none), and the
// addon's reply is the result. A mutating command is recorded, not sent,
// during a dry run.
func EditorCommand[In any](command string, params func(in In) (any, error)) ToolOption {
	return func(o *toolOptions) {
		o.editor = editorOption{kind: editorCommand, command: command, fn: params}
	}
}

// EditorFunc makes fn the tool's editor path: it may query the editor, then
// apply commands, through its *Editor.
func EditorFunc[In any](fn EditorHandler[In]) ToolOption {
	return func(o *toolOptions) {
		o.editor = editorOption{kind: editorFunc, fn: fn}
	}
}

// ErrOnFiles, returned by an [EditorCommand]'s params function, runs the
// tool's headless handler for this call instead of the command: for
// arguments the command cannot take (an inline resource: the addon takes
// resources as paths only) when the tool writes a file the editor does not
// hold open as a scene, such as a .tres. The workspace writes it and has
// the editor rescan, which reloads it. (A change to an open scene goes
// through [Editor.OnSceneFile] instead.)
var ErrOnFiles = errors.New("run on the project files")

// AnyMode says the tool's handler serves both modes: it only reads the
// project files, or writes them through [Call.Workspace], which refuses to
// clobber a scene the editor holds unsaved and asks the editor to reload
// what changed. This is the default; say it to make it plain.
func AnyMode() ToolOption {
	return func(o *toolOptions) { o.editor = editorOption{kind: editorFiles} }
}

// HeadlessOnly says the tool cannot run with an editor attached; why is the
// caller's reason, such as "it rewrites files the editor holds open".
func HeadlessOnly(why string) ToolOption {
	return func(o *toolOptions) { o.editor = editorOption{kind: editorRefused, why: why} }
}

// NewEditorTool builds a tool that only works with an editor attached (a
// selection, the editor's own screenshot): headless calls are refused with
// the way to attach one.
func NewEditorTool[In any](name, description string, class SafetyClass, h EditorHandler[In], opts ...ToolOption) Tool {
	opts = append(opts, func(o *toolOptions) {
		o.editor = editorOption{kind: editorFunc, fn: h}
		o.editorOnly = true
	})
	return newTool[In](name, description, class, nil, opts...)
}

// bindModes works out a tool's modes and its dispatch from the handler and
// the options, recording definition errors on t.
func bindModes[In any](t *Tool, h Handler[In], o toolOptions) (func(ctx context.Context, call *Call, in In) (Result, error), error) {
	headless := h
	var editor func(ctx context.Context, call *Call, ed *Editor, in In) (Result, error)
	switch o.editor.kind {
	case editorFiles:
		if h != nil {
			editor = func(ctx context.Context, call *Call, _ *Editor, in In) (Result, error) { return h(ctx, call, in) }
		}
		t.spec.EditorPath = manifest.EditorOnFiles
	case editorCommand:
		build, ok := o.editor.fn.(func(In) (any, error))
		if !ok || build == nil || o.editor.command == "" {
			return nil, fmt.Errorf("EditorCommand needs a command name and a func(%s) (any, error)", reflect.TypeFor[In]())
		}
		cmd := o.editor.command
		editor = func(ctx context.Context, call *Call, ed *Editor, in In) (Result, error) {
			params, err := build(in)
			if errors.Is(err, ErrOnFiles) && h != nil {
				call.viaEditor = false
				return h(ctx, call, in)
			}
			if err != nil {
				return Result{}, err
			}
			return ed.Forward(ctx, cmd, params)
		}
		t.spec.EditorPath = cmd
	case editorFunc:
		fn, ok := o.editor.fn.(EditorHandler[In])
		if !ok || fn == nil {
			return nil, fmt.Errorf("EditorFunc needs a non-nil EditorHandler[%s]", reflect.TypeFor[In]())
		}
		editor = fn
		t.spec.EditorPath = manifest.EditorFunction
	case editorRefused:
		t.spec.EditorPath = ""
	}
	if o.editorOnly {
		headless = nil
	} else if h == nil {
		return nil, fmt.Errorf("handler is nil")
	}
	if headless != nil {
		t.spec.Modes = append(t.spec.Modes, ModeHeadless)
	}
	if editor != nil {
		t.spec.Modes = append(t.spec.Modes, ModeEditor)
	}
	name, why, kind := t.spec.Name, o.editor.why, o.editor.kind
	return func(ctx context.Context, call *Call, in In) (Result, error) {
		if call.mode == ModeEditor {
			if editor == nil {
				return Result{}, headlessOnlyError(name, why)
			}
			if kind != editorFiles {
				call.viaEditor = true
			}
			return editor(ctx, call, call.editorFor(), in)
		}
		if headless == nil {
			return Result{}, editorOnlyError(name)
		}
		return headless(ctx, call, in)
	}, nil
}

func headlessOnlyError(tool, why string) *Error {
	msg := fmt.Sprintf("%s works only headless, on the project files, and an editor is attached", tool)
	if why != "" {
		msg += ": " + why
	}
	return &Error{Code: CodePreconditionFailed, Message: msg, Required: "headless",
		Hint: "close the Godot editor (or disable its godot-mcp addon) and call again; godot_health_check shows whether an editor is attached"}
}

func editorOnlyError(tool string) *Error {
	return &Error{Code: CodePreconditionFailed, Required: "editor",
		Message: tool + " needs a Godot editor and none is attached (this host works headless on the project files)",
		Hint:    "open the project in the Godot editor with the godot-mcp addon enabled (docs/editor-bridge.md), then call again"}
}

// Editor is a tool's link to the attached Godot editor for one call: the
// only way a toolset reaches the editor. During a dry run it records every
// command that would change something instead of sending it.
type Editor struct {
	call     *Call
	recorded []EditorCommandRecord
}

// EditorCommandRecord is one addon command in a dry run's preview.
type EditorCommandRecord struct {
	Command string          `json:"command"`
	Params  json.RawMessage `json:"params,omitempty"`
	// Previewed says the addon previewed the command itself (its dry_run
	// or preview flag was set); otherwise it was not sent.
	Previewed bool `json:"previewed,omitempty"`
}

// editorFor returns the call's Editor, made on first use.
func (c *Call) editorFor() *Editor {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ed == nil {
		c.ed = &Editor{call: c}
	}
	return c.ed
}

// DryRun reports whether this call only previews.
func (e *Editor) DryRun() bool { return e.call.DryRun }

// Query runs a command that only reads (package editorcmd says which do),
// also during a dry run. params is marshalled to JSON; the reply is
// unmarshalled into result unless it is nil. A command that changes
// something is refused here: send it with Apply.
func (e *Editor) Query(ctx context.Context, command string, params, result any) error {
	switch editorcmd.Lookup(command).Kind {
	case editorcmd.Query, editorcmd.Navigation:
	default:
		return &Error{Code: CodeToolError,
			Message: fmt.Sprintf("toolset defect: %s changes the editor, so Editor.Query refuses it", command),
			Hint:    "the toolset must send it with Editor.Apply; report this to the toolset's author"}
	}
	raw, err := marshalParams(command, params)
	if err != nil {
		return err
	}
	return e.call.srv.editor(ctx, e.call, command, raw, result)
}

// Apply runs a command that may change the editor. During a dry run a
// command that previews itself is sent with its preview flag set (its reply
// fills result); any other mutating command is recorded for the preview,
// not sent, and result is left as it is — so code after Apply must not
// depend on it in a dry run (check [Editor.DryRun]).
//
// A failure reported by the editor is returned as *[Error], its code
// already the one an agent gets for the same mistake headless (the host maps
// the addon's codes: package addonerr). Return it unchanged.
func (e *Editor) Apply(ctx context.Context, command string, params, result any) error {
	raw, err := marshalParams(command, params)
	if err != nil {
		return err
	}
	if e.call.DryRun {
		info := editorcmd.Lookup(command)
		switch info.Kind {
		case editorcmd.Preview:
			if raw, err = withFlag(command, raw, info.Flag); err != nil {
				return err
			}
			e.record(command, raw, true)
		case editorcmd.Mutating:
			e.record(command, raw, false)
			return nil
		}
	}
	return e.call.srv.editor(ctx, e.call, command, raw, result)
}

// Forward applies command like Apply and answers the editor's reply (a JSON
// object) as the tool's result: the editor path of a tool whose headless
// answer has the same shape. In a dry run of a mutating command the answer
// is the preview alone.
func (e *Editor) Forward(ctx context.Context, command string, params any) (Result, error) {
	var out map[string]any
	if err := e.Apply(ctx, command, params, &out); err != nil {
		return Result{}, err
	}
	if out == nil {
		out = map[string]any{}
	}
	return JSON(out), nil
}

// OpenScene makes scene (a res:// path; "" for none) the editor's active
// tab, the one the addon's node commands act on. It is sent in dry runs
// too: the queries of a preview need the right tab.
func (e *Editor) OpenScene(ctx context.Context, scene string) error {
	if scene == "" {
		return nil
	}
	return e.Query(ctx, "cmd_open_scene", map[string]any{"scene_path": scene}, nil)
}

// Polled is the outcome of [Editor.Poll].
type Polled struct {
	// Answer is the last answer: the ready one, or the last one before
	// the wait ran out.
	Answer map[string]any
	// Ready says the answer is ready; false means the wait ran out.
	Ready bool
	// Polls counts the queries sent; Reason is the last "reason" an
	// answer that was not ready gave ("" for none).
	Polls  int
	Reason string
}

// PollInterval is how often Editor.Poll asks again.
var PollInterval = 100 * time.Millisecond

// Poll sends the query command until its answer is ready, for addon
// commands that answer {"ready": false, "reason": …} while the editor or
// its game is still getting the thing (a recording, monitors, a
// screenshot): an answer without "ready": false is ready. It asks every
// PollInterval until wait would pass; then it returns the last answer with
// Ready false, and the caller says what to do about it. A cancelled call
// stops at once with the context's error.
func (e *Editor) Poll(ctx context.Context, command string, params any, wait time.Duration) (Polled, error) {
	deadline := time.Now().Add(wait)
	var p Polled
	for {
		p.Answer = nil
		if err := e.Query(ctx, command, params, &p.Answer); err != nil {
			return p, err
		}
		p.Polls++
		if ready, ok := p.Answer["ready"].(bool); !ok || ready {
			p.Ready = true
			return p, nil
		}
		if r, _ := p.Answer["reason"].(string); r != "" {
			p.Reason = r
		}
		if time.Now().Add(PollInterval).After(deadline) {
			return p, nil
		}
		select {
		case <-ctx.Done():
			return p, ctx.Err()
		case <-time.After(PollInterval):
		}
	}
}

// OnSceneFile makes a change that the addon's commands cannot express (an
// inline resource: the addon takes resources as res:// paths only) on the
// file of a scene the editor has open, and has the editor show it: fn is
// the tool's headless handler, run on the files for the scene it is given.
//
// scene names the scene ("" for the editor's active one); it is opened
// first, since the addon saves and the host checks the active tab. The
// editor then saves it, so fn reads everything the user sees; fn's
// workspace commits may write that one open scene, where the host has the
// editor save it again under the commit's lock (an edit the user made
// meanwhile turns into a CONFLICT, with nothing lost), writes it, and has
// the editor reload it. The change is one step of the workspace's journal,
// not of the editor's undo history: the answer says so in "on_file". A dry
// run saves nothing and previews the change on the file as last saved.
func (e *Editor) OnSceneFile(ctx context.Context, scene string, fn func(ctx context.Context, scene string) (Result, error)) (Result, error) {
	if err := e.OpenScene(ctx, scene); err != nil {
		return Result{}, err
	}
	act, err := e.activeScene(ctx)
	if err != nil {
		return Result{}, err
	}
	switch {
	case !act.IsOpen:
		return Result{}, &Error{Code: CodePreconditionFailed, Required: "active_scene",
			Message: "no scene is open in the Godot editor",
			Hint:    "open one with godot_scene_edit_open_scene {\"scene_path\"} (or pass scene), then call again"}
	case act.Path == "":
		return Result{}, &Error{Code: CodePreconditionFailed, Required: "scene_path",
			Message: "the editor's active scene has never been saved, so it has no file to write the inline resource into",
			Hint:    "save it once with godot_scene_edit_save_scene (the editor asks for a path), then call again"}
	}
	if err := e.Apply(ctx, "cmd_save_scene", nil, nil); err != nil {
		return Result{}, err
	}
	c := e.call
	c.mu.Lock()
	c.saveInEditor = act.Path
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.saveInEditor = ""
		c.mu.Unlock()
	}()
	res, err := fn(ctx, act.Path)
	if err != nil || res.IsError {
		return res, err
	}
	if out := structuredFields(res); out != nil {
		res.Structured = out
		done := " was saved, edited on its file and reloaded in the editor: Ctrl+Z there does not undo this step (make the opposite edit to revert it)"
		if c.DryRun {
			done = " would be saved, edited on its file and reloaded in the editor (the preview shows the file as last saved): Ctrl+Z there would not undo that step"
		}
		out["on_file"] = "the editor addon cannot build the resources this change needs, so " + act.Path + done
	}
	return res, nil
}

// HandlerOnSceneFile is [Editor.OnSceneFile] for the usual case: h, the
// tool's headless handler, runs on *in with *scene (in's scene argument)
// set to the editor's scene:
//
//	if nodeedit.HasInline(in.Value) {
//		return sdk.HandlerOnSceneFile(ctx, call, ed, &in, &in.Scene, setProperty)
//	}
func HandlerOnSceneFile[In any](ctx context.Context, call *Call, ed *Editor, in *In, scene *ScenePath, h Handler[In]) (Result, error) {
	return ed.OnSceneFile(ctx, string(*scene), func(ctx context.Context, path string) (Result, error) {
		*scene = ScenePath(path)
		return h(ctx, call, *in)
	})
}

func (e *Editor) record(command string, params json.RawMessage, previewed bool) {
	e.call.mu.Lock()
	e.recorded = append(e.recorded, EditorCommandRecord{Command: command, Params: params, Previewed: previewed})
	e.call.mu.Unlock()
}

func marshalParams(command string, params any) (json.RawMessage, error) {
	switch p := params.(type) {
	case nil:
		return json.RawMessage("{}"), nil
	case json.RawMessage:
		return p, nil
	}
	b, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("editor command %q: encoding params: %w", command, err)
	}
	return b, nil
}

// withFlag sets a preview command's flag to true in its params object.
func withFlag(command string, raw json.RawMessage, flag string) (json.RawMessage, error) {
	var p map[string]json.RawMessage
	if err := json.Unmarshal(raw, &p); err != nil || p == nil {
		return nil, fmt.Errorf("editor command %q: params must be a JSON object", command)
	}
	p[flag] = json.RawMessage("true")
	return json.Marshal(p)
}

// Preview is what a dry run would have done, in the same shape in both
// modes: the SDK adds it to a tool's answer as "preview", next to
// "dry_run": true.
type Preview struct {
	// Mode is the mode the call ran in.
	Mode Mode `json:"mode"`
	// Commands are the addon commands an editor path would have sent (or
	// sent with their preview flag); present when the editor path ran.
	Commands []EditorCommandRecord `json:"commands,omitempty"`
	// Files are the file changes the call would have made, each with a
	// diff; present when the tool works on the files.
	Files []FileChange `json:"files,omitempty"`
}

// dryRunAnswer is what DryRunAnswer records.
type dryRunAnswer struct {
	fields any // func(In) map[string]any
	undone []string
}

// DryRunAnswer declares the fields of the tool's answer that a dry run
// knows without applying anything, so that its preview answers the tool's
// own result in both modes: in editor mode the edit is recorded, not sent,
// and no reply comes back to pass on.
//
// fields builds them from the arguments: the ones that say what the call
// acts on (node_path, scene_path, path, …), as the real run answers them
// as far as the arguments tell (the real run may settle a name clash). A
// field the tool's own answer has (headless: the whole answer of the edit
// made in memory; in the editor: the addon's verdict or preview) is kept;
// the others are added. undone are the answer's "it happened" flags
// (created, moved, deleted, …): a dry run answers each false, in both
// modes, as nothing happened.
//
// Every mutating tool whose editor path sends commands should declare it;
// a tool that serves both modes with its handler on the files answers the
// same fields either way, and needs it only for its undone flags.
func DryRunAnswer[In any](fields func(in In) map[string]any, undone ...string) ToolOption {
	return func(o *toolOptions) {
		o.dryRun = dryRunAnswer{fields: fields, undone: undone}
	}
}

// EditedScene, as a value of DryRunAnswer's fields, stands for the res://
// path of the scene the call edits, which the arguments do not say when the
// call acts on the active scene: in editor mode the SDK asks the editor for
// its active tab (cmd_get_active_scene) after the tool's editor path ran,
// so a scene the call named and opened is the one answered. Headless the
// tool's own answer names the scene it edited; where it does not, the
// field is left out.
const EditedScene editedScene = "\x00edited scene"

type editedScene string

// dryRunFields checks DryRunAnswer's function against the tool's argument
// type.
func dryRunFields[In any](d dryRunAnswer) (func(In) map[string]any, error) {
	if d.fields == nil {
		return nil, nil
	}
	fn, ok := d.fields.(func(In) map[string]any)
	if !ok || fn == nil {
		return nil, fmt.Errorf("DryRunAnswer needs a non-nil func(%s) map[string]any", reflect.TypeFor[In]())
	}
	return fn, nil
}

// preview adds the dry run's fields to a tool's answer: dry_run, and the
// preview of what it would have done. The tool's own fields stay, known
// (DryRunAnswer's fields) fills in those it lacks, and each undone flag is
// false; a text-only answer keeps its text and gains them as structured
// content.
func (c *Call) preview(ctx context.Context, res Result, known map[string]any, undone []string) Result {
	if res.IsError {
		return res
	}
	fields := structuredFields(res)
	if fields == nil {
		fields = map[string]any{}
	}
	for k, v := range known {
		if _, ok := fields[k]; ok {
			continue
		}
		if v == EditedScene {
			if v = c.editedScene(ctx); v == "" {
				continue
			}
		}
		fields[k] = v
	}
	for _, k := range undone {
		fields[k] = false
	}
	fields["dry_run"] = true
	p := Preview{Mode: c.mode}
	c.mu.Lock()
	if c.viaEditor {
		p.Commands = []EditorCommandRecord{}
		if c.ed != nil {
			p.Commands = append(p.Commands, c.ed.recorded...)
		}
	}
	if !c.viaEditor || len(c.changes) > 0 {
		p.Files = append([]FileChange{}, c.changes...)
	}
	fields["preview"] = p
	c.mu.Unlock()
	out := Result{Structured: fields}
	if res.Structured == nil {
		out.Content = res.Content // a text answer keeps its words
	}
	return out
}

// editedScene is the editor's active scene for a dry run's answer ("" when
// the call runs headless, or the editor has none).
func (c *Call) editedScene(ctx context.Context) string {
	if c.mode != ModeEditor {
		return ""
	}
	act, err := c.editorFor().activeScene(ctx)
	if err != nil || !act.IsOpen {
		return ""
	}
	return act.Path
}

// activeScene is the addon's answer to cmd_get_active_scene: whether a
// scene tab is open, and its res:// path ("" for a scene never saved).
type activeScene struct {
	IsOpen bool   `json:"is_open"`
	Path   string `json:"path"`
}

func (e *Editor) activeScene(ctx context.Context) (activeScene, error) {
	var act activeScene
	err := e.Query(ctx, "cmd_get_active_scene", nil, &act)
	return act, err
}

// structuredFields is a copy of res's structured answer as a JSON object
// (a typed answer converted), so that fields can be added to it; nil when
// it has none or it is not an object.
func structuredFields(res Result) map[string]any {
	if m, ok := res.Structured.(map[string]any); ok || res.Structured == nil {
		return maps.Clone(m)
	}
	var m map[string]any
	if b, err := json.Marshal(res.Structured); err == nil && json.Unmarshal(b, &m) == nil {
		return m
	}
	return nil
}

// withPreviewFields lets a mutating tool's output schema describe its dry
// run's answer too: the preview fields are added, and nothing is required,
// since an editor dry run answers only what it would send.
func withPreviewFields(s *jsonschema.Schema, err error) (*jsonschema.Schema, error) {
	if err != nil || s == nil {
		return s, err
	}
	if s.Properties == nil {
		s.Properties = map[string]*jsonschema.Schema{}
	}
	add := func(name string, p *jsonschema.Schema) {
		if _, ok := s.Properties[name]; !ok {
			s.Properties[name] = p
		}
	}
	add("dry_run", &jsonschema.Schema{Type: "boolean", Description: "true when the call only previewed"})
	add("preview", &jsonschema.Schema{Type: "object", AdditionalProperties: &jsonschema.Schema{},
		Description: "a dry run: what it would have done (mode, the addon commands it would send, the file changes with their diff)"})
	add("on_file", &jsonschema.Schema{Type: "string",
		Description: "with an editor attached, set when the change was made on the saved scene file, which the editor then reloaded (an inline resource, which the addon cannot build)"})
	s.Required = nil
	return s, nil
}
