-- Distances between ZIP codes (and later sites) come from cube + earthdistance; the GiST index below needs them.
CREATE EXTENSION IF NOT EXISTS cube;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS earthdistance;--> statement-breakpoint
CREATE TABLE "zip_codes" (
	"zip" text PRIMARY KEY NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL
);
--> statement-breakpoint
CREATE INDEX "zip_codes_earth_idx" ON "zip_codes" USING gist (ll_to_earth("latitude", "longitude"));