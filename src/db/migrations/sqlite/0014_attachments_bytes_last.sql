-- The large values last, smallest first (issue 44): SQLite keeps what follows a large value after its overflow pages,
-- so reading created_at or a thumbnail placed after a 10 MB file read the 10 MB. The table is rebuilt with the same rows, ids and sequence.
CREATE TABLE `__new_attachments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`conversation_id` integer,
	`message_id` integer,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`mime` text NOT NULL,
	`size` integer NOT NULL,
	`pages` integer,
	`width` integer,
	`height` integer,
	`created_at` integer NOT NULL,
	`text` text,
	`thumbnail` blob,
	`model_image` blob,
	`data` blob NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_attachments` (`id`, `user_id`, `conversation_id`, `message_id`, `name`, `kind`, `mime`, `size`, `pages`, `width`, `height`, `created_at`, `text`, `thumbnail`, `model_image`, `data`)
	SELECT `id`, `user_id`, `conversation_id`, `message_id`, `name`, `kind`, `mime`, `size`, `pages`, `width`, `height`, `created_at`, `text`, `thumbnail`, `model_image`, `data` FROM `attachments`;
--> statement-breakpoint
-- The next id stays the next: a deleted file's id is never given again.
DELETE FROM `sqlite_sequence` WHERE `name` = '__new_attachments';
--> statement-breakpoint
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT '__new_attachments', `seq` FROM `sqlite_sequence` WHERE `name` = 'attachments';
--> statement-breakpoint
DROP TABLE `attachments`;
--> statement-breakpoint
ALTER TABLE `__new_attachments` RENAME TO `attachments`;
--> statement-breakpoint
CREATE INDEX `attachments_user_idx` ON `attachments` (`user_id`,`created_at`);
--> statement-breakpoint
CREATE INDEX `attachments_message_idx` ON `attachments` (`message_id`);
--> statement-breakpoint
CREATE INDEX `attachments_unread_idx` ON `attachments` (`created_at`,`message_id`,`conversation_id`);
