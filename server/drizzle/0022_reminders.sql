-- Reminders the owner may switch off on the profile (issue 20): before a yearly plan renews or ends,
-- and once a year to have the pet's chip scanned. The notice that cover lapsed cannot be switched off.
ALTER TABLE "users" ADD COLUMN "renewal_reminders" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "chip_scan_reminders" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
-- One row per reminder sent: its unique key is the claim, so two workers never send one twice.
CREATE TABLE "reminders" (
  "id" serial PRIMARY KEY,
  "pet_id" integer NOT NULL REFERENCES "pets"("id"),
  "user_id" integer NOT NULL REFERENCES "users"("id"),
  "kind" text NOT NULL,
  "period" date NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "reminders_once_idx" ON "reminders" ("pet_id", "kind", "period");
