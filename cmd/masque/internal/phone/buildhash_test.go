package phone

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// fakeSeat makes a seat of the given bytes (MASQUE_PHONE_WASM, with a
// wasm_exec.js beside it): the hash's test needs no build.
func fakeSeat(t *testing.T, wasm string) *Seat {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "seat.wasm"), []byte(wasm), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wasm_exec.js"), []byte("// wasm_exec"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(WasmEnv, filepath.Join(dir, "seat.wasm"))
	return &Seat{}
}

// TestBuildHash: the build hash the page shows (GET /build) is the hash
// of the page's files exactly as the server serves them, each fetched
// over HTTP and hashed here as docs/phones.md says (context, then per
// file by name: u16 name length, name, u64 length, bytes); every file
// index.html loads is one of them, and the server serves no other file;
// one byte more in the WebAssembly changes it.
func TestBuildHash(t *testing.T) {
	seat := fakeSeat(t, "\x00asm one")
	srv, err := Listen("127.0.0.1:0", NewHub(Config{}), seat, "", "")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve()
	defer srv.Close()
	get := func(p string) (int, []byte) {
		t.Helper()
		resp, err := http.Get("http://" + srv.Addr() + "/" + p)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, b
	}
	names := pageFiles()
	h := sha256.New()
	h.Write([]byte("masque phone page v1\x00"))
	for _, name := range names {
		code, b := get(name)
		if code != http.StatusOK {
			t.Fatalf("GET /%s: %d", name, code)
		}
		h.Write(binary.BigEndian.AppendUint16(nil, uint16(len(name))))
		h.Write([]byte(name))
		h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(b))))
		h.Write(b)
	}
	want := hex.EncodeToString(h.Sum(nil))
	code, shown := get("build")
	if code != http.StatusOK || strings.TrimSpace(string(shown)) != want {
		t.Fatalf("GET /build: %d %q, want the hash of the files as served, %s", code, shown, want)
	}
	if got, err := seat.BuildHash(); err != nil || got != want {
		t.Fatalf("BuildHash: %s %v, want %s", got, err, want)
	}
	if ShortHash(want) != want[:16] || ShortHash("not built") != "not built" {
		t.Errorf("ShortHash: %q", ShortHash(want))
	}
	_, index := get("")
	for _, m := range regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(string(index), -1) {
		if !slices.Contains(names, m[1]) {
			t.Errorf("index.html loads %s, which the build hash does not cover", m[1])
		}
	}
	for _, p := range []string{"other.js", "static/phone.js", "../seat.go", "embedded/README"} {
		if code, _ := get(p); code != http.StatusNotFound {
			t.Errorf("GET /%s: %d, want 404 (not a file of the page)", p, code)
		}
	}
	if other, err := fakeSeat(t, "\x00asm one!").BuildHash(); err != nil || other == want {
		t.Errorf("another seat's hash: %s %v, want another than %s", other, err, want)
	}
}
