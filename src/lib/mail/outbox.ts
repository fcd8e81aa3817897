import { one } from "../../db/transaction.ts";
import type { Db } from "../../db/client.ts";
import { mailOutbox } from "../../db/schema/index.ts";
import type { Clock } from "../clock.ts";
import type { Logger } from "../log.ts";
import type { Mailer } from "./mailer.ts";

/**
 * No SMTP_URL: every mail is kept in the outbox table, so a single box works
 * with no mail server. The log says where to read it (`unisson mail list`),
 * never its subject or text: codes and links stay out of the log.
 */
export function createOutboxMailer(db: Db, clock: Clock, log: Logger): Mailer {
  return {
    async send(m) {
      const row = await one(
        db
          .insert(mailOutbox)
          .values({ to: m.to, subject: m.subject, text: m.text, html: m.html ?? null, kind: m.kind, status: "outbox", createdAt: clock.now() })
          .returning({ id: mailOutbox.id }),
      );
      log.info("mail kept in outbox (SMTP_URL unset): read it with `unisson mail list`", { id: row.id, to: m.to, kind: m.kind });
    },
  };
}
