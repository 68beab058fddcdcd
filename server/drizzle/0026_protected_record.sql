-- The protected-record flag (issue 20): an administrator hides an account's owner from everyone who
-- finds or looks up its pets (a dispute, a domestic-abuse case). It belongs to the account, so every
-- pet of the person is covered. Who set it, when and why are kept here; every change is in the audit log.
ALTER TABLE "users" ADD COLUMN "record_protected_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "record_protected_by" integer REFERENCES "users"("id");
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "record_protected_reason" text;
--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_record_protected_check"
  CHECK (("record_protected_at" IS NULL) = ("record_protected_reason" IS NULL));
--> statement-breakpoint
-- The public profiles and short links kept in memory (modules/public/caches.ts) show the owner: setting
-- or clearing the flag drops the pages of the owner's pets on every instance, at commit.
CREATE TRIGGER "users_protected_notify_public_pet" AFTER UPDATE OF "record_protected_at" ON "users"
  FOR EACH ROW WHEN (OLD."record_protected_at" IS DISTINCT FROM NEW."record_protected_at")
  EXECUTE FUNCTION "notify_public_pet"();
