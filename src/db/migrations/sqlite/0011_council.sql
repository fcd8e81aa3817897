CREATE TABLE `council_members` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`specialty` text NOT NULL,
	`provider` text NOT NULL,
	`model` text,
	`base_url` text,
	`api_key_enc` text,
	`api_key_last4` text,
	`builtin_key` text,
	`vision` integer NOT NULL,
	`price_in_eur` real,
	`price_out_eur` real,
	`timeout_ms` integer,
	`enabled` integer NOT NULL,
	`synthesis_rank` integer,
	`position` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `council_members_name_idx` ON `council_members` (`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `council_members_builtin_idx` ON `council_members` (`builtin_key`);--> statement-breakpoint
CREATE TABLE `council_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`clarifier_member_id` integer,
	`moderation_model` text,
	`peer_review` integer NOT NULL,
	`version` integer NOT NULL
);
--> statement-breakpoint
-- The six members of the spec, as every installation had them (their model, key, base URL and prices stay those of MODEL_*, *_API_KEY, *_BASE_URL, AI_PRICE_*).
INSERT INTO `council_members` (`name`, `specialty`, `provider`, `builtin_key`, `vision`, `enabled`, `synthesis_rank`, `position`, `created_at`, `updated_at`) VALUES
	('GPT-4', 'Raisonnement polyvalent', 'openai', 'gpt4', 1, 1, 2, 1, (CAST(strftime('%s','now') AS INTEGER) * 1000), (CAST(strftime('%s','now') AS INTEGER) * 1000)),
	('Claude 3 Haiku', 'Réponses rapides et concises', 'anthropic', 'claudeHaiku', 1, 1, 6, 2, (CAST(strftime('%s','now') AS INTEGER) * 1000), (CAST(strftime('%s','now') AS INTEGER) * 1000)),
	('Claude Opus 4.1', 'Analyse approfondie et nuancée', 'anthropic', 'claudeOpus', 1, 1, 1, 3, (CAST(strftime('%s','now') AS INTEGER) * 1000), (CAST(strftime('%s','now') AS INTEGER) * 1000)),
	('Gemini Pro', 'Connaissances étendues et multimodales', 'google', 'geminiPro', 1, 1, 3, 4, (CAST(strftime('%s','now') AS INTEGER) * 1000), (CAST(strftime('%s','now') AS INTEGER) * 1000)),
	('Mistral Large', 'Expertise francophone et européenne', 'mistral', 'mistralLarge', 0, 1, 4, 5, (CAST(strftime('%s','now') AS INTEGER) * 1000), (CAST(strftime('%s','now') AS INTEGER) * 1000)),
	('Sonar Pro', 'Recherche web en temps réel, avec sources', 'perplexity', 'sonarPro', 0, 1, 5, 6, (CAST(strftime('%s','now') AS INTEGER) * 1000), (CAST(strftime('%s','now') AS INTEGER) * 1000));
--> statement-breakpoint
-- Claude 3 Haiku clarifies first, as before (docs/DECISIONS.md).
INSERT INTO `council_settings` (`id`, `clarifier_member_id`, `moderation_model`, `peer_review`, `version`) VALUES (1, (SELECT `id` FROM `council_members` WHERE `builtin_key` = 'claudeHaiku'), NULL, 0, 1);
