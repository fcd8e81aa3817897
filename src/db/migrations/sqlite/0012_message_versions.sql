ALTER TABLE `messages` ADD `version_group` integer;--> statement-breakpoint
ALTER TABLE `messages` ADD `version` integer;--> statement-breakpoint
ALTER TABLE `messages` ADD `superseded` integer DEFAULT false NOT NULL;