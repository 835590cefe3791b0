package mentalbench

import (
	"fmt"
	"sync"
	"testing"

	"github.com/masque-games/masque/mental"
)

// Mafia's night at 12 living seats (mental SPEC.md §9, docs/mafia.md §9):
// every seat posts 4 powered ballots over 12 targets and 1 mandatory
// check, and sends its share of every other seat's check encrypted to
// that seat. The same work as mental's BenchmarkMafiaNight, through the
// exported API only.

// Kinds: the seven roles, the two teams, the neutral secret.
const (
	civilian = iota
	commissar
	nurse
	butterfly
	mafioso
	don
	madman
	notMafia = 10
	mafia    = 11
	neutral  = 12
)

var (
	roleKinds  = []int{civilian, commissar, nurse, butterfly, mafioso, don, madman}
	nightRoles = []int{civilian, civilian, civilian, civilian, civilian, commissar, nurse, butterfly, mafioso, mafioso, don, madman}
	powers     = [][]int{{don, mafioso}, {madman}, {nurse}, {butterfly}}
)

type night struct {
	game    [32]byte
	sks     []*mental.SecretKey
	views   []*mental.SecretKey
	jk      *mental.JointKey
	cards   []mental.Card
	seen    []mental.Card
	sent    [][]*mental.EncryptedShare
	ballots [][]*mental.PowerBallot
	checks  []*mental.Check
	shares  []nightShare
}

type nightShare struct {
	from, to int
	es       *mental.EncryptedShare
}

var (
	nightOnce sync.Once
	nightFix  *night
	nightErr  error
)

// nightFixture deals the 12 tuples, makes every seat's view, ballots,
// check and encrypted shares once, decoded as a peer receives them.
func nightFixture(b *testing.B) *night {
	nightOnce.Do(func() { nightFix, nightErr = newNight() })
	if nightErr != nil {
		b.Fatal(nightErr)
	}
	return nightFix
}

func (n *night) ctx(seat int, pos uint64) mental.Context {
	return mental.Context{Table: n.game, Pos: pos, Seat: uint32(seat)}
}

func (n *night) seats() []uint32 {
	s := make([]uint32, len(nightRoles))
	for i := range s {
		s[i] = uint32(i)
	}
	return s
}

func (n *night) powerStatement(seat, p int) *mental.PowerStatement {
	return &mental.PowerStatement{Power: uint8(p), Roles: roleKinds, Holders: powers[p], Targets: n.seats(),
		X: n.jk.Keys[seat], Y: n.views[seat].Public(), Card: n.seen[seat], Comp: 0, Sent: n.sent[seat]}
}

func (n *night) checkStatement(seat int) *mental.CheckStatement {
	return &mental.CheckStatement{Holders: []int{commissar}, Mandatory: true, Roles: roleKinds,
		X: n.jk.Keys[seat], Y: n.views[seat].Public(), Card: n.seen[seat], Comp: 0, Sent: n.sent[seat],
		Targets: n.seats(), TargetCards: n.cards, TargetComp: 1, Neutral: notMafia}
}

func (n *night) choice(p, seat int) int {
	for _, h := range powers[p] {
		if nightRoles[seat] == h {
			return (seat + 1 + p) % len(nightRoles)
		}
	}
	return mental.NoVote
}

func (n *night) target(seat int) int {
	if nightRoles[seat] == commissar {
		return (seat + 3) % len(nightRoles)
	}
	return mental.NoVote
}

// prove makes seat's 4 ballots and check.
func (n *night) prove(seat int) ([]*mental.PowerBallot, *mental.Check, error) {
	var bs []*mental.PowerBallot
	for p := range powers {
		bl, err := mental.ProvePowerBallot(n.ctx(seat, uint64(10+p)), n.jk, n.sks[seat], n.views[seat], n.powerStatement(seat, p), n.choice(p, seat))
		if err != nil {
			return nil, nil, err
		}
		bs = append(bs, bl)
	}
	c, err := mental.ProveCheck(n.ctx(seat, 20), n.jk, n.sks[seat], n.views[seat], n.checkStatement(seat), n.target(seat))
	return bs, c, err
}

