package tiledata

// The cell geometry of a TileSet: which cells neighbour which, and which
// peering bits of neighbouring cells meet at one point. Godot builds every
// non-square shape (isometric, half-offset square, hexagon) on the same
// half-offset grid, whose neighbour offsets depend on the tile layout and
// the offset axis; a vertical offset axis is the horizontal one mirrored
// across the diagonal (x and y swapped).

// TileLayout is TileSet.tile_layout.
type TileLayout int

// The tile layouts.
const (
	LayoutStacked TileLayout = iota
	LayoutStackedOffset
	LayoutStairsRight
	LayoutStairsDown
	LayoutDiamondRight
	LayoutDiamondDown
)

// OffsetAxis is TileSet.tile_offset_axis.
type OffsetAxis int

// The offset axes.
const (
	AxisHorizontal OffsetAxis = iota
	AxisVertical
)

// Grid is the geometry of a TileSet's cells.
type Grid struct {
	Shape  TileShape
	Layout TileLayout
	Axis   OffsetAxis
}

// XY is a cell position without the int16 bound of a layer's cells, so
// that neighbours of cells at the edge can be named.
type XY struct{ X, Y int }

// compass slots of the horizontal half-offset grid, clockwise from east.
const (
	east = iota
	southEast
	south
	southWest
	west
	northWest
	north
	northEast
)

// halfOffset gives, per layout of a horizontal offset axis, each compass
// slot's offset for a cell of an even row and of an odd row. South and
// north exist only for isometric tiles (their bottom and top corners).
var halfOffset = map[TileLayout][8][2][2]int{
	LayoutStacked: {
		east: {{1, 0}, {1, 0}}, southEast: {{0, 1}, {1, 1}}, south: {{0, 2}, {0, 2}}, southWest: {{-1, 1}, {0, 1}},
		west: {{-1, 0}, {-1, 0}}, northWest: {{-1, -1}, {0, -1}}, north: {{0, -2}, {0, -2}}, northEast: {{0, -1}, {1, -1}},
	},
	LayoutStackedOffset: {
		east: {{1, 0}, {1, 0}}, southEast: {{1, 1}, {0, 1}}, south: {{0, 2}, {0, 2}}, southWest: {{0, 1}, {-1, 1}},
		west: {{-1, 0}, {-1, 0}}, northWest: {{0, -1}, {-1, -1}}, north: {{0, -2}, {0, -2}}, northEast: {{1, -1}, {0, -1}},
	},
	LayoutStairsRight:  same8([8][2]int{{1, 0}, {0, 1}, {-1, 2}, {-1, 1}, {-1, 0}, {0, -1}, {1, -2}, {1, -1}}),
	LayoutStairsDown:   same8([8][2]int{{2, -1}, {1, 0}, {0, 1}, {-1, 1}, {-2, 1}, {-1, 0}, {0, -1}, {1, -1}}),
	LayoutDiamondRight: same8([8][2]int{{1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}, {1, 0}}),
	LayoutDiamondDown:  same8([8][2]int{{1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}}),
}

func same8(o [8][2]int) [8][2][2]int {
	var out [8][2][2]int
	for i, d := range o {
		out[i] = [2][2]int{d, d}
	}
	return out
}

// mirrorLayout is the horizontal layout a vertical one mirrors.
var mirrorLayout = map[TileLayout]TileLayout{
	LayoutStacked: LayoutStacked, LayoutStackedOffset: LayoutStackedOffset,
	LayoutStairsRight: LayoutStairsDown, LayoutStairsDown: LayoutStairsRight,
	LayoutDiamondRight: LayoutDiamondDown, LayoutDiamondDown: LayoutDiamondRight,
}

// Mirror is the neighbour across the diagonal x = y (right <-> bottom,
// top right <-> bottom left, bottom right and top left stay).
func (n Neighbor) Mirror() Neighbor {
	switch n {
	case RightSide, RightCorner, LeftSide, LeftCorner:
		return n + 4
	case BottomSide, BottomCorner, TopSide, TopCorner:
		return n - 4
	case BottomLeftSide, BottomLeftCorner:
		return n + 8
	case TopRightSide, TopRightCorner:
		return n - 8
	}
	return n
}

// squareOffsets are the square grid's neighbours.
var squareOffsets = map[Neighbor][2]int{
	RightSide: {1, 0}, BottomRightCorner: {1, 1}, BottomSide: {0, 1}, BottomLeftCorner: {-1, 1},
	LeftSide: {-1, 0}, TopLeftCorner: {-1, -1}, TopSide: {0, -1}, TopRightCorner: {1, -1},
}

