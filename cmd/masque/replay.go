package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/masque-games/masque/cmd/masque/internal/termsafe"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/seatview"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/mental"
	"github.com/masque-games/masque/p2p/chat"
)

type replayOptions struct {
	file   string
	reveal bool
	asJSON bool
	chat   string // the chat file (default: FILE.chat, if there is one)
	noChat bool
}

// replayResult is the --json output of 'masque replay'.
type replayResult struct {
	Game     string               `json:"game"`
	Players  []string             `json:"players"`
	Entries  int                  `json:"entries"`
	Keys     bool                 `json:"keys_published"`
	Revealed bool                 `json:"revealed"`
	Deal     []seatview.AuditCard `json:"deal"`
	// DealSource and FixedDeal are as in 'masque verify --json': a fixed
	// deal was chosen by whoever wrote the roster, not drawn.
	DealSource string               `json:"deal_source"`
	FixedDeal  bool                 `json:"fixed_deal"`
	Steps      []seatview.AuditStep `json:"steps"`
	Final      *games.Summary       `json:"final,omitempty"`
	Complete   bool                 `json:"complete"`
	// Chat is the table chat saved beside the transcript, its messages
	// each checked against its author's key in the roster.
	Chat []replayChat `json:"chat,omitempty"`
}

// replayChat is one message of the table chat.
type replayChat struct {
	Seat   int    `json:"seat"`
	Player string `json:"player"`
	Seq    uint32 `json:"seq"`
	Time   string `json:"time"` // RFC 3339, the author's clock
	Text   string `json:"text"`
}

func newReplayCmd(a *app) *cobra.Command {
	var o replayOptions
	cmd := &cobra.Command{
		Use:   "replay FILE",
		Short: "Narrate a game move by move from its transcript",
		Long: `Replay a transcript and tell the game move by move with public information
only: the face-up deal, every move, every reveal and what it changed.
Nothing the game hides can be told from the transcript ('masque help games'
says what each game hides). The game is read from the transcript's roster.

If the players published their keys at the end (tables do by default),
--reveal decrypts every hidden card at every step: who held which card
after every turn, what every private look showed, whether each hidden swap
was real or pretended, and each night's secret choices, opened from the
ballots ("secretly, Clara (Don) votes to kill Fedor"); whom a check was
about stays hidden (a check's proof keeps its target secret even from the
published keys), its answer is shown.
A networked table's chat, saved beside the transcript as FILE.chat, is
shown after the game (--chat names another file, --no-chat hides it):
each message is checked against its author's key in the roster, and one
that fails is named in a warning, not shown.
Every entry is checked on the way, as 'masque verify' does. A deal fixed
in the roster's options (scripted tables) instead of drawn from the
players' coins is announced by a warning ("deal_source": "fixed" and
"fixed_deal": true with --json): whoever wrote the roster chose the cards.

` + a.gamesList(),
		Example: `  masque replay game.masque
  masque replay game.masque --reveal
  masque replay game.masque --reveal --json`,
		Args:              exactArgs(1),
		ValidArgsFunction: completeTranscripts,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.file = args[0]
			return runReplay(a, o)
		},
	}
	cmd.Flags().BoolVar(&o.reveal, "reveal", false, "show every card at every step (needs the keys the players published)")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the game as JSON")
	cmd.Flags().StringVar(&o.chat, "chat", "", "the table chat's `FILE` (default: the transcript's path + .chat, if it exists)")
	cmd.Flags().BoolVar(&o.noChat, "no-chat", false, "do not show the table chat")
	return cmd
}

func runReplay(a *app, o replayOptions) error {
	data, err := os.ReadFile(o.file)
	if err != nil {
		return &exitError{code: exitDamaged, err: err, hint: "masque replay reads a transcript written by 'masque script --transcript', 'masque demo' or a game"}
	}
	tr, err := ledger.UnmarshalTranscript(data)
	if err != nil {
		return scriptHint(&exitError{code: exitDamaged, err: damagedTranscript(o.file, data, err, nil)}, o.file, data)
	}
	g, err := games.Lookup(a.list, tr.Roster.Game)
	if err != nil {
		return err
	}
	var key *mental.Scalar
	if o.reveal {
		if key, err = jointSecret(tr, g.Table()); err != nil {
			return err
		}
	}
	out := a.stdout
	if o.asJSON {
		out = io.Discard
	}
	res, err := replayTranscript(tr, g, key, out)
	if err != nil {
		return err
	}
	if !o.noChat {
		if res.Chat, err = readChat(tr, o, a.stderr); err != nil {
			return err
		}
		printChat(out, res.Chat)
	}
	if o.asJSON {
		return json.NewEncoder(a.stdout).Encode(res)
	}
	if !res.Complete {
		fmt.Fprintln(out, "note: the game is not finished in this transcript")
	}
	return nil
}

