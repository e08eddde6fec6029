package main

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/tiledata"
)

// The TileSet's layers (physics, terrain sets and terrains, custom data,
// navigation, occlusion) and each tile's data on them. The addon has no
// command for any of this, so these tools edit the TileSet's file (its
// .tres, or the scene that embeds it) through the workspace in both modes;
// the workspace keeps an attached editor in sync. Values are written as
// Godot 4.6 writes them (verified against ResourceSaver in the tests).

type physicsLayerArgs struct {
	tilesetArgs
	CollisionLayer *uint32 `json:"collision_layer,omitempty" jsonschema:"bitmask of the physics layers the tiles are in (default 1)"`
	CollisionMask  *uint32 `json:"collision_mask,omitempty" jsonschema:"bitmask of the physics layers the tiles collide with (default 1)"`
}

type navigationLayerArgs struct {
	tilesetArgs
	Layers *uint32 `json:"layers,omitempty" jsonschema:"bitmask of the navigation layers the tiles' polygons are on (default 1)"`
}

type occlusionLayerArgs struct {
	tilesetArgs
	LightMask    *uint32 `json:"light_mask,omitempty" jsonschema:"bitmask of the light layers the occluders block (default 1)"`
	SDFCollision bool    `json:"sdf_collision,omitempty" jsonschema:"whether the occluders take part in SDF collision (default false)"`
}

type customDataLayerArgs struct {
	tilesetArgs
	Name string `json:"name" jsonschema:"the layer's name, unique in the TileSet (tiles' values are read with get_custom_data(name))"`
	Type string `json:"type" jsonschema:"Godot type of the values: bool, int, float, String, Vector2, Vector2i, Color, StringName, Dictionary, Array, ..."`
}

type terrainSetArgs struct {
	tilesetArgs
	Mode string `json:"mode,omitempty" jsonschema:"match_corners_and_sides (default), match_corners or match_sides"`
}

type terrainArgs struct {
	tilesetArgs
	TerrainSet int    `json:"terrain_set" jsonschema:"index of the terrain set"`
	Name       string `json:"name,omitempty" jsonschema:"the terrain's name (default \"Terrain N\")"`
	Color      string `json:"color,omitempty" jsonschema:"the terrain's colour in the editor: a name (\"red\"), \"#rrggbb\", \"#rrggbbaa\" or \"Color(r, g, b, a)\" with components 0..1 (default the editor's next hue)"`
}

// layerAdded answers a new layer's index.
func layerAdded(ctx context.Context, call *sdk.Call, ts *tileSet, in tilesetArgs, kind, name string, index int, extra map[string]any) (sdk.Result, error) {
	out := map[string]any{"node_path": nilIfEmpty(in.NodePath), "tileset_path": ts.pathOut(), "index": index}
	for k, v := range extra {
		out[k] = v
	}
	return commit(ctx, call, fmt.Sprintf("Add %s %d", name, index), out, ts.docs...)
}

func orOne(v *uint32) int64 {
	if v == nil {
		return 1
	}
	return int64(*v)
}

func addPhysicsLayer(ctx context.Context, call *sdk.Call, in physicsLayerArgs) (sdk.Result, error) {
	ts, err := locateTileset(ctx, call, in.tilesetArgs)
	if err != nil {
		return sdk.Result{}, err
	}
	i := ts.layerCount("physics_layer")
	// Godot always writes collision_layer, so the layer exists in the text
	// even with default values; the mask only when it is not 1.
	ts.set(fmt.Sprintf("physics_layer_%d/collision_layer", i), godot.Int(orOne(in.CollisionLayer)))
	if m := orOne(in.CollisionMask); m != 1 {
		ts.set(fmt.Sprintf("physics_layer_%d/collision_mask", i), godot.Int(m))
	}
	return layerAdded(ctx, call, ts, in.tilesetArgs, "physics_layer", "physics layer", i,
		map[string]any{"collision_layer": orOne(in.CollisionLayer), "collision_mask": orOne(in.CollisionMask)})
}

func addNavigationLayer(ctx context.Context, call *sdk.Call, in navigationLayerArgs) (sdk.Result, error) {
	ts, err := locateTileset(ctx, call, in.tilesetArgs)
	if err != nil {
		return sdk.Result{}, err
	}
	i := ts.layerCount("navigation_layer")
	ts.set(fmt.Sprintf("navigation_layer_%d/layers", i), godot.Int(orOne(in.Layers)))
	return layerAdded(ctx, call, ts, in.tilesetArgs, "navigation_layer", "navigation layer", i, map[string]any{"layers": orOne(in.Layers)})
}

