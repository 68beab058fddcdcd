CREATE TABLE "discarded_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"folder" text NOT NULL,
	"name" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
