package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// newAPIKeyCmd and newAdminCmd are implemented with the identity module.
func newAPIKeyCmd(_ *rootOpts) *cobra.Command {
	return &cobra.Command{Use: "api-key", Short: "Manage API keys"}
}

func newAdminCmd(_ *rootOpts) *cobra.Command {
	return &cobra.Command{Use: "admin", Short: "Manage staff users"}
}

func seed(_ context.Context, _ *App, w io.Writer) error {
	fmt.Fprintln(w, "nothing to seed yet")
	return errors.New("seed: not implemented")
}
