-- Each instance keeps its checks of API keys in memory (modules/public/apiKeys.ts). Every write that
-- changes what a check reads (a key revoked, its limit changed, the key removed) names the key's hash on
-- this channel, at commit, to every instance listening; '' drops every check.
CREATE FUNCTION "notify_api_key_check"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('api_key_check', '');
  ELSE
    PERFORM pg_notify('api_key_check', OLD.key_hash);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "api_keys_notify_api_key_check" AFTER UPDATE OF "revoked_at", "requests", "per", "key_hash" OR DELETE ON "api_keys"
  FOR EACH ROW EXECUTE FUNCTION "notify_api_key_check"();
--> statement-breakpoint
-- TRUNCATE fires no row trigger.
CREATE TRIGGER "api_keys_truncate_notify_api_key_check" AFTER TRUNCATE ON "api_keys" FOR EACH STATEMENT EXECUTE FUNCTION "notify_api_key_check"();
