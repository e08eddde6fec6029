package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/exposure"
	"github.com/godot-mcp/godot-mcp/host/gate"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// The godot:// resources are read-only views of the project that an agent
// can attach as context without a tool call. Each is answered by calling
// the plugin tool an agent would call, through the same path as a
// tools/call by the same caller (Server.answer: policy, gate, arguments): a
// caller who may not call the tool may not read the resource, a resource
// of a disabled toolset answers with the enable call, and resources/list
// shows a caller only what it may read. godot_read_resource reads them for
// clients without resource support.
type resourceDef struct {
	uri, name, title, description string
	tool                          string // the plugin tool that answers it
}

const sceneTreeTemplate = "godot://scene/tree/{max_depth}"

var resourceDefs = []resourceDef{
	{"godot://project/info", "project_info", "Project info",
		"The project's name, Godot version, main scene, autoloads and input actions (godot_inspection_get_project_info).",
		"godot_inspection_get_project_info"},
	{"godot://scene/current", "current_scene", "Current scene",
		"The scene being edited: {is_open, path, name}; is_open is false when none is (godot_inspection_get_active_scene).",
		"godot_inspection_get_active_scene"},
	{"godot://scene/tree", "scene_tree", "Scene tree",
		"The node tree of the scene being edited, or of the main scene when none is open, within the usual bounds (godot_inspection_get_scene_tree). " +
			"godot://scene/tree/{max_depth} limits the depth.",
		"godot_inspection_get_scene_tree"},
	{"godot://node/selected", "selected_node", "Selected node",
		"The node selected in the Godot editor, or selected: null with a note when no editor is attached (godot_inspection_get_selected_node).",
		"godot_inspection_get_selected_node"},
}

const treeTool = "godot_inspection_get_scene_tree"

// resourceURIs lists the URIs godot_read_resource and the errors name.
func resourceURIs() string {
	uris := make([]string, 0, len(resourceDefs)+1)
	for _, d := range resourceDefs {
		uris = append(uris, d.uri)
	}
	return strings.Join(append(uris, sceneTreeTemplate), ", ")
}

// addResources registers the resources and the depth template.
func (s *Server) addResources() {
	for _, d := range resourceDefs {
		s.mcp.AddResource(&mcp.Resource{URI: d.uri, Name: d.name, Title: d.title, Description: d.description, MIMEType: "application/json"},
			s.readResourceHandler)
	}
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: sceneTreeTemplate, Name: "scene_tree_depth", Title: "Scene tree to a depth",
		Description: "The scene tree of godot://scene/tree, max_depth levels below the root (0 the root only).", MIMEType: "application/json"},
		s.readResourceHandler)
}

// resourceTool resolves a URI to the tool that answers it and its
// arguments; ok is false for a URI that is no resource of this server.
func resourceTool(uri string) (tool string, args map[string]any, ok bool) {
	for _, d := range resourceDefs {
		if d.uri == uri {
			return d.tool, map[string]any{}, true
		}
	}
	if rest, found := strings.CutPrefix(uri, "godot://scene/tree/"); found {
		if n, err := strconv.Atoi(rest); err == nil && n >= -1 {
			return treeTool, map[string]any{"max_depth": n}, true
		}
	}
	return "", nil, false
}

func (s *Server) readResourceHandler(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	text, se := s.readResource(ctx, req.Session, req.Extra, req.Params.Meta, uri)
	if se != nil {
		if se.Code == sdk.CodeNotFound && se.Required == "uri" {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		// A refusal or a failure of the tool behind the resource: the
		// error's text (code first, then the fix) and the error itself.
		data, _ := json.Marshal(se)
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: se.Text(), Data: data}
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: text}}}, nil
}

// readResource answers a godot:// URI for the caller of the request it
// came with: the JSON of the tool's answer, or the error that tool call
// would have given.
func (s *Server) readResource(ctx context.Context, session *mcp.ServerSession, extra *mcp.RequestExtra, meta mcp.Meta, uri string) (string, *sdk.Error) {
	tool, args, ok := resourceTool(uri)
	if !ok {
		return "", &sdk.Error{Code: sdk.CodeNotFound, Required: "uri", Toolset: gate.Core,
			Message: fmt.Sprintf("%q is no resource of this server", uri),
			Hint:    "the resources are " + resourceURIs()}
	}
	call := func(tool string, args map[string]any) (*mcp.CallToolResult, *sdk.Error) {
		return s.innerCall(ctx, session, extra, meta, tool, args)
	}
	res, se := call(tool, args)
	if tool == treeTool && (se == nil && nullTree(res) || se != nil && se.Required == "active_scene") {
		// No scene is open (always so headless, until one is opened): the
		// tree of the main scene is what an agent asking for "the scene"
		// means. The tool answers tree null then (an older inspection
		// toolset refused with Required active_scene).
		if main := s.mainScene(call); main != "" {
			args["scene"] = main
			if mres, mse := call(tool, args); mse == nil {
				return withNote(mres, "no scene is open; this is the tree of the main scene "+main), nil
			} else if se != nil {
				se = mse
			}
		}
	}
	if se != nil {
		return "", se
	}
	return resultJSON(res), nil
}

