CREATE TABLE `api_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`api_key_id` integer NOT NULL,
	`request_key` text NOT NULL,
	`body_hash` text NOT NULL,
	`conversation_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`read_at` integer,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_requests_key_idx` ON `api_requests` (`api_key_id`,`request_key`);