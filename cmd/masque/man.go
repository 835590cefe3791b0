package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

func newManCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "man DIR",
		Short: "Write masque's manual pages (section 1) into DIR",
		Long: `Write a manual page for masque and for each of its commands into DIR
(masque.1, masque-host.1, ...), generated from the same text as --help.
Install them where man finds them, for example:

  masque man ~/.local/share/man/man1 && man masque-host`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return &exitError{code: exitFault, err: err}
			}
			root := cmd.Root()
			root.DisableAutoGenTag = true
			hdr := &doc.GenManHeader{Title: "MASQUE", Section: "1", Source: "masque " + buildVersion(), Manual: "masque manual"}
			if err := doc.GenManTree(root, hdr, dir); err != nil {
				return &exitError{code: exitFault, err: fmt.Errorf("manual pages: %w", err)}
			}
			fmt.Fprintf(a.stdout, "manual pages written to %s\n", dir)
			return nil
		},
	}
}
