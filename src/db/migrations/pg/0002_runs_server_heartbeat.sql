ALTER TABLE "processing_runs" ADD COLUMN "server" text;--> statement-breakpoint
ALTER TABLE "processing_runs" ADD COLUMN "heartbeat_at" timestamp (3) with time zone;