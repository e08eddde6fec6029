package manifest

import (
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"
)

var suggestionRE = regexp.MustCompile(`you probably mean "([^"]*)"`)

// FuzzCheckGodotConstraint: any input either parses, or is refused with a
// message; a suggested spelling always parses itself.
func FuzzCheckGodotConstraint(f *testing.F) {
	for _, s := range []string{"^4.2", "4.x", ">= 4.2 < 5", "~4.2", ">= 4.2, < 5.0", "4.3.*", "", "^", "~> 4", "99999999999999999999.x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, c string) {
		err := CheckGodotConstraint(c)
		if err == nil {
			return
		}
		if !strings.Contains(err.Error(), "cannot be read") {
			t.Fatalf("refusal without the reason: %v", err)
		}
		if m := suggestionRE.FindStringSubmatch(err.Error()); m != nil {
			if _, perr := version.NewConstraint(m[1]); perr != nil {
				t.Fatalf("suggestion %q for %q does not parse: %v", m[1], c, perr)
			}
		}
	})
}
