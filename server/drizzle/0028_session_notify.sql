-- Each instance keeps its checks of sessions in memory (plugins/auth.ts). Every write that ends a session
-- or changes what a check reads (the account switched on or off, its roles) names the account on this
-- channel, at commit, to every instance listening; '' drops every check.
CREATE FUNCTION "notify_session_check"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('session_check', '');
  ELSIF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('session_check', OLD.id::text);
  ELSE
    PERFORM pg_notify('session_check', OLD.user_id::text);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "user_sessions_notify_session_check" AFTER UPDATE OF "revoked_at", "expires_at", "user_id" OR DELETE ON "user_sessions"
  FOR EACH ROW EXECUTE FUNCTION "notify_session_check"();
--> statement-breakpoint
CREATE TRIGGER "users_notify_session_check" AFTER UPDATE OF "is_active", "roles" ON "users"
  FOR EACH ROW WHEN (OLD."is_active" IS DISTINCT FROM NEW."is_active" OR OLD."roles" IS DISTINCT FROM NEW."roles")
  EXECUTE FUNCTION "notify_session_check"();
--> statement-breakpoint
CREATE TRIGGER "users_delete_notify_session_check" AFTER DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "notify_session_check"();
--> statement-breakpoint
-- TRUNCATE fires no row trigger.
CREATE TRIGGER "user_sessions_truncate_notify_session_check" AFTER TRUNCATE ON "user_sessions" FOR EACH STATEMENT EXECUTE FUNCTION "notify_session_check"();
--> statement-breakpoint
CREATE TRIGGER "users_truncate_notify_session_check" AFTER TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "notify_session_check"();
