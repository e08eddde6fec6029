package server

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/gate"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
	"github.com/godot-mcp/godot-mcp/sdk/godot/renames"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// classInfoDefs is godot_describe_class: what an engine class is, from the
// class database embedded in the SDK (dumped from the real engine, with
// argument names and one-line descriptions from Godot's class reference,
// which the dumped engine build leaves out), in both modes. The addon's cmd_describe_class would answer from the
// editor's own ClassDB, but the embedded database answers the same
// questions without an editor and with defaults and hints, so the host
// does not forward.
var classInfoDefs = []coreDef{describeClassDef()}

func init() { coreDefs = append(coreDefs, classInfoDefs...) }

// describeClassDef is coreTool plus the enum of members, which struct
// tags cannot say.
func describeClassDef() coreDef {
	d := coreTool("godot_describe_class", manifest.ReadOnly,
		"Describe a Godot engine class: what it is for in one line (and, when filter narrows the methods to a few, what each does), its inheritance chain, whether it can be instanced and is a Node, its properties (type, default, inspector hint, enum values), signals, methods (argument names, types and defaults, return type: add_point(id: int, position: Vector2, weight_scale: float = 1.0)) and constants/enums, from the engine's own class database and Godot's class reference. Pass class_name for one class (a Godot 3 name such as KinematicBody2D answers with its Godot 4 class), or query to search class names by part (case-insensitive; each match says what the class is for). Large classes are paged: pass members to pick one kind, filter to match member names, inherited=true to include ancestors' members, and cursor from next_cursor for the next page.",
		(*Server).describeClass)
	d.schema = func() (*jsonschema.Schema, error) {
		s, err := sdk.SchemaFor[describeArgs]()
		if err != nil {
			return nil, err
		}
		for _, k := range memberKinds {
			s.Properties["members"].Enum = append(s.Properties["members"].Enum, k)
		}
		return s, nil
	}
	return d
}

type describeArgs struct {
	ClassName string `json:"class_name,omitempty" jsonschema:"Exact engine class name, e.g. CharacterBody2D. Case-insensitive matches and Godot 3 names are answered with the Godot 4 class."`
	Query     string `json:"query,omitempty" jsonschema:"Search class names containing this text, case-insensitive (e.g. \"body2d\"); used when class_name is empty."`
	Members   string `json:"members,omitempty" default:"all" jsonschema:"Which members to list: all, properties, signals, methods, constants or none."`
	Filter    string `json:"filter,omitempty" jsonschema:"Only members whose name contains this text, case-insensitive (e.g. \"velocity\")."`
	Inherited bool   `json:"inherited,omitempty" jsonschema:"Also list members declared by ancestor classes, each with the class that declares it."`
	Limit     int    `json:"limit,omitempty" default:"100" minimum:"1" maximum:"500" jsonschema:"Most members (or search matches, at most 100) to return; a page also stops at about 16 KB."`
	Cursor    string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous page."`
}

// memberKinds are the values of describeArgs.Members, in listing order
// after "all".
var memberKinds = []string{"all", "properties", "signals", "methods", "constants", "none"}

// pageBudget bounds the members of one answer in bytes of JSON, so a
// class such as Control (hundreds of members with inherited=true) pages
// rather than flooding the agent's context.
const pageBudget = 16 << 10

// maxMethodBriefs is the most methods a filtered answer describes.
const maxMethodBriefs = 20

// searchCap is the most matches a query returns.
const searchCap = 100

func (s *Server) describeClass(_ context.Context, _ *mcp.CallToolRequest, in describeArgs) *mcp.CallToolResult {
	db, err := classdb.Embedded()
	if err != nil {
		return errorResult(asError(err, gate.Core), false)
	}
	if in.Limit <= 0 {
		in.Limit = 100
	}
	if in.Members == "" {
		in.Members = "all"
	}
	project, _ := s.opts.Gate.GodotVersion()
	ver := versionView(db, project)
	switch {
	case in.ClassName != "":
		return s.describeOne(db, ver, in)
	case in.Query != "":
		return searchClasses(db, ver, in)
	default:
		return errorResult(&sdk.Error{Code: sdk.CodeInvalidArgument, Toolset: gate.Core,
			Message: "godot_describe_class needs class_name or query",
			Hint:    `pass {"class_name":"CharacterBody2D"} for one class, or {"query":"body2d"} to search class names`}, false)
	}
}

