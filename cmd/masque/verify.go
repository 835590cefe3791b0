package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/masque-games/masque/cmd/masque/internal/termsafe"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/table"
)

type verifyResult struct {
	Valid   bool           `json:"valid"`
	Game    string         `json:"game,omitempty"`
	Entries int            `json:"entries"`
	Fault   *verifyFault   `json:"fault,omitempty"`
	Final   *games.Summary `json:"final,omitempty"`
	Done    bool           `json:"complete"`
	// Deal says how the cards were dealt (see dealSource): "coins",
	// "shuffle" or "fixed"; empty when the roster's options do not decode.
	Deal string `json:"deal_source,omitempty"`
	// FixedDeal: the deal was written in the roster's options (a scripted
	// table), not drawn: whoever wrote the roster chose every card.
	FixedDeal bool `json:"fixed_deal"`
	// Damaged says why a file is not a whole transcript ("" when it is;
	// Entries is then 0: none was verified).
	Damaged string `json:"damaged,omitempty"`
	// Readable and Announced: of a damaged file's entries, how many
	// decoded before the one that did not, and how many the file
	// announces (omitted when the fault is before the entries).
	Readable  *int `json:"readable_entries,omitempty"`
	Announced *int `json:"announced_entries,omitempty"`
	// Verdict is the signed verdict that stopped the table, kept beside
	// the transcript (TRANSCRIPT.verdict) and checked against it.
	Verdict *verifyVerdict `json:"verdict,omitempty"`
}

// damagedTranscript is the error, the same for verify and replay, of a
// file at path that does not decode as a transcript (err, from
// ledger.UnmarshalTranscript): it says why, and how many entries were
// readable; res gets the same facts for --json.
func damagedTranscript(path string, data []byte, err error, res *verifyResult) error {
	if len(data) == 0 {
		e := emptyFileError{path: path}
		if res != nil {
			res.Damaged = e.why()
		}
		return e
	}
	why := strings.TrimPrefix(err.Error(), "transcript: ")
	var ee *ledger.EntryError
	if errors.As(err, &ee) {
		why = fmt.Sprintf("entry %d of the %d it announces is %v; the %d %s before it %s readable",
			ee.Index, ee.Count, ee.Err, ee.Index, plural(ee.Index, "entry", "entries"), plural(ee.Index, "is", "are"))
		if errors.Is(ee.Err, ledger.ErrTruncated) {
			why = fmt.Sprintf("it ends inside entry %d of the %d it announces (the file was cut short); the %d %s before it %s readable",
				ee.Index, ee.Count, ee.Index, plural(ee.Index, "entry", "entries"), plural(ee.Index, "is", "are"))
		}
		if res != nil {
			res.Readable, res.Announced = &ee.Index, &ee.Count
		}
	}
	if res != nil {
		res.Damaged = why
	}
	return fmt.Errorf("%s is not a whole transcript (%w): %s", path, errDamaged, why)
}

// emptyFileError is an empty transcript file: a game played on the
// screen or a page names its file at the start (the page prints "check
// it: masque verify FILE") and writes it when its player leaves. It is
// exitDamaged's (errors.Is errDamaged), but not worded as damage.
type emptyFileError struct{ path string }

func (e emptyFileError) why() string {
	return "the file is empty: a game writes its transcript there when its player leaves the table (q on the screen, Leave on the page); run this again after that"
}

func (e emptyFileError) Error() string { return e.path + " is not a transcript yet: " + e.why() }

// Is makes an empty file exitDamaged's.
func (e emptyFileError) Is(target error) bool { return target == errDamaged }

// The ways a table deals, as verify and replay report them.
const (
	dealCoins   = "coins"   // a public deal drawn from every seat's committed coins
	dealShuffle = "shuffle" // dealt face down after every seat shuffled the deck
	dealFixed   = "fixed"   // written in the roster's options: not drawn at all
)

// dealSource says how tr's table deals: fixed in its roster's options
// (scripted tables), face down after every seat's shuffle, or from the
// seats' coins. It is "" when the options do not decode (table.New then
// refuses the transcript anyway).
func dealSource(tr *ledger.Transcript, g games.Game) string {
	game := g.Table()
	o, err := table.UnmarshalOptions(tr.Roster.Options)
	if err != nil {
		return ""
	}
	// The one rule (games.DealFixed): the table's fixed deal, or a game
	// whose own options fix it (games.Rules.FixedDeal).
	if games.DealFixed(g, o) != "" || o.Deal != nil {
		return dealFixed
	}
	if hd, ok := game.(table.HiddenDealer); ok && hd.HiddenDeal() {
		return dealShuffle
	}
	// A game that opens with its own effects deals by them (shuffles).
	if op, ok := game.(table.Opener); ok && op.Opens() {
		return dealShuffle
	}
	return dealCoins
}

// fixedDealWarning is what verify and replay print for a fixed deal.
const fixedDealWarning = "warning: the deal was FIXED in the roster's options (a scripted table), not drawn from the players' coins: " +
	"whoever wrote the roster chose every card. Tables played over the network never fix the deal; do not take this game as a fair one."

