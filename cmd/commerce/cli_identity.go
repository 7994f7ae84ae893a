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
	create := o.appCmd("create", "Create a key; prints the full key once, on its own line, last", cobra.NoArgs,
		func(ctx context.Context, a *App, w io.Writer, _ []string) error {
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
			printKey(w, k)
			fmt.Fprintln(w, "Store this key now; it is not shown again:")
			fmt.Fprintln(w, full)
			return nil
		})
	create.Flags().StringVar(&name, "name", "", "name of the key (required)")
	create.Flags().StringVar(&scopes, "scopes", "", "comma-separated scopes, e.g. products:read,orders:write (required)")
	create.Flags().StringVar(&multiplier, "rate-limit-multiplier", "", "decimal multiplier applied to the default rate limits")
	_ = create.MarkFlagRequired("name")
	_ = create.MarkFlagRequired("scopes")

	list := o.appCmd("list", "List keys", cobra.NoArgs, func(ctx context.Context, a *App, w io.Writer, _ []string) error {
		keys, err := a.Identity.ListAPIKeys(ctx)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "PREFIX\tNAME\tSCOPES\tSTATUS\tLAST USED\tCREATED")
		for _, k := range keys {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", k.Prefix, k.Name, strings.Join(k.Scopes, ","), status(k), ts(k.LastUsedAt), k.CreatedAt.UTC().Format(time.RFC3339))
		}
		return tw.Flush()
	})

	get := o.appCmd("get <prefix>", "Show one key", cobra.ExactArgs(1), func(ctx context.Context, a *App, w io.Writer, args []string) error {
		return printKeyOf(w)(a.Identity.GetAPIKey(ctx, args[0]))
	})

	var reason string
	revoke := o.appCmd("revoke <prefix>", "Revoke a key; takes effect immediately", cobra.ExactArgs(1),
		func(ctx context.Context, a *App, w io.Writer, args []string) error {
			return printKeyOf(w)(a.Identity.RevokeAPIKey(ctx, args[0], reason))
		})
	revoke.Flags().StringVar(&reason, "reason", "", "why the key is revoked (required)")
	_ = revoke.MarkFlagRequired("reason")

	del := o.appCmd("delete <prefix>", "Delete a key", cobra.ExactArgs(1), func(ctx context.Context, a *App, w io.Writer, args []string) error {
		if err := a.Identity.DeleteAPIKey(ctx, args[0]); err != nil {
			return err
		}
		fmt.Fprintf(w, "deleted %s\n", args[0])
		return nil
	})
	cmd.AddCommand(create, list, get, revoke, del)
	return cmd
}

// printKeyOf prints the key an API key call answers, or returns its error.
func printKeyOf(w io.Writer) func(identityapi.APIKey, error) error {
	return func(k identityapi.APIKey, err error) error {
		if err != nil {
			return err
		}
		printKey(w, k)
		return nil
	}
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
	create := o.appCmd("create", "Create a staff user with the admin role", cobra.NoArgs, func(ctx context.Context, a *App, w io.Writer, _ []string) error {
		u, err := a.Identity.CreateAdmin(ctx, email, password)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "created admin %s (%s)\n", u.Email, u.ID)
		return nil
	})
	create.Flags().StringVar(&email, "email", "", "email address (required)")
	create.Flags().StringVar(&password, "password", "", "password (required)")
	_ = create.MarkFlagRequired("email")
	_ = create.MarkFlagRequired("password")
	cmd.AddCommand(create)
	return cmd
}
