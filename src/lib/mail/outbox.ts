import type { Db } from "../../db/client.ts";
import { mailOutbox } from "../../db/schema/index.ts";
import type { Clock } from "../clock.ts";
import type { Logger } from "../log.ts";
import type { Mailer } from "./mailer.ts";

/**
 * No SMTP_URL: every mail is kept in the outbox table and printed to the log,
 * so a single box works with no mail server (`unisson mail list` shows them).
 */
export function createOutboxMailer(db: Db, clock: Clock, log: Logger): Mailer {
  return {
    async send(m) {
      db.insert(mailOutbox)
        .values({ to: m.to, subject: m.subject, text: m.text, html: m.html ?? null, kind: m.kind, status: "outbox", createdAt: clock.now() })
        .run();
      log.info("mail kept in outbox", { to: m.to, subject: m.subject, kind: m.kind });
      log.info(`mail text:\n${m.text}`);
    },
  };
}
