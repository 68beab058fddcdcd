-- When a followed link gave the account its address, apart from a link that only proved the address it
-- had (the sign-up's) and one voided unused: the export gives the mails to the address from then on.
ALTER TABLE "email_changes" ADD COLUMN "took_address_at" timestamp with time zone;
--> statement-breakpoint
-- Links followed before this column: a link made after the account's sign-up to the address it holds
-- now, and used. That also takes a confirmation sent again and followed (the export then leaves out
-- the mails before it, never another holder's).
UPDATE "email_changes" SET "took_address_at" = "email_changes"."used_at"
  FROM "users"
  WHERE "users"."id" = "email_changes"."user_id"
    AND "email_changes"."used_at" IS NOT NULL
    AND lower("email_changes"."new_email") = lower("users"."email")
    AND "email_changes"."created_at" > "users"."created_at";