func addOcclusionLayer(ctx context.Context, call *sdk.Call, in occlusionLayerArgs) (sdk.Result, error) {
	ts, err := locateTileset(ctx, call, in.tilesetArgs)
	if err != nil {
		return sdk.Result{}, err
	}
	i := ts.layerCount("occlusion_layer")
	ts.set(fmt.Sprintf("occlusion_layer_%d/light_mask", i), godot.Int(orOne(in.LightMask)))
	if in.SDFCollision {
		ts.set(fmt.Sprintf("occlusion_layer_%d/sdf_collision", i), godot.Bool(true))
	}
	return layerAdded(ctx, call, ts, in.tilesetArgs, "occlusion_layer", "occlusion layer", i,
		map[string]any{"light_mask": orOne(in.LightMask), "sdf_collision": in.SDFCollision})
}

func (in customDataLayerArgs) check() (int, error) {
	if strings.TrimSpace(in.Name) == "" {
		return 0, invalid("name the layer, e.g. \"damage\"", "name is required")
	}
	t, ok := variantType(in.Type)
	if !ok {
		var names []string
		for _, n := range variantTypes {
			if n != "" && n != "nil" {
				names = append(names, n)
			}
		}
		e := invalid("types: "+strings.Join(names, ", "), "type %q is not a Godot type a custom data layer can hold", in.Type)
		e.Required = "type"
		return 0, e
	}
	return t, in.tilesetArgs.check()
}

func addCustomDataLayer(ctx context.Context, call *sdk.Call, in customDataLayerArgs) (sdk.Result, error) {
	typ, err := in.check()
	if err != nil {
		return sdk.Result{}, err
	}
	ts, err := locateTileset(ctx, call, in.tilesetArgs)
	if err != nil {
		return sdk.Result{}, err
	}
	for _, l := range ts.customLayers() {
		if l.Name == in.Name {
			return sdk.Result{}, invalid("pick another name, or set values on the existing layer with godot_tilemap_set_tile_custom_data",
				"the TileSet already has a custom data layer %q (index %d)", in.Name, l.Index)
		}
	}
	i := ts.layerCount("custom_data_layer")
	ts.set(fmt.Sprintf("custom_data_layer_%d/name", i), godot.String(in.Name))
	ts.set(fmt.Sprintf("custom_data_layer_%d/type", i), godot.Int(typ))
	return layerAdded(ctx, call, ts, in.tilesetArgs, "custom_data_layer", "custom data layer", i, map[string]any{"name": in.Name, "type": in.Type})
}

func terrainMode(s string) (tiledata.TerrainMode, error) {
	if s == "" {
		return tiledata.MatchCornersAndSides, nil
	}
	i := slices.Index(tiledata.TerrainModeNames, s)
	if i < 0 {
		return 0, invalid("modes: "+strings.Join(tiledata.TerrainModeNames, ", "), "mode %q is not a terrain mode", s)
	}
	return tiledata.TerrainMode(i), nil
}

func addTerrainSet(ctx context.Context, call *sdk.Call, in terrainSetArgs) (sdk.Result, error) {
	mode, err := terrainMode(in.Mode)
	if err != nil {
		return sdk.Result{}, err
	}
	ts, err := locateTileset(ctx, call, in.tilesetArgs)
	if err != nil {
		return sdk.Result{}, err
	}
	i := ts.layerCount("terrain_set")
	ts.set(fmt.Sprintf("terrain_set_%d/mode", i), godot.Int(mode))
	return layerAdded(ctx, call, ts, in.tilesetArgs, "terrain_set", "terrain set", i, map[string]any{"mode": tiledata.TerrainModeNames[mode]})
}

// terrainColor is the colour the editor gives terrain i of a set: hue
// (i+1)/16, saturation and value 0.5.
func terrainColor(i int) godot.Color {
	h := math.Mod(float64(i+1)/16, 1) * 6
	const v, s = 0.5, 0.5
	f := h - math.Floor(h)
	p, q, t := v*(1-s), v*(1-s*f), v*(1-s*(1-f))
	var r, g, b float64
	switch int(h) % 6 {
	case 0:
		r, g, b = v, t, p
	case 1:
		r, g, b = q, v, p
	case 2:
		r, g, b = p, v, t
	case 3:
		r, g, b = p, q, v
	case 4:
		r, g, b = t, p, v
	default:
		r, g, b = v, p, q
	}
	return godot.Color{R: r, G: g, B: b, A: 1}
}

