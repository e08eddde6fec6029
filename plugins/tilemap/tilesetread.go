package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/tiledata"
)

// Reading a TileSet back: what the tools above wrote, as JSON.

var tileShapes = []string{"square", "isometric", "half_offset_square", "hexagon"}

func (ts *tileSet) value(key string) any {
	v, ok := ts.sec.Get(key)
	if !ok {
		return nil
	}
	return godot.ToJSONIn(v, ts.d.res, "")
}

func getTileset(ctx context.Context, call *sdk.Call, in tilesetArgs) (sdk.Result, error) {
	ts, err := locateTileset(ctx, call, in)
	if err != nil {
		return sdk.Result{}, err
	}
	size := [2]int{16, 16}
	if v, ok := ts.sec.Get("tile_size"); ok {
		if s, ok := v.(godot.Vector2i); ok {
			size = [2]int{int(s.X), int(s.Y)}
		}
	}
	shape := "type_" + strconv.Itoa(int(ts.shape()))
	if s := int(ts.shape()); s >= 0 && s < len(tileShapes) {
		shape = tileShapes[s]
	}
	out := map[string]any{"node_path": nilIfEmpty(in.NodePath), "tileset_path": ts.pathOut(), "tile_shape": shape, "tile_size": size[:]}
	physics := []map[string]any{}
	for i := range ts.layerCount("physics_layer") {
		physics = append(physics, map[string]any{"index": i,
			"collision_layer": ts.intKey(fmt.Sprintf("physics_layer_%d/collision_layer", i), 1),
			"collision_mask":  ts.intKey(fmt.Sprintf("physics_layer_%d/collision_mask", i), 1)})
	}
	terrains := []map[string]any{}
	for i := range ts.layerCount("terrain_set") {
		mode := ts.intKey(fmt.Sprintf("terrain_set_%d/mode", i), 0)
		list := []map[string]any{}
		for j := range ts.terrainCount(i) {
			key := fmt.Sprintf("terrain_set_%d/terrain_%d/", i, j)
			list = append(list, map[string]any{"index": j, "name": ts.value(key + "name"), "color": ts.value(key + "color")})
		}
		m := map[string]any{"index": i, "mode": mode, "terrains": list}
		if mode >= 0 && mode < len(tiledata.TerrainModeNames) {
			m["mode"] = tiledata.TerrainModeNames[mode]
		}
		terrains = append(terrains, m)
	}
	nav := []map[string]any{}
	for i := range ts.layerCount("navigation_layer") {
		nav = append(nav, map[string]any{"index": i, "layers": ts.intKey(fmt.Sprintf("navigation_layer_%d/layers", i), 1)})
	}
	occ := []map[string]any{}
	for i := range ts.layerCount("occlusion_layer") {
		sdf := false
		if v, ok := ts.sec.Get(fmt.Sprintf("occlusion_layer_%d/sdf_collision", i)); ok {
			b, _ := v.(godot.Bool)
			sdf = bool(b)
		}
		occ = append(occ, map[string]any{"index": i, "light_mask": ts.intKey(fmt.Sprintf("occlusion_layer_%d/light_mask", i), 1), "sdf_collision": sdf})
	}
	out["physics_layers"], out["terrain_sets"], out["navigation_layers"], out["occlusion_layers"] = physics, terrains, nav, occ
	out["custom_data_layers"] = ts.customLayers()
	srcs := ts.sources()
	ids := make([]int, 0, len(srcs))
	for id := range srcs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	sources := []map[string]any{}
	for _, id := range ids {
		sub := srcs[id]
		s := map[string]any{"source_id": id}
		if sub == nil {
			s["type"] = "external"
			sources = append(sources, s)
			continue
		}
		s["type"] = sub.Type()
		if sub.Type() == "TileSetAtlasSource" {
			if v, ok := sub.Get("texture"); ok {
				s["texture"] = godot.ToJSONIn(v, ts.d.res, "")
			}
			region := [2]int{16, 16}
			if v, ok := sub.Get("texture_region_size"); ok {
				if r, ok := v.(godot.Vector2i); ok {
					region = [2]int{int(r.X), int(r.Y)}
				}
			}
			s["region_size"] = region[:]
			a := readAtlas(id, sub)
			tiles := make([]map[string]any, len(a.tiles))
			for i, t := range a.tiles {
				tiles[i] = map[string]any{"atlas_coords": []int{int(t.at.X), int(t.at.Y)}, "size": t.size[:], "alternatives": t.alts}
			}
			s["tiles"] = tiles
		}
		sources = append(sources, s)
	}
	out["sources"] = sources
	return sdk.JSON(out), nil
}

