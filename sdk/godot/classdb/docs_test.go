package classdb

import (
	"slices"
	"strings"
	"testing"
)

func argNames(m Method) []string {
	out := make([]string, len(m.Arguments))
	for i, a := range m.Arguments {
		out[i] = a.Name
	}
	return out
}

// TestDocsWellKnownMethods: the embedded database names the arguments of
// methods agents call most, in the engine's order, and keeps the types and
// defaults the engine gave.
func TestDocsWellKnownMethods(t *testing.T) {
	db := testEmbedded(t)
	for _, tt := range []struct {
		class, method string
		names         []string
		types         []string
		defaults      []string
	}{
		{"CharacterBody2D", "move_and_slide", []string{}, []string{}, []string{}},
		{"AStar2D", "add_point", []string{"id", "position", "weight_scale"}, []string{"int", "Vector2", "float"}, []string{"", "", "1.0"}},
		{"Node", "add_child", []string{"node", "force_readable_name", "internal"}, []string{"Node", "bool", "enum::Node.InternalMode"}, []string{"", "false", "0"}},
		{"Tween", "tween_property", []string{"object", "property", "final_val", "duration"}, []string{"Object", "NodePath", "Variant", "float"}, []string{"", "", "", ""}},
		{"Object", "connect", []string{"signal", "callable", "flags"}, []string{"StringName", "Callable", "int"}, []string{"", "", "0"}},
		{"AStarGrid2D", "set_cell_shape", []string{"value"}, []string{"enum::AStarGrid2D.CellShape"}, []string{""}},
	} {
		c, ok := db.Class(tt.class)
		if !ok {
			t.Fatalf("no class %s", tt.class)
		}
		m, ok := c.Method(tt.method)
		if !ok {
			t.Fatalf("%s has no method %s", tt.class, tt.method)
		}
		if got := argNames(m); !slices.Equal(got, tt.names) {
			t.Errorf("%s.%s argument names = %q, want %q", tt.class, tt.method, got, tt.names)
		}
		var types, defaults []string
		for _, a := range m.Arguments {
			types, defaults = append(types, a.Type), append(defaults, a.Default)
		}
		if !slices.Equal(types, tt.types) || (len(tt.types) > 0 && !slices.Equal(defaults, tt.defaults)) {
			t.Errorf("%s.%s types %q defaults %q, want %q %q", tt.class, tt.method, types, defaults, tt.types, tt.defaults)
		}
	}
	if got := db.Brief("Node"); got != "Base class for all scene objects." {
		t.Errorf("Brief(Node) = %q", got)
	}
	for _, tt := range []struct{ class, method, want string }{
		{"CharacterBody2D", "move_and_slide", "Moves the body based on velocity."},
		{"AStar2D", "add_point", "Adds a new point at the given position with the given identifier."},
		{"Node", "queue_free", "Queues this node to be deleted at the end of the current frame."},
		{"Node", "no_such_method", ""},
		{"Node2D", "queue_free", ""}, // declared by Node, not Node2D
	} {
		if got := db.MethodBrief(tt.class, tt.method); got != tt.want {
			t.Errorf("MethodBrief(%s, %s) = %q, want %q", tt.class, tt.method, got, tt.want)
		}
	}
	if got := db.Brief("NoSuchClass"); got != "" {
		t.Errorf("Brief(NoSuchClass) = %q", got)
	}
	if p := db.DocsProvenance(); p.Engine != db.Provenance().Engine || !strings.Contains(p.Source, "class reference") || p.Generator == "" {
		t.Errorf("DocsProvenance() = %+v", p)
	}
}

// unnamedBound is how many methods with arguments the class reference the
// table was built from does not name (classdoc-gen prints the list with
// -v): 79 internal methods the reference never documents (_set_data and
// the like), 7 whose arguments changed in 4.6 after the reference was
// written (Control.grab_focus gained hide_focus), and 226 added in 4.6
// after it (the IK modifiers such as ChainIK3D, TwoBoneIK3D). A newer
// reference lowers it; it must not grow.
const unnamedBound = 312

// TestDocsCoverage: every method of the embedded database with arguments
// names all of them or none, and at most unnamedBound name none. Every
// method the table names exists in the database with that many
// arguments: nothing is invented.
func TestDocsCoverage(t *testing.T) {
	db := testEmbedded(t)
	withArgs, unnamed := 0, 0
	var internal int
	for _, name := range db.Classes() {
		c, _ := db.Class(name)
		for _, m := range c.Methods {
			if len(m.Arguments) == 0 {
				continue
			}
			withArgs++
			n := 0
			for _, a := range m.Arguments {
				if a.Name != "" {
					n++
				}
			}
			switch n {
			case len(m.Arguments):
			case 0:
				unnamed++
				if strings.HasPrefix(m.Name, "_") && !m.IsVirtual {
					internal++
				}
			default:
				t.Errorf("%s.%s: %d of %d arguments named", name, m.Name, n, len(m.Arguments))
			}
		}
	}
	t.Logf("%d methods with arguments, %d unnamed (%d internal)", withArgs, unnamed, internal)
	if unnamed > unnamedBound {
		t.Errorf("%d methods with unnamed arguments, more than %d: was the class reference table regenerated against an older reference?", unnamed, unnamedBound)
	}
	if withArgs < 8000 || unnamed*20 > withArgs {
		t.Errorf("%d of %d methods unnamed", unnamed, withArgs)
	}

	tab := embeddedDocTable
	tab.index()
	if len(tab.blocks) < 800 {
		t.Fatalf("the table has %d classes", len(tab.blocks))
	}
	for class, block := range tab.blocks {
		if !strings.HasPrefix(block, "= "+class+"\t") || !strings.HasSuffix(block, "\n") {
			t.Errorf("the block of %s is %.40q...", class, block)
		}
		c, ok := db.Class(class)
		if !ok {
			t.Errorf("the table lists %s, which the database lacks", class)
			continue
		}
		_, rest, _ := strings.Cut(block, "\n")
		for line := range strings.SplitSeq(strings.TrimSuffix(rest, "\n"), "\n") {
			if line == "" {
				continue
			}
			method, args, _ := strings.Cut(line, "\t")
			args, _, _ = strings.Cut(args, "\t")
			m, ok := c.Method(method)
			if !ok {
				t.Errorf("the table lists %s.%s, which the database lacks", class, method)
			} else if n := len(strings.Fields(args)); n != 0 && n != len(m.Arguments) {
				t.Errorf("the table gives %s.%s %d names for %d arguments", class, method, n, len(m.Arguments))
			}
		}
	}
}

