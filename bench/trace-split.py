#!/usr/bin/env python3
"""Split the PostgreSQL log lines of one traced checkout complete (stdin) into the
request's statements, the background catalog sync of reservations and the other
background work (api-key cache, token revocations). Each backend (pid) runs one
transaction at a time: a transaction whose first statement locks inventory products by
id (SELECT "product_id" FROM "inventory_products" WHERE product_id IN ... FOR UPDATE)
is the catalog sync (docs/decisions/0229), run after the reservation commits, off the
request. Usage: trace-split.py OUT_REQUEST OUT_SYNC < log lines; prints the counts."""
import re
import sys

line_re = re.compile(r".*\[(\d+)\] .*LOG:  (?:statement|execute [^:]*): (.*)")
background_re = re.compile(r"api_keys|identity_token_revocations|^-- ping$")
sync_start = 'SELECT "product_id" FROM "inventory_products" WHERE product_id IN'

groups, open_tx, background = [], {}, 0
for line in sys.stdin:
    m = line_re.match(line.rstrip("\n"))
    if not m:
        continue
    pid, stmt = m.groups()
    if background_re.search(stmt):
        background += 1
        continue
    if stmt.lower() == "begin":
        open_tx[pid] = [stmt]
        groups.append(open_tx[pid])
        continue
    tx = open_tx.get(pid)
    if tx is None:
        groups.append([stmt])
        continue
    tx.append(stmt)
    if stmt.lower() in ("commit", "rollback"):
        del open_tx[pid]

request, sync = [], []
for g in groups:
    (sync if len(g) > 1 and g[1].startswith(sync_start) else request).extend(g)
with open(sys.argv[1], "w") as f:
    f.writelines(s + "\n" for s in request)
with open(sys.argv[2], "w") as f:
    f.writelines(s + "\n" for s in sync)
print(f"{len(request)} statements (+ {len(sync)} of the background catalog sync, {background} of other background work)")
