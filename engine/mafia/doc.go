// Package mafia is the rules engine of Mafia "Random Incident" ("Мафия.
// Случайное происшествие") without a moderator: 4 to 18 players, special
// roles (Commissar, Nurse, Night Butterfly; Don, Madman) and incident
// cards (Misfire, Ricochet, Alibi, Evidence). docs/rules-mafia.md lists
// every rule and every decision the book leaves to its moderator;
// docs/mafia.md is the design the rules, the cryptography and the table
// share.
//
// Like every game's rules, [State] never sees a ciphertext: it asks the
// table for effects ([engine.Effect]) and learns facts. The deal
// ([State.Opening]) lays out the role cards, 5-component tuples
// ([Tuple]: role, team before and after the Madman joins, secret before
// and after), and the incident deck, has every seat shuffle them, lets
// each seat view its own role (components 0, 1 and 3) and incident card,
// and has every seat post its first-night tag (the mafia recognise each
// other). Each night from night 2 is one batch of effects: a ballot
// (EffectBallot) per power in play, the Commissar's check (EffectCheck)
// and the kill tallies (EffectTally); the rules then open only what the
// morning announces (the attacked players, whether each was saved or
// dated), ask the attacked to answer with incident cards (public moves
// proven by EffectProve), reveal the dead (EffectReveal of component 0,
// then EffectRetire), and go on to the day's public votes.
//
// Slots: seat p's role card is slot p; the incident cards are slots n to
// n+19 (n players), in the deck or a hand ([State.Pile], [State.Hand]).
//
// The fake table engine/mafia/mafiatest carries every effect out with
// plain values and keeps what each seat knows ([Knowledge]); scripts
// ([ParseScript]) and the bot (engine/mafia/bot) play on it. [Game]
// implements the games contract (engine/games); it is not registered
// until the table layer carries out the new effects.
package mafia
