package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/registry"
	"github.com/masque-games/masque/p2p/lobby"
)

// Every command that plays, lists, audits or follows a game names every
// game of the registry in its help text (not only in its --game flag's
// help), with its title and its player counts (play said "Play
// Mascarade", and join named three games of four).
func TestEveryGameCommandsHelpNamesEveryGame(t *testing.T) {
	root := newRootCmd(newApp(nil, &bytes.Buffer{}, &bytes.Buffer{}))
	for _, name := range []string{"", "play", "host", "join", "lobby", "demo", "script", "verify", "replay", "watch", "games"} {
		c := root
		if name != "" {
			var err error
			if c, _, err = root.Find([]string{name}); err != nil || c.Name() != name {
				t.Fatalf("no command %q: %v", name, err)
			}
		}
		text := strings.Join(strings.Fields(c.Short+" "+c.Long), " ")
		for _, g := range registry.All() {
			lo, hi := g.Players()
			if !strings.Contains(text, g.Name()) || !strings.Contains(text, g.Title()) || !strings.Contains(text, fmt.Sprintf("%d to %d players", lo, hi)) {
				t.Errorf("masque %s's help does not name %s (%s, %d to %d players)", name, g.Name(), g.Title(), lo, hi)
			}
		}
		if strings.Contains(text, "Play Mascarade") {
			t.Errorf("masque %s's help says it plays Mascarade only", name)
		}
	}
}

// 'masque script --help' gives each game's script format, from the game.
func TestScriptHelpHasEveryGamesFormat(t *testing.T) {
	_, out, _ := runOut("script", "--help")
	flat := strings.Join(strings.Fields(out), " ")
	for _, g := range registry.All() {
		sc := games.AboutOf(g).Script
		if sc == "" {
			t.Errorf("%s has no script format", g.Name())
			continue
		}
		first := strings.Join(strings.Fields(strings.SplitN(sc, "\n", 2)[0]), " ")
		if !strings.Contains(flat, first) {
			t.Errorf("script --help lacks %s's format %q", g.Name(), first)
		}
	}
}

// 'masque help games' describes each game: its name and title, its
// player counts, what it is, what it hides and its options.
func TestHelpGamesDescribesEachGame(t *testing.T) {
	code, out, errOut := runOut("help", "games")
	if code != 0 {
		t.Fatalf("help games: exit %d: %s", code, errOut)
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, g := range registry.All() {
		lo, hi := g.Players()
		ab := games.AboutOf(g)
		for _, want := range []string{
			fmt.Sprintf("%s (--game %s), %d to %d players", g.Title(), g.Name(), lo, hi),
			strings.Join(strings.Fields(ab.Summary), " "),
			"Hidden: " + strings.Join(strings.Fields(ab.Hides), " "),
		} {
			if !strings.Contains(flat, want) {
				t.Errorf("help games lacks %q", want)
			}
		}
		if u := g.SetupHelp().Usage; u != "" && !strings.Contains(flat, strings.Join(strings.Fields(strings.ReplaceAll(u, "`", "")), " ")) {
			t.Errorf("help games lacks %s's options %q", g.Name(), u)
		}
	}
}

// 'masque games' piped is a header and one tab-separated line a game;
// --json the same games.
func TestGamesListPipedAndJSON(t *testing.T) {
	code, out, _ := runOut("games")
	if code != 0 {
		t.Fatalf("games: exit %d", code)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	all := registry.All()
	if len(lines) != len(all)+1 || lines[0] != "NAME\tGAME\tPLAYERS\tSCENARIOS" {
		t.Fatalf("games piped:\n%s", out)
	}
	for i, g := range all {
		cells := strings.Split(lines[i+1], "\t")
		lo, hi := g.Players()
		if len(cells) != 4 || cells[0] != g.Name() || cells[1] != g.Title() || cells[2] != fmt.Sprintf("%d-%d", lo, hi) {
			t.Errorf("games line %d: %q", i+1, cells)
		}
	}
	_, out, _ = runOut("games", "--json")
	var infos []gameInfo
	if err := json.Unmarshal([]byte(out), &infos); err != nil || len(infos) != len(all) || infos[0].Name != registry.Default || !infos[0].Default {
		t.Fatalf("games --json: %v\n%s", err, out)
	}
}

// --version (and -v) print what 'masque version' prints.
func TestVersionFlag(t *testing.T) {
	_, want, _ := runOut("version")
	if !strings.HasPrefix(want, "masque ") || !strings.Contains(want, fmt.Sprintf("table protocol v%d", lobby.Version)) {
		t.Fatalf("masque version: %q", want)
	}
	for _, flag := range []string{"--version", "-v"} {
		code, got, errOut := runOut(flag)
		if code != 0 || got != want {
			t.Errorf("masque %s: exit %d, %q (stderr %q), want %q", flag, code, got, errOut, want)
		}
	}
}

// The version comes from the build information: the module version of a
// 'go install ...@v1.2.3', else the VCS revision (+dirty), else "devel".
func TestVersionOfBuildInfo(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}}
	for _, c := range []struct {
		release string
		bi      *debug.BuildInfo
		want    string
	}{
		{"v9.9.9", &debug.BuildInfo{Main: debug.Module{Version: "v1.0.0"}}, "v9.9.9"},
		{"", nil, "devel"},
		{"", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: rev}, "v1.2.3"},
		{"", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: rev}, "devel-0123456789ab"},
		{"", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: append(rev, debug.BuildSetting{Key: "vcs.modified", Value: "true"})}, "devel-0123456789ab+dirty"},
		{"", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel"},
	} {
		if got := versionOf(c.release, c.bi); got != c.want {
			t.Errorf("versionOf(%q, %+v) = %q, want %q", c.release, c.bi, got, c.want)
		}
	}
}

