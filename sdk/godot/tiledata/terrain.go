package tiledata

import (
	"errors"
	"fmt"
	"math"
	"slices"
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

// TerrainSet is what ConnectTerrain needs of one terrain set of a TileSet.
type TerrainSet struct {
	Grid  Grid
	Mode  TerrainMode
	Tiles []TerrainTile
}

// ErrNoTerrainTile is returned when the set has no tile for the terrain.
var ErrNoTerrainTile = errors.New("no tile of the terrain set has that terrain")

// pattern is a tile's terrains: its centre and its peering bits (-1 for
// none and for the bits the set's mode does not have). Godot's terrain
// painter chooses patterns, then a tile of the chosen pattern.
type pattern struct {
	terrain int
	bits    [16]int
}

func emptyPattern() pattern {
	p := pattern{terrain: -1}
	for i := range p.bits {
		p.bits[i] = -1
	}
	return p
}

// less orders patterns as Godot's TerrainsPattern does: by centre, then by
// the bits in neighbour order.
func (p pattern) less(o pattern) bool {
	if p.terrain != o.terrain {
		return p.terrain < o.terrain
	}
	for i := range p.bits {
		if p.bits[i] != o.bits[i] {
			return p.bits[i] < o.bits[i]
		}
	}
	return false
}

type constraint struct{ terrain, priority int }

// painter holds one ConnectTerrain call.
type painter struct {
	set      TerrainSet
	bits     []Neighbor
	current  func(Coords) int
	patterns []pattern         // sorted, the empty pattern included
	tiles    map[pattern][]int // tiles of each pattern, in set order
}

func (pt *painter) tilePattern(i int) pattern {
	p := emptyPattern()
	if i < 0 {
		return p
	}
	t := pt.set.Tiles[i]
	p.terrain = t.Terrain
	for _, b := range pt.bits {
		p.bits[b] = t.Bit(b)
	}
	return p
}

// at is the index in set.Tiles of the tile at c, -1 for none.
func (pt *painter) at(c XY) int {
	if c.X < -32768 || c.X > 32767 || c.Y < -32768 || c.Y > 32767 {
		return -1
	}
	return pt.current(Coords{X: int16(c.X), Y: int16(c.Y)})
}

// ConnectTerrain paints cells with terrain the way Godot's
// TileMapLayer.set_cells_terrain_connect (the editor's terrain painter in
// "connect" mode) does, for every tile shape, layout and offset axis:
// the painted cells get terrain, their neighbours are re-chosen so they
// connect, and a neighbour keeps its tile unless its terrains must
// change. current(c) answers the index in set.Tiles of the tile at c, or
// -1 when c is empty or holds a tile outside the set.
//
// Godot's rules: each painted cell's centre must be the terrain, and so
// must every peering bit it shares only with cells whose centre is (or
// becomes) that terrain; every other point around the painted cells
// keeps the terrain most of its existing cells have there. Cells are then
// chosen one by one (the painted ones in reverse order, then their
// neighbours), each taking the terrain pattern that breaks the fewest
// wanted terrains, weighed by priority (painted ten, already chosen cells
// five, existing tiles one), and never changing a bit nothing asks for;
// ties go to the lowest pattern in Godot's order. Godot then puts a
// random tile of that pattern; ConnectTerrain keeps the cell's tile when
// it already has the pattern, else takes the most probable tile (the
// first on a tie).
//
// The answer lists the cells to write, in paint order followed by the
// neighbours that change, and maps each to its tile's index in set.Tiles,
// or -1 when the cell must be erased (its pattern has no tile).
func ConnectTerrain(set TerrainSet, current func(Coords) int, cells []Coords, terrain int) ([]Coords, map[Coords]int, error) {
	if !slices.ContainsFunc(set.Tiles, func(t TerrainTile) bool { return t.Terrain == terrain }) {
		return nil, nil, fmt.Errorf("terrain %d: %w", terrain, ErrNoTerrainTile)
	}
	g := set.Grid
	pt := &painter{set: set, bits: g.PeeringBits(set.Mode), current: current, tiles: map[pattern][]int{}}
	empty := emptyPattern()
	pt.patterns = append(pt.patterns, empty)
	for i, t := range set.Tiles {
		p := pt.tilePattern(i)
		if t.Terrain < 0 && p == empty {
			continue
		}
		if _, ok := pt.tiles[p]; !ok {
			pt.patterns = append(pt.patterns, p)
		}
		pt.tiles[p] = append(pt.tiles[p], i)
	}
	slices.SortFunc(pt.patterns, func(a, b pattern) int {
		if a.less(b) {
			return -1
		}
		if b.less(a) {
			return 1
		}
		return 0
	})

	painted := make([]XY, len(cells))
	isPainted := map[XY]bool{}
	for i, c := range cells {
		painted[i] = XY{int(c.X), int(c.Y)}
		isPainted[painted[i]] = true
	}
	// The cells that may change: the painted ones, last first, then their
	// neighbours.
	var modify []XY
	canModify := map[XY]bool{}
	for i := len(painted) - 1; i >= 0; i-- {
		modify = append(modify, painted[i])
		canModify[painted[i]] = true
	}
	for _, c := range painted {
		for n := RightSide; n <= TopRightCorner; n++ {
			if !g.HasNeighbor(n) {
				continue
			}
			if nb, _ := g.NeighborCell(c, n); !canModify[nb] {
				modify = append(modify, nb)
				canModify[nb] = true
			}
		}
	}
	// The cells whose centre is (or becomes) the terrain.
	centre := map[XY]bool{}
	for c := range canModify {
		if isPainted[c] {
			centre[c] = true
		} else if i := pt.at(c); i >= 0 && set.Tiles[i].Terrain == terrain {
			centre[c] = true
		}
	}

	// What the paint asks for. A point keeps the first constraint put on
	// it until a chosen cell replaces it.
	cons := map[pointKey]constraint{}
	add := func(p pointKey, c constraint) {
		if _, ok := cons[p]; !ok {
			cons[p] = c
		}
	}
	for _, c := range painted {
		add(pointKey{c, 0}, constraint{terrain, 10})
		for _, b := range pt.bits {
			p := g.point(c, b)
			connect := true
			if b.IsSide() {
				nb, _ := g.NeighborCell(c, b)
				connect = centre[nb]
			} else {
				for _, m := range g.meeting(p) {
					connect = connect && centre[m.cell]
				}
			}
			if connect {
				add(p, constraint{terrain, 10})
			}
		}
	}
	// Around the painted cells, the terrain most existing tiles have at
	// each point (empty cells and cells without terrain there do not vote;
	// a tie goes to the terrain met first).
	for _, c := range painted {
		for _, b := range pt.bits {
			p := g.point(c, b)
			var order []int
			count := map[int]int{}
			for _, m := range g.meeting(p) {
				t := pt.tilePattern(pt.at(m.cell)).bits[m.bit]
				if t < 0 {
					continue
				}
				if count[t] == 0 {
					order = append(order, t)
				}
				count[t]++
			}
			best, most := -1, 0
			for _, t := range order {
				if count[t] > most {
					best, most = t, count[t]
				}
			}
			if most > 0 {
				add(p, constraint{best, 1})
			}
		}
		if t := pt.tilePattern(pt.at(c)).terrain; t >= 0 {
			add(pointKey{c, 0}, constraint{t, 1})
		}
	}

	chosen := map[XY]pattern{}
	for _, c := range modify {
		cur := pt.tilePattern(pt.at(c))
		p := pt.best(c, cons, cur)
		cons[pointKey{c, 0}] = constraint{p.terrain, 5}
		for _, b := range pt.bits {
			cons[g.point(c, b)] = constraint{p.bits[b], 5}
		}
		chosen[c] = p
	}

	var order []Coords
	out := map[Coords]int{}
	write := func(c XY) {
		if c.X < -32768 || c.X > 32767 || c.Y < -32768 || c.Y > 32767 {
			return
		}
		k := Coords{X: int16(c.X), Y: int16(c.Y)}
		if _, done := out[k]; done {
			return
		}
		out[k] = pt.tileFor(chosen[c], pt.at(c))
		order = append(order, k)
	}
	for _, c := range painted {
		write(c)
	}
	for _, c := range modify {
		if !isPainted[c] && chosen[c] != pt.tilePattern(pt.at(c)) {
			write(c)
		}
	}
	return order, out, nil
}

// best is the pattern cell c takes under the constraints, or cur when no
// pattern keeps the bits nothing constrains.
func (pt *painter) best(c XY, cons map[pointKey]constraint, cur pattern) pattern {
	g := pt.set.Grid
	// The constraints on the centre and on each bit, looked up once.
	type want struct {
		constraint
		ok bool
	}
	wants := make([]want, 1+len(pt.bits))
	wants[0].constraint, wants[0].ok = cons[pointKey{c, 0}]
	for i, b := range pt.bits {
		wants[1+i].constraint, wants[1+i].ok = cons[g.point(c, b)]
	}
	// The pattern with every wanted terrain, if there is one, is the only
	// one scoring zero.
	ideal := cur
	if wants[0].ok {
		ideal.terrain = wants[0].terrain
	}
	for i, b := range pt.bits {
		if wants[1+i].ok {
			ideal.bits[b] = wants[1+i].terrain
		}
	}
	if _, ok := pt.tiles[ideal]; ok || ideal == emptyPattern() {
		return ideal
	}
	// Only a lower score wins, so a pattern stops counting once it reaches
	// the best one, and a perfect pattern ends the search.
	best, bestScore := cur, math.MaxInt
	for _, p := range pt.patterns {
		score := 0
		if w := wants[0]; w.ok {
			if w.terrain != p.terrain {
				score += w.priority
			}
		} else if cur.terrain != p.terrain {
			continue
		}
		valid := score < bestScore
		for i := 0; valid && i < len(pt.bits); i++ {
			b := pt.bits[i]
			if w := wants[1+i]; w.ok {
				if w.terrain != p.bits[b] {
					score += w.priority
					valid = score < bestScore
				}
			} else if cur.bits[b] != p.bits[b] {
				valid = false
			}
		}
		if valid {
			best, bestScore = p, score
			if score == 0 {
				break
			}
		}
	}
	return best
}

// tileFor is the tile for pattern p at a cell holding tile have: have when
// it has the pattern, else the most probable tile of it; -1 (erase) for a
// pattern without tiles.
func (pt *painter) tileFor(p pattern, have int) int {
	tiles := pt.tiles[p]
	if have >= 0 && slices.Contains(tiles, have) {
		return have
	}
	best := -1
	for _, i := range tiles {
		if best < 0 || pt.set.Tiles[i].Probability > pt.set.Tiles[best].Probability {
			best = i
		}
	}
	return best
}