// nullTree tells whether a get_scene_tree answer has no tree (no scene is
// open).
func nullTree(res *mcp.CallToolResult) bool {
	var out struct {
		Tree json.RawMessage `json:"tree"`
	}
	if json.Unmarshal([]byte(resultJSON(res)), &out) != nil {
		return false
	}
	return len(out.Tree) == 0 || string(out.Tree) == "null"
}

// mainScene reads the project's main scene through the project info
// tool, the same way (and with the same rights) as the tree itself.
func (s *Server) mainScene(call func(string, map[string]any) (*mcp.CallToolResult, *sdk.Error)) string {
	res, se := call("godot_inspection_get_project_info", map[string]any{})
	if se != nil {
		return ""
	}
	var info struct {
		MainScene string `json:"main_scene"`
	}
	_ = json.Unmarshal([]byte(resultJSON(res)), &info)
	return info.MainScene
}

// innerCall runs a tool on behalf of the request that carries session,
// extra and meta: the caller, and so the policy, are that request's; the
// call takes the whole tools/call path (policy, gate, arguments, safety)
// and is counted in the metrics like any other.
func (s *Server) innerCall(ctx context.Context, session *mcp.ServerSession, extra *mcp.RequestExtra, meta mcp.Meta, tool string, args map[string]any) (*mcp.CallToolResult, *sdk.Error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, asError(err, gate.Core)
	}
	req := &mcp.CallToolRequest{Session: session, Extra: extra, Params: &mcp.CallToolParamsRaw{Meta: meta, Name: tool, Arguments: raw}}
	a, perr := s.observed(ctx, req)
	switch {
	case perr != nil:
		return nil, &sdk.Error{Code: sdk.CodeNotFound, Toolset: gate.Core, Message: perr.Error(),
			Hint: "the toolset that answers this is not installed; godot_list_toolsets lists what is"}
	case a.err != nil:
		return a.res, a.err
	case a.res == nil:
		return nil, &sdk.Error{Code: sdk.CodeInternalError, Toolset: gate.Core, Message: tool + " gave no answer"}
	case a.res.IsError:
		return a.res, &sdk.Error{Code: sdk.CodeInternalError, Message: resultText(a.res)}
	}
	return a.res, nil
}

// resultJSON is a tool answer as JSON: its structured content, else its
// text.
func resultJSON(res *mcp.CallToolResult) string {
	if res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			return string(b)
		}
	}
	return resultText(res)
}

func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// withNote adds a note to an answer's JSON object.
func withNote(res *mcp.CallToolResult, note string) string {
	j := resultJSON(res)
	var obj map[string]any
	if err := json.Unmarshal([]byte(j), &obj); err != nil {
		return j
	}
	obj["note"] = note
	b, _ := json.Marshal(obj)
	return string(b)
}

// listResources narrows resources/list and resources/templates/list to
// what the caller may read: a resource whose tool the policy withholds is
// not listed, as the tool itself is not.
func (s *Server) listResources(ctx context.Context, next mcp.MethodHandler, method string, req mcp.Request) (mcp.Result, error) {
	res, err := next(ctx, method, req)
	if err != nil {
		return res, err
	}
	caller := s.caller(req)
	switch r := res.(type) {
	case *mcp.ListResourcesResult:
		kept := r.Resources[:0:0]
		for _, rs := range r.Resources {
			if tool, _, ok := resourceTool(rs.URI); ok && s.mayCall(caller, tool) {
				kept = append(kept, rs)
			}
		}
		r.Resources = kept
	case *mcp.ListResourceTemplatesResult:
		kept := r.ResourceTemplates[:0:0]
		for _, rt := range r.ResourceTemplates {
			if rt.URITemplate == sceneTreeTemplate && s.mayCall(caller, treeTool) {
				kept = append(kept, rt)
			}
		}
		r.ResourceTemplates = kept
	}
	return res, nil
}

// mayCall reports whether the policy lets caller call an installed tool.
func (s *Server) mayCall(caller exposure.Caller, tool string) bool {
	e, ok := s.reg.lookup(tool)
	return ok && s.policy.Authorize(caller, e.ref) == nil
}

// ---- godot_read_resource

type readResourceArgs struct {
	URI string `json:"uri" jsonschema:"the resource: godot://project/info, godot://scene/current, godot://scene/tree, godot://scene/tree/{max_depth} or godot://node/selected"`
}

var resourceDefsCore = []coreDef{
	coreTool("godot_read_resource", manifest.ReadOnly,
		"Read a godot:// resource, for clients that do not read MCP resources: godot://project/info, godot://scene/current, "+
			"godot://scene/tree (the edited scene, else the main scene), godot://scene/tree/{max_depth} or godot://node/selected. "+
			"Answers what the inspection tool behind it answers, with the same rights: a tool your policy withholds is a resource you cannot read.",
		(*Server).readResourceTool),
}

func init() { coreDefs = append(coreDefs, resourceDefsCore...) }

func (s *Server) readResourceTool(ctx context.Context, req *mcp.CallToolRequest, in readResourceArgs) *mcp.CallToolResult {
	out, se := s.readResource(ctx, req.Session, req.Extra, req.Params.Meta, strings.TrimSpace(in.URI))
	if se != nil {
		if se.Required == "uri" {
			se = &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "uri", Toolset: gate.Core, Message: se.Message, Hint: se.Hint}
		}
		return errorResult(se, false)
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: out}}}
	if isJSONObject([]byte(out)) {
		res.StructuredContent = json.RawMessage(out)
	}
	return res
}