// jointSecret replays tr and returns the sum of the card keys every seat
// published at the end, which decrypts every card of the game.
func jointSecret(tr *ledger.Transcript, game table.Game) (*mental.Scalar, error) {
	t, err := table.Replay(tr, game)
	if err != nil {
		return nil, &exitError{code: 1, err: fmt.Errorf("transcript rejected: %w", err),
			hint: "masque verify FILE tells what is wrong with it"}
	}
	sum := mental.NewScalar()
	var missing []string
	for i, s := range tr.Roster.Seats {
		k := t.PublishedKey(i)
		if k == nil {
			missing = append(missing, s.Name)
			continue
		}
		x, err := mental.NewScalar().SetCanonicalBytes(k)
		if err != nil {
			return nil, fmt.Errorf("%s's published key: %w", s.Name, err)
		}
		sum.Add(sum, x)
	}
	if len(missing) > 0 {
		why := "the table did not publish the players' keys"
		if t.Phase() != table.PhaseDone {
			why = "the game did not reach its end, where the players publish their keys"
		}
		return nil, &exitError{code: 1,
			err:  fmt.Errorf("--reveal: no published key for %s: %s", strings.Join(missing, ", "), why),
			hint: "replay without --reveal to see the public game; keys are published when a finished table publishes them (the default; 'masque script --no-key-release' turns it off)"}
	}
	return sum, nil
}

// decrypter opens cards with the sum of every seat's secret key.
type decrypter struct {
	x   *mental.Scalar
	cat *mental.Catalogue
}

// Bit opens an exponential-ElGamal ballot entry under the joint key: 0
// or 1 (ok=false for any other value).
func (d decrypter) Bit(ct mental.Ciphertext) (int, bool) {
	m := mental.Identity().ScalarMult(d.x, ct.A)
	m.Subtract(ct.B, m)
	switch {
	case m.Equal(mental.Identity()) == 1:
		return 0, true
	case m.Equal(mental.Base()) == 1:
		return 1, true
	}
	return 0, false
}

// Card opens a card (-1: it opens to no card of the game).
func (d decrypter) Card(c mental.Card) engine.Card {
	if len(c) == 0 {
		return -1
	}
	m := mental.Identity().ScalarMult(d.x, c[0].A)
	m.Subtract(c[0].B, m)
	k, ok := d.cat.Kind(m)
	if !ok {
		return -1
	}
	return engine.Card(k)
}

// replayTranscript narrates tr to out (with every card shown when key is
// the joint secret) and returns the game as data. Every entry is checked.
func replayTranscript(tr *ledger.Transcript, g games.Game, key *mental.Scalar, out io.Writer) (*replayResult, error) {
	game := g.Table()
	if err := tr.VerifyRoster(); err != nil {
		return nil, &exitError{code: 1, err: fmt.Errorf("transcript rejected: %w", err)}
	}
	t, err := table.New(tr.Roster, game)
	if err != nil {
		return nil, &exitError{code: 1, err: fmt.Errorf("transcript rejected: %w", err)}
	}
	res := &replayResult{Game: tr.Roster.Game, Entries: len(tr.Entries), Revealed: key != nil, Steps: []seatview.AuditStep{},
		DealSource: dealSource(tr, g)}
	res.FixedDeal = res.DealSource == dealFixed
	for _, s := range tr.Roster.Seats {
		res.Players = append(res.Players, s.Name)
	}
	// Lines quote the roster's names, which whoever wrote the transcript
	// chose: control characters are escaped.
	say := func(format string, args ...any) { fmt.Fprintln(out, termsafe.String(fmt.Sprintf(format, args...))) }
	head := fmt.Sprintf("replay of a game of %s: %s (%d entries)", g.Title(), games.ListAnd(res.Players, "nobody"), len(tr.Entries))
	say("%s", head)
	if res.FixedDeal {
		say("%s", fixedDealWarning)
	}
	if key != nil {
		say("every card shown, decrypted with the keys the players published at the end")
	}
	var open seatview.Opener
	if key != nil {
		open = decrypter{x: key, cat: t.Catalogue()}
	}
	au := g.Viewer().Auditor(open)
	lines, err := au.Start(t)
	if err != nil {
		return nil, err
	}
	for _, l := range lines {
		say("%s", l)
	}
	for _, e := range tr.Entries {
		if err := t.Apply(e); err != nil {
			var f *table.Fault
			if errors.As(err, &f) && unattributable(f) {
				return nil, &exitError{code: exitDamaged, err: fmt.Errorf("transcript rejected: entry %d claims seat %d, but no roster key signed it (%w, or the entry was forged; nobody is blamed)", e.Pos, f.Seat, errDamaged)}
			}
			return nil, &exitError{code: exitFault, err: fmt.Errorf("transcript rejected: %w", err),
				hint: "masque verify FILE names the fault and the seat to blame"}
		}
		lines, err := au.Entry(t, e)
		if err != nil {
			return nil, err
		}
		for _, l := range lines {
			say("%s", l)
		}
	}
	for _, l := range au.Finish(t) {
		say("%s", l)
	}
	res.Deal = au.Deal()
	if steps := au.Steps(); steps != nil {
		res.Steps = steps
	}
	return replayEnd(tr, t, g, res)
}

