-- The pet's colour and markings (issue 19): the lost pet alert tells professionals what the pet looks like.
ALTER TABLE "pets" ADD COLUMN "colour" text;
