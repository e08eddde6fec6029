package main

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/tiledata"
)

// The TileSet's layers and an atlas source's tiles, read from and written
// to their text keys (see sdk/godot/tiledata's TileSetRank for the
// grammar). Keys are added where the editor puts them, so a file the
// editor saves again after our edit does not move them.

// set writes a key of the TileSet's [resource] section.
func (ts *tileSet) set(key string, v godot.Value) {
	ts.sec.SetOrdered(key, v, tiledata.TileSetRank)
}

func (ts *tileSet) intKey(key string, def int) int {
	if v, ok := ts.sec.Get(key); ok {
		if i, ok := v.(godot.Int); ok {
			return int(i)
		}
	}
	return def
}

var layerIndexKey = regexp.MustCompile(`^(occlusion_layer|physics_layer|terrain_set|navigation_layer|custom_data_layer)_(\d+)/`)

// layerCount is how many layers of kind ("physics_layer", "terrain_set", …)
// the TileSet has: one past the highest index among its keys. Godot always
// writes at least one key per layer (collision_layer, mode, layers,
// light_mask, name), so the keys tell.
func (ts *tileSet) layerCount(kind string) int {
	n := 0
	for _, k := range ts.sec.Keys() {
		if m := layerIndexKey.FindStringSubmatch(k); m != nil && m[1] == kind {
			i, _ := strconv.Atoi(m[2])
			n = max(n, i+1)
		}
	}
	return n
}

var terrainIndexKey = regexp.MustCompile(`^terrain_set_(\d+)/terrain_(\d+)/`)

// terrainCount is the number of terrains of terrain set set.
func (ts *tileSet) terrainCount(set int) int {
	n := 0
	for _, k := range ts.sec.Keys() {
		if m := terrainIndexKey.FindStringSubmatch(k); m != nil {
			if s, _ := strconv.Atoi(m[1]); s == set {
				i, _ := strconv.Atoi(m[2])
				n = max(n, i+1)
			}
		}
	}
	return n
}

func (ts *tileSet) shape() tiledata.TileShape {
	return tiledata.TileShape(ts.intKey("tile_shape", 0))
}

// grid is the TileSet's cell geometry: shape, layout and offset axis.
func (ts *tileSet) grid() tiledata.Grid {
	return tiledata.Grid{Shape: ts.shape(), Layout: tiledata.TileLayout(ts.intKey("tile_layout", 0)),
		Axis: tiledata.OffsetAxis(ts.intKey("tile_offset_axis", 0))}
}

// customLayer is one custom data layer.
type customLayer struct {
	Index int    `json:"index"`
	Name  string `json:"name"`
	Type  string `json:"type"`
}

func (ts *tileSet) customLayers() []customLayer {
	out := make([]customLayer, ts.layerCount("custom_data_layer"))
	for i := range out {
		out[i].Index = i
		if v, ok := ts.sec.Get(fmt.Sprintf("custom_data_layer_%d/name", i)); ok {
			if s, ok := v.(godot.String); ok {
				out[i].Name = string(s)
			}
		}
		out[i].Type = variantName(ts.intKey(fmt.Sprintf("custom_data_layer_%d/type", i), 0))
	}
	return out
}

// variantTypes are Godot's Variant.Type names by number, as custom data
// layers store them; "" for the types a custom data value cannot be given
// as JSON (Object, RID, Callable, Signal).
var variantTypes = []string{"nil", "bool", "int", "float", "String", "Vector2", "Vector2i", "Rect2", "Rect2i",
	"Vector3", "Vector3i", "Transform2D", "Vector4", "Vector4i", "Plane", "Quaternion", "AABB", "Basis",
	"Transform3D", "Projection", "Color", "StringName", "NodePath", "", "", "", "", "Dictionary", "Array",
	"PackedByteArray", "PackedInt32Array", "PackedInt64Array", "PackedFloat32Array", "PackedFloat64Array",
	"PackedStringArray", "PackedVector2Array", "PackedVector3Array", "PackedColorArray", "PackedVector4Array"}