func addTerrain(ctx context.Context, call *sdk.Call, in terrainArgs) (sdk.Result, error) {
	if err := in.tilesetArgs.check(); err != nil {
		return sdk.Result{}, err
	}
	var color godot.Color
	if in.Color != "" {
		v, err := godot.FromJSON(in.Color, "Color")
		if err != nil {
			return sdk.Result{}, invalid("pass color as a name such as \"red\", \"#rrggbb\", \"#rrggbbaa\" or \"Color(r, g, b, a)\" with components 0..1", "color: %v", err)
		}
		color = v.(godot.Color)
	}
	ts, err := locateTileset(ctx, call, in.tilesetArgs)
	if err != nil {
		return sdk.Result{}, err
	}
	if err := ts.checkTerrainSet(in.TerrainSet); err != nil {
		return sdk.Result{}, err
	}
	i := ts.terrainCount(in.TerrainSet)
	name := in.Name
	if name == "" {
		name = fmt.Sprintf("Terrain %d", i)
	}
	if in.Color == "" {
		color = terrainColor(i)
	}
	key := fmt.Sprintf("terrain_set_%d/terrain_%d/", in.TerrainSet, i)
	ts.set(key+"name", godot.String(name))
	ts.set(key+"color", color)
	out := map[string]any{"node_path": nilIfEmpty(in.NodePath), "tileset_path": ts.pathOut(), "terrain_set": in.TerrainSet, "terrain": i, "name": name}
	return commit(ctx, call, fmt.Sprintf("Add terrain %q to terrain set %d", name, in.TerrainSet), out, ts.docs...)
}

func (ts *tileSet) checkTerrainSet(set int) error {
	if n := ts.layerCount("terrain_set"); set < 0 || set >= n {
		e := invalid(fmt.Sprintf("the TileSet has %d terrain set(s); add one with godot_tilemap_add_terrain_set", n), "terrain set %d does not exist", set)
		e.Required = "terrain_set"
		return e
	}
	return nil
}

// tileRef names one tile (an alternative of an atlas tile) of a TileSet.
type tileRef struct {
	tilesetArgs
	SourceID        *int  `json:"source_id" jsonschema:"id of an atlas source of the TileSet"`
	AtlasCoords     []int `json:"atlas_coords" jsonschema:"the tile's position in the atlas [x, y]"`
	AlternativeTile int   `json:"alternative_tile,omitempty" jsonschema:"alternative tile id (default 0, the tile itself)"`
}

// tileEdit is an open tile: its TileSet, atlas and key prefix "X:Y/A/".
type tileEdit struct {
	ts     *tileSet
	src    *atlas
	prefix string
	out    map[string]any
}

func (in tileRef) open(ctx context.Context, call *sdk.Call) (*tileEdit, error) {
	if err := in.tilesetArgs.check(); err != nil {
		return nil, err
	}
	if in.SourceID == nil {
		e := invalid("pass the id of an atlas source (godot_tilemap_get_tileset lists them)", "source_id is required")
		e.Required = "source_id"
		return nil, e
	}
	at, err := vec2("atlas_coords", in.AtlasCoords, nil)
	if err != nil {
		return nil, err
	}
	if in.AlternativeTile < 0 || in.AlternativeTile > 0xFFF {
		return nil, invalid("alternative ids are 0..4095, without transform flags", "alternative_tile %d is out of range", in.AlternativeTile)
	}
	ts, err := locateTileset(ctx, call, in.tilesetArgs)
	if err != nil {
		return nil, err
	}
	src, err := ts.atlas(*in.SourceID)
	if err != nil {
		return nil, err
	}
	if _, err := src.tile(at, in.AlternativeTile); err != nil {
		return nil, err
	}
	return &tileEdit{ts: ts, src: src, prefix: fmt.Sprintf("%d:%d/%d/", at[0], at[1], in.AlternativeTile),
		out: map[string]any{"node_path": nilIfEmpty(in.NodePath), "tileset_path": ts.pathOut(), "source_id": *in.SourceID,
			"atlas_coords": at[:], "alternative_tile": in.AlternativeTile}}, nil
}

