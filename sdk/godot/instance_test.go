package godot

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// The scenes of a coin instanced twice over: main.tscn has Coins (an
// instance of coins.tscn), which has Coin1 (an instance of coin.tscn),
// whose Sprite2D is what the tests edit. The ids are Godot 4.6's.
var instanceFiles = map[string]string{
	"res://coin.tscn": `[gd_scene format=3 uid="uid://coin"]

[node name="Coin" type="Area2D" unique_id=1111]

[node name="Sprite2D" type="Sprite2D" parent="." unique_id=2222]
position = Vector2(1, 2)

[node name="Shape" type="CollisionShape2D" parent="." unique_id=3333]
`,
	"res://coins.tscn": `[gd_scene format=3 uid="uid://coins"]

[ext_resource type="PackedScene" path="res://coin.tscn" id="1_c"]

[node name="Coins" type="Node2D" unique_id=500]

[node name="Coin1" parent="." unique_id=600 instance=ExtResource("1_c")]

[node name="Coin2" parent="." unique_id=700 instance=ExtResource("1_c")]
`,
	"res://model.glb": "glTF",
}

const instanceMain = `[gd_scene format=3 uid="uid://main"]

[ext_resource type="PackedScene" path="res://coins.tscn" id="1_cs"]
[ext_resource type="PackedScene" path="res://coin.tscn" id="2_c"]
[ext_resource type="PackedScene" path="res://model.glb" id="3_m"]

[node name="Main" type="Node2D" unique_id=100]

[node name="Coins" parent="." unique_id=200 instance=ExtResource("1_cs")]

[node name="Coin" parent="." unique_id=300 instance=ExtResource("2_c")]

[node name="Model" parent="." unique_id=400 instance=ExtResource("3_m")]

[node name="Label" type="Label" parent="." unique_id=800]
`

func instanceLoader(files map[string]string) SceneLoader {
	return func(p string) (*File, error) {
		src, ok := files[p]
		if !ok {
			return nil, fmt.Errorf("%s: %w", p, ErrNotFound)
		}
		if !strings.HasSuffix(p, ".tscn") {
			return nil, fmt.Errorf("%s: %w", p, ErrNotText)
		}
		return ParseFile(p, []byte(src))
	}
}

