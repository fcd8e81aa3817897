ALTER TABLE "messages" ADD COLUMN "version_group" integer;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "version" integer;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "superseded" boolean DEFAULT false NOT NULL;