-- A yearly renewal being stopped at the provider is claimed until this time, so a transfer and the worker never cancel it twice; a claim a crash left behind runs out.
ALTER TABLE "checkout_sessions" ADD COLUMN "subscription_claimed_until" timestamp with time zone;
