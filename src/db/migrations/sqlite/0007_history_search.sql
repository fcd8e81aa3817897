-- Full-text search of the history (issue 23). One row per message, rowid = messages.id.
-- `owner` holds 'u<user id>' so a search intersects with the user's own rows inside FTS5
-- instead of ranking every user's matches. Contentless (the text stays in messages),
-- with contentless_delete so a deleted message leaves the index. unicode61 with
-- remove_diacritics 2 folds case and accents; prefix indexes serve the prefix queries
-- that stand in for French stemming, which FTS5 does not ship.
CREATE VIRTUAL TABLE `chat_search` USING fts5(owner, body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2', prefix='2 3');
--> statement-breakpoint
-- Kept in step by triggers, so every write path (chat, final processing, CLI, cascades) indexes alike.
CREATE TRIGGER `chat_search_insert` AFTER INSERT ON `messages` BEGIN
  INSERT INTO `chat_search`(rowid, owner, body)
  SELECT NEW.id, 'u' || c.user_id, NEW.content FROM conversations c WHERE c.id = NEW.conversation_id;
END;
--> statement-breakpoint
CREATE TRIGGER `chat_search_update` AFTER UPDATE OF `content` ON `messages` BEGIN
  DELETE FROM `chat_search` WHERE rowid = OLD.id;
  INSERT INTO `chat_search`(rowid, owner, body)
  SELECT NEW.id, 'u' || c.user_id, NEW.content FROM conversations c WHERE c.id = NEW.conversation_id;
END;
--> statement-breakpoint
CREATE TRIGGER `chat_search_delete` AFTER DELETE ON `messages` BEGIN
  DELETE FROM `chat_search` WHERE rowid = OLD.id;
END;
--> statement-breakpoint
-- Existing rows.
INSERT INTO `chat_search`(rowid, owner, body)
SELECT m.id, 'u' || c.user_id, m.content FROM messages m JOIN conversations c ON c.id = m.conversation_id;