func variantName(t int) string {
	if t >= 0 && t < len(variantTypes) && variantTypes[t] != "" {
		return variantTypes[t]
	}
	return "type_" + strconv.Itoa(t)
}

func variantType(name string) (int, bool) {
	if name == "" || name == "nil" {
		return 0, false
	}
	i := slices.Index(variantTypes, name)
	return i, i > 0
}

// atlasTile is one tile of an atlas source: where it starts, its size in
// atlas cells and its alternatives.
type atlasTile struct {
	at   tiledata.AtlasCoords
	size [2]int
	alts []int
}

// atlas is a TileSetAtlasSource of the TileSet.
type atlas struct {
	id    int
	sub   *godot.SubResourceDecl
	tiles []*atlasTile // in file order
	byAt  map[tiledata.AtlasCoords]*atlasTile
}

// source answers the atlas source id, or an error naming the sources
// there are.
func (ts *tileSet) atlas(id int) (*atlas, error) {
	srcs := ts.sources()
	sub, ok := srcs[id]
	if !ok || sub == nil || sub.Type() != "TileSetAtlasSource" {
		e := invalid(fmt.Sprintf("atlas sources of this TileSet: %s (godot_tilemap_get_tileset lists them)", ts.atlasIDs()),
			"source %d does not exist or is not an atlas source", id)
		e.Required = "source_id"
		return nil, e
	}
	return readAtlas(id, sub), nil
}

func (ts *tileSet) atlasIDs() string {
	var ids []string
	srcs := ts.sources()
	keys := make([]int, 0, len(srcs))
	for k := range srcs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if s := srcs[k]; s != nil && s.Type() == "TileSetAtlasSource" {
			ids = append(ids, strconv.Itoa(k))
		}
	}
	return list(ids)
}

func readAtlas(id int, sub *godot.SubResourceDecl) *atlas {
	a := &atlas{id: id, sub: sub, byAt: map[tiledata.AtlasCoords]*atlasTile{}}
	get := func(at tiledata.AtlasCoords) *atlasTile {
		t := a.byAt[at]
		if t == nil {
			t = &atlasTile{at: at, size: [2]int{1, 1}}
			a.byAt[at] = t
			a.tiles = append(a.tiles, t)
		}
		return t
	}
	for _, k := range sub.Keys() {
		tk, ok := tiledata.ParseTileKey(k)
		if !ok {
			continue
		}
		switch {
		case tk.Alt >= 0 && tk.Prop == "":
			t := get(tk.Atlas)
			t.alts = append(t.alts, tk.Alt)
		case tk.Prop == "size_in_atlas":
			if v, ok := sub.Get(k); ok {
				if s, ok := v.(godot.Vector2i); ok {
					get(tk.Atlas).size = [2]int{int(s.X), int(s.Y)}
				}
			}
		}
	}
	// A key without its "X:Y/0 = 0" declaration is no tile.
	a.tiles = slices.DeleteFunc(a.tiles, func(t *atlasTile) bool {
		if len(t.alts) == 0 {
			delete(a.byAt, t.at)
			return true
		}
		return false
	})
	return a
}

func (a *atlas) set(key string, v godot.Value) {
	a.sub.SetOrdered(key, v, tiledata.AtlasSourceRank(a.sub.Keys()))
}

// tileList names up to 24 tiles for an error.
func (a *atlas) tileList() string {
	if len(a.tiles) == 0 {
		return "(none: create tiles with godot_tilemap_create_tile or godot_tilemap_create_atlas_from_image)"
	}
	var s []string
	for i, t := range a.tiles {
		if i == 24 {
			s = append(s, fmt.Sprintf("… %d more", len(a.tiles)-24))
			break
		}
		s = append(s, fmt.Sprintf("[%d, %d]", t.at.X, t.at.Y))
	}
	return strings.Join(s, ", ")
}

