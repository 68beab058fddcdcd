CREATE TABLE "alert_preferences" (
	"email" text PRIMARY KEY NOT NULL,
	"species_ids" integer[],
	"radius_miles" integer DEFAULT 50 NOT NULL,
	"daily_cap" integer,
	"paused_until" date,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_preferences_radius_check" CHECK ("radius_miles" between 1 and 50),
	CONSTRAINT "alert_preferences_cap_check" CHECK ("daily_cap" is null or "daily_cap" >= 1)
);
--> statement-breakpoint
CREATE TABLE "alert_daily_counts" (
	"email" text NOT NULL,
	"day" date NOT NULL,
	"sent" integer NOT NULL,
	CONSTRAINT "alert_daily_counts_pkey" PRIMARY KEY ("email", "day")
);
--> statement-breakpoint
CREATE INDEX "alert_emails_recipient_delivered_idx" ON "alert_emails" USING btree ("recipient", "delivered_at");
