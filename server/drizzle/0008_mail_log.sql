-- What each queued e-mail is about, for the mail log. Rows written before it are told apart by their subjects.
ALTER TABLE "mail_outbox" ADD COLUMN "kind" text NOT NULL DEFAULT 'receipt';--> statement-breakpoint
UPDATE "mail_outbox" SET "kind" = CASE
  WHEN "subject" = 'Reset your password' THEN 'password-reset'
  WHEN "subject" IN ('Confirm your new email address', 'A change of your email address was requested', 'Your email address was changed') THEN 'email-change'
  WHEN "subject" LIKE 'Your lost pet alert for % was sent' THEN 'alert-sent'
  ELSE 'receipt'
END;--> statement-breakpoint
ALTER TABLE "mail_outbox" ALTER COLUMN "kind" DROP DEFAULT;--> statement-breakpoint
CREATE INDEX "alert_emails_created_idx" ON "alert_emails" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "mail_outbox_created_idx" ON "mail_outbox" USING btree ("created_at");
