-- Transfers owners offer themselves (issue 20): one row per offer, open until the addressee accepts or
-- declines, the owner cancels, or 7 days pass (the worker expires it). Only the SHA-256 of the mailed
-- link's code is kept. A pet has at most one open offer.
CREATE TABLE "pet_transfers" (
  "id" serial PRIMARY KEY NOT NULL,
  "pet_id" integer NOT NULL REFERENCES "pets"("id"),
  "from_user_id" integer NOT NULL REFERENCES "users"("id"),
  "to_email" text NOT NULL,
  "token_hash" text NOT NULL UNIQUE,
  "status" text DEFAULT 'open' NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  "to_user_id" integer REFERENCES "users"("id"),
  "closed_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "pet_transfers_open_idx" ON "pet_transfers" ("pet_id") WHERE "status" = 'open';
--> statement-breakpoint
CREATE INDEX "pet_transfers_from_idx" ON "pet_transfers" ("from_user_id");
--> statement-breakpoint
CREATE INDEX "pet_transfers_to_email_idx" ON "pet_transfers" (lower("to_email")) WHERE "status" = 'open';
--> statement-breakpoint
CREATE INDEX "pet_transfers_due_idx" ON "pet_transfers" ("expires_at") WHERE "status" = 'open';
--> statement-breakpoint
-- An administrator's dispute hold: while set, the owner cannot transfer the pet.
ALTER TABLE "pets" ADD COLUMN "transfer_hold_reason" text;
--> statement-breakpoint
ALTER TABLE "pets" ADD COLUMN "transfer_hold_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "pets" ADD COLUMN "transfer_hold_by" integer REFERENCES "users"("id");