type verifyFault struct {
	Pos    uint64 `json:"position"`
	Seat   int    `json:"seat"`
	Name   string `json:"name"`
	Reason string `json:"reason"`
	Detail string `json:"detail"`
	// Roster: the roster is refused, not an entry (position is 0).
	Roster bool `json:"roster,omitempty"`
}

func newVerifyCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "verify FILE",
		Short: "Audit a transcript: signatures, hash chain, every proof and rule",
		Long: `Replay a transcript from scratch and check everything: the roster every seat
signed, every card key's proof of knowledge, then each entry's position, hash
chain, signature, every swap proof and decryption share, and every rule.

Exit status 0: every entry is valid (the final result is printed). If the
deal was fixed in the roster's options (scripted tables: 'masque script')
rather than drawn from the players' coins, a warning says so: whoever
wrote the roster chose the cards. --json reports it as "deal_source": "fixed"
and "fixed_deal": true ("coins" or "shuffle" otherwise).
Exit status 1: the first fault is named with its position and the seat to blame.
Exit status 3: the file cannot be read, is not a transcript or is damaged
(truncated, or an entry that no roster key signed: a flipped bit looks like
that, and so does a forgery; nobody is blamed).
Exit status 2: a usage error.

` + a.gamesList(),
		Example: `  masque verify game.masque
  masque verify --json game.masque`,
		Args:              exactArgs(1),
		ValidArgsFunction: completeTranscripts,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runVerify(a, args[0], asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the verdict as JSON")
	return cmd
}

func runVerify(a *app, path string, asJSON bool) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return &exitError{code: exitDamaged, err: err, hint: "masque verify reads a transcript written by 'masque script --transcript', 'masque demo' or a game"}
	}
	tr, err := ledger.UnmarshalTranscript(data)
	if err != nil {
		var res verifyResult
		fault := damagedTranscript(path, data, err, &res)
		return scriptHint(reportVerify(a, res, asJSON, fault), path, data)
	}
	res, t, fault := auditTranscript(a.list, tr)
	if fault == nil {
		res.Verdict = stoppedBy(a, path, tr, t)
	}
	return reportVerify(a, res, asJSON, fault)
}

// stoppedBy reads and checks the verdict kept beside the transcript at
// path, replayed into t: nil when there is none, or when it does not
// check (a warning says why; the transcript is reported without it).
func stoppedBy(a *app, path string, tr *ledger.Transcript, t *table.Table) *verifyVerdict {
	v, err := readVerdictFile(path)
	if err == nil && v != nil {
		var vv *verifyVerdict
		if vv, err = checkVerdict(tr, t, v); err == nil {
			return vv
		}
	}
	if err != nil {
		fmt.Fprintf(a.stderr, "warning: %s ignored: %v\n", path+verdictSuffix, termsafe.String(err.Error()))
	}
	return nil
}

// verifyTranscript replays tr from scratch with the game its roster names
// (the check behind 'masque verify' and 'masque demo'). fault is non-nil
// when the transcript is rejected; for a bad entry it names the position,
// the seat and the reason, which res.Fault also holds.
func verifyTranscript(list []games.Game, tr *ledger.Transcript) (res verifyResult, fault error) {
	res, _, fault = auditTranscript(list, tr)
	return res, fault
}

// auditTranscript is verifyTranscript, which also returns the replayed
// table when the transcript is valid.
func auditTranscript(list []games.Game, tr *ledger.Transcript) (res verifyResult, t *table.Table, fault error) {
	res.Game, res.Entries = tr.Roster.Game, len(tr.Entries)
	g, err := games.Lookup(list, tr.Roster.Game)
	if err != nil {
		return res, nil, err
	}
	res.Deal = dealSource(tr, g)
	res.FixedDeal = res.Deal == dealFixed
	t, err = table.Replay(tr, g.Table())
	var f *table.Fault
	if errors.As(err, &f) {
		name := "?"
		if f.Seat >= 0 && f.Seat < len(tr.Roster.Seats) {
			name = tr.Roster.Seats[f.Seat].Name
		}
		res.Fault = &verifyFault{Pos: f.Pos, Seat: f.Seat, Name: name, Reason: f.Reason, Detail: err.Error(), Roster: f.Roster}
		if f.Roster {
			return res, nil, fmt.Errorf("the roster, seat %d (%s): %s: %w", f.Seat, name, f.Reason, f.Err)
		}
		if unattributable(f) {
			return res, nil, fmt.Errorf("entry %d claims seat %d (%s) as its author, but no roster key signed it: %w, or the entry was forged; %s is not to blame (%s)",
				f.Pos, f.Seat, name, errDamaged, name, f.Reason)
		}
		return res, nil, fmt.Errorf("entry %d by seat %d (%s): %s", f.Pos, f.Seat, name, f.Reason)
	}
	if err != nil {
		return res, nil, err
	}
	res.Valid = true
	finalResult(&res, g, t)
	return res, t, nil
}