func points(v godot.Value) any {
	p, ok := v.(godot.PackedVector2Array)
	if !ok {
		return godot.ToJSON(v)
	}
	out := make([][]float64, len(p))
	for i, q := range p {
		out[i] = []float64{q.X, q.Y}
	}
	return out
}

func getTile(ctx context.Context, call *sdk.Call, in tileRef) (sdk.Result, error) {
	te, err := in.open(ctx, call)
	if err != nil {
		return sdk.Result{}, err
	}
	out := te.out
	sub := te.src.sub
	get := func(prop string) (godot.Value, bool) { return sub.Get(te.prefix + prop) }
	collision := map[string][]map[string]any{}
	peering := map[string]any{}
	custom := map[string]any{}
	nav := map[string]any{}
	occ := map[string][]any{}
	props := map[string]any{}
	layers := te.ts.customLayers()
	resPoints := func(v godot.Value, key string) any {
		if ref, ok := v.(godot.SubResource); ok {
			if s := te.ts.d.res.SubResource(ref.ID); s != nil {
				if p, ok := s.Get(key); ok {
					return points(p)
				}
			}
		}
		return nil
	}
	for _, k := range sub.Keys() {
		prop, ok := strings.CutPrefix(k, te.prefix)
		if !ok {
			continue
		}
		v, _ := sub.Get(k)
		var layer, poly int
		var field string
		switch {
		case strings.HasPrefix(prop, "physics_layer_"):
			if n, _ := fmt.Sscanf(prop, "physics_layer_%d/polygon_%d/%s", &layer, &poly, &field); n == 3 {
				l := strconv.Itoa(layer)
				for len(collision[l]) <= poly {
					collision[l] = append(collision[l], map[string]any{"points": [][]float64{}, "one_way": false})
				}
				if field == "points" {
					collision[l][poly][field] = points(v)
				} else {
					collision[l][poly][field] = godot.ToJSON(v)
				}
			}
		case strings.HasPrefix(prop, "terrains_peering_bit/"):
			peering[strings.TrimPrefix(prop, "terrains_peering_bit/")] = godot.ToJSON(v)
		case strings.HasPrefix(prop, "custom_data_"):
			if i, err := strconv.Atoi(strings.TrimPrefix(prop, "custom_data_")); err == nil {
				name := prop
				if i < len(layers) {
					name = layers[i].Name
				}
				custom[name] = godot.ToJSONIn(v, te.ts.d.res, "")
			}
		case strings.HasPrefix(prop, "navigation_layer_"):
			if n, _ := fmt.Sscanf(prop, "navigation_layer_%d/polygon", &layer); n == 1 {
				nav[strconv.Itoa(layer)] = resPoints(v, "vertices")
			}
		case strings.HasPrefix(prop, "occlusion_layer_"):
			if n, _ := fmt.Sscanf(prop, "occlusion_layer_%d/polygon_%d/polygon", &layer, &poly); n == 2 {
				l := strconv.Itoa(layer)
				occ[l] = append(occ[l], resPoints(v, "polygon"))
			}
		case prop != "":
			props[prop] = godot.ToJSONIn(v, te.ts.d.res, "")
		}
	}
	terrainSet, terrain := -1, -1
	if v, ok := get("terrain_set"); ok {
		if i, ok := v.(godot.Int); ok {
			terrainSet = int(i)
		}
		delete(props, "terrain_set")
	}
	if v, ok := get("terrain"); ok {
		if i, ok := v.(godot.Int); ok {
			terrain = int(i)
		}
		delete(props, "terrain")
	}
	out["collision"], out["terrain_set"], out["terrain"], out["peering_bits"] = collision, terrainSet, terrain, peering
	out["custom_data"], out["navigation"], out["occluders"], out["properties"] = custom, nav, occ, props
	return sdk.JSON(out), nil
}
