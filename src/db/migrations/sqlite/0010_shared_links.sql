CREATE TABLE `shared_links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`conversation_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`prefix` text NOT NULL,
	`include_models` integer DEFAULT false NOT NULL,
	`snapshot` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shared_links_token_hash_unique` ON `shared_links` (`token_hash`);--> statement-breakpoint
CREATE INDEX `shared_links_user_idx` ON `shared_links` (`user_id`);--> statement-breakpoint
CREATE INDEX `shared_links_conversation_idx` ON `shared_links` (`conversation_id`);