// slot is the compass slot of neighbour n on a horizontal half-offset grid
// of the grid's shape, or -1 when the shape has no such neighbour.
func (g Grid) slot(n Neighbor) int {
	iso := g.Shape == ShapeIsometric
	switch {
	case n == RightSide && !iso, n == RightCorner && iso:
		return east
	case n == BottomRightSide:
		return southEast
	case n == BottomCorner && iso:
		return south
	case n == BottomLeftSide:
		return southWest
	case n == LeftSide && !iso, n == LeftCorner && iso:
		return west
	case n == TopLeftSide:
		return northWest
	case n == TopCorner && iso:
		return north
	case n == TopRightSide:
		return northEast
	}
	return -1
}

// HasNeighbor reports whether cells of the grid have neighbour n (Godot's
// TileSet.is_existing_neighbor): square and isometric cells have eight,
// half-offset and hexagonal cells six.
func (g Grid) HasNeighbor(n Neighbor) bool {
	if g.Shape == ShapeSquare {
		_, ok := squareOffsets[n]
		return ok
	}
	if g.Shape != ShapeIsometric && g.Axis == AxisVertical {
		n = n.Mirror()
	}
	return g.slot(n) >= 0
}

// NeighborCell is the cell at neighbour n of c (Godot's
// TileSet.get_neighbor_cell); ok is false when the grid has no such
// neighbour.
func (g Grid) NeighborCell(c XY, n Neighbor) (XY, bool) {
	if g.Shape == ShapeSquare {
		d, ok := squareOffsets[n]
		return XY{c.X + d[0], c.Y + d[1]}, ok
	}
	layout := g.Layout
	if g.Axis == AxisVertical {
		c, n, layout = XY{c.Y, c.X}, n.Mirror(), mirrorLayout[layout]
	}
	s := g.slot(n)
	table, ok := halfOffset[layout]
	if s < 0 || !ok {
		return c, false
	}
	odd := 0
	if c.Y%2 != 0 {
		odd = 1
	}
	d := table[s][odd]
	out := XY{c.X + d[0], c.Y + d[1]}
	if g.Axis == AxisVertical {
		out = XY{out.Y, out.X}
	}
	return out, true
}

// IsSide reports whether a peering bit is a side (else it is a corner);
// Godot numbers sides even and corners odd.
func (n Neighbor) IsSide() bool { return n%2 == 0 }

// PeeringBits lists the peering bits tiles of the grid have in mode, in
// Godot's order (TileSet.is_valid_terrain_peering_bit).
func (g Grid) PeeringBits(mode TerrainMode) []Neighbor {
	var out []Neighbor
	for n := RightSide; n <= TopRightCorner; n++ {
		if g.validBit(n, mode) {
			out = append(out, n)
		}
	}
	return out
}

func (g Grid) validBit(n Neighbor, mode TerrainMode) bool {
	if n < RightSide || n > TopRightCorner || (n.IsSide() && mode == MatchCorners) || (!n.IsSide() && mode == MatchSides) {
		return false
	}
	switch g.Shape {
	case ShapeSquare:
		_, ok := squareOffsets[n]
		return ok
	case ShapeIsometric:
		// Sides are the diagonal ones, corners the axis-aligned ones.
		return g.slot(n) >= 0
	}
	if g.Axis == AxisVertical {
		n = n.Mirror()
	}
	// Horizontal half-offset cells have every side but top and bottom, and
	// every corner but right and left.
	return n != TopSide && n != BottomSide && n != RightCorner && n != LeftCorner
}

// A terrain point is where peering bits of neighbouring cells meet: a side
// shared by two cells or a corner shared by three (four on square grids).
// Godot names each point by a base cell and a number; pointKey is that
// name (id 0 is the base cell's centre).
type pointKey struct {
	base XY
	id   int
}

// self stands for the cell itself in the point tables.
const self Neighbor = -1

type cellBit struct{ via, bit Neighbor }

// pointTable is one grid family's naming of points: for each peering bit
// of a cell, the point's base cell (the cell itself or a neighbour) and
// number; for each number, the cells meeting there (relative to the base
// cell) and their bits, the base cell first.
type pointTable struct {
	name map[Neighbor]struct {
		via Neighbor
		id  int
	}
	meet map[int][]cellBit
}

func table(names map[Neighbor][2]int, meet map[int][]cellBit) pointTable {
	t := pointTable{name: map[Neighbor]struct {
		via Neighbor
		id  int
	}{}, meet: meet}
	for n, v := range names {
		t.name[n] = struct {
			via Neighbor
			id  int
		}{Neighbor(v[0]), v[1]}
	}
	return t
}