func mustTree(t *testing.T, f *File) *Tree {
	t.Helper()
	tr, err := f.Tree(instanceLoader(instanceFiles))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestTreeEffectiveValues(t *testing.T) {
	f := mustParse(t, instanceMain)
	tr := mustTree(t, f)
	tests := []struct {
		path, class, scene string
		declared, opaque   bool
		position           string
	}{
		{path: ".", class: "Node2D", declared: true},
		{path: "Coins", class: "Node2D", declared: true},
		{path: "Coins/Coin1", class: "Area2D", scene: "res://coins.tscn"},
		{path: "Coins/Coin1/Sprite2D", class: "Sprite2D", scene: "res://coin.tscn", position: "Vector2(1, 2)"},
		{path: "Coin/Sprite2D", class: "Sprite2D", scene: "res://coin.tscn", position: "Vector2(1, 2)"},
		{path: "Model", declared: true, opaque: true},
	}
	for _, tc := range tests {
		n := tr.Node(tc.path)
		if n == nil {
			t.Fatalf("%s: not in the tree", tc.path)
		}
		if n.Class() != tc.class || n.Declared() != tc.declared || n.Opaque() != tc.opaque || n.Scene() != tc.scene {
			t.Errorf("%s: class %q declared %v opaque %v scene %q, want %q %v %v %q", tc.path, n.Class(), n.Declared(), n.Opaque(), n.Scene(),
				tc.class, tc.declared, tc.opaque, tc.scene)
		}
		v, _, ok := n.Get("position")
		if got := ""; ok {
			got = FormatValue(v)
			if got != tc.position {
				t.Errorf("%s: position %s, want %s", tc.path, got, tc.position)
			}
		} else if tc.position != "" {
			t.Errorf("%s: no position, want %s", tc.path, tc.position)
		}
	}
	if tr.Node("Model/Anything") != nil {
		t.Error("an imported scene's nodes are unknown, yet one was found")
	}
}

func TestTreeOverride(t *testing.T) {
	tests := []struct {
		name, path, want string
		noIDs            bool
	}{
		{
			name: "child of an instance root",
			path: "Coin/Sprite2D",
			want: `[node name="Coin" parent="." unique_id=300 instance=ExtResource("2_c")]

[node name="Sprite2D" parent="Coin" index="0" unique_id=2222]
modulate = Color(1, 0, 0, 1)

[node name="Model"`,
		},
		{
			name: "node of a nested instance",
			path: "Coins/Coin1/Sprite2D",
			want: `[node name="Coins" parent="." unique_id=200 instance=ExtResource("1_cs")]

[node name="Sprite2D" parent="Coins/Coin1" parent_id_path=PackedInt32Array(200, 600) index="0" unique_id=2222]
modulate = Color(1, 0, 0, 1)

[node name="Coin"`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := mustParse(t, instanceMain)
			tr := mustTree(t, f)
			n, err := tr.Override(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			n.Set("modulate", Color{R: 1, A: 1})
			out := string(f.Bytes())
			if !strings.Contains(out, tc.want) {
				t.Errorf("got\n%s\nwant it to contain\n%s", out, tc.want)
			}
			// Reading it back: the override wins, the rest is the instanced scene's.
			f2 := mustParse(t, out)
			tr2 := mustTree(t, f2)
			m := tr2.Node(tc.path)
			if v, _, _ := m.Get("modulate"); FormatValue(v) != "Color(1, 0, 0, 1)" {
				t.Errorf("modulate read back as %v", v)
			}
			if v, _, _ := m.Get("position"); FormatValue(v) != "Vector2(1, 2)" {
				t.Errorf("position read back as %v", v)
			}
			if m.Section() == nil || m.Declared() {
				t.Error("the override is not the node's section")
			}
		})
	}
}

func TestTreeEditableAndAdd(t *testing.T) {
	f := mustParse(t, instanceMain)
	tr := mustTree(t, f)
	if _, err := tr.Override("Coins/Coin1/Sprite2D"); err != nil {
		t.Fatal(err)
	}
	tr = mustTree(t, f)
	if _, err := tr.AddNode("Coins/Coin1/Sprite2D", "Glow", "PointLight2D"); err != nil {
		t.Fatal(err)
	}
	tr = mustTree(t, f)
	if _, err := tr.AddNode("Coin", "Extra", "Node2D"); err != nil {
		t.Fatal(err)
	}
	out := string(f.Bytes())
	for _, want := range []string{
		`[node name="Glow" type="PointLight2D" parent="Coins/Coin1/Sprite2D" parent_id_path=PackedInt32Array(200, 600, 2222) index="0" unique_id=`,
		`[node name="Extra" type="Node2D" parent="Coin" unique_id=`,
		"[editable path=\"Coins\"]\n[editable path=\"Coins/Coin1\"]\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s in\n%s", want, out)
		}
	}
	if strings.Count(out, "[editable") != 2 {
		t.Errorf("want exactly two [editable] entries:\n%s", out)
	}
	tr = mustTree(t, mustParse(t, out))
	for _, p := range []string{"Coins/Coin1/Sprite2D/Glow", "Coin/Extra"} {
		if tr.Node(p) == nil || !tr.Node(p).Declared() {
			t.Errorf("%s: not a declared node after reading back", p)
		}
	}
	if _, err := tr.SetEditable("Coins/Coin2", true); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.SetEditable("Label", true); !errors.Is(err, ErrInvalid) {
		t.Errorf("SetEditable of a plain node: %v, want ErrInvalid", err)
	}
	// Under an imported scene's root the new node goes last, which needs
	// no knowledge of the model's nodes.
	if n, err := tr.AddNode("Model", "X", "Node3D"); err != nil || n.Path() != "Model/X" {
		t.Errorf("adding under an imported scene: %v", err)
	}
}

