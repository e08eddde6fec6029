package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// The operator's policy for files outside the project. An agent names any
// path it likes; only the operator, who starts godot-mcp, decides which
// folders of the machine it may copy from, so the policy lives in the
// host's environment (passed to this plugin by name, see
// host/pluginenv), where no tool call can change it.
const (
	// AllowEnv lists the folders godot_asset_import_asset may copy
	// from, separated by the system's list separator (":" on Unix, ";"
	// on Windows).
	// Unset or empty, nothing outside the project can be imported.
	AllowEnv = "GODOT_MCP_ASSET_IMPORT_FROM"
	// MaxEnv is the largest file godot_asset_import_asset copies, in MiB.
	MaxEnv = "GODOT_MCP_ASSET_IMPORT_MAX_MB"
)

// defaultMaxMB keeps one imported file well inside what one workspace
// commit carries (a gRPC message of 64 MiB) and the journal keeps for
// undo (64 MiB by default).
const (
	defaultMaxMB = 32
	ceilingMaxMB = 48
)

// policy is the operator's allow-list and size cap, read at each call so
// that a host restart is the only way to change it.
type policy struct {
	roots []string // absolute, symbolic links resolved
	max   int64    // bytes
	bad   []string // entries that are not usable folders, for the error
}

func loadPolicy(getenv func(string) string) policy {
	p := policy{max: defaultMaxMB << 20}
	if v := strings.TrimSpace(getenv(MaxEnv)); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			p.max = int64(min(n, ceilingMaxMB)) << 20
		}
	}
	for _, e := range filepath.SplitList(getenv(AllowEnv)) {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		if !filepath.IsAbs(e) {
			p.bad = append(p.bad, e+" (not an absolute path)")
			continue
		}
		r, err := filepath.EvalSymlinks(e)
		if err != nil {
			p.bad = append(p.bad, e+" (does not exist)")
			continue
		}
		if st, err := os.Stat(r); err != nil || !st.IsDir() {
			p.bad = append(p.bad, e+" (not a folder)")
			continue
		}
		p.roots = append(p.roots, r)
	}
	return p
}

func (p policy) allowedList() string {
	if len(p.roots) == 0 {
		return "none"
	}
	return strings.Join(p.roots, ", ")
}

func (p policy) refusal(src, why string) *sdk.Error {
	msg := fmt.Sprintf("%s: %s; folders allowed by the operator: %s", src, why, p.allowedList())
	if len(p.bad) > 0 {
		msg += " (ignored: " + strings.Join(p.bad, ", ") + ")"
	}
	return &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "import_allowed", Message: msg,
		Hint: "copy the file into an allowed folder, or ask the operator to add its folder to " + AllowEnv +
			" (folders separated by '" + string(os.PathListSeparator) + "') in godot-mcp's environment and restart it"}
}

// inside reports whether resolved is root or below it.
func inside(root, resolved string) bool {
	rel, err := filepath.Rel(root, resolved)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// read returns the bytes of src, an absolute path outside the project,
// after checking it against the policy: it must be a regular file whose
// real path (every symbolic link resolved) is inside an allowed folder,
// no bigger than the cap. The file is opened once and checked through
// the open handle, so swapping it for a link after the check changes
// nothing.
func (p policy) read(src string) ([]byte, error) {
	if strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://") {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "download the file into a folder the operator allows ("+AllowEnv+"), then pass its path",
			"source %s is a URL; godot-mcp does not fetch from the network", src)
	}
	if !filepath.IsAbs(src) {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "pass the file's absolute path, e.g. /home/me/art/player.png",
			"source %q is not an absolute path", src)
	}
	if len(p.roots) == 0 {
		return nil, p.refusal(src, "no folder outside the project is allowed")
	}
	clean := filepath.Clean(src)
	real, err := filepath.EvalSymlinks(clean)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, sdk.Errorf(sdk.CodeNotFound, "check the path; it must name an existing file", "source %s does not exist", src)
	}
	if err != nil {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "check the path", "source %s cannot be resolved: %v", src, err)
	}
	allowed := false
	for _, r := range p.roots {
		if inside(r, real) {
			allowed = true
			break
		}
	}
	if !allowed {
		why := "it is not inside a folder the operator allows"
		if real != clean {
			why = "it leads to " + real + " through a symbolic link, which is not inside a folder the operator allows"
		}
		return nil, p.refusal(src, why)
	}
	// Opened without blocking and checked on the handle: a named pipe
	// would otherwise hold the call until some process wrote to it.
	f, st, err := sdk.OpenRegular(real)
	var nr *sdk.NotRegularError
	if errors.As(err, &nr) {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "name a regular file, not a folder, named pipe or device",
			"source %s %v", src, err)
	}
	if err != nil {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "check that the file is readable by godot-mcp", "source %s: %v", src, err)
	}
	defer f.Close()
	// The handle must be the file that was checked: a link swapped in
	// (for the file or a folder on its way) between EvalSymlinks and Open
	// is caught here; what happens after no longer matters, the handle is
	// what is read.
	again, err := filepath.EvalSymlinks(real)
	if err != nil || again != real {
		return nil, p.refusal(src, "it changed while it was being checked")
	}
	if lst, err := os.Lstat(again); err != nil || !os.SameFile(st, lst) {
		return nil, p.refusal(src, "it changed while it was being checked")
	}
	if st.Size() > p.max {
		return nil, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "import_size",
			Message: fmt.Sprintf("source %s is %d bytes; the largest file godot_asset_import_asset copies is %d MiB", src, st.Size(), p.max>>20),
			Hint:    "import a smaller file, or ask the operator to raise " + MaxEnv + " (at most " + strconv.Itoa(ceilingMaxMB) + ")"}
	}
	data, err := io.ReadAll(io.LimitReader(f, p.max+1))
	if err != nil {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "check the file", "reading source %s: %v", src, err)
	}
	if int64(len(data)) > p.max {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "import a smaller file", "source %s grew past %d MiB while it was read", src, p.max>>20)
	}
	return data, nil
}