// tile finds the tile at and its alternative alt (transform flags
// stripped), or says which tiles and alternatives there are.
func (a *atlas) tile(at [2]int, alt int) (*atlasTile, error) {
	if at[0] < 0 || at[1] < 0 || at[0] > 0xFFFF || at[1] > 0xFFFF {
		return nil, invalid("atlas coordinates are 0..65535", "atlas_coords (%d, %d) is out of range", at[0], at[1])
	}
	t := a.byAt[tiledata.AtlasCoords{X: uint16(at[0]), Y: uint16(at[1])}]
	if t == nil {
		for _, o := range a.tiles {
			if at[0] >= int(o.at.X) && at[0] < int(o.at.X)+o.size[0] && at[1] >= int(o.at.Y) && at[1] < int(o.at.Y)+o.size[1] {
				return nil, invalid(fmt.Sprintf("use the tile's origin [%d, %d]", o.at.X, o.at.Y),
					"atlas source %d has no tile at (%d, %d): it is inside the %dx%d tile at (%d, %d)", a.id, at[0], at[1], o.size[0], o.size[1], o.at.X, o.at.Y)
			}
		}
		return nil, invalid("tiles of this source: "+a.tileList(),
			"atlas source %d has no tile at (%d, %d)", a.id, at[0], at[1])
	}
	id := alt &^ int(tiledata.TransformMask)
	if !slices.Contains(t.alts, id) {
		alts := make([]string, len(t.alts))
		for i, x := range t.alts {
			alts[i] = strconv.Itoa(x)
		}
		return nil, invalid(fmt.Sprintf("alternatives of that tile: %s (transform flags go in bits 12-14)", strings.Join(alts, ", ")),
			"tile (%d, %d) of atlas source %d has no alternative %d", at[0], at[1], a.id, id)
	}
	return t, nil
}

// tilesetOfNode opens the TileSet of tile map node n of d; nil, nil when
// the node has none.
func tilesetOfNode(ctx context.Context, call *sdk.Call, d *doc, n *godot.Node) (*tileSet, error) {
	v, _ := n.Get("tile_set")
	switch ref := v.(type) {
	case godot.SubResource:
		if s := d.res.SubResource(ref.ID); s != nil && s.Type() == "TileSet" {
			return &tileSet{d: d, sec: s.Section, docs: []*doc{d}}, nil
		}
	case godot.ExtResource:
		if e := d.res.ExtResource(ref.ID); e != nil {
			return openTilesetFile(ctx, call, e.Path())
		}
	}
	return nil, nil
}

// checkPaint refuses a tile the TileSet of the tile map does not have,
// naming the ones it has. Sources held in other files (an external
// TileSetAtlasSource) are not checked.
func checkPaint(ts *tileSet, node string, t tile) error {
	if t.erase {
		return nil
	}
	if ts == nil {
		e := invalid("give the tile map a TileSet first (godot_tilemap_create_tileset)", "%s has no tile_set, so it has no tile to paint", node)
		e.Required = "tile_set"
		return e
	}
	srcs := ts.sources()
	sub, ok := srcs[t.source]
	if !ok {
		ids := make([]int, 0, len(srcs))
		for k := range srcs {
			ids = append(ids, k)
		}
		slices.Sort(ids)
		names := make([]string, len(ids))
		for i, id := range ids {
			names[i] = strconv.Itoa(id)
		}
		e := invalid("source ids of this TileSet: "+list(names)+" (or -1 to erase)", "source_id %d is not a source of the TileSet of %s", t.source, node)
		e.Required = "source_id"
		return e
	}
	if sub == nil {
		return nil
	}
	switch sub.Type() {
	case "TileSetAtlasSource":
		_, err := readAtlas(t.source, sub).tile(t.atlas, t.alt)
		return err
	case "TileSetScenesCollectionSource":
		if t.atlas != [2]int{0, 0} {
			return invalid("a scenes collection's tiles are at atlas_coords [0, 0]; alternative_tile picks the scene",
				"source %d is a scenes collection: atlas_coords must be [0, 0]", t.source)
		}
		if !sub.Has(fmt.Sprintf("scenes/%d/scene", t.alt)) {
			return invalid("pass the id of a scene of the collection as alternative_tile",
				"scenes collection %d has no scene %d", t.source, t.alt)
		}
	}
	return nil
}