// TestNameArguments: names are given only where the counts agree, and a
// name the engine gave is kept.
func TestNameArguments(t *testing.T) {
	methods := []Method{
		{Name: "a", Arguments: []Argument{{Type: "int"}, {Type: "float"}}},
		{Name: "b", Arguments: []Argument{{Type: "int"}}},
		{Name: "c", Arguments: []Argument{{Name: "kept", Type: "int"}}},
	}
	byName := map[string]int{"a": 0, "b": 1, "c": 2}
	nameArguments("= X\tbrief\na\tx y\tDoes a.\nb\tp q\nc\tz\nd\tw\n", methods, byName)
	if got := argNames(methods[0]); !slices.Equal(got, []string{"x", "y"}) {
		t.Errorf("a: %q", got)
	}
	if got := argNames(methods[1]); !slices.Equal(got, []string{""}) {
		t.Errorf("b (reference has 2 names for 1 argument): %q", got)
	}
	if got := argNames(methods[2]); !slices.Equal(got, []string{"kept"}) {
		t.Errorf("c: %q", got)
	}
}

// TestDocsRoundTrip: EncodeDocs writes what the table reader reads, and
// a database opened without the table names nothing.
func TestDocsRoundTrip(t *testing.T) {
	data := EncodeDocs(DocsInfo{Engine: "4.6.x", Source: "test\tsource", Generator: "gen"}, []ClassDoc{
		{Name: "B", Brief: "Second\nclass.", Args: map[string][]string{"m": {"x", "y"}}},
		{Name: "A", Brief: "First.", Args: map[string][]string{"z": {"q"}, "a": {"p"}}, MethodBriefs: map[string]string{"a": "Does\ta.", "k": "Keeps."}},
	})
	want := "godot-mcp classdoc 1\nengine\t4.6.x\nsource\ttest source\ngenerator\tgen\nindex\tA=0,B=37\n\n= A\tFirst.\na\tp\tDoes a.\nk\t\tKeeps.\nz\tq\n= B\tSecond class.\nm\tx y\n"
	if string(data) != want {
		t.Fatalf("EncodeDocs =\n%q\nwant\n%q", data, want)
	}
	tab := &docTable{data: string(data)}
	tab.index()
	bad := &docTable{data: strings.Replace(string(data), "B=37", "B=x", 1)}
	if bad.index(); bad.err == nil || bad.class("A") != "" {
		t.Errorf("a bad index entry: err %v", bad.err)
	}
	if tab.err != nil || tab.info.Engine != "4.6.x" || blockBrief(tab.class("B")) != "Second class." || tab.class("A") != "= A\tFirst.\na\tp\tDoes a.\nk\t\tKeeps.\nz\tq\n" {
		t.Errorf("read back: err %v info %+v blocks %q", tab.err, tab.info, tab.blocks)
	}

	db, err := decodePacked(embeddedPack)
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := db.Method("AStar2D", "add_point"); m.Arguments[0].Name != "" || db.Brief("Node") != "" {
		t.Errorf("a database without the table names arguments: %+v", m)
	}
	if err := db.withDocs(tab); err == nil || !strings.Contains(err.Error(), "4.6.x") {
		t.Errorf("withDocs of another engine's table = %v", err)
	}
}

// BenchmarkDocsIndex measures what the class reference table adds to the
// first class decode of a process: finding each class's block.
//
//	cd sdk && go test -run '^$' -bench DocsIndex ./godot/classdb/
func BenchmarkDocsIndex(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		t := &docTable{data: embeddedDocs}
		t.index()
		if len(t.blocks) == 0 {
			b.Fatal("no blocks")
		}
	}
}

// TestDocsConcurrent: classes decoded and briefs read from many goroutines
// at once on a fresh database and table (run with -race).
func TestDocsConcurrent(t *testing.T) {
	db, err := decodePacked(embeddedPack)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.withDocs(&docTable{data: embeddedDocs}); err != nil {
		t.Fatal(err)
	}
	done := make(chan string)
	for range 8 {
		go func() {
			m, _ := db.Method("AStar2D", "add_point")
			_ = db.Brief("Node")
			done <- strings.Join(argNames(m), ",") + "|" + db.Brief("AStar2D")
		}()
	}
	first := <-done
	for range 7 {
		if got := <-done; got != first {
			t.Errorf("goroutines disagree: %q vs %q", got, first)
		}
	}
	if !strings.HasPrefix(first, "id,position,weight_scale|An implementation of A*") {
		t.Errorf("got %q", first)
	}
}
