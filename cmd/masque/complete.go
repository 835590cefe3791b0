package main

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/p2p/lobby"
)

// Shell completion ('masque completion bash|zsh|fish|powershell'): the
// values a flag or argument takes.

// completeGames completes --game with the games this masque plays.
func (a *app) completeGames(_ *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
	out := games.Names(a.list)
	slices.Sort(out)
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completeScenarios completes --scenario with the built-in setups of every
// game that takes one (SetupHelp.Choices), and files (a scenario
// FILE).
func (a *app) completeScenarios(_ *cobra.Command, _ []string, prefix string) ([]string, cobra.ShellCompDirective) {
	var out []string
	for _, g := range games.WithSetup(a.list) {
		for _, n := range g.SetupHelp().Choices {
			if strings.HasPrefix(n, prefix) && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out, cobra.ShellCompDirectiveDefault
}

// completeTranscripts completes a transcript argument with .masque files.
func completeTranscripts(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return []string{"masque"}, cobra.ShellCompDirectiveFilterFileExt
}

// completionBrowse is how long join's completion listens for tables.
const completionBrowse = 1500 * time.Millisecond

// completeTables completes join's argument with the open tables' names
// heard on the LAN within completionBrowse.
func completeTables(cmd *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	ctx, cancel := context.WithTimeout(context.Background(), completionBrowse)
	defer cancel()
	ch, err := lobby.Browse(ctx, lobby.Options{Interval: completionBrowse})
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var tables []lobby.Table
	for s := range ch {
		if len(s) >= len(tables) {
			tables = s
		}
	}
	return openTableNames(tables, prefix), cobra.ShellCompDirectiveNoFileComp
}

// openTableNames lists the names of the open tables that start with prefix,
// sorted, once each, with the seats taken as the description.
func openTableNames(tables []lobby.Table, prefix string) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range tables {
		if t.Taken >= t.Total || seen[t.Name] || !strings.HasPrefix(t.Name, prefix) || strings.ContainsAny(t.Name, "\t\n") {
			continue
		}
		seen[t.Name] = true
		out = append(out, t.Name+"\t"+t.Game)
	}
	slices.Sort(out)
	return out
}