// replicaResult is the verifyResult of a table's replica after a network
// game: its seat applied every entry of tr through t (signatures, proofs
// and rules checked once, as they came), so the transcript is not replayed
// a second time.
func replicaResult(list []games.Game, tr *ledger.Transcript, t *table.Table) verifyResult {
	res := verifyResult{Game: tr.Roster.Game, Entries: len(tr.Entries), Valid: true}
	g, err := games.Lookup(list, tr.Roster.Game)
	if err == nil {
		res.Deal = dealSource(tr, g)
		res.FixedDeal = res.Deal == dealFixed
	}
	finalResult(&res, g, t)
	return res
}

// finalResult fills in whether the game on t (of game g, nil if this
// masque does not know it) is over and its summary.
func finalResult(res *verifyResult, g games.Game, t *table.Table) {
	res.Done = t.Phase() == table.PhaseDone
	if g == nil {
		return
	}
	if sum, ok := g.Summarize(t.Rules()); ok {
		res.Final = &sum
	}
}

// unattributable reports whether f names no seat that signed the entry: a
// signature no roster key made (a damaged file or a forgery), or a seat
// the roster does not have.
func unattributable(f *table.Fault) bool {
	return f.Reason == "bad-signature" || f.Reason == "unknown-seat"
}

// faultCode is the exit status of a rejected transcript.
func faultCode(fault error) int {
	if errors.Is(fault, errDamaged) {
		return exitDamaged
	}
	return exitFault
}

func reportVerify(a *app, res verifyResult, asJSON bool, fault error) error {
	if asJSON {
		if err := json.NewEncoder(a.stdout).Encode(res); err != nil {
			return err
		}
		if fault != nil {
			return &exitError{code: faultCode(fault), err: fault}
		}
		return verdictExit(res.Verdict)
	}
	if fault != nil {
		if errors.Is(fault, errDamaged) && res.Damaged != "" {
			return &exitError{code: faultCode(fault), err: fault} // worded as replay words it
		}
		return &exitError{code: faultCode(fault), err: fmt.Errorf("transcript rejected: %w", fault)}
	}
	fmt.Fprintf(a.stdout, "valid: %d entries of %s, every signature, proof and rule checked\n", res.Entries, termsafe.String(res.Game))
	if res.FixedDeal {
		fmt.Fprintln(a.stdout, fixedDealWarning)
	}
	if res.Verdict != nil {
		fmt.Fprintln(a.stdout, termsafe.String(verdictText(res.Verdict)))
	} else if !res.Done {
		fmt.Fprintln(a.stdout, "note: the game is not finished in this transcript")
	}
	if res.Final != nil {
		st := res.Final
		if st.Over {
			fmt.Fprintln(a.stdout, finishedLine(*st))
		} else {
			fmt.Fprintf(a.stdout, "%s: the game goes on\n", st.Head)
		}
		fmt.Fprintln(a.stdout, tallyLine(*st))
	}
	return verdictExit(res.Verdict)
}

// verdictExit is verify's exit for a transcript whose table a checked
// verdict stopped: status 1, naming the seat.
func verdictExit(v *verifyVerdict) error {
	if v == nil {
		return nil
	}
	return &exitError{code: exitFault, err: fmt.Errorf("the table stopped: %s: seat %d (%s) at entry %d, declared by seat %d (%s)",
		v.Kind, v.Seat, termsafe.String(v.Name), v.Pos, v.Declarer, termsafe.String(v.DeclarerName))}
}

// scriptHint adds, to the error of a file that is not a transcript, a hint
// when the file is a script: it must be played before it can be checked.
func scriptHint(err error, path string, data []byte) error {
	var ee *exitError
	if !errors.As(err, &ee) || scriptGame(data) == "" {
		return err
	}
	ee.hint = fmt.Sprintf("%s is a script, not a transcript: play it first with 'masque script %s --transcript game.masque', then check game.masque", path, path)
	return err
}

// plural picks the word for n things: one or many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// tallyLine is a summary's tally for people: its words, or each player's
// count by name ("roses: Anna 3, Boris 5").
func tallyLine(st games.Summary) string {
	if st.Tally != "" {
		return termsafe.String(st.Tally)
	}
	scores := slices.Clone(st.Scores)
	slices.SortFunc(scores, func(x, y games.Score) int { return strings.Compare(x.Name, y.Name) })
	var parts []string
	for _, sc := range scores {
		parts = append(parts, fmt.Sprintf("%s %d", termsafe.String(sc.Name), sc.Value))
	}
	return fmt.Sprintf("%s: %s", st.Unit, strings.Join(parts, ", "))
}

// finishedLine is the line that says a finished game's result: its
// headline, then who won ("Mascarade, over after turn 18, no coins in
// the court. Won by Boris.").
func finishedLine(sum games.Summary) string {
	return termsafe.String(sum.Ending())
}