// clear removes the tile's keys that start with prefix+sub.
func (te *tileEdit) clear(sub string) {
	for _, k := range te.src.sub.Keys() {
		if strings.HasPrefix(k, te.prefix+sub) {
			te.src.sub.Clear(k)
		}
	}
}

func (te *tileEdit) set(prop string, v godot.Value) { te.src.set(te.prefix+prop, v) }

func (te *tileEdit) commit(ctx context.Context, call *sdk.Call, what string) (sdk.Result, error) {
	return commit(ctx, call, fmt.Sprintf("Set %s of tile %s in source %d", what, strings.TrimSuffix(te.prefix, "/"), te.src.id), te.out, te.ts.docs...)
}

// polygonArg reads [[x, y], ...] with at least three points.
func polygonArg(field string, pts [][]float64) (godot.PackedVector2Array, error) {
	if len(pts) < 3 {
		return nil, invalid("give at least three [x, y] points, in pixels from the tile's centre", "'%s' has %d point(s); a polygon needs 3 or more", field, len(pts))
	}
	out := make(godot.PackedVector2Array, len(pts))
	for i, p := range pts {
		if len(p) != 2 || math.IsNaN(p[0]) || math.IsNaN(p[1]) || math.IsInf(p[0], 0) || math.IsInf(p[1], 0) {
			return nil, invalid("each point is [x, y] in pixels from the tile's centre", "'%s' point %d is not [x, y]", field, i)
		}
		out[i] = godot.Vector2{X: p[0], Y: p[1]}
	}
	return out, nil
}

// polygonsArg reads a list of polygons up front, so that a bad point is refused
// before the TileSet is opened; field names polygon i in the error.
func polygonsArg(field func(i int) string, polys [][][]float64) ([]godot.PackedVector2Array, error) {
	out := make([]godot.PackedVector2Array, len(polys))
	for i, p := range polys {
		pts, err := polygonArg(field(i), p)
		if err != nil {
			return nil, err
		}
		out[i] = pts
	}
	return out, nil
}

// openLayer opens the tile and checks that the TileSet has the kind ("physics",
// "navigation", "occlusion") layer with that index, the tools' layer argument.
func (in tileRef) openLayer(ctx context.Context, call *sdk.Call, kind string, index int) (*tileEdit, error) {
	te, err := in.open(ctx, call)
	if err != nil {
		return nil, err
	}
	if n := te.ts.layerCount(kind + "_layer"); index < 0 || index >= n {
		e := invalid(fmt.Sprintf("the TileSet has %d %s layer(s); add one with godot_tilemap_add_%s_layer", n, kind, kind), "%s layer %d does not exist", kind, index)
		e.Required = kind + "_layer"
		return nil, e
	}
	return te, nil
}

type collisionPolygon struct {
	Points       [][]float64 `json:"points" jsonschema:"the polygon's points [[x, y], ...], in pixels from the tile's centre (at least 3)"`
	OneWay       bool        `json:"one_way,omitempty" jsonschema:"collide only from above (one-way platform)"`
	OneWayMargin *float64    `json:"one_way_margin,omitempty" jsonschema:"thickness of the one-way margin (default 1)"`
}

type tileCollisionArgs struct {
	tileRef
	PhysicsLayer int                `json:"physics_layer,omitempty" jsonschema:"index of the TileSet's physics layer (default 0)"`
	Polygons     []collisionPolygon `json:"polygons" jsonschema:"the tile's collision polygons on that layer, replacing the ones it has; [] removes them. A full 16x16 tile is [{\"points\": [[-8, -8], [8, -8], [8, 8], [-8, 8]]}]"`
}

func setTileCollision(ctx context.Context, call *sdk.Call, in tileCollisionArgs) (sdk.Result, error) {
	points := make([][][]float64, len(in.Polygons))
	for i, p := range in.Polygons {
		points[i] = p.Points
	}
	polys, err := polygonsArg(func(i int) string { return fmt.Sprintf("polygons[%d].points", i) }, points)
	if err != nil {
		return sdk.Result{}, err
	}
	te, err := in.openLayer(ctx, call, "physics", in.PhysicsLayer)
	if err != nil {
		return sdk.Result{}, err
	}
	layer := fmt.Sprintf("physics_layer_%d/", in.PhysicsLayer)
	te.clear(layer + "polygon_")
	for i, p := range in.Polygons {
		key := fmt.Sprintf("%spolygon_%d/", layer, i)
		te.set(key+"points", polys[i])
		if p.OneWay {
			te.set(key+"one_way", godot.Bool(true))
		}
		if p.OneWayMargin != nil && *p.OneWayMargin != 1 {
			te.set(key+"one_way_margin", godot.Float(*p.OneWayMargin))
		}
	}
	te.out["physics_layer"], te.out["polygons"] = in.PhysicsLayer, len(in.Polygons)
	return te.commit(ctx, call, "collision")
}

