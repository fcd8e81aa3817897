ALTER TABLE `ai_calls` ADD `http_status` integer;--> statement-breakpoint
ALTER TABLE `ai_calls` ADD `cost_eur` real;--> statement-breakpoint
ALTER TABLE `processing_runs` ADD `events` text;