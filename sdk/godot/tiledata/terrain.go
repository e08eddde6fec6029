package tiledata

import (
	"errors"
	"fmt"
)

// TerrainTile is one tile (an alternative of an atlas tile) of a terrain
// set: its centre terrain and its peering bits.
type TerrainTile struct {
	SourceID    uint16
	Atlas       AtlasCoords
	Alternative uint16
	// Terrain is the centre terrain (terrain_set_N/terrain_M's M), or -1.
	Terrain int
	// Bits maps each peering bit that is set to its terrain; a bit not in
	// the map is -1 (no terrain).
	Bits map[Neighbor]int
	// Probability weighs tiles that fit equally well (default 1).
	Probability float64
}

// Bit is the terrain of peering bit n, -1 when unset.
func (t TerrainTile) Bit(n Neighbor) int {
	if v, ok := t.Bits[n]; ok {
		return v
	}
	return -1
}

// TerrainSet is what ConnectTerrain needs of one terrain set of a TileSet
// with square tiles.
type TerrainSet struct {
	Mode  TerrainMode
	Tiles []TerrainTile
}

// ErrNoTerrainTile is returned when the set has no tile for the terrain.
var ErrNoTerrainTile = errors.New("no tile of the terrain set has that terrain")

// offsets of the square-grid cells sharing each peering bit of a cell, and
// which bit of theirs that is.
var squareShared = map[Neighbor][]struct {
	dx, dy int
	bit    Neighbor
}{
	RightSide:         {{1, 0, LeftSide}},
	BottomSide:        {{0, 1, TopSide}},
	LeftSide:          {{-1, 0, RightSide}},
	TopSide:           {{0, -1, BottomSide}},
	BottomRightCorner: {{1, 0, BottomLeftCorner}, {0, 1, TopRightCorner}, {1, 1, TopLeftCorner}},
	BottomLeftCorner:  {{-1, 0, BottomRightCorner}, {0, 1, TopLeftCorner}, {-1, 1, TopRightCorner}},
	TopLeftCorner:     {{-1, 0, TopRightCorner}, {0, -1, BottomLeftCorner}, {-1, -1, BottomRightCorner}},
	TopRightCorner:    {{1, 0, TopLeftCorner}, {0, -1, BottomRightCorner}, {1, -1, BottomLeftCorner}},
}

var around = [8][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}

// ConnectTerrain paints cells with terrain the way the editor's terrain
// painter does in "connect" mode, for square tiles: the painted cells get
// terrain, neighbours already of that terrain are re-chosen so they connect
// to the painted cells, and every other cell keeps its tile. current(c)
// answers the index in set.Tiles of the tile at c, or -1 when c is empty or
// holds a tile outside the set.
//
// For every peering bit of a cell to choose, the wanted terrain is the
// painted terrain when all cells sharing the bit take part in the paint,
// else what the other cells' tiles have there (the most common value; an
// empty cell or one outside the set counts as no terrain). Each cell gets
// the tile of its terrain whose bits differ from the wanted ones least;
// ties go to the higher probability, then to the earlier tile. The answer
// maps each cell to choose to its tile's index, in paint order followed by
// the re-chosen neighbours.
func ConnectTerrain(set TerrainSet, current func(Coords) int, cells []Coords, terrain int) ([]Coords, map[Coords]int, error) {
	bits := PeeringBits(ShapeSquare, set.Mode)
	hasTile := false
	for _, t := range set.Tiles {
		if t.Terrain == terrain {
			hasTile = true
			break
		}
	}
	if !hasTile {
		return nil, nil, fmt.Errorf("terrain %d: %w", terrain, ErrNoTerrainTile)
	}
	modify := map[Coords]bool{}
	var order []Coords
	for _, c := range cells {
		if !modify[c] {
			modify[c] = true
			order = append(order, c)
		}
	}
	painted := len(order)
	for _, c := range order[:painted] {
		for _, d := range around {
			n, ok := offset(c, d[0], d[1])
			if !ok || modify[n] {
				continue
			}
			if i := current(n); i >= 0 && set.Tiles[i].Terrain == terrain {
				modify[n] = true
				order = append(order, n)
			}
		}
	}
	out := make(map[Coords]int, len(order))
	for _, c := range order {
		want := map[Neighbor]int{}
		for _, b := range bits {
			want[b] = wantedBit(set, current, modify, c, b, terrain)
		}
		best, bestScore := -1, 0
		for i, t := range set.Tiles {
			if t.Terrain != terrain {
				continue
			}
			score := 0
			for _, b := range bits {
				if t.Bit(b) != want[b] {
					score++
				}
			}
			if best < 0 || score < bestScore || (score == bestScore && t.Probability > set.Tiles[best].Probability) {
				best, bestScore = i, score
			}
		}
		out[c] = best
	}
	return order, out, nil
}

// wantedBit is the terrain wanted at peering bit b of cell c.
func wantedBit(set TerrainSet, current func(Coords) int, modify map[Coords]bool, c Coords, b Neighbor, terrain int) int {
	votes := map[int]int{}
	all := true
	for _, s := range squareShared[b] {
		n, ok := offset(c, s.dx, s.dy)
		if ok && modify[n] {
			continue
		}
		all = false
		v := -1
		if ok {
			if i := current(n); i >= 0 {
				v = set.Tiles[i].Bit(s.bit)
			}
		}
		votes[v]++
	}
	if all {
		return terrain
	}
	best, count := -1, 0
	for v, k := range votes {
		if k > count || (k == count && v == terrain) || (k == count && best != terrain && v < best) {
			best, count = v, k
		}
	}
	return best
}

func offset(c Coords, dx, dy int) (Coords, bool) {
	x, y := int(c.X)+dx, int(c.Y)+dy
	if x < -32768 || x > 32767 || y < -32768 || y > 32767 {
		return Coords{}, false
	}
	return Coords{X: int16(x), Y: int16(y)}, true
}