type tileTerrainArgs struct {
	tileRef
	TerrainSet  int            `json:"terrain_set" jsonschema:"index of the terrain set; -1 takes the tile out of terrains"`
	Terrain     *int           `json:"terrain,omitempty" jsonschema:"the tile's centre terrain in that set (default -1, none)"`
	PeeringBits map[string]int `json:"peering_bits,omitempty" jsonschema:"terrain of each peering bit, replacing the tile's: {\"right_side\": 0, \"bottom_right_corner\": 0, ...}; which bits exist depends on the tile shape and the set's mode (square tiles: right_side, bottom_side, left_side, top_side and the four *_corner bits; hexagons: six sides and six corners)"`
}

func setTileTerrain(ctx context.Context, call *sdk.Call, in tileTerrainArgs) (sdk.Result, error) {
	te, err := in.open(ctx, call)
	if err != nil {
		return sdk.Result{}, err
	}
	te.clear("terrains_peering_bit/")
	if in.TerrainSet < 0 {
		te.src.sub.Clear(te.prefix + "terrain_set")
		te.src.sub.Clear(te.prefix + "terrain")
		te.out["terrain_set"] = -1
		return te.commit(ctx, call, "terrain")
	}
	if err := te.ts.checkTerrainSet(in.TerrainSet); err != nil {
		return sdk.Result{}, err
	}
	n := te.ts.terrainCount(in.TerrainSet)
	checkTerrain := func(what string, t int) error {
		if t < -1 || t >= n {
			e := invalid(fmt.Sprintf("terrain set %d has terrains 0..%d (-1 is none); add one with godot_tilemap_add_terrain", in.TerrainSet, n-1),
				"%s: terrain %d does not exist in terrain set %d", what, t, in.TerrainSet)
			e.Required = "terrain"
			return e
		}
		return nil
	}
	terrain := -1
	if in.Terrain != nil {
		terrain = *in.Terrain
	}
	if err := checkTerrain("terrain", terrain); err != nil {
		return sdk.Result{}, err
	}
	mode := tiledata.TerrainMode(te.ts.intKey(fmt.Sprintf("terrain_set_%d/mode", in.TerrainSet), 0))
	valid := te.ts.grid().PeeringBits(mode)
	bits := map[tiledata.Neighbor]int{}
	for name, t := range in.PeeringBits {
		nb, ok := tiledata.ParseNeighbor(name)
		if !ok || !slices.Contains(valid, nb) {
			names := make([]string, len(valid))
			for i, v := range valid {
				names[i] = v.String()
			}
			return sdk.Result{}, invalid(fmt.Sprintf("peering bits of terrain set %d (%s): %s", in.TerrainSet, tiledata.TerrainModeNames[mode], strings.Join(names, ", ")),
				"%q is not a peering bit of this terrain set", name)
		}
		if err := checkTerrain(name, t); err != nil {
			return sdk.Result{}, err
		}
		if t >= 0 {
			bits[nb] = t
		}
	}
	te.set("terrain_set", godot.Int(in.TerrainSet))
	if terrain >= 0 {
		te.set("terrain", godot.Int(terrain))
	} else {
		te.src.sub.Clear(te.prefix + "terrain")
	}
	for _, nb := range valid {
		if t, ok := bits[nb]; ok {
			te.set("terrains_peering_bit/"+nb.String(), godot.Int(t))
		}
	}
	te.out["terrain_set"], te.out["terrain"], te.out["peering_bits"] = in.TerrainSet, terrain, len(bits)
	return te.commit(ctx, call, "terrain")
}

type tileCustomDataArgs struct {
	tileRef
	Layer string `json:"layer" jsonschema:"name of the custom data layer"`
	Value any    `json:"value" jsonschema:"the value, of the layer's type (a number, string, [x, y] for a Vector2, \"#rrggbb\" for a Color, ...); null resets it to the default" godot:"value"`
}

