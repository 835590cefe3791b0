package netsession

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/p2p/directory"
	"github.com/masque-games/masque/p2p/lobby"
)

func loopbackHost(t *testing.T) host.Host {
	t.Helper()
	h, err := libp2p.New(libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"), libp2p.DisableRelay(), libp2p.DisableMetrics())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// TestTableInPlayStaysListed: once seated, a host's table leaves the
// directory's open list (it cannot be joined) and is listed in play under
// the same code, with the roster's seats and names, for spectators, until
// the host's peer closes.
func TestTableInPlayStaysListed(t *testing.T) {
	relayHost, browser := loopbackHost(t), loopbackHost(t)
	directory.NewServer(directory.Limits{PeerBurst: 100}).Attach(relayHost)
	relay := peer.AddrInfo{ID: relayHost.ID(), Addrs: relayHost.Addrs()}
	hostPeer, joiner := testPeer(t), testPeer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	codes := make(chan string, 4)
	hostDone := make(chan error, 1)
	go func() {
		_, err := hostPeer.Host(ctx, HostConfig{Table: "spectated", Player: "alice", Players: 2, Keys: table.GenerateSeatSecrets(),
			Directory:   []peer.AddrInfo{relay},
			OnDirectory: func(_ peer.ID, code string, err error) { codes <- code }})
		hostDone <- err
	}()
	code := <-codes
	if _, err := joiner.Join(ctx, JoinConfig{Creator: peerInfo(hostPeer), Player: "bob", Keys: table.GenerateSeatSecrets()}); err != nil {
		t.Fatalf("join: %v", err)
	}
	if err := <-hostDone; err != nil {
		t.Fatalf("host: %v", err)
	}
	var playing []lobby.Table
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		var err error
		if playing, err = directory.ListPlaying(ctx, browser, relay, code); err != nil {
			t.Fatalf("list in play: %v", err)
		}
		if len(playing) > 0 {
			break
		}
	}
	if len(playing) != 1 {
		t.Fatalf("the table in play is not listed by its code %s: %+v", code, playing)
	}
	got := playing[0]
	if !got.Playing || got.Peer != hostPeer.ID.PeerID() || got.Taken != 2 || got.Total != 2 ||
		!slices.Equal(got.Players, []string{"alice", "bob"}) || got.Name != "spectated" {
		t.Errorf("listed in play: %+v", got)
	}
	if open, err := directory.List(ctx, browser, relay, ""); err != nil || len(open) != 0 {
		t.Errorf("open tables once seated: %+v, %v", open, err)
	}
	hostPeer.Close()
	if left, err := directory.ListPlaying(ctx, browser, relay, ""); err != nil || len(left) != 0 {
		t.Errorf("in play after the host closed: %+v, %v", left, err)
	}
}