// classVersion says which Godot answered and for which project.
type classVersion struct {
	Database string `json:"database"`
	Project  string `json:"project,omitempty"`
	Source   string `json:"answered_by"`
	// Docs is where argument names and descriptions come from.
	Docs string `json:"descriptions_from,omitempty"`
	Note string `json:"note,omitempty"`
}

func versionView(db *classdb.DB, project string) classVersion {
	v := classVersion{Database: db.Version().String(), Project: project, Source: "embedded class database"}
	if p := db.Provenance(); p.Engine != "" {
		v.Source += " (Godot " + p.Engine + ")"
	}
	v.Docs = db.DocsProvenance().Source
	dbMinor := fmt.Sprintf("%d.%d", db.Version().Major, db.Version().Minor)
	switch {
	case project == "":
	case strings.HasPrefix(project, "3"):
		v.Note = "this project is Godot " + project + "; every name here is Godot 4's (godot_describe_class of a Godot 3 name gives its Godot 4 name)"
	case project != dbMinor && !strings.HasPrefix(project, dbMinor+"."):
		v.Note = fmt.Sprintf("the class database is Godot %s's and this project is Godot %s: members the versions do not share are not marked", v.Database, project)
	}
	return v
}

// classSummary is a class as a search lists it.
type classSummary struct {
	Name         string `json:"name"`
	Inherits     string `json:"inherits,omitempty"`
	Instantiable bool   `json:"instantiable"`
	Node         bool   `json:"is_node"`
	Brief        string `json:"brief,omitempty"`
}

func summarize(db *classdb.DB, name string) classSummary {
	c, _ := db.Class(name)
	return classSummary{Name: name, Inherits: c.Inherits, Instantiable: c.Instantiable && !c.Disabled, Node: db.IsNode(name), Brief: db.Brief(name)}
}

func searchClasses(db *classdb.DB, ver classVersion, in describeArgs) *mcp.CallToolResult {
	q := strings.ToLower(in.Query)
	limit := min(in.Limit, searchCap)
	var matches []classSummary
	total := 0
	for _, name := range db.Classes() {
		if strings.Contains(strings.ToLower(name), q) {
			total++
			if len(matches) < limit {
				matches = append(matches, summarize(db, name))
			}
		}
	}
	var old []renames.Rename
	for _, r := range renames.All() {
		if r.Kind == renames.KindClass && strings.Contains(strings.ToLower(r.Old), q) {
			if _, ok := db.ClassRename(r.Old); !ok {
				continue
			}
			old = append(old, r)
		}
	}
	out := map[string]any{"query": in.Query, "matches": nonNil(matches), "total": total, "godot": ver}
	summary := fmt.Sprintf("%d classes match %q", total, in.Query)
	if more := total - len(matches); more > 0 {
		out["more"] = more
		summary += fmt.Sprintf(" (%d shown, %d more: narrow the query)", len(matches), more)
	}
	if len(old) > 0 {
		out["godot3_names"] = old
		summary += fmt.Sprintf("; %d Godot 3 names match too (see godot3_names)", len(old))
	}
	if total == 0 && len(old) == 0 {
		summary += "; try a shorter part of the name"
	}
	return jsonResult(summary+".", out)
}

