-- Each instance keeps the public chip lookup's answers in memory (modules/public/lookupCache.ts). Every
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
