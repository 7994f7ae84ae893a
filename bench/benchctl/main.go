// Command benchctl is the driver of `make bench` (bench/run.sh): it creates and drops
// the run's database, seeds it through the project's own code, generates the load,
// counts the SQL statements each request sends, and writes the results table.
//
//	benchctl createdb|dropdb   --admin-url postgres://.../postgres --db NAME
//	benchctl redis-check|redis-flush --url redis://host:6379/N
//	benchctl seed-catalog      (catalog app service: products, variants, stock)
//	benchctl seed-http         (HTTP API: API-key check, coupon, customers, their carts)
//	benchctl seed-statistics   (1,000,000 orders straight into the statistics tables)
//	benchctl sql               --url DSN --query SQL (prints rows; EXPLAIN, ANALYZE)
//	benchctl rss               --pid PID (VmRSS/VmHWM in kB) ; reset-hwm --pid PID
//	benchctl outbox            --url DSN [--wait 2m] (pending outbox events; waits for 0)
//	benchctl run               (the load: reference and server scenarios)
//	benchctl pgproxy           (a PostgreSQL protocol proxy that counts statements)
//	benchctl queries           (statements per request, through pgproxy)
//	benchctl report            (the table: stdout and bench/results/latest.md)
//
// Every subcommand prints its usage with -h.
package main

import (
	"fmt"
	"os"
)

type command struct {
	name string
	run  func(args []string) error
}

func main() {
	cmds := []command{
		{"createdb", cmdCreateDB},
		{"dropdb", cmdDropDB},
		{"redis-check", cmdRedisCheck},
		{"redis-flush", cmdRedisFlush},
		{"seed-catalog", cmdSeedCatalog},
		{"seed-http", cmdSeedHTTP},
		{"seed-statistics", cmdSeedStatistics},
		{"sql", cmdSQL},
		{"rss", cmdRSS},
		{"reset-hwm", cmdResetHWM},
		{"wait-http", cmdWaitHTTP},
		{"outbox", cmdOutbox},
		{"waldump", cmdWALDump},
		{"run", cmdRun},
		{"pgproxy", cmdPGProxy},
		{"queries", cmdQueries},
		{"report", cmdReport},
	}
	if len(os.Args) < 2 {
		usage(cmds)
	}
	for _, c := range cmds {
		if c.name == os.Args[1] {
			if err := c.run(os.Args[2:]); err != nil {
				fmt.Fprintf(os.Stderr, "benchctl %s: %v\n", c.name, err)
				os.Exit(1)
			}
			return
		}
	}
	usage(cmds)
}

func usage(cmds []command) {
	fmt.Fprintln(os.Stderr, "usage: benchctl <command> [flags]; commands:")
	for _, c := range cmds {
		fmt.Fprintln(os.Stderr, "  "+c.name)
	}
	os.Exit(2)
}