func (s *Server) describeOne(db *classdb.DB, ver classVersion, in describeArgs) *mcp.CallToolResult {
	name := in.ClassName
	var renamed *renames.Rename
	if !db.Exists(name) {
		if r, ok := classRename(db, name); ok {
			renamed, name = &r, r.New
		} else if exact := foldClass(db, name); exact != "" {
			name = exact
		} else {
			hint := fmt.Sprintf(`search class names with godot_describe_class({"query":%q})`, shorten(name))
			if sug := db.Suggest(name); sug != "" {
				hint = fmt.Sprintf("did you mean %q? Or %s", sug, hint)
			}
			return errorResult(&sdk.Error{Code: sdk.CodeNotFound, Toolset: gate.Core,
				Message: fmt.Sprintf("%q is not an engine class in Godot %s", in.ClassName, orStr(ver.Project, ver.Database)),
				Hint:    hint}, false)
		}
	}
	offset := 0
	if in.Cursor != "" {
		n, err := strconv.Atoi(in.Cursor)
		if err != nil || n < 0 {
			return errorResult(&sdk.Error{Code: sdk.CodeInvalidArgument, Toolset: gate.Core,
				Message: fmt.Sprintf("cursor %q is not one this tool gave", in.Cursor),
				Hint:    "pass next_cursor from the previous answer unchanged, or omit cursor for the first page"}, false)
		}
		offset = n
	}
	c, _ := db.Class(name)
	out := map[string]any{
		"class":        name,
		"brief":        db.Brief(name),
		"inherits":     nonNil(db.Chain(name)[1:]),
		"instantiable": c.Instantiable && !c.Disabled,
		"is_node":      db.IsNode(name),
		"is_resource":  db.Inherits(name, "Resource"),
		"api":          c.APIType,
		"godot":        ver,
	}
	if c.Disabled {
		out["disabled"] = "compiled in but cannot be created in this engine build"
	}
	if c.APIType.EditorOnly() {
		out["editor_only"] = true
	}
	var lead []string
	if renamed != nil {
		out["renamed_from"] = renamed
		lead = append(lead, renamed.Message()+".")
	} else if r, ok := renames.Class(name); ok && db.Exists(r.New) {
		// Texture, Light2D: a Godot 4 class whose name Godot 3 used for
		// another; an agent porting Godot 3 code should know.
		out["godot3_note"] = fmt.Sprintf("in Godot 3, %s named the class Godot 4 calls %s", name, r.New)
	}
	page := collectMembers(db, name, in)
	shown := page.emit(out, offset, in.Limit)
	if in.Filter != "" {
		if r, ok := memberRename(db, name, in.Filter); ok {
			out["renamed_member"] = r
			lead = append(lead, r.Message()+".")
		}
	}
	kind := "instantiable"
	if !c.Instantiable || c.Disabled {
		kind = "abstract"
	}
	lead = append(lead, fmt.Sprintf("%s (%s) inherits %s.", name, kind, orStr(c.Inherits, "nothing")))
	if b := db.Brief(name); b != "" {
		lead = append(lead, b)
	}
	if page.total > 0 {
		lead = append(lead, fmt.Sprintf("Members %d-%d of %d.", min(offset+1, page.total), offset+shown, page.total))
	}
	if next := offset + shown; next < page.total {
		out["next_cursor"] = strconv.Itoa(next)
		lead = append(lead, fmt.Sprintf(`More: pass cursor %q.`, strconv.Itoa(next)))
	}
	if !in.Inherited && in.Members != "none" {
		lead = append(lead, "Own members only; inherited=true adds the ancestors'.")
	}
	return jsonResult(strings.Join(lead, " "), out)
}

// classRename is db.ClassRename with case folded, so "kinematicbody2d"
// is answered too.
func classRename(db *classdb.DB, name string) (renames.Rename, bool) {
	if r, ok := db.ClassRename(name); ok {
		return r, true
	}
	if r, ok := renames.ClassFold(name); ok && !db.Exists(r.Old) && db.Exists(r.New) {
		return r, true
	}
	return renames.Rename{}, false
}

// memberRename is the rename of a Godot 3 member name the class lacks
// and has under its Godot 4 name: a filter of "extents" on
// RectangleShape2D finds nothing, and the answer says to look for size.
func memberRename(db *classdb.DB, class, old string) (renames.Rename, bool) {
	if r, ok := db.PropertyRename(class, old); ok {
		return r, true
	}
	if _, has := db.Method(class, old); !has {
		if r, ok := renames.Method(old); ok {
			if _, has := db.Method(class, r.New); has {
				return r, true
			}
		}
	}
	if _, has := db.Signal(class, old); !has {
		if r, ok := renames.Signal(old); ok {
			if _, has := db.Signal(class, r.New); has {
				return r, true
			}
		}
	}
	return renames.Rename{}, false
}

// foldClass returns the class whose name equals name ignoring case.
func foldClass(db *classdb.DB, name string) string {
	for _, c := range db.Classes() {
		if strings.EqualFold(c, name) {
			return c
		}
	}
	return ""
}

// shorten gives a search term for a name that matched nothing: its first
// six characters find its neighbours.
func shorten(name string) string {
	if len(name) > 6 {
		return name[:6]
	}
	return name
}

// member is one listed member, already rendered, with the kind it is
// listed under.
type member struct {
	kind string
	v    any
	size int
	// unnamed marks a method whose arguments have no names.
	unnamed bool
	// brief is a method's one-sentence description.
	brief string
}

type members struct {
	list  []member
	total int
}