// replayEnd fills the end of a replay's result: the final summary,
// whether the game is complete and whether every key was published.
func replayEnd(tr *ledger.Transcript, t *table.Table, g games.Game, res *replayResult) (*replayResult, error) {
	if sum, ok := g.Summarize(t.Rules()); ok {
		res.Final = &sum
	}
	res.Complete = t.Phase() == table.PhaseDone
	for i := range tr.Roster.Seats {
		if t.PublishedKey(i) == nil {
			break
		}
		res.Keys = i == len(tr.Roster.Seats)-1
	}
	if res.Final == nil {
		return res, errors.New("the table never dealt")
	}
	return res, nil
}

// readChat reads and checks the table chat beside the transcript
// (o.chat, or o.file + ".chat" when it exists). A damaged file is an
// error; a message that does not verify is left out with a warning on
// stderr.
func readChat(tr *ledger.Transcript, o replayOptions, stderr io.Writer) ([]replayChat, error) {
	path := o.chat
	if path == "" {
		path = o.file + chatSuffix
		if _, err := os.Stat(path); err != nil {
			return nil, nil
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &exitError{code: exitDamaged, err: fmt.Errorf("chat: %w", err)}
	}
	f, err := chat.UnmarshalFile(data)
	if err != nil {
		return nil, &exitError{code: exitDamaged, err: fmt.Errorf("%s: %w", path, err), hint: "--no-chat replays the game without it"}
	}
	game, err := tr.Roster.GameID()
	if err != nil {
		return nil, err
	}
	if f.Game != game {
		return nil, &exitError{code: exitDamaged, err: fmt.Errorf("%s is the chat of another game", path), hint: "--no-chat replays the game without it"}
	}
	var keys [][]byte
	for _, s := range tr.Roster.Seats {
		keys = append(keys, s.SignKey)
	}
	good, verr := f.Verify(keys)
	if verr != nil {
		fmt.Fprintf(stderr, "warning: %s: messages left out: %v\n", path, termsafe.String(verr.Error()))
	}
	var out []replayChat
	for _, m := range good {
		out = append(out, replayChat{Seat: int(m.Seat), Player: tr.Roster.Seats[m.Seat].Name, Seq: m.Seq,
			Time: m.Time.UTC().Format(time.RFC3339), Text: m.Text})
	}
	return out, nil
}

// printChat lists the table chat after the game.
func printChat(w io.Writer, msgs []replayChat) {
	if len(msgs) == 0 {
		return
	}
	noun := "messages"
	if len(msgs) == 1 {
		noun = "message"
	}
	fmt.Fprintf(w, "\nTable chat (%d %s, each signed by its author):\n", len(msgs), noun)
	for _, m := range msgs {
		t, _ := time.Parse(time.RFC3339, m.Time)
		fmt.Fprintf(w, "  %s  %s: %s\n", t.Format("15:04:05"), termsafe.String(m.Player), termsafe.String(m.Text))
	}
}
