package main

import (
	"context"
	crand "crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	peer2 "github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/masque-games/masque/cmd/masque/internal/netsession"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/p2p"
	"github.com/masque-games/masque/p2p/identity"
)

// TestVerifyReplayReportFixedDeal performs the host-chooses-the-deal
// attack on the audit side: a transcript whose roster fixes the deal (as
// a host that wrote one could), in the table options (Mascarade) or in
// the game's own options (Mafia's roles, a Grimm round's cards), was
// reported "valid" with nothing said about the deal. verify and replay
// must now say plainly, in text and JSON, that the deal was fixed rather
// than drawn; and say nothing of the kind for a drawn deal, in every game.
func TestVerifyReplayReportFixedDeal(t *testing.T) {
	played := func(g games.Rules, src, file string) string {
		t.Helper()
		lt, err := localplay.Run(g, []byte(src), nil, true)
		if err != nil {
			t.Fatal(err)
		}
		return saveTranscript(t, lt.Transcript(), file)
	}
	mafiaFixed, err := os.ReadFile("../../engine/mafia/testdata/game-5.txt")
	if err != nil {
		t.Fatal(err)
	}
	fixed := scriptTranscript(t, replayScript, true)
	drawn := scriptTranscript(t, "game mascarade players=Anna,Boris,Sasha,Dima coins=1\nAnna swap Boris yes\n", true)
	for _, c := range []struct {
		name, path, source string
	}{
		{"fixed", fixed, "fixed"},
		{"coins", drawn, "coins"},
		{"mafia fixed", played(mafia.Game{}, string(mafiaFixed), "mafia.masque"), "fixed"},
		{"mafia shuffled", played(mafia.Game{}, "game mafia players=Anna,Boris,Clara,Dima\n", "mafia.masque"), "shuffle"},
		{"grimm fixed", played(grimm.Game{}, "game grimm players=Anna,Boris,Sasha\nround 1 chars=RedRidingHood,EvilQueen,Hansel\n", "grimm.masque"), "fixed"},
		{"grimm shuffled", played(grimm.Game{}, "game grimm players=Anna,Boris,Sasha\n", "grimm.masque"), "shuffle"},
	} {
		t.Run(c.name, func(t *testing.T) {
			isFixed := c.source == "fixed"
			code, out, errOut := runCmd(t, "verify", c.path)
			if code != 0 {
				t.Fatalf("verify: exit %d: %s", code, errOut)
			}
			if got := strings.Contains(out, "deal was FIXED"); got != isFixed {
				t.Errorf("verify text mentions a fixed deal: %v, want %v\n%s", got, isFixed, out)
			}
			code, out, errOut = runCmd(t, "verify", "--json", c.path)
			var vr struct {
				Source string `json:"deal_source"`
				Fixed  *bool  `json:"fixed_deal"`
			}
			if code != 0 || json.Unmarshal([]byte(out), &vr) != nil {
				t.Fatalf("verify --json: exit %d: %s%s", code, out, errOut)
			}
			if vr.Source != c.source || vr.Fixed == nil || *vr.Fixed != isFixed {
				t.Errorf("verify --json: deal_source %q fixed_deal %v, want %q %v", vr.Source, vr.Fixed, c.source, isFixed)
			}
			code, out, errOut = runCmd(t, "replay", c.path)
			if code != 0 {
				t.Fatalf("replay: exit %d: %s", code, errOut)
			}
			if got := strings.Contains(out, "deal was FIXED"); got != isFixed {
				t.Errorf("replay text mentions a fixed deal: %v, want %v\n%s", got, isFixed, out)
			}
			code, out, errOut = runCmd(t, "replay", "--json", c.path)
			vr.Source, vr.Fixed = "", nil
			if code != 0 || json.Unmarshal([]byte(out), &vr) != nil {
				t.Fatalf("replay --json: exit %d: %s%s", code, out, errOut)
			}
			if vr.Source != c.source || vr.Fixed == nil || *vr.Fixed != isFixed {
				t.Errorf("replay --json: deal_source %q fixed_deal %v, want %q %v", vr.Source, vr.Fixed, c.source, isFixed)
			}
		})
	}
}

// gameFixedDealOptions are table options of game (mafia or grimm) for
// names whose game options fix the deal: every role in the host's order,
// or round 1's characters.
func gameFixedDealOptions(t *testing.T, game string, names []string) []byte {
	t.Helper()
	var enc []byte
	var err error
	switch game {
	case mafia.GameName:
		var roles []engine.Card
		if roles, err = mafia.RoleDeck(len(names), nil); err == nil {
			enc, err = (mafia.Options{Players: names, NoIncidents: true, Fixed: &mafia.Fixed{Roles: roles}}).MarshalBinary()
		}
	case grimm.GameName:
		o := grimm.Options{Players: names}
		o.Fixed[0] = &grimm.FixedRound{Chars: grimm.Characters(), First: -1}
		enc, err = o.MarshalBinary()
	}
	if err == nil {
		enc, err = (&table.Options{Game: enc, PublishKeys: true}).MarshalBinary()
	}
	if err != nil {
		t.Fatal(err)
	}
	return enc
}