// A grid is aligned for a terminal, one tab-separated line a row when
// piped; a cell wider than its header widens its column.
func TestGridAlignedOrTabs(t *testing.T) {
	fill := func(g *grid) {
		g.row("NAME", "GAME")
		g.row("a-long-table-name", "mafia")
		g.note("seated: Anna")
		g.row("x", "grimm")
	}
	var b bytes.Buffer
	g := &grid{aligned: true}
	fill(g)
	g.write(&b)
	want := "NAME               GAME\na-long-table-name  mafia\n                   seated: Anna\nx                  grimm\n"
	if b.String() != want {
		t.Errorf("aligned:\n%q\nwant\n%q", b.String(), want)
	}
	b.Reset()
	g = newGrid(&b) // a buffer is no terminal
	fill(g)
	g.write(&b)
	if want := "NAME\tGAME\na-long-table-name\tmafia\nx\tgrimm\n"; b.String() != want {
		t.Errorf("piped: %q, want %q", b.String(), want)
	}
}

// 'masque lobby' piped: the header and one tab-separated line a table,
// nothing else on stdout (the advice goes to notes, standard error); a
// name longer than the old 16-column field keeps the aligned columns.
func TestLobbyAlignedOrTabs(t *testing.T) {
	tables := []lobby.Table{
		{ID: [16]byte{1}, Name: "a-table-name-of-24-chars", Game: "mafia", Taken: 2, Total: 6, Version: lobby.Version, Peer: newPeerID(t), Players: []string{"Anna", "Boris"}},
		{ID: [16]byte{2}, Name: "t2", Game: "grimm", Taken: 1, Total: 3, Version: lobby.Version, Peer: newPeerID(t)},
	}
	var out, notes bytes.Buffer
	if err := printLobby(&out, tables, lobbyOptions{notes: &notes}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3 || lines[0] != "TABLE\tGAME\tSEATS\tCODE\tCREATOR FINGERPRINT\tSEATED\tSHARED" {
		t.Fatalf("lobby piped:\n%s", out.String())
	}
	if want := strings.Join([]string{"a-table-name-of-24-chars", "mafia", "2/6", tables[0].Code(), tables[0].Fingerprint(), "Anna, Boris", ""}, "\t"); lines[1] != want {
		t.Errorf("lobby piped row %q, want %q", lines[1], want)
	}
	if !strings.Contains(notes.String(), "check a table's code") {
		t.Errorf("the advice is not in the notes: %q", notes.String())
	}
	out.Reset()
	if err := printLobby(&out, tables, lobbyOptions{aligned: true, notes: &notes}); err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(out.String(), "\n")
	col := func(line, cell string) int { return strings.Index(line, cell) }
	if c0, c2 := col(rows[1], "mafia"), col(rows[3], "grimm"); c0 < 0 || c0 != c2 || col(rows[0], "GAME") != c0 {
		t.Errorf("lobby on a terminal is not aligned:\n%s", out.String())
	}
	if !strings.Contains(rows[2], "seated: Anna, Boris") || !strings.Contains(out.String(), "check a table's code") {
		t.Errorf("lobby on a terminal lacks the seated line or the advice:\n%s", out.String())
	}
}

// Every command's help fits an 80-column terminal: cobra does not wrap
// flag help by default, and 'masque help play' had lines of 547 columns,
// 'masque help' of 101.
func TestHelpFitsEightyColumns(t *testing.T) {
	root := newRootCmd(newApp(nil, &bytes.Buffer{}, &bytes.Buffer{}))
	cmds := append([]*cobra.Command{root}, root.Commands()...)
	for _, c := range cmds {
		var out bytes.Buffer
		c.SetOut(&out)
		if err := c.Help(); err != nil {
			t.Fatalf("%s --help: %v", c.CommandPath(), err)
		}
		for i, line := range strings.Split(out.String(), "\n") {
			if n := utf8.RuneCountInString(line); n > 80 {
				t.Errorf("%s --help, line %d is %d columns: %q", c.CommandPath(), i+1, n, line)
			}
		}
	}
}

// On a terminal, a table's last column wraps under itself to the width
// ('masque games' ran its scenarios off an 80-column screen).
func TestGridWrapsLastColumn(t *testing.T) {
	g := &grid{aligned: true, width: 41}
	g.row("NAME", "SCENARIOS")
	g.row("mascarade2", "default-4 default-5 default-6 default-7 default-8 default-9")
	g.row("mafia", "tie-draw, Commissar,Nurse,Butterfly,Don,Madman,Civilian")
	var out bytes.Buffer
	if err := g.write(&out); err != nil {
		t.Fatal(err)
	}
	want := "NAME        SCENARIOS\n" +
		"mascarade2  default-4 default-5 default-6\n" +
		"            default-7 default-8 default-9\n" +
		"mafia       tie-draw, Commissar,Nurse,\n" +
		"            Butterfly,Don,Madman,Civilian\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}
