package tiledata

import "iter"

// Layer is an editable set of cells, at most one per coordinate, that keeps
// the order Godot saves them in.
//
// Godot keeps a layer's cells in an insertion-ordered hash map and saves
// them in that order. Layer mirrors its behaviour so an edited layer saves
// the way the editor would have saved it:
//
//   - setting a cell at new coordinates appends it;
//   - setting a cell at occupied coordinates replaces it in place;
//   - erasing removes it and keeps the others in order.
//
// The zero Layer is empty and ready to use. A Layer is not safe for
// concurrent use.
type Layer struct {
	cells []Cell
	index map[Coords]int // position of each coordinate in cells
}

// NewLayer builds a layer from cells in stored order. A repeated coordinate
// keeps its first position and takes the later cell's tile, as when the
// engine loads such data.
func NewLayer(cells []Cell) *Layer {
	l := &Layer{cells: make([]Cell, 0, len(cells)), index: make(map[Coords]int, len(cells))}
	for _, c := range cells {
		l.Set(c)
	}
	return l
}

// DecodeLayer decodes tile_map_data bytes into a Layer (see Decode).
func DecodeLayer(data []byte) (*Layer, error) {
	cells, err := Decode(data)
	if err != nil {
		return nil, err
	}
	return NewLayer(cells), nil
}

// Len returns the number of cells.
func (l *Layer) Len() int { return len(l.cells) }

// Get returns the cell at coords.
func (l *Layer) Get(coords Coords) (Cell, bool) {
	i, ok := l.index[coords]
	if !ok {
		return Cell{}, false
	}
	return l.cells[i], true
}

// Set places c at c.Coords: in place if a cell is already there, otherwise
// at the end.
func (l *Layer) Set(c Cell) {
	if i, ok := l.index[c.Coords]; ok {
		l.cells[i] = c
		return
	}
	if l.index == nil {
		l.index = make(map[Coords]int)
	}
	l.index[c.Coords] = len(l.cells)
	l.cells = append(l.cells, c)
}

// Erase removes the cell at coords and reports whether there was one. The
// remaining cells keep their order.
func (l *Layer) Erase(coords Coords) bool {
	i, ok := l.index[coords]
	if !ok {
		return false
	}
	delete(l.index, coords)
	copy(l.cells[i:], l.cells[i+1:])
	l.cells = l.cells[:len(l.cells)-1]
	// Erasing is rare next to reading and setting, so a linear re-index of
	// the shifted tail is cheaper overall than a linked structure.
	for j := i; j < len(l.cells); j++ {
		l.index[l.cells[j].Coords] = j
	}
	return true
}

// Cells returns a copy of the cells in order.
func (l *Layer) Cells() []Cell {
	return append([]Cell(nil), l.cells...)
}

// All iterates over the cells in order. The layer must not be changed
// during the iteration.
func (l *Layer) All() iter.Seq[Cell] {
	return func(yield func(Cell) bool) {
		for _, c := range l.cells {
			if !yield(c) {
				return
			}
		}
	}
}

// Encode writes the layer as tile_map_data bytes (see Encode).
func (l *Layer) Encode() []byte { return Encode(l.cells) }
