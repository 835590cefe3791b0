package p2p

import (
	"context"
	"crypto/ed25519"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/p2p/store"
)

// mascaradeTable turns the peers' signed test roster into a Mascarade
// roster (options and card keys), re-signed, and returns the seats' card
// keys. With dealt, the deal is fixed (no coin entries).
func mascaradeTable(t *testing.T, ps []*tpeer, dealt bool) (store.Table, []table.SeatSecrets) {
	t.Helper()
	tb := signedTable(t, ps)
	var names []string
	for i := range ps {
		names = append(names, tb.Roster.Seats[i].Name)
	}
	gameOpts, err := mascarade.Options{Players: names}.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	o := table.Options{Game: gameOpts}
	if dealt {
		deck, err := mascarade.Game{}.Deck(gameOpts)
		if err != nil {
			t.Fatal(err)
		}
		o.Deal = deck
	}
	opts, _ := o.MarshalBinary()
	tb.Roster.Game, tb.Roster.Options = mascarade.GameName, opts
	secrets := make([]table.SeatSecrets, len(ps))
	for i := range ps {
		secrets[i] = table.GenerateSeatSecrets()
		tb.Roster.Seats[i].Keys = secrets[i].PublicKeys(tb.Roster.TableID, i, tb.Roster.Seats[i].PeerID)
	}
	gid, err := tb.Roster.GameID()
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		copy(tb.Sigs[i][:], ed25519.Sign(p.id.SigningKey(), ledger.RosterSigningBytes(gid)))
	}
	return tb, secrets
}

// firstMoveAuthor authors a seat's entries: automatic ones as the table
// says, moves by taking the first legal move (really swapping when a move
// swaps). tamper, if set, may change a move's body before it is sent.
func firstMoveAuthor(rep *table.Table, player *table.Player, tamper func(*table.Body)) Author {
	return func(ctx context.Context, pos uint64) ([]byte, error) {
		if b, ok, err := player.AutoBody(rep); ok || err != nil {
			if err != nil {
				return nil, err
			}
			return b.MarshalBinary()
		}
		s := rep.Rules().(*mascarade.State)
		seat, _, _ := rep.Expect()
		m := s.LegalMoves(seat)[0]
		var bits []bool
		if mascarade.HasSecretSwap(s, m) {
			bits = []bool{true}
		}
		b, err := player.MoveBody(rep, m, bits)
		if err != nil {
			return nil, err
		}
		if tamper != nil {
			tamper(b)
		}
		return b.MarshalBinary()
	}
}

func engineMove(seat engine.Seat, kind uint8) engine.Move {
	return engine.Move{Seat: seat, Kind: kind}
}
