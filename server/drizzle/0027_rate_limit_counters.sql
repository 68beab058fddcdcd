-- The rate limits on a PostgreSQL server (issue 21): every instance counts each address's, account's and
-- e-mail's requests here, so a limit holds however many instances share the load. One row a key (a keyed
-- hash of the route and what it counts), its fixed window's count and end; a window that is over starts
-- again on the next hit, and the worker's sweep deletes the rows whose window ended. Unlogged: a count
-- is worth no WAL, and one lost in a crash or failover only gives its key a fresh window. Room is left on
-- each page so that a hit, which changes no indexed column, is a HOT update.
CREATE UNLOGGED TABLE "rate_limit_counters" (
  "key" text PRIMARY KEY NOT NULL,
  "count" integer NOT NULL,
  "expires_at" timestamp with time zone NOT NULL
) WITH (fillfactor = 70);