func collectMembers(db *classdb.DB, name string, in describeArgs) members {
	want := func(k string) bool { return in.Members == "all" || in.Members == k }
	match := func(n string) bool {
		return in.Filter == "" || strings.Contains(strings.ToLower(n), strings.ToLower(in.Filter))
	}
	chain := db.Chain(name)
	if !in.Inherited {
		chain = chain[:1]
	}
	var m members
	add := func(kind string, v any) {
		b, _ := json.Marshal(v)
		m.list = append(m.list, member{kind: kind, v: v, size: len(b) + 1})
	}
	seen := map[string]bool{}
	for _, cn := range chain {
		c, _ := db.Class(cn)
		declared := ""
		if cn != name {
			declared = cn
		}
		if want("properties") {
			for _, p := range c.Properties {
				if seen[p.Name] || !match(p.Name) {
					continue
				}
				seen[p.Name] = true
				add("properties", propertyView(db, name, p, declared))
			}
		}
		if want("signals") {
			for _, sg := range c.Signals {
				if match(sg.Name) {
					add("signals", withClass(signalSignature(sg), declared))
				}
			}
		}
		if want("methods") {
			for _, mt := range c.Methods {
				if match(mt.Name) {
					add("methods", withClass(methodSignature(mt), declared))
					last := &m.list[len(m.list)-1]
					last.unnamed = len(mt.Arguments) > 0 && mt.Arguments[0].Name == ""
					if in.Filter != "" {
						last.brief = db.MethodBrief(cn, mt.Name)
						if last.brief != "" {
							last.brief = mt.Name + ": " + last.brief
						}
					}
				}
			}
		}
		if want("constants") {
			for _, e := range c.Enums {
				if match(e.Name) || slices.ContainsFunc(e.Values, func(v classdb.EnumValue) bool { return match(v.Name) }) {
					add("enums", qualifiedEnum(e, cn, declared))
				}
			}
			for _, k := range c.Constants {
				if match(k.Name) {
					add("constants", withClass(fmt.Sprintf("%s = %d", k.Name, k.Value), declared))
				}
			}
		}
	}
	m.total = len(m.list)
	return m
}

// emit puts the members of [offset, offset+limit) into out, stopping
// early at pageBudget, and returns how many it put. The first member of
// a page is always shown, however large.
func (m members) emit(out map[string]any, offset, limit int) int {
	lists := map[string][]any{}
	used, n, unnamed := 0, 0, false
	var briefs []string
	for i := offset; i < len(m.list) && n < limit; i++ {
		mb := m.list[i]
		if n > 0 && used+mb.size > pageBudget {
			break
		}
		used += mb.size
		n++
		lists[mb.kind] = append(lists[mb.kind], mb.v)
		unnamed = unnamed || mb.unnamed
		if mb.brief != "" {
			briefs = append(briefs, mb.brief)
		}
	}
	// What a method does, in the class reference's first sentence, when a
	// filter has narrowed the methods to a few.
	if len(briefs) > 0 && len(lists["methods"]) <= maxMethodBriefs {
		out["method_briefs"] = briefs
	}
	for k, l := range lists {
		out[k] = l
	}
	if unnamed {
		out["methods_note"] = "an argument shown as a bare type has no name in Godot's class reference (an internal method, or one new in this Godot version); its type, default and place are the engine's"
	}
	out["member_count"] = m.total
	return n
}

// withClass names the declaring class of an inherited member rendered as
// a string: "move_and_slide() -> bool  [CharacterBody2D]".
func withClass(s, declared string) string {
	if declared == "" {
		return s
	}
	return s + "  [" + declared + "]"
}

type propView struct {
	Name       string   `json:"name"`
	Type       string   `json:"type"`
	Default    string   `json:"default,omitempty"`
	Hint       string   `json:"hint,omitempty"`
	HintString string   `json:"hint_string,omitempty"`
	Enum       []string `json:"enum,omitempty"`
	NotSaved   bool     `json:"not_saved,omitempty"`
	Class      string   `json:"class,omitempty"`
}

func propertyView(db *classdb.DB, class string, p classdb.Property, declared string) propView {
	t, _ := db.PropertyType(class, p.Name)
	v := propView{Name: p.Name, Type: classdb.TSCNType(t), Hint: hintName(p.Hint), HintString: p.HintString, NotSaved: !p.Saved(), Class: declared}
	if d, ok := db.Default(class, p.Name); ok {
		v.Default = d
	}
	if strings.HasPrefix(t, classdb.EnumPrefix) || strings.HasPrefix(t, classdb.BitfieldPrefix) {
		v.Type = t[strings.Index(t, "::")+2:]
		if e, ok := db.Enum(t); ok {
			v.Enum = enumValues(e)
		}
	}
	return v
}

