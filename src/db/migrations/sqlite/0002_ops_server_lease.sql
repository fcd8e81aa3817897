CREATE TABLE `server_lease` (
	`id` integer PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`hostname` text NOT NULL,
	`pid` integer NOT NULL,
	`url` text,
	`acquired_at` integer NOT NULL,
	`heartbeat_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
