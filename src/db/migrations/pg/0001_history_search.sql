-- Full-text search of the history, PostgreSQL's counterpart of SQLite's chat_search (FTS5, sqlite/0007).
-- A generated tsvector column rather than a side table kept by triggers: PostgreSQL computes it on every
-- insert and content update (every write path, CLI and cascades included), and for the rows already there
-- when the column is added, so nothing needs rebuilding. The 'french' configuration stems French words
-- (FTS5 needed prefix queries for that) and folds case; unlike SQLite's unicode61 remove_diacritics it keeps
-- accents (folding them needs the unaccent extension, which a plain database user may not create).
-- A search filters on the owner through conversations.user_id (indexed), not inside the index as FTS5's owner column.
ALTER TABLE "messages" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (to_tsvector('french'::regconfig, "content")) STORED;
--> statement-breakpoint
CREATE INDEX "messages_search_idx" ON "messages" USING gin ("search_vector");
