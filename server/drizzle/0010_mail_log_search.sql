-- The mail log's search by part of the recipient's address (pg_trgm, 0006), in both queues.
CREATE INDEX "alert_emails_recipient_trgm_idx" ON "alert_emails" USING gin ("recipient" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "mail_outbox_recipient_trgm_idx" ON "mail_outbox" USING gin ("recipient" gin_trgm_ops);
