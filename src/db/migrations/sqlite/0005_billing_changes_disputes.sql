CREATE TABLE `billing_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`detail` text NOT NULL,
	`stripe_ref` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `billing_changes_user_idx` ON `billing_changes` (`user_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `purchases` ADD `held_requests` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `referrals` ADD `revoked_at` integer;