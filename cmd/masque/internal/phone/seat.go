package phone

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
)

//go:embed embedded
var embedded embed.FS

// WasmEnv names a built seat.wasm to serve instead of the embedded or
// built one (tests, and .ci/run, build it once).
const WasmEnv = "MASQUE_PHONE_WASM"

// Seat is the phone's WebAssembly seat and the wasm_exec.js of the Go
// release that built it: embedded in a release build, else built once
// from this binary's source with the toolchain that built it, into the
// user cache (docs/phones.md, "How the page is served").
type Seat struct {
	// Log, if set, is told when the seat is being built.
	Log func(string)

	once       sync.Once
	wasm, exec []byte
	err        error
}

// Wasm returns seat.wasm, building it the first time if need be.
func (s *Seat) Wasm() ([]byte, error) {
	s.once.Do(s.load)
	return s.wasm, s.err
}

// WasmExec returns the wasm_exec.js that goes with seat.wasm.
func (s *Seat) WasmExec() ([]byte, error) {
	s.once.Do(s.load)
	return s.exec, s.err
}

// Prepare builds the seat now if it must be built (so that the first
// phone does not wait), and says why it cannot be.
func (s *Seat) Prepare() error {
	_, err := s.Wasm()
	return err
}

func (s *Seat) load() {
	if p := os.Getenv(WasmEnv); p != "" {
		s.wasm, s.err = os.ReadFile(p)
		if s.err == nil {
			s.exec, s.err = wasmExec(filepath.Dir(p))
		}
		return
	}
	if b, err := fs.ReadFile(embedded, "embedded/seat.wasm"); err == nil {
		s.wasm = b
		s.exec, s.err = fs.ReadFile(embedded, "embedded/wasm_exec.js")
		return
	}
	s.wasm, s.exec, s.err = s.build()
}

// wasmExec reads wasm_exec.js beside a built seat.wasm, or from the
// toolchain's GOROOT.
func wasmExec(dir string) ([]byte, error) {
	if b, err := os.ReadFile(filepath.Join(dir, "wasm_exec.js")); err == nil {
		return b, nil
	}
	for _, p := range []string{"lib/wasm/wasm_exec.js", "misc/wasm/wasm_exec.js"} {
		if b, err := os.ReadFile(filepath.Join(goroot(), p)); err == nil {
			return b, nil
		}
	}
	return nil, fmt.Errorf("no wasm_exec.js in the Go release that built masque (%s)", goroot())
}

// goroot is the GOROOT of the toolchain that built this binary: the seat
// must be built by the same Go release as the wasm_exec.js served with it
// (one ABI), and a binary built from source (go run, go build) runs where
// that toolchain is.
func goroot() string {
	//lint:ignore SA1019 the toolchain that built this binary is the one wanted, not the one on PATH
	return runtime.GOROOT()
}

// source is this package's source directory, when the binary knows it
// (not a -trimpath build).
func source() (string, bool) {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return "", false
	}
	dir := filepath.Dir(file)
	if _, err := os.Stat(filepath.Join(dir, "seatwasm", "main.go")); err != nil {
		return "", false
	}
	return dir, true
}

// build compiles the seat from source once per binary, into the user
// cache.
func (s *Seat) build() (wasm, execJS []byte, err error) {
	dir, ok := source()
	if !ok {
		return nil, nil, errors.New("this masque holds no phone seat and was built without its source (a -trimpath build): build it with the phone seat embedded (cmd/masque/internal/phone/embedded/README)")
	}
	execJS, err = wasmExec("")
	if err != nil {
		return nil, nil, err
	}
	goBin := filepath.Join(goroot(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		return nil, nil, fmt.Errorf("the Go toolchain that built masque is gone (%s): %w", goBin, err)
	}
	out, err := cachePath()
	if err != nil {
		return nil, nil, err
	}
	if b, err := os.ReadFile(out); err == nil {
		return b, execJS, nil
	}
	if s.Log != nil {
		s.Log("building the phone page once (Go to WebAssembly, up to a minute)")
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return nil, nil, err
	}
	tmp := out + ".tmp"
	cmd := exec.Command(goBin, "build", "-trimpath", "-o", tmp, "./seatwasm")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, nil, fmt.Errorf("building the phone seat: %w: %s", err, msg)
	}
	if err := os.Rename(tmp, out); err != nil {
		return nil, nil, err
	}
	b, err := os.ReadFile(out)
	return b, execJS, err
}

// cachePath is where this binary's build of the seat is kept.
func cachePath() (string, error) {
	key, err := selfKey()
	if err != nil {
		return "", err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	return filepath.Join(cache, "masque", "phone-seat", key+".wasm"), nil
}

// Ready says whether the seat can be had without building it: named by
// MASQUE_PHONE_WASM, embedded, or built before by this binary.
func (s *Seat) Ready() bool {
	if os.Getenv(WasmEnv) != "" {
		return true
	}
	if _, err := fs.Stat(embedded, "embedded/seat.wasm"); err == nil {
		return true
	}
	p, err := cachePath()
	if err != nil {
		return false
	}
	_, err = os.Stat(p)
	return err == nil
}

// selfKey names this binary's build of the seat: the hash of the
// executable.
func selfKey() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}
