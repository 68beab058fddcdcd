-- Administrators' search (admin-search): trigram indexes for parts of names, pet names and e-mails (pg_trgm, 0006),
-- a phone's national digits from its area code on, and every chip a pet carried.
CREATE INDEX "chips_chip_id_idx" ON "chips" USING btree ("chip_id");--> statement-breakpoint
CREATE INDEX "pets_name_trgm_idx" ON "pets" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_name_trgm_idx" ON "users" USING gin (("first_name" || ' ' || "last_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_phone_digits_idx" ON "users" USING btree (right(regexp_replace("phone_number", '\D', '', 'g'), 10) text_pattern_ops);