func newNight() (*night, error) {
	n := &night{game: [32]byte{'n', 'i', 'g', 'h', 't'}}
	var pks []*mental.PublicKey
	var kcs []mental.KeyContext
	for i := range nightRoles {
		sk := mental.GenerateKey()
		kc := mental.KeyContext{Seat: uint32(i), Identity: []byte{byte(i)}}
		n.sks, pks, kcs = append(n.sks, sk), append(pks, sk.ProvePublic(kc)), append(kcs, kc)
		n.views = append(n.views, mental.GenerateKey())
	}
	jk, err := mental.NewJointKey(pks, kcs)
	if err != nil {
		return nil, err
	}
	n.jk = jk
	gs := mental.GroupSecretComponent(n.game)
	neutralCt := mental.FaceUp(mental.CardPoint(neutral))[0]
	for i, r := range nightRoles {
		t1, t2, s3, s4 := notMafia, notMafia, neutralCt, neutralCt
		switch r {
		case mafioso, don:
			t1, t2, s3, s4 = mafia, mafia, gs, gs
		case madman:
			t2, s4 = mafia, gs
		}
		c, _ := jk.Remask(append(mental.FaceUp(mental.CardPoint(r), mental.CardPoint(t1), mental.CardPoint(t2)), s3, s4))
		n.cards = append(n.cards, c)
		sub, err := c.Select(0, 1, 3)
		if err != nil {
			return nil, err
		}
		n.seen = append(n.seen, sub)
		var sent []*mental.EncryptedShare
		for j, sk := range n.sks {
			if j != i {
				es, err := sk.EncryptShare(n.ctx(j, 1000+uint64(i)), sub, n.views[i].Public())
				if err != nil {
					return nil, err
				}
				sent = append(sent, es)
			}
		}
		n.sent = append(n.sent, sent)
	}
	for seat := range nightRoles {
		bs, c, err := n.prove(seat)
		if err != nil {
			return nil, fmt.Errorf("seat %d: %w", seat, err)
		}
		var decoded []*mental.PowerBallot
		for p, bl := range bs {
			enc, _ := bl.MarshalBinary()
			d, err := mental.UnmarshalPowerBallot(enc, n.powerStatement(seat, p), uint32(seat))
			if err != nil {
				return nil, err
			}
			decoded = append(decoded, d)
		}
		n.ballots = append(n.ballots, decoded)
		enc, _ := c.MarshalBinary()
		d, err := mental.UnmarshalCheck(enc, n.checkStatement(seat), uint32(seat))
		if err != nil {
			return nil, err
		}
		n.checks = append(n.checks, d)
	}
	for to := range nightRoles {
		for from := range nightRoles {
			if from == to {
				continue
			}
			es, err := n.sks[from].EncryptShare(n.ctx(from, 30+uint64(to)), n.checks[to].Q, n.views[to].Public())
			if err != nil {
				return nil, err
			}
			enc, _ := es.MarshalBinary()
			d, err := mental.UnmarshalEncryptedShare(enc)
			if err != nil {
				return nil, err
			}
			n.shares = append(n.shares, nightShare{from, to, d})
		}
	}
	return n, nil
}

func mafiaCases() []Case {
	return []Case{
		{Name: "mafia-night-12/prove-seat", PerOp: 1, Run: func(b *testing.B) {
			n := nightFixture(b)
			const seat = 10
			for b.Loop() {
				if _, _, err := n.prove(seat); err != nil {
					b.Fatal(err)
				}
				for to := range nightRoles {
					if to == seat {
						continue
					}
					if _, err := n.sks[seat].EncryptShare(n.ctx(seat, 30+uint64(to)), n.checks[to].Q, n.views[to].Public()); err != nil {
						b.Fatal(err)
					}
				}
			}
		}},
		{Name: "mafia-night-12/verify-batch", PerOp: 1, Run: func(b *testing.B) {
			n := nightFixture(b)
			for b.Loop() {
				var bt mental.Batch
				for seat := range nightRoles {
					for p := range powers {
						bt.AddPowerBallot("ballot", n.ctx(seat, uint64(10+p)), n.jk, n.powerStatement(seat, p), n.ballots[seat][p])
					}
					bt.AddCheck("check", n.ctx(seat, 20), n.jk, n.checkStatement(seat), n.checks[seat])
				}
				for _, s := range n.shares {
					bt.AddEncryptedShare("share", n.ctx(s.from, 30+uint64(s.to)), n.jk.Keys[s.from], n.views[s.to].Public(), n.checks[s.to].Q, s.es)
				}
				if err := bt.Verify(); err != nil {
					b.Fatal(err)
				}
			}
		}},
	}
}
