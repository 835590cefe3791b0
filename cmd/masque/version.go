package main

import (
	"encoding/json"
	"fmt"
	"runtime"

	"github.com/spf13/cobra"
)

func newVersionCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version of masque and of its protocol",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v := map[string]string{"version": version, "protocol": "masque/v1", "go": runtime.Version()}
			if asJSON {
				return json.NewEncoder(a.stdout).Encode(v)
			}
			fmt.Fprintf(a.stdout, "masque %s (protocol %s, %s)\n", v["version"], v["protocol"], v["go"])
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON object")
	return cmd
}
