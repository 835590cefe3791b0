package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/masque-games/masque/cmd/masque/internal/phone"
	"github.com/masque-games/masque/p2p"
	"github.com/masque-games/masque/p2p/lobby"
)

func newVersionCmd(a *app) *cobra.Command {
	var asJSON, build bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print masque's version, its table protocol, its phone page's hash",
		Long: `Print the version of masque, the table protocol it speaks (the v= a table
advertises on the LAN; players at one table need the same) and its libp2p
stream protocols.

It also prints the hash of the phone page this masque serves with --phones
(its files and its WebAssembly seat, as served): the page shows the same
16 digits at its foot. A player who wants to check the page a table's host
serves runs 'masque version' of the same release on a machine they trust
and compares (docs/security.md, Phones). A masque built from source builds
the seat the first time it serves phones; until then this says so, and
--phone-page builds it now (up to a minute).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v := versionInfo()
			v["phone_page"] = phonePage(build)
			if asJSON {
				return json.NewEncoder(a.stdout).Encode(v)
			}
			fmt.Fprintln(a.stdout, versionLine())
			fmt.Fprintf(a.stdout, "phone page: %s\n", phone.ShortHash(v["phone_page"]))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON object (phone_page: the page's whole hash)")
	cmd.Flags().BoolVar(&build, "phone-page", false, "build the phone page's seat if this masque has not yet, to print its hash")
	return cmd
}

func init() {
	cobra.AddTemplateFunc("masquePhonePage", func() string { return phone.ShortHash(phonePage(false)) })
}

// phonePage is the phone page's build hash (phone.Seat.BuildHash), or
// why there is none; build builds the seat if this masque has not yet.
func phonePage(build bool) string {
	seat := &phone.Seat{}
	if !build && !seat.Ready() {
		return "not built yet (masque version --phone-page builds it)"
	}
	h, err := seat.BuildHash()
	if err != nil {
		return "unavailable: " + err.Error()
	}
	return h
}

// versionInfo is what 'masque version' prints: masque's version (see
// buildVersion), its table protocol, its stream protocols and Go's.
func versionInfo() map[string]string {
	return map[string]string{
		"version":  buildVersion(),
		"protocol": fmt.Sprintf("v%d", lobby.Version),
		"streams":  strings.Join([]string{string(p2p.ProtocolJoin), string(p2p.ProtocolLog), string(p2p.ProtocolSync)}, " "),
		"go":       runtime.Version(),
	}
}

// versionLine is 'masque version' and 'masque --version'.
func versionLine() string {
	v := versionInfo()
	return fmt.Sprintf("masque %s (table protocol %s: %s; %s)", v["version"], v["protocol"], v["streams"], v["go"])
}
