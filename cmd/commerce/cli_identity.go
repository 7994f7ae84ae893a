package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	identityapi "github.com/gocommerce/commerce/modules/identity/api"
)

func newAPIKeyCmd(o *rootOpts) *cobra.Command {
	cmd := &cobra.Command{Use: "api-key", Short: "Manage API keys (the full key is shown once, at creation)"}

	var name, scopes, multiplier string
	create := &cobra.Command{
		Use:   "create",
		Short: "Create a key; prints the full key once, on its own line, last",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return o.withApp(func(ctx context.Context, a *App) error {
				var list []string
				for _, s := range strings.Split(scopes, ",") {
					if s = strings.TrimSpace(s); s != "" {
						list = append(list, s)
					}
				}
				k, full, err := a.Identity.CreateAPIKey(ctx, identityapi.CreateAPIKeyCommand{Name: name, Scopes: list, RateLimitMultiplier: multiplier})
				if err != nil {
					return err
				}
				w := c.OutOrStdout()
				printKey(w, k)
				fmt.Fprintln(w, "Store this key now; it is not shown again:")
				fmt.Fprintln(w, full)
				return nil
			})
		},
	}
	create.Flags().StringVar(&name, "name", "", "name of the key (required)")
	create.Flags().StringVar(&scopes, "scopes", "", "comma-separated scopes, e.g. products:read,orders:write (required)")
	create.Flags().StringVar(&multiplier, "rate-limit-multiplier", "", "decimal multiplier applied to the default rate limits")
	_ = create.MarkFlagRequired("name")
	_ = create.MarkFlagRequired("scopes")

	list := &cobra.Command{
		Use:   "list",
		Short: "List keys",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return o.withApp(func(ctx context.Context, a *App) error {
				keys, err := a.Identity.ListAPIKeys(ctx)
				if err != nil {
					return err
				}
				tw := tabwriter.NewWriter(c.OutOrStdout(), 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "PREFIX\tNAME\tSCOPES\tSTATUS\tLAST USED\tCREATED")
				for _, k := range keys {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", k.Prefix, k.Name, strings.Join(k.Scopes, ","), status(k), ts(k.LastUsedAt), k.CreatedAt.UTC().Format(time.RFC3339))
				}
				return tw.Flush()
			})
		},
	}

	get := &cobra.Command{
		Use:   "get <prefix>",
		Short: "Show one key",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return o.withApp(func(ctx context.Context, a *App) error {
				k, err := a.Identity.GetAPIKey(ctx, args[0])
				if err != nil {
					return err
				}
				printKey(c.OutOrStdout(), k)
				return nil
			})
		},
	}

	var reason string
	revoke := &cobra.Command{
		Use:   "revoke <prefix>",
		Short: "Revoke a key; takes effect immediately",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return o.withApp(func(ctx context.Context, a *App) error {
				k, err := a.Identity.RevokeAPIKey(ctx, args[0], reason)
				if err != nil {
					return err
				}
				printKey(c.OutOrStdout(), k)
				return nil
			})
		},
	}
	revoke.Flags().StringVar(&reason, "reason", "", "why the key is revoked (required)")
	_ = revoke.MarkFlagRequired("reason")

	del := &cobra.Command{
		Use:   "delete <prefix>",
		Short: "Delete a key",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return o.withApp(func(ctx context.Context, a *App) error {
				if err := a.Identity.DeleteAPIKey(ctx, args[0]); err != nil {
					return err
				}
				fmt.Fprintf(c.OutOrStdout(), "deleted %s\n", args[0])
				return nil
			})
		},
	}
	cmd.AddCommand(create, list, get, revoke, del)
	return cmd
}

func status(k identityapi.APIKey) string {
	if k.Revoked {
		return "revoked"
	}
	return "active"
}

func ts(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}

func printKey(w io.Writer, k identityapi.APIKey) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "id:\t%s\n", k.ID)
	fmt.Fprintf(tw, "name:\t%s\n", k.Name)
	fmt.Fprintf(tw, "prefix:\t%s\n", k.Prefix)
	fmt.Fprintf(tw, "scopes:\t%s\n", strings.Join(k.Scopes, ","))
	if k.RateLimitMultiplier != "" {
		fmt.Fprintf(tw, "rate_limit_multiplier:\t%s\n", k.RateLimitMultiplier)
	}
	fmt.Fprintf(tw, "status:\t%s\n", status(k))
	if k.Revoked {
		fmt.Fprintf(tw, "revoked_at:\t%s\n", ts(k.RevokedAt))
		fmt.Fprintf(tw, "revocation_reason:\t%s\n", k.RevocationReason)
	}
	fmt.Fprintf(tw, "last_used_at:\t%s\n", ts(k.LastUsedAt))
	if k.LastUsedIP != "" {
		fmt.Fprintf(tw, "last_used_ip:\t%s\n", k.LastUsedIP)
	}
	fmt.Fprintf(tw, "created_at:\t%s\n", k.CreatedAt.UTC().Format(time.RFC3339))
	_ = tw.Flush()
}

func newAdminCmd(o *rootOpts) *cobra.Command {
	cmd := &cobra.Command{Use: "admin", Short: "Manage staff users"}
	var email, password string
	create := &cobra.Command{
		Use:   "create",
		Short: "Create a staff user with the admin role",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return o.withApp(func(ctx context.Context, a *App) error {
				u, err := a.Identity.CreateAdmin(ctx, email, password)
				if err != nil {
					return err
				}
				fmt.Fprintf(c.OutOrStdout(), "created admin %s (%s)\n", u.Email, u.ID)
				return nil
			})
		},
	}
	create.Flags().StringVar(&email, "email", "", "email address (required)")
	create.Flags().StringVar(&password, "password", "", "password (required)")
	_ = create.MarkFlagRequired("email")
	_ = create.MarkFlagRequired("password")
	cmd.AddCommand(create)
	return cmd
}
