-- History search folds accents on PostgreSQL as on SQLite (FTS5's unicode61 remove_diacritics 2):
-- « economie » finds « l'Économie » and back. Not the unaccent extension: creating an extension needs
-- more than the database owner's rights; translate() needs nothing. The search's query goes through the
-- same function (src/db/pg/history.ts), so both sides fold alike. lower() first where the cluster's
-- locale can (a C-locale cluster lower-cases ASCII only: the capitals with accents fold to ASCII
-- capitals here, which to_tsvector then lower-cases).
CREATE FUNCTION "unisson_search_fold"(t text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT translate(lower(t), 'àáâãäåāèéêëēìíîïīòóôõöōùúûüūýÿçñÀÁÂÃÄÅĀÈÉÊËĒÌÍÎÏĪÒÓÔÕÖŌÙÚÛÜŪÝŸÇÑ', 'aaaaaaaeeeeeiiiiioooooouuuuuyycnAAAAAAAEEEEEIIIIIOOOOOOUUUUUYYCN') $$;
--> statement-breakpoint
DROP INDEX "messages_search_idx";
--> statement-breakpoint
ALTER TABLE "messages" DROP COLUMN "search_vector";
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (to_tsvector('french'::regconfig, "unisson_search_fold"("content"))) STORED;
--> statement-breakpoint
CREATE INDEX "messages_search_idx" ON "messages" USING gin ("search_vector");
