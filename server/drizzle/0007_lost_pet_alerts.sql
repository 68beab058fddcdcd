CREATE TABLE "email_unsubscribes" (
	"email" text PRIMARY KEY NOT NULL,
	"alert_email_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_emails" DROP CONSTRAINT "alert_emails_site_id_sites_id_fk";
--> statement-breakpoint
DROP INDEX "alert_emails_alert_idx";--> statement-breakpoint
DROP INDEX "alert_emails_due_idx";--> statement-breakpoint
ALTER TABLE "alert_emails" ADD COLUMN "kind" text DEFAULT 'alert' NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_emails" ADD COLUMN "token" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_emails" ADD COLUMN "automatic_open_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "alert_id" integer;--> statement-breakpoint
ALTER TABLE "pet_alerts" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pet_alerts" ADD COLUMN "recipients_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "email_unsubscribes" ADD CONSTRAINT "email_unsubscribes_alert_email_id_alert_emails_id_fk" FOREIGN KEY ("alert_email_id") REFERENCES "public"."alert_emails"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_alert_id_pet_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."pet_alerts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_emails_recipient_idx" ON "alert_emails" USING btree ("alert_id","kind","recipient");--> statement-breakpoint
CREATE INDEX "checkout_sessions_alert_idx" ON "checkout_sessions" USING btree ("alert_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pet_alerts_open_idx" ON "pet_alerts" USING btree ("pet_id") WHERE "pet_alerts"."status" in ('NEW', 'paid');--> statement-breakpoint
CREATE INDEX "alert_emails_due_idx" ON "alert_emails" USING btree ("next_attempt_at") WHERE "alert_emails"."status" in ('pending', 'sending');--> statement-breakpoint
ALTER TABLE "alert_emails" DROP COLUMN "sent_at";--> statement-breakpoint
ALTER TABLE "alert_emails" ADD CONSTRAINT "alert_emails_token_unique" UNIQUE("token");