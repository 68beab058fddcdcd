-- Keys to the open lookup (GET public/lookup/{chip}) that administrators issue to shelters, clinics and
-- other registries. Only the key's SHA-256 is kept: the key itself is shown once, at issue.
CREATE TABLE "api_keys" (
  "id" serial PRIMARY KEY NOT NULL,
  "name" text NOT NULL,
  "key_hash" text NOT NULL,
  "prefix" text NOT NULL,
  "requests" integer NOT NULL,
  "per" text NOT NULL,
  "usage_count" bigint DEFAULT 0 NOT NULL,
  "last_used_at" timestamp with time zone,
  "created_by" integer REFERENCES "users"("id"),
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "revoked_at" timestamp with time zone,
  "revoked_by" integer REFERENCES "users"("id"),
  CONSTRAINT "api_keys_per_check" CHECK ("per" IN ('minute', 'hour'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_key_hash_idx" ON "api_keys" ("key_hash");
--> statement-breakpoint
-- When the owner's contact details last changed: the open lookup's "last updated" date, which a
-- password or a setting changed does not move.
ALTER TABLE "users" ADD COLUMN "contact_updated_at" timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
UPDATE "users" SET "contact_updated_at" = "updated_at";
--> statement-breakpoint
CREATE FUNCTION "stamp_user_contact_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.contact_updated_at := now();
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_stamp_contact_update" BEFORE UPDATE ON "users"
  FOR EACH ROW WHEN (
    OLD."first_name" IS DISTINCT FROM NEW."first_name" OR OLD."last_name" IS DISTINCT FROM NEW."last_name"
    OR OLD."email" IS DISTINCT FROM NEW."email" OR OLD."phone_number" IS DISTINCT FROM NEW."phone_number"
    OR OLD."address1" IS DISTINCT FROM NEW."address1" OR OLD."address2" IS DISTINCT FROM NEW."address2"
    OR OLD."city" IS DISTINCT FROM NEW."city" OR OLD."state_id" IS DISTINCT FROM NEW."state_id"
    OR OLD."zipcode" IS DISTINCT FROM NEW."zipcode")
  EXECUTE FUNCTION "stamp_user_contact_update"();
--> statement-breakpoint
-- The lookup answers kept in memory (modules/public/caches.ts) carry that date: an owner's contact
-- change, and any change to a pet (its update time, its owner), drop the answers of their chips.
CREATE FUNCTION "notify_chip_lookup_of_user"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  chip record;
BEGIN
  FOR chip IN SELECT "chips"."chip_id" FROM "chips" JOIN "pets" ON "pets"."id" = "chips"."pet_id" WHERE "pets"."user_id" = NEW.id LOOP
    PERFORM pg_notify('chip_lookup', chip.chip_id);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_notify_chip_lookup" AFTER UPDATE ON "users"
  FOR EACH ROW WHEN (OLD."contact_updated_at" IS DISTINCT FROM NEW."contact_updated_at")
  EXECUTE FUNCTION "notify_chip_lookup_of_user"();
--> statement-breakpoint
DROP TRIGGER "pets_notify_chip_lookup" ON "pets";
--> statement-breakpoint
CREATE TRIGGER "pets_notify_chip_lookup" AFTER UPDATE ON "pets"
  FOR EACH ROW WHEN (
    OLD."is_active" IS DISTINCT FROM NEW."is_active" OR OLD."deleted_at" IS DISTINCT FROM NEW."deleted_at"
    OR OLD."updated_at" IS DISTINCT FROM NEW."updated_at" OR OLD."user_id" IS DISTINCT FROM NEW."user_id")
  EXECUTE FUNCTION "notify_chip_lookup_of_pet"();
