-- Codes texted to an owner's new mobile number: kept only as a keyed hash, single use, short-lived.
CREATE TABLE "phone_codes" (
  "id" serial PRIMARY KEY,
  "user_id" integer NOT NULL REFERENCES "users"("id"),
  "phone" text NOT NULL,
  "code_hash" text NOT NULL,
  "wrong_tries" integer DEFAULT 0 NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  "used_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "phone_codes_user_idx" ON "phone_codes" ("user_id", "created_at");
--> statement-breakpoint

-- When a backup contact was last asked to confirm the number (a text with a link); the link names this moment.
ALTER TABLE "backup_contacts" ADD COLUMN "confirmation_sent_at" timestamp with time zone;
--> statement-breakpoint
-- A reply (YES) is matched to the contacts by number.
CREATE INDEX "backup_contacts_phone_idx" ON "backup_contacts" ("phone_number") WHERE "deleted_at" IS NULL;
