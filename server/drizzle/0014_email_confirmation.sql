ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
UPDATE "users" SET "email_verified_at" = "created_at" WHERE "google_id" IS NOT NULL OR "facebook_id" IS NOT NULL OR 'admin' = ANY("roles");
--> statement-breakpoint
UPDATE "mail_outbox" SET "text" = regexp_replace("text", '((?:[?&]|&amp;|&#38;)(?:code|token)=)[^&\s"''<>]+', '\1[hidden]', 'g'), "html" = regexp_replace("html", '((?:[?&]|&amp;|&#38;)(?:code|token)=)[^&\s"''<>]+', '\1[hidden]', 'g') WHERE "status" = 'sent';
