package e2e

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/server"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the agent-contract snapshots in testdata/contract")

// contractTool is what an agent sees of a tool in tools/list.
type contractTool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
}

// TestAgentContract pins what agents see of every core tool and every tool
// of the first-party toolsets (inspection, the firstParty list of main_test.go,
// and the todo example): name,
// title, description, input and output schema, annotations, exactly as the
// real host lists them. A change to any of it is a diff of
// testdata/contract/*.json in review. After an intended change:
//
//	go test ./host/e2e -run TestAgentContract -update
func TestAgentContract(t *testing.T) {
	byToolset := listContract(t)
	for _, ts := range append([]string{"core", "inspection", "todo"}, firstParty...) {
		tools := byToolset[ts]
		if len(tools) == 0 {
			t.Errorf("tools/list has no tools of %s", ts)
			continue
		}
		got, err := json.MarshalIndent(tools, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		path := filepath.Join("testdata", "contract", ts+".json")
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v; run go test ./host/e2e -run TestAgentContract -update to create it", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("the agent-facing contract of %s changed; if intended, run go test ./host/e2e -run TestAgentContract -update and review the diff\ngot:\n%s", ts, got)
		}
	}
}

// listContract lists every core tool and every tool of the first-party
// toolsets and the todo example, as the real host shows them, by toolset.
func listContract(t *testing.T) map[string][]contractTool {
	t.Helper()
	root := testenv.RepoRoot()
	s := stdioHost(t, legacy, "--plugins-dir", projectPluginsDir, "--project", filepath.Join(root, "examples", "demo"), "--log-level", "warn")
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": append([]string{"todo"}, firstParty...)}, nil)
	res, err := s.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	byToolset := map[string][]contractTool{}
	for _, tl := range res.Tools {
		ts, _ := tl.Meta[server.MetaToolset].(string)
		ct := contractTool{Name: tl.Name, Title: tl.Title, Description: tl.Description}
		ct.InputSchema, _ = json.Marshal(tl.InputSchema)
		if tl.OutputSchema != nil {
			ct.OutputSchema, _ = json.Marshal(tl.OutputSchema)
		}
		if tl.Annotations != nil {
			ct.Annotations, _ = json.Marshal(tl.Annotations)
		}
		byToolset[ts] = append(byToolset[ts], ct)
	}
	return byToolset
}
