// Package masquerade is the common machinery of the Mascarade family of
// games (engine/mascarade, 1st edition, and engine/mascarade2, 2nd
// edition): the pieces whose logic is the same in every edition, so that
// each game keeps only its own rules.
//
// It holds only the rules both games share. What it offers:
//
//   - the rules core ([Core]): purses, court, bank, the turn, the claim
//     with its challenge window, reveals, the resolution of the owners
//     (the power itself through a game's [Rules] hook) and the fines
//     after it, the Inquisitor/Guru question, the Spy's decision, the end
//     of the game and the core's canonical encoding ([AppendCore]); each
//     game keeps a Core in an unexported field of its State (forwarding
//     the Core's read-only accessors, never its fields) and keeps its
//     table (slots, guards, chairs), its powers and its turn restrictions;
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
// Subpackage track is a bot's knowledge of where the cards are, the
// choices every bot makes the same way, and the edition bots' adapter to
// the game contract ([track.Player]).
//
// The games import this package; it imports neither game, and neither game
// imports the other.
package masquerade
