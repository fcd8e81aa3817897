ALTER TABLE `processing_runs` ADD `server` text;--> statement-breakpoint
ALTER TABLE `processing_runs` ADD `heartbeat_at` integer;