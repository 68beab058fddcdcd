-- Each instance keeps the user objects it answered in memory (modules/users/accounts.ts). Every write
-- that changes one (the account's row; a pet of it added, switched on or off, removed or moved to
-- another owner; a payment of it paid or refunded) names the account on this channel, at commit, to
-- every instance listening; '' drops every object.
CREATE FUNCTION "notify_user_object"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('user_object', '');
  ELSIF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('user_object', OLD.id::text);
  ELSE
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
      PERFORM pg_notify('user_object', OLD.user_id::text);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
      PERFORM pg_notify('user_object', NEW.user_id::text);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_notify_user_object" AFTER UPDATE ON "users"
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION "notify_user_object"();
--> statement-breakpoint
CREATE TRIGGER "users_delete_notify_user_object" AFTER DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "notify_user_object"();
--> statement-breakpoint
CREATE TRIGGER "pets_insert_delete_notify_user_object" AFTER INSERT OR DELETE ON "pets"
  FOR EACH ROW EXECUTE FUNCTION "notify_user_object"();
--> statement-breakpoint
CREATE TRIGGER "pets_update_notify_user_object" AFTER UPDATE OF "is_active", "deleted_at", "user_id" ON "pets"
  FOR EACH ROW WHEN (OLD."is_active" IS DISTINCT FROM NEW."is_active" OR OLD."deleted_at" IS DISTINCT FROM NEW."deleted_at" OR OLD."user_id" IS DISTINCT FROM NEW."user_id")
  EXECUTE FUNCTION "notify_user_object"();
--> statement-breakpoint
CREATE TRIGGER "payments_insert_delete_notify_user_object" AFTER INSERT OR DELETE ON "payments"
  FOR EACH ROW EXECUTE FUNCTION "notify_user_object"();
--> statement-breakpoint
CREATE TRIGGER "payments_update_notify_user_object" AFTER UPDATE OF "status", "user_id" ON "payments"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."user_id" IS DISTINCT FROM NEW."user_id")
  EXECUTE FUNCTION "notify_user_object"();
--> statement-breakpoint
-- The state a user object names by its abbreviations: reference data, but an operator may edit it.
CREATE TRIGGER "states_notify_user_object" AFTER UPDATE OR DELETE ON "states"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_user_object"();
--> statement-breakpoint
-- TRUNCATE fires no row trigger.
CREATE TRIGGER "users_truncate_notify_user_object" AFTER TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "notify_user_object"();
--> statement-breakpoint
CREATE TRIGGER "pets_truncate_notify_user_object" AFTER TRUNCATE ON "pets" FOR EACH STATEMENT EXECUTE FUNCTION "notify_user_object"();
--> statement-breakpoint
CREATE TRIGGER "payments_truncate_notify_user_object" AFTER TRUNCATE ON "payments" FOR EACH STATEMENT EXECUTE FUNCTION "notify_user_object"();
--> statement-breakpoint
CREATE TRIGGER "states_truncate_notify_user_object" AFTER TRUNCATE ON "states" FOR EACH STATEMENT EXECUTE FUNCTION "notify_user_object"();
