package sdk_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestPaginate(t *testing.T) {
	items := make([]int, 10)
	for i := range items {
		items[i] = i
	}
	for _, tc := range []struct {
		name                 string
		offset, limit, deflt int
		want                 []int
		next, remaining      int
	}{
		{"default", 0, 0, 4, []int{0, 1, 2, 3}, 4, 6},
		{"limit", 2, 3, 4, []int{2, 3, 4}, 5, 5},
		{"last page", 8, 5, 4, []int{8, 9}, 0, 0},
		{"past the end", 12, 5, 4, []int{}, 0, 0},
		{"negative offset", -1, 1, 4, []int{0}, 1, 9},
	} {
		got, p := sdk.Paginate(items, tc.offset, tc.limit, tc.deflt)
		if len(got) != len(tc.want) || (len(got) > 0 && got[0] != tc.want[0]) || p.NextOffset != tc.next || p.Remaining != tc.remaining ||
			p.Truncated != (tc.next > 0) || p.Total != 10 || (p.Hint != "") != p.Truncated {
			t.Errorf("%s: %v %+v", tc.name, got, p)
		}
	}
	// A map answer gets the fields a struct embedding Page would have.
	_, p := sdk.Paginate(items, 0, 4, 0)
	m := map[string]any{}
	p.AddTo(m)
	b, _ := json.Marshal(struct{ sdk.Page }{p})
	mb, _ := json.Marshal(m)
	var want, got map[string]any
	_ = json.Unmarshal(b, &want)
	_ = json.Unmarshal(mb, &got)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("AddTo: %s, embedded: %s", mb, b)
	}
	if got, _ := sdk.Paginate([]int(nil), 0, 0, 5); got == nil {
		t.Error("an empty page is nil")
	}
}

// With no limit a page of large items stops near PageBytes; a limit the
// caller sets is taken as it is.
func TestPaginateBytes(t *testing.T) {
	items := make([]string, 100)
	for i := range items {
		items[i] = strings.Repeat("x", 1000)
	}
	got, p := sdk.Paginate(items, 0, 0, 50)
	b, _ := json.Marshal(got)
	if len(b) > sdk.PageBytes || len(got) < 15 || p.NextOffset != len(got) || !strings.Contains(p.Hint, "offset 20") {
		t.Errorf("default page of 1 KB items: %d items, %d bytes, %+v", len(got), len(b), p)
	}
	if got, _ := sdk.Paginate(items, 0, 50, 50); len(got) != 50 {
		t.Errorf("limit 50 gave %d items", len(got))
	}
	big := []string{strings.Repeat("y", 2*sdk.PageBytes), "z"}
	if got, _ := sdk.Paginate(big, 0, 0, 50); len(got) != 1 {
		t.Errorf("a page of one huge item has %d items", len(got))
	}
}

// A summarized result's text is its summary line, then the whole result.
func TestSummarizedText(t *testing.T) {
	h := sdktest.New(t, toolset(func(context.Context, *sdk.Call, noArgs) (sdk.Result, error) {
		return sdk.Summarized("2 items", map[string]any{"items": []string{"a", "b"}}), nil
	}), sdktest.Options{})
	res := h.Call(context.Background(), "t", nil)
	if want := "2 items\n{\"items\":[\"a\",\"b\"]}"; res.Err != nil || res.Text() != want {
		t.Errorf("text %q (%v), want %q", res.Text(), res.Err, want)
	}
}