type enumView struct {
	Name     string `json:"name"`
	Bitfield bool   `json:"bitfield,omitempty"`
	// Values are "NAME=value", by value.
	Values []string `json:"values"`
	Class  string   `json:"class,omitempty"`
}

func enumViewOf(e classdb.Enum, declared string) enumView {
	return enumView{Name: e.Name, Bitfield: e.IsBitfield, Values: enumValues(e), Class: declared}
}

// enumValues renders an enum's constants as "NAME=value", by value: the
// order Godot declares them in, near enough, and the one an agent reads.
func enumValues(e classdb.Enum) []string {
	vs := slices.Clone(e.Values)
	slices.SortStableFunc(vs, func(a, b classdb.EnumValue) int { return cmp.Compare(a.Value, b.Value) })
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = fmt.Sprintf("%s=%d", v.Name, v.Value)
	}
	return out
}

// qualifiedEnum renders an enum under its qualified name ("Node.ProcessMode").
func qualifiedEnum(e classdb.Enum, owner, declared string) enumView {
	v := enumViewOf(e, declared)
	v.Name = owner + "." + e.Name
	return v
}

func signalSignature(sg classdb.Signal) string {
	args := make([]string, len(sg.Args))
	for i, a := range sg.Args {
		args[i] = argText(a)
	}
	return sg.Name + "(" + strings.Join(args, ", ") + ")"
}

// methodSignature renders a method as GDScript would declare it, with
// qualifiers first: "add_point(id: int, position: Vector2, weight_scale:
// float = 1.0)". The engine build the database was dumped from keeps
// argument types but not their names, which come from Godot's class
// reference (classdb's docs.go); an argument the reference does not name
// shows its type only: "static get_singleton(StringName) -> Object".
func methodSignature(m classdb.Method) string {
	var q []string
	for _, f := range []struct {
		on   bool
		name string
	}{{m.IsVirtual, "virtual"}, {m.IsStatic, "static"}, {m.IsConst, "const"}} {
		if f.on {
			q = append(q, f.name)
		}
	}
	args := make([]string, len(m.Arguments))
	for i, a := range m.Arguments {
		args[i] = argText(a)
	}
	if m.IsVararg {
		args = append(args, "...")
	}
	s := m.Name + "(" + strings.Join(args, ", ") + ")"
	if m.ReturnType != "" {
		s += " -> " + typeText(m.ReturnType)
	}
	if len(q) > 0 {
		s = strings.Join(q, " ") + " " + s
	}
	return s
}

func argText(a classdb.Argument) string {
	s := typeText(a.Type)
	if a.Name != "" {
		s = a.Name + ": " + s
	}
	if a.Default != "" {
		s += " = " + a.Default
	}
	return s
}

// typeText spells a type as GDScript does: "enum::Node.ProcessMode" is
// "Node.ProcessMode", "typedarray::Node" is "Array[Node]".
func typeText(t string) string {
	if i := strings.Index(t, "::"); i >= 0 && (strings.HasPrefix(t, classdb.EnumPrefix) || strings.HasPrefix(t, classdb.BitfieldPrefix)) {
		return t[i+2:]
	}
	if t == "" {
		return "Variant"
	}
	return classdb.TSCNType(t)
}

// hintNames are Godot's PropertyHint values by number; the stored class
// database keeps the number only.
var hintNames = []string{
	"", "range", "enum", "enum_suggestion", "exp_easing", "link", "flags",
	"layers_2d_render", "layers_2d_physics", "layers_2d_navigation",
	"layers_3d_render", "layers_3d_physics", "layers_3d_navigation",
	"file", "dir", "global_file", "global_dir", "resource_type", "multiline_text",
	"expression", "placeholder_text", "color_no_alpha", "object_id", "type_string",
	"node_path_to_edited_node", "object_too_big", "node_path_valid_types", "save_file",
	"global_save_file", "int_is_objectid", "int_is_pointer", "array_type", "locale_id",
	"localizable_string", "node_type", "hide_quaternion_edit", "password", "layers_avoidance",
	"dictionary_type", "tool_button", "oneshot", "no_nodepath", "group_enable", "input_name", "file_path",
}

func hintName(h int) string {
	if h <= 0 {
		return ""
	}
	if h < len(hintNames) {
		return hintNames[h]
	}
	return strconv.Itoa(h)
}