// TestJoinScreenRefusesFixedDeal performs the fixed-deal attack on 'masque
// join' itself: a host (a modified masque) offers a Mafia roster whose
// options lay every role face up in its order, or a Grimm roster fixing a
// round's characters. The join screen used to say nothing and sign; it
// must now refuse, unsigned, and say that the host tried to choose the
// cards.
func TestJoinScreenRefusesFixedDeal(t *testing.T) {
	for _, c := range []struct {
		game  string
		seats int
	}{{grimm.GameName, 2}, {mafia.GameName, 4}} {
		t.Run(c.game, func(t *testing.T) {
			peer := func() *netsession.Peer {
				id, err := identity.Generate()
				if err != nil {
					t.Fatal(err)
				}
				p, err := netsession.NewPeerWithIdentity(id, []string{"/ip4/127.0.0.1/tcp/0"})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { p.Close() })
				return p
			}
			host := peer()
			var tableID [16]byte
			crand.Read(tableID[:])
			keys := table.GenerateSeatSecrets().PublicKeys(tableID, 0, []byte(host.ID.PeerID()))
			tbl, err := host.Node.CreateTable(p2p.TableConfig{ID: tableID, Game: c.game, Seats: c.seats, Name: "Mallory", CardKey: keys,
				OptionsFor: func(names []string) ([]byte, error) { return gameFixedDealOptions(t, c.game, names), nil },
				// As an honest host: a joiner by invite learns the table
				// id and its seat from the refusal of its first proof.
				ValidateSeat: func(seat int, si ledger.SeatInfo) error {
					_, err := table.VerifySeatKeys(tableID, seat, si)
					return err
				}})
			if err != nil {
				t.Fatal(err)
			}
			defer tbl.Close()
			// Generous: under a loaded machine seating four peers has
			// taken more than 30 s; the test ends when the victim's
			// join does, which takes a fraction of a second here.
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			// The sybils wait for the victim's signature until their
			// roster round gives up: they stop when the victim's join
			// has ended.
			sybilCtx, stopSybils := context.WithCancel(ctx)
			defer stopSybils()
			var wg sync.WaitGroup
			defer wg.Wait()
			wg.Go(func() { tbl.Seat(ctx) })
			invite := fmt.Sprintf("/ip4/127.0.0.1/tcp/%s/p2p/%s", tcpPort(t, host), host.ID.PeerID())
			dir := t.TempDir()
			out, errOut := &syncBuffer{}, &syncBuffer{}
			var code int
			wg.Go(func() {
				defer stopSybils()
				code = runContext(ctx, []string{"join", "--bot", invite, "--player", "Victim", "--timeout", "5s",
					"--config", filepath.Join(dir, "cfg"), "--state", filepath.Join(dir, "state"), "--listen", "/ip4/127.0.0.1/tcp/0"}, nil, out, errOut)
			})
			// The other seats, once the victim has seat 1: the host's
			// sybils, which sign whatever it offers.
			if c.seats > 2 && pollFor(regexp.MustCompile(`(seated at)`), 20*time.Second, out.String) == "" {
				cancel()
				wg.Wait()
				t.Fatalf("the victim was not seated:\n%s%s", out.String(), errOut.String())
			}
			info := peer2.AddrInfo{ID: host.ID.PeerID(), Addrs: host.Node.Host().Addrs()}
			// The host gives seats in order and refuses, for good, a
			// join asking for another seat than the next: each sybil asks
			// once the one before has its seat (asked together, seat 3's
			// request could come first, and the table never filled).
			var before chan struct{}
			for i := 2; i < c.seats; i++ {
				p := peer()
				after, seated := before, make(chan struct{})
				var once sync.Once
				wg.Go(func() {
					if after != nil {
						select {
						case <-after:
						case <-sybilCtx.Done():
							return
						}
					}
					p.Node.Join(sybilCtx, p2p.JoinConfig{Creator: info, TableID: tableID, Name: fmt.Sprint("sybil", i), Seat: i,
						CardKey:    table.GenerateSeatSecrets().PublicKeys(tableID, i, []byte(p.ID.PeerID())),
						OnAccepted: func(int, int) { once.Do(func() { close(seated) }) }})
				})
				before = seated
			}
			wg.Wait()
			if e := errOut.String(); code != 1 || !strings.Contains(e, "fixes the deal") || !strings.Contains(e, "tried to choose the cards") ||
				!strings.Contains(e, "the "+c.game+" options fix it") {
				t.Errorf("join of a table whose %s options fix the deal: exit %d\n%s%s", c.game, code, out.String(), e)
			}
		})
	}
}

// tcpPort returns the loopback TCP port p listens on.
func tcpPort(t *testing.T, p *netsession.Peer) string {
	t.Helper()
	for _, a := range p.Node.Host().Addrs() {
		if ip, err := a.ValueForProtocol(ma.P_IP4); err != nil || ip != "127.0.0.1" {
			continue
		}
		if port, err := a.ValueForProtocol(ma.P_TCP); err == nil {
			return port
		}
	}
	t.Fatal("the host listens on no loopback TCP port")
	return ""
}
