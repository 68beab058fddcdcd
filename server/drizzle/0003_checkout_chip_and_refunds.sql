ALTER TABLE "checkout_sessions" ADD COLUMN "chip_row_id" integer;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "cancel_path" text;--> statement-breakpoint
-- Earlier checkouts: canceling went back to the plan choice, and open ones are for the pet's current chip.
UPDATE "checkout_sessions" SET "cancel_path" = '/client/pet/checkout/' || "pet_id";--> statement-breakpoint
UPDATE "checkout_sessions" SET "chip_row_id" = (SELECT "id" FROM "chips" WHERE "chips"."pet_id" = "checkout_sessions"."pet_id" AND "chips"."removed_at" IS NULL ORDER BY "id" LIMIT 1) WHERE "status" = 'open';--> statement-breakpoint
ALTER TABLE "checkout_sessions" ALTER COLUMN "cancel_path" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_reason" text;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_chip_row_id_chips_id_fk" FOREIGN KEY ("chip_row_id") REFERENCES "public"."chips"("id") ON DELETE no action ON UPDATE no action;
