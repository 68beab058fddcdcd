-- Texts (SMS) go through an outbox of their own, like e-mails: claimed, sent once, retried with backoff.
CREATE TABLE "text_outbox" (
  "id" serial PRIMARY KEY,
  "recipient" text NOT NULL,
  "kind" text NOT NULL,
  "body" text NOT NULL,
  "user_id" integer REFERENCES "users"("id"),
  "status" text DEFAULT 'pending' NOT NULL,
  "attempts" integer DEFAULT 0 NOT NULL,
  "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
  "last_error" text,
  "sent_at" timestamp with time zone,
  "provider_id" text,
  "delivery_status" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "text_outbox_due_idx" ON "text_outbox" ("status", "next_attempt_at");
--> statement-breakpoint
CREATE INDEX "text_outbox_created_idx" ON "text_outbox" ("created_at");
--> statement-breakpoint
CREATE INDEX "text_outbox_provider_idx" ON "text_outbox" ("provider_id");
--> statement-breakpoint
CREATE INDEX "text_outbox_recipient_trgm_idx" ON "text_outbox" USING gin ("recipient" gin_trgm_ops);
--> statement-breakpoint

-- Numbers that answered STOP: nothing is texted to them until they answer START.
CREATE TABLE "text_opt_outs" (
  "phone" text PRIMARY KEY,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint

-- A mobile number is texted only once its holder proved it (a code, a reply or a link).
ALTER TABLE "users" ADD COLUMN "phone_verified_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "text_found_reports" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "backup_contacts" ADD COLUMN "phone_confirmed_at" timestamp with time zone;
--> statement-breakpoint

-- The owner's question about a trait not shown publicly; a finder's answer is shown to the owner only.
ALTER TABLE "pets" ADD COLUMN "verification_question" text;
--> statement-breakpoint

-- What a finder told the owner through the portal.
CREATE TABLE "found_reports" (
  "id" serial PRIMARY KEY,
  "pet_id" integer NOT NULL REFERENCES "pets"("id"),
  "chip_id" text,
  "finder_name" text NOT NULL,
  "finder_phone" text,
  "finder_email" text,
  "message" text NOT NULL,
  "location" text NOT NULL,
  "photo" text,
  "question" text,
  "answer" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "opened_at" timestamp with time zone,
  "backup_contacts_told_at" timestamp with time zone,
  "vets_told_at" timestamp with time zone,
  "phone_shared_at" timestamp with time zone,
  "reunited_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "found_reports_pet_idx" ON "found_reports" ("pet_id", "created_at");
--> statement-breakpoint
-- The escalation sweep looks only at reports nobody opened yet.
CREATE INDEX "found_reports_unopened_idx" ON "found_reports" ("created_at") WHERE "opened_at" IS NULL;
