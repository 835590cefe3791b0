package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/masque-games/masque/p2p"
	"github.com/masque-games/masque/p2p/lobby"
)

func newVersionCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version of masque and of its table protocol",
		Long: `Print the version of masque, the table protocol it speaks (the v= a table
advertises on the LAN; players at one table need the same) and its libp2p
stream protocols.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON {
				return json.NewEncoder(a.stdout).Encode(versionInfo())
			}
			fmt.Fprintln(a.stdout, versionLine())
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON object")
	return cmd
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
