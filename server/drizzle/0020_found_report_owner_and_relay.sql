-- Each found report stays with the owner it was made to (issue 19): an administrator's transfer (or an
-- owner's) moves the pet, not the finder's contact given to the previous owner. Backfilled from the
-- pet's current owner, the only owner known for reports made before this column.
ALTER TABLE "found_reports" ADD COLUMN "owner_id" integer REFERENCES "users"("id");
--> statement-breakpoint
UPDATE "found_reports" SET "owner_id" = "pets"."user_id" FROM "pets" WHERE "pets"."id" = "found_reports"."pet_id";
--> statement-breakpoint
ALTER TABLE "found_reports" ALTER COLUMN "owner_id" SET NOT NULL;
--> statement-breakpoint
CREATE INDEX "found_reports_owner_idx" ON "found_reports" ("owner_id", "created_at");
--> statement-breakpoint
-- A reply to a lost pet alert e-mail, relayed to the owner through the inbound mail listener, is kept
-- as a found report naming the alert e-mail it answers (the professional's address, never the owner's).
ALTER TABLE "found_reports" ADD COLUMN "alert_email_id" integer REFERENCES "alert_emails"("id");
--> statement-breakpoint
CREATE INDEX "found_reports_alert_email_idx" ON "found_reports" ("alert_email_id", "created_at") WHERE "alert_email_id" IS NOT NULL;
--> statement-breakpoint
-- The unguessable local part of each alert e-mail's Reply-To address (122 random bits), apart from the
-- unsubscribe token so that a reply address cannot unsubscribe anybody.
ALTER TABLE "alert_emails" ADD COLUMN "reply_token" text DEFAULT replace(gen_random_uuid()::text, '-', '') NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "alert_emails_reply_token_idx" ON "alert_emails" ("reply_token");
--> statement-breakpoint
-- A text whose hand-over to the provider timed out: the provider may have taken it, so before it is
-- sent again the provider is asked whether it did (from this moment on).
ALTER TABLE "text_outbox" ADD COLUMN "outcome_unknown_since" timestamp with time zone;
