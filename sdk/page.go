package sdk

import (
	"encoding/json"
	"fmt"
)

// PageBytes is the size a page of a list-like answer is kept near when the
// caller sets no limit: what an agent can read without losing its context
// window to one answer.
const PageBytes = 20 << 10

// Page says where one page of a list-like answer sits in the whole list.
// Embed it in the result, next to the page's items, so every paged tool
// answers in one shape; the tool's arguments take offset and limit (as two
// fields of its own: the schema tags of embedded structs are not read).
type Page struct {
	Total      int    `json:"total" jsonschema:"number of items in all pages"`
	Offset     int    `json:"offset"`
	NextOffset int    `json:"next_offset,omitempty" jsonschema:"pass as offset for the next page; absent on the last page"`
	Remaining  int    `json:"remaining,omitempty" jsonschema:"items after this page"`
	Truncated  bool   `json:"truncated" jsonschema:"more items follow this page"`
	Hint       string `json:"hint,omitempty" jsonschema:"how to read the next page; absent on the last page"`
}

// Paginate cuts the page of items that starts at offset. limit is the
// caller's; when it is 0 the page holds at most defaultLimit items and
// stops once their JSON passes [PageBytes], so one answer stays near 20 KB
// whatever the size of its items (a page always holds at least one). The
// page is never nil, so an empty one encodes as [] rather than null.
func Paginate[T any](items []T, offset, limit, defaultLimit int) ([]T, Page) {
	offset = max(offset, 0)
	p := Page{Total: len(items), Offset: offset}
	if offset >= len(items) {
		return []T{}, p
	}
	end := len(items)
	if limit > 0 {
		end = min(end, offset+limit)
	} else {
		end = min(end, offset+max(defaultLimit, 1))
		bytes := 0
		for i := offset; i < end; i++ {
			b, _ := json.Marshal(items[i])
			bytes += len(b) + 1
			if bytes > PageBytes && i > offset {
				end = i
				break
			}
		}
	}
	if end < len(items) {
		p.NextOffset, p.Remaining, p.Truncated = end, len(items)-end, true
		p.Hint = fmt.Sprintf("%d of %d shown from offset %d; %d more: call again with offset %d (and a limit, to read more at once)",
			end-offset, len(items), offset, len(items)-end, end)
	}
	return items[offset:end], p
}

// AddTo sets the page's fields in m, an answer built as a map, as
// embedding Page in a struct would.
func (p Page) AddTo(m map[string]any) {
	m["total"], m["offset"], m["truncated"] = p.Total, p.Offset, p.Truncated
	if p.Truncated {
		m["next_offset"], m["remaining"], m["hint"] = p.NextOffset, p.Remaining, p.Hint
	}
}
