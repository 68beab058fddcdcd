-- Vet search matches names and addresses by similarity (pg_trgm); the index below needs it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "sites" ALTER COLUMN "latitude" SET DATA TYPE double precision;--> statement-breakpoint
ALTER TABLE "sites" ALTER COLUMN "longitude" SET DATA TYPE double precision;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "receives_alerts" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "city" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "state" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "source" text DEFAULT 'owner' NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "site_pets_live_idx" ON "site_pets" USING btree ("site_id","pet_id") WHERE "site_pets"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "sites_earth_idx" ON "sites" USING gist (ll_to_earth("latitude", "longitude"));--> statement-breakpoint
CREATE INDEX "sites_search_trgm_idx" ON "sites" USING gin (("name" || ' ' || coalesce("address1", '') || ' ' || coalesce("city", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "sites_source_idx" ON "sites" USING btree ("source");