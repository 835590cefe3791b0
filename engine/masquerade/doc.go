// Package masquerade is the common machinery of the Mascarade family of
// games (engine/mascarade, 1st edition, and engine/mascarade2, 2nd
// edition): the pieces whose logic is the same in every edition, so that
// each game keeps only its own rules.
//
// There is one Mascarade, built from an edition descriptor: the rules of
// both editions are written here once, and an edition package declares
// its [Edition] (data and a few hooks: [Spec]) and names its instances of
// the generic types. What it offers:
//
//   - the rules state of any edition ([State]): the table's geometry (the
//     1st edition's variants and guards, the 2nd edition's chairs), the
//     turn player's moves, the choices of the powers ([Choice]), the
//     legal moves, the script text of moves ([State.FormatMove],
//     [State.ParseMove]) and the state encoding; the powers that need no
//     choice are the edition's hooks ([Spec.Power], [Spec.Use], given a
//     [Work]);
//   - the game contract of any edition ([Game], [Setup], [Script]);
//   - the rules core ([Core]): purses, court, bank, the turn, the claim
//     with its challenge window, reveals, the resolution of the owners
//     (the power itself through the [Rules] hook) and the fines after it,
//     the Inquisitor/Guru question, the Spy's decision, the end of the
//     game and the core's canonical encoding ([AppendCore]); [State]
//     keeps it in an unexported field, forwarding the Core's read-only
//     accessors, never its fields;
//   - the script reading both games share for moves ([MoveLine],
//     [UseLine]);
//   - move kinds, the [Contender] of a claim, the rule identifiers both
//     games share and small rule-neutral helpers over purses ([Transfer],
//     [Richest], [Ending]);
//   - a [Catalogue] of cards: lookup, names, parsing and formatting of
//     card lists;
//   - script tokenising ([ParseLines]): comments, the header's KEY=VALUE
//     pairs ([HeaderPairs]), the SEAT VERB ARGS lines, [SplitKV] for move
//     arguments, and [ScriptError] naming a line;
//   - player-name checks ([ValidName], [SeatByName]);
//   - cryptobyte helpers for the canonical encodings ([AddBools],
//     [AddContenders], [OptionsCodec]);
//   - the omniscient oracle driver ([Oracle]) that plays a game's effects
//     against the true cards, and its script semantics ([Oracle.PlayLine]),
//     the same semantics on any table of the game contract ([LinePlayer],
//     which engine/games/localplay runs on the real stack);
//   - the public result every edition reports ([Summarize]).
//
// Subpackage track is a bot's knowledge of where the cards are and the
// family's bot ([track.Bot]), each edition giving it a table
// ([track.Taste]); subpackage scripttest is the editions' test harness.
//
// The games import this package; it imports neither game, and neither game
// imports the other.
package masquerade