func setTileCustomData(ctx context.Context, call *sdk.Call, in tileCustomDataArgs) (sdk.Result, error) {
	te, err := in.open(ctx, call)
	if err != nil {
		return sdk.Result{}, err
	}
	layers := te.ts.customLayers()
	i := slices.IndexFunc(layers, func(l customLayer) bool { return l.Name == in.Layer })
	if i < 0 {
		names := make([]string, len(layers))
		for j, l := range layers {
			names[j] = fmt.Sprintf("%s (%s)", l.Name, l.Type)
		}
		e := invalid("custom data layers of this TileSet: "+list(names)+"; add one with godot_tilemap_add_custom_data_layer", "no custom data layer %q", in.Layer)
		e.Required = "layer"
		return sdk.Result{}, e
	}
	key := fmt.Sprintf("custom_data_%d", i)
	if in.Value == nil {
		te.src.sub.Clear(te.prefix + key)
	} else {
		v, err := godot.FromJSON(in.Value, layers[i].Type)
		if err != nil {
			return sdk.Result{}, invalid(fmt.Sprintf("layer %q holds %s values: %s", in.Layer, layers[i].Type, godot.Shapes(layers[i].Type)), "value: %v", err)
		}
		te.set(key, v)
	}
	te.out["layer"], te.out["type"] = in.Layer, layers[i].Type
	return te.commit(ctx, call, "custom data "+in.Layer)
}

type tileNavigationArgs struct {
	tileRef
	NavigationLayer int         `json:"navigation_layer,omitempty" jsonschema:"index of the TileSet's navigation layer (default 0)"`
	Polygon         [][]float64 `json:"polygon" jsonschema:"the tile's walkable area, a convex polygon [[x, y], ...] in pixels from the tile's centre; [] removes it"`
}

func setTileNavigation(ctx context.Context, call *sdk.Call, in tileNavigationArgs) (sdk.Result, error) {
	var pts godot.PackedVector2Array
	if len(in.Polygon) > 0 {
		var err error
		if pts, err = polygonArg("polygon", in.Polygon); err != nil {
			return sdk.Result{}, err
		}
	}
	te, err := in.openLayer(ctx, call, "navigation", in.NavigationLayer)
	if err != nil {
		return sdk.Result{}, err
	}
	key := fmt.Sprintf("navigation_layer_%d/polygon", in.NavigationLayer)
	te.src.sub.Clear(te.prefix + key)
	if pts != nil {
		sub, err := te.ts.d.res.AddSubResource("NavigationPolygon")
		if err != nil {
			return sdk.Result{}, err
		}
		idx := make(godot.PackedInt32Array, len(pts))
		for i := range idx {
			idx[i] = int32(i)
		}
		sub.Set("vertices", pts)
		sub.Set("polygons", godot.Array{Type: &godot.TypeRef{Name: "PackedInt32Array"}, Items: []godot.Value{idx}})
		te.set(key, sub.Ref())
	}
	te.out["navigation_layer"], te.out["points"] = in.NavigationLayer, len(pts)
	return te.commit(ctx, call, "navigation polygon")
}

type tileOccluderArgs struct {
	tileRef
	OcclusionLayer int           `json:"occlusion_layer,omitempty" jsonschema:"index of the TileSet's occlusion layer (default 0)"`
	Polygons       [][][]float64 `json:"polygons" jsonschema:"the tile's light occluders, each [[x, y], ...] in pixels from the tile's centre, replacing the ones it has; [] removes them"`
}

func setTileOccluder(ctx context.Context, call *sdk.Call, in tileOccluderArgs) (sdk.Result, error) {
	polys, err := polygonsArg(func(i int) string { return fmt.Sprintf("polygons[%d]", i) }, in.Polygons)
	if err != nil {
		return sdk.Result{}, err
	}
	te, err := in.openLayer(ctx, call, "occlusion", in.OcclusionLayer)
	if err != nil {
		return sdk.Result{}, err
	}
	layer := fmt.Sprintf("occlusion_layer_%d/", in.OcclusionLayer)
	te.clear(layer + "polygon_")
	for i, pts := range polys {
		sub, err := te.ts.d.res.AddSubResource("OccluderPolygon2D")
		if err != nil {
			return sdk.Result{}, err
		}
		sub.Set("polygon", pts)
		te.set(fmt.Sprintf("%spolygon_%d/polygon", layer, i), sub.Ref())
	}
	te.out["occlusion_layer"], te.out["polygons"] = in.OcclusionLayer, len(polys)
	return te.commit(ctx, call, "occluders")
}
