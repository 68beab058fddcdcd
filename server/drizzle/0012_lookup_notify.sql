-- Each instance keeps the public chip lookup's answers in memory (modules/public/caches.ts). Every
-- write that can change an answer names the chip numbers it touched on this channel, at commit, to every
-- instance listening: a chip added, changed or removed, and a pet activated, deactivated or deleted.
CREATE FUNCTION "notify_chip_lookup_of_chip"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM pg_notify('chip_lookup', OLD.chip_id);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM pg_notify('chip_lookup', NEW.chip_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "chips_notify_chip_lookup" AFTER INSERT OR UPDATE OR DELETE ON "chips"
  FOR EACH ROW EXECUTE FUNCTION "notify_chip_lookup_of_chip"();
--> statement-breakpoint
CREATE FUNCTION "notify_chip_lookup_of_pet"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  chip record;
BEGIN
  FOR chip IN SELECT "chip_id" FROM "chips" WHERE "pet_id" = NEW.id LOOP
    PERFORM pg_notify('chip_lookup', chip.chip_id);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "pets_notify_chip_lookup" AFTER UPDATE OF "is_active", "deleted_at" ON "pets"
  FOR EACH ROW WHEN (OLD."is_active" IS DISTINCT FROM NEW."is_active" OR OLD."deleted_at" IS DISTINCT FROM NEW."deleted_at")
  EXECUTE FUNCTION "notify_chip_lookup_of_pet"();
--> statement-breakpoint
-- The public profiles and short links kept in memory the same way hear of every write that can change
-- one on a second channel: 'pet:{id}' or 'user:{id}' names whose pages to drop, '' drops them all.
CREATE FUNCTION "notify_public_pet"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record;
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('public_pet', '');
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
  IF TG_TABLE_NAME = 'pets' THEN
    PERFORM pg_notify('public_pet', 'pet:' || changed.id);
  ELSIF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('public_pet', 'user:' || changed.id);
  ELSIF TG_TABLE_NAME = 'backup_contacts' THEN
    PERFORM pg_notify('public_pet', 'user:' || changed.user_id);
  ELSE
    PERFORM pg_notify('public_pet', 'pet:' || changed.pet_id);
  END IF;
  IF TG_OP = 'UPDATE' AND TG_TABLE_NAME <> 'pets' AND TG_TABLE_NAME <> 'users' THEN
    IF TG_TABLE_NAME = 'backup_contacts' THEN
      PERFORM pg_notify('public_pet', 'user:' || OLD.user_id);
    ELSE
      PERFORM pg_notify('public_pet', 'pet:' || OLD.pet_id);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "pets_notify_public_pet" AFTER UPDATE OR DELETE ON "pets"
  FOR EACH ROW EXECUTE FUNCTION "notify_public_pet"();
--> statement-breakpoint
CREATE TRIGGER "users_notify_public_pet" AFTER UPDATE OF "first_name", "last_name", "email", "phone_number", "photo", "state_id", "is_active" ON "users"
  FOR EACH ROW EXECUTE FUNCTION "notify_public_pet"();
--> statement-breakpoint
CREATE TRIGGER "backup_contacts_notify_public_pet" AFTER INSERT OR UPDATE OR DELETE ON "backup_contacts"
  FOR EACH ROW EXECUTE FUNCTION "notify_public_pet"();
--> statement-breakpoint
CREATE TRIGGER "pet_breeds_notify_public_pet" AFTER INSERT OR UPDATE OR DELETE ON "pet_breeds"
  FOR EACH ROW EXECUTE FUNCTION "notify_public_pet"();
--> statement-breakpoint
CREATE TRIGGER "pet_alerts_notify_public_pet" AFTER INSERT OR UPDATE OR DELETE ON "pet_alerts"
  FOR EACH ROW EXECUTE FUNCTION "notify_public_pet"();
--> statement-breakpoint
CREATE TRIGGER "site_pets_notify_public_pet" AFTER INSERT OR UPDATE OR DELETE ON "site_pets"
  FOR EACH ROW EXECUTE FUNCTION "notify_public_pet"();
--> statement-breakpoint
CREATE TRIGGER "short_links_notify_public_pet" AFTER UPDATE OR DELETE ON "short_links"
  FOR EACH ROW EXECUTE FUNCTION "notify_public_pet"();
--> statement-breakpoint
-- A site's change reaches the pages of every pet linked to it; directory imports add sites, which no page shows yet.
CREATE TRIGGER "sites_notify_public_pet" AFTER UPDATE OR DELETE ON "sites"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_public_pet"();
--> statement-breakpoint
-- TRUNCATE fires no row trigger: emptying a table the answers read drops every answer kept.
CREATE FUNCTION "notify_chip_lookup_of_all"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('chip_lookup', '');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "chips_truncate_notify_chip_lookup" AFTER TRUNCATE ON "chips" FOR EACH STATEMENT EXECUTE FUNCTION "notify_chip_lookup_of_all"();
--> statement-breakpoint
CREATE TRIGGER "pets_truncate_notify_chip_lookup" AFTER TRUNCATE ON "pets" FOR EACH STATEMENT EXECUTE FUNCTION "notify_chip_lookup_of_all"();
--> statement-breakpoint
CREATE TRIGGER "pets_truncate_notify_public_pet" AFTER TRUNCATE ON "pets" FOR EACH STATEMENT EXECUTE FUNCTION "notify_public_pet"();
--> statement-breakpoint
CREATE TRIGGER "users_truncate_notify_public_pet" AFTER TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "notify_public_pet"();
--> statement-breakpoint
CREATE TRIGGER "backup_contacts_truncate_notify_public_pet" AFTER TRUNCATE ON "backup_contacts" FOR EACH STATEMENT EXECUTE FUNCTION "notify_public_pet"();
--> statement-breakpoint
CREATE TRIGGER "pet_breeds_truncate_notify_public_pet" AFTER TRUNCATE ON "pet_breeds" FOR EACH STATEMENT EXECUTE FUNCTION "notify_public_pet"();
--> statement-breakpoint
CREATE TRIGGER "pet_alerts_truncate_notify_public_pet" AFTER TRUNCATE ON "pet_alerts" FOR EACH STATEMENT EXECUTE FUNCTION "notify_public_pet"();
--> statement-breakpoint
CREATE TRIGGER "site_pets_truncate_notify_public_pet" AFTER TRUNCATE ON "site_pets" FOR EACH STATEMENT EXECUTE FUNCTION "notify_public_pet"();
--> statement-breakpoint
CREATE TRIGGER "short_links_truncate_notify_public_pet" AFTER TRUNCATE ON "short_links" FOR EACH STATEMENT EXECUTE FUNCTION "notify_public_pet"();
--> statement-breakpoint
CREATE TRIGGER "sites_truncate_notify_public_pet" AFTER TRUNCATE ON "sites" FOR EACH STATEMENT EXECUTE FUNCTION "notify_public_pet"();