func TestTreeOverrideWithoutIDs(t *testing.T) {
	var files = map[string]string{}
	for k, v := range instanceFiles {
		files[k] = v
	}
	strip := func(s string) string {
		var out []string
		for _, w := range strings.SplitAfter(s, " ") {
			if !strings.HasPrefix(w, "unique_id=") {
				out = append(out, w)
			} else if strings.HasSuffix(w, "]\n") || strings.Contains(w, "]") {
				out[len(out)-1] = strings.TrimSuffix(out[len(out)-1], " ") + w[strings.Index(w, "]"):]
			}
		}
		return strings.Join(out, "")
	}
	for k, v := range files {
		files[k] = strip(v)
	}
	f := mustParse(t, strip(instanceMain))
	tr, err := f.Tree(instanceLoader(files))
	if err != nil {
		t.Fatal(err)
	}
	n, err := tr.Override("Coins/Coin1/Sprite2D")
	if err != nil {
		t.Fatal(err)
	}
	n.Set("visible", Bool(false))
	want := `[node name="Sprite2D" parent="Coins/Coin1" index="0"]` + "\nvisible = false\n"
	if out := string(f.Bytes()); !strings.Contains(out, want) {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestPruneOverride(t *testing.T) {
	f := mustParse(t, instanceMain)
	tr := mustTree(t, f)
	n, err := tr.Override("Coin/Sprite2D")
	if err != nil {
		t.Fatal(err)
	}
	n.Set("visible", Bool(false))
	n.Clear("visible")
	if !f.PruneOverride(n) {
		t.Fatal("an empty override was kept")
	}
	if strings.Contains(string(f.Bytes()), `name="Sprite2D"`) {
		t.Errorf("override still written:\n%s", f.Bytes())
	}
	if f.PruneOverride(f.Node("Label")) {
		t.Error("a declared node was pruned")
	}
}

func TestFollowRename(t *testing.T) {
	// gold.tscn inherits coin.tscn, whose Sprite2D was renamed to Icon.
	f := mustParse(t, `[gd_scene format=3]

[ext_resource type="PackedScene" path="res://coin.tscn" id="1_c"]

[node name="Gold" instance=ExtResource("1_c")]

[node name="Sprite2D" parent="." index="0"]
visible = false

[node name="Star" type="Node2D" parent="Sprite2D" index="0"]

[node name="Other" type="Node" parent="."]
target = NodePath("../Sprite2D/Star")

[connection signal="ready" from="Sprite2D/Star" to="." method="x"]

[editable path="Sprite2D"]
`)
	tr := mustTree(t, f)
	if n := tr.Node("Sprite2D"); n == nil || n.Scene() != "res://coin.tscn" || n.InnerPath() != "Sprite2D" {
		t.Fatalf("the inherited Sprite2D: %+v", n)
	}
	if !f.FollowRename("Sprite2D", "Icon") {
		t.Fatal("nothing changed")
	}
	out := string(f.Bytes())
	for _, want := range []string{
		`[node name="Icon" parent="." index="0"]`,
		`[node name="Star" type="Node2D" parent="Icon" index="0"]`,
		`target = NodePath("../Icon/Star")`,
		`[connection signal="ready" from="Icon/Star" to="." method="x"]`,
		`[editable path="Icon"]`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s in\n%s", want, out)
		}
	}
	if f.FollowRename("Nothing", "X") {
		t.Error("a rename of a node the file does not name changed it")
	}
}

func TestDuplicateKeepsIndexOrder(t *testing.T) {
	f := mustParse(t, `[gd_scene format=3]

[ext_resource type="PackedScene" path="res://coin.tscn" id="1_c"]

[node name="Gold" instance=ExtResource("1_c")]

[node name="A" type="Node" parent="." index="2"]

[node name="B" type="Node" parent="." index="3"]
`)
	if _, err := f.DuplicateNode("A", ""); err != nil {
		t.Fatal(err)
	}
	out := string(f.Bytes())
	for _, want := range []string{
		"[node name=\"A\" type=\"Node\" parent=\".\" index=\"2\"]\n\n[node name=\"A2\" type=\"Node\" parent=\".\" index=\"3\"]\n\n[node name=\"B\" type=\"Node\" parent=\".\" index=\"4\"]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("got\n%s\nwant\n%s", out, want)
		}
	}
}
