ALTER TABLE "users" ADD COLUMN "email_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_bounced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "contacts_asked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "contacts_check_due_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "users_contacts_check_due_idx" ON "users" USING btree ("contacts_check_due_at") WHERE "contacts_check_due_at" is not null;
