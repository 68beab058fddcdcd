-- A lifetime checkout that replaces paid yearly cover takes the unused part off its price; the credit is kept to show it.
ALTER TABLE "checkout_sessions" ADD COLUMN "credit_cents" integer DEFAULT 0 NOT NULL;