var (
	squarePoints = table(map[Neighbor][2]int{
		RightSide: {-1, 1}, BottomRightCorner: {-1, 2}, BottomSide: {-1, 3},
		BottomLeftCorner: {int(LeftSide), 2}, LeftSide: {int(LeftSide), 1},
		TopLeftCorner: {int(TopLeftCorner), 2}, TopSide: {int(TopSide), 3}, TopRightCorner: {int(TopSide), 2},
	}, map[int][]cellBit{
		1: {{self, RightSide}, {RightSide, LeftSide}},
		2: {{self, BottomRightCorner}, {RightSide, BottomLeftCorner}, {BottomRightCorner, TopLeftCorner}, {BottomSide, TopRightCorner}},
		3: {{self, BottomSide}, {BottomSide, TopSide}},
	})
	isometricPoints = table(map[Neighbor][2]int{
		BottomRightSide: {-1, 1}, BottomCorner: {-1, 2}, BottomLeftSide: {-1, 3},
		RightCorner: {int(TopRightSide), 2}, LeftCorner: {int(TopLeftSide), 2},
		TopLeftSide: {int(TopLeftSide), 1}, TopCorner: {int(TopCorner), 2}, TopRightSide: {int(TopRightSide), 3},
	}, map[int][]cellBit{
		1: {{self, BottomRightSide}, {BottomRightSide, TopLeftSide}},
		2: {{self, BottomCorner}, {BottomRightSide, LeftCorner}, {BottomCorner, TopCorner}, {BottomLeftSide, RightCorner}},
		3: {{self, BottomLeftSide}, {BottomLeftSide, TopRightSide}},
	})
	horizontalPoints = table(map[Neighbor][2]int{
		RightSide: {-1, 1}, BottomRightCorner: {-1, 2}, BottomRightSide: {-1, 3}, BottomCorner: {-1, 4}, BottomLeftSide: {-1, 5},
		BottomLeftCorner: {int(LeftSide), 2}, LeftSide: {int(LeftSide), 1},
		TopLeftCorner: {int(TopLeftSide), 4}, TopLeftSide: {int(TopLeftSide), 3}, TopCorner: {int(TopLeftSide), 2},
		TopRightSide: {int(TopRightSide), 5}, TopRightCorner: {int(TopRightSide), 4},
	}, map[int][]cellBit{
		1: {{self, RightSide}, {RightSide, LeftSide}},
		2: {{self, BottomRightCorner}, {RightSide, BottomLeftCorner}, {BottomRightSide, TopCorner}},
		3: {{self, BottomRightSide}, {BottomRightSide, TopLeftSide}},
		4: {{self, BottomCorner}, {BottomRightSide, TopLeftCorner}, {BottomLeftSide, TopRightCorner}},
		5: {{self, BottomLeftSide}, {BottomLeftSide, TopRightSide}},
	})
	verticalPoints = table(map[Neighbor][2]int{
		RightCorner: {-1, 1}, BottomRightSide: {-1, 2}, BottomRightCorner: {-1, 3}, BottomSide: {-1, 4}, BottomLeftSide: {-1, 5},
		BottomLeftCorner: {int(BottomLeftSide), 1}, LeftCorner: {int(TopLeftSide), 3},
		TopLeftSide: {int(TopLeftSide), 2}, TopLeftCorner: {int(TopLeftSide), 1},
		TopSide: {int(TopSide), 4}, TopRightCorner: {int(TopSide), 3}, TopRightSide: {int(TopRightSide), 5},
	}, map[int][]cellBit{
		1: {{self, RightCorner}, {TopRightSide, BottomLeftCorner}, {BottomRightSide, TopLeftCorner}},
		2: {{self, BottomRightSide}, {BottomRightSide, TopLeftSide}},
		// The cell below meets this corner with its top right corner, but
		// Godot (4.6) reads its top left one; so does the painter.
		3: {{self, BottomRightCorner}, {BottomRightSide, LeftCorner}, {BottomSide, TopLeftCorner}},
		4: {{self, BottomSide}, {BottomSide, TopSide}},
		5: {{self, BottomLeftSide}, {BottomLeftSide, TopRightSide}},
	})
)

func (g Grid) points() pointTable {
	switch {
	case g.Shape == ShapeSquare:
		return squarePoints
	case g.Shape == ShapeIsometric:
		return isometricPoints
	case g.Axis == AxisVertical:
		return verticalPoints
	}
	return horizontalPoints
}

func (g Grid) via(c XY, n Neighbor) XY {
	if n == self {
		return c
	}
	out, _ := g.NeighborCell(c, n)
	return out
}

// point names the point at peering bit n of cell c.
func (g Grid) point(c XY, n Neighbor) pointKey {
	p := g.points().name[n]
	return pointKey{g.via(c, p.via), p.id}
}

// meeting lists the cells and their peering bits that meet at point p,
// the base cell first.
func (g Grid) meeting(p pointKey) []struct {
	cell XY
	bit  Neighbor
} {
	m := g.points().meet[p.id]
	out := make([]struct {
		cell XY
		bit  Neighbor
	}, len(m))
	for i, cb := range m {
		out[i].cell, out[i].bit = g.via(p.base, cb.via), cb.bit
	}
	return out
}
