package main

import (
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// A seat restarted with the same command listens where it listened the
// first time, even when its --listen asked for any port (tcp/0): the
// others (and the invite) know that port. The playtest: a host started
// with --listen /ip4/127.0.0.1/tcp/0, killed and restarted, came back on
// a new port; the joiner kept dialling the invite's for the rest of the
// game ("Hana is not connected") and the host a joiner's old one.
func TestRestartListensOnRememberedPortDespiteListenAnyPort(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	dir := t.TempDir()
	was := "/ip4/127.0.0.1/tcp/" + strconv.Itoa(port)
	if err := os.WriteFile(filepath.Join(dir, listenFile), []byte(was+"\n/ip4/127.0.0.1/udp/1/quic-v1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := &netRun{o: netOptions{listen: []string{"/ip4/127.0.0.1/tcp/0"}}, config: t.TempDir()}
	p, err := r.startPeer(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var got []string
	for _, a := range p.Node.Host().Network().ListenAddresses() {
		got = append(got, a.String())
	}
	if !slices.Equal(got, []string{was}) {
		t.Errorf("restarted with --listen /ip4/127.0.0.1/tcp/0, listens on %v; want %s, where it listened before", got, was)
	}
}

// rememberedListen keeps a fixed --listen port, takes the remembered
// address for a port-0 one of the same IP and transport, and keeps a
// port-0 one nothing was remembered for.
func TestRememberedListen(t *testing.T) {
	remembered := []string{"/ip4/127.0.0.1/tcp/4100", "/ip4/127.0.0.1/udp/4100/quic-v1", "/ip4/0.0.0.0/tcp/4200"}
	for _, tc := range []struct {
		name         string
		listen, want []string
	}{
		{"no --listen", nil, remembered},
		{"any ports", []string{"/ip4/127.0.0.1/tcp/0", "/ip4/127.0.0.1/udp/0/quic-v1"}, []string{"/ip4/127.0.0.1/tcp/4100", "/ip4/127.0.0.1/udp/4100/quic-v1"}},
		{"a fixed port stays", []string{"/ip4/127.0.0.1/tcp/5000"}, []string{"/ip4/127.0.0.1/tcp/5000"}},
		{"another IP", []string{"/ip4/10.0.0.1/tcp/0"}, []string{"/ip4/10.0.0.1/tcp/0"}},
		{"another transport", []string{"/ip4/0.0.0.0/udp/0/quic-v1"}, []string{"/ip4/0.0.0.0/udp/0/quic-v1"}},
	} {
		if got := rememberedListen(tc.listen, remembered); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
