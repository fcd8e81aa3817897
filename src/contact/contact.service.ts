import { one } from "../db/transaction.ts";
import { frDetails } from "../i18n/fr-details.ts";
import { contactMessages } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { contactMail } from "./contact-mail.ts";
import type { ContactInput } from "./contact.schemas.ts";

/**
 * Stores the message, then mails it to SUPPORT_EMAIL. The row is written
 * first and kept when the mail fails, so no message is ever lost (the team
 * can read contact_messages); the visitor still gets an error naming the
 * support address, as the spec's contact error does.
 */
export async function submitContact(
  deps: Pick<Deps, "db" | "clock" | "config" | "mailer" | "log">,
  input: ContactInput,
  meta: { userId: number | null; ip: string | null },
): Promise<{ id: number }> {
  const row = await one(
    deps.db
      .insert(contactMessages)
      .values({ ...input, userId: meta.userId, ip: meta.ip, createdAt: deps.clock.now() })
      .returning({ id: contactMessages.id }),
  );
  const support = deps.config.mail.supportEmail;
  try {
    await deps.mailer.send(contactMail({ ...input, to: support, id: row.id, userId: meta.userId }));
  } catch (e) {
    deps.log.error("contact mail not delivered", { contact_id: row.id, error: e });
    throw new AppError("CONTACT_SEND_FAILED", frDetails.contactFailed(support));
  }
  return { id: row.id };
}
