import { frOps } from "../i18n/fr-ops.ts";
import type { Council } from "../council/council-runtime.ts";
import type { Deps } from "../deps.ts";

/**
 * The one line an operator reads at start to see what is set up and what is
 * missing (no value, never a key): the council's enabled members by API key, payments, webhook,
 * mail, metrics and automatic backups.
 */
export function setupSummary({ config, ai }: Deps, council: Council): Record<string, string> {
  const configured = council.members.filter((m) => m.client);
  const missing = council.members.filter((m) => !m.client);
  return {
    models_configured: configured.map((m) => `${m.name} (${m.modelId})`).join(", ") || frOps.setup.none,
    models_missing: missing.map((m) => m.name).join(", ") || frOps.setup.none,
    payments: frOps.setup.payments(Boolean(config.stripe.secretKey)),
    stripe_webhook: frOps.setup.webhook(Boolean(config.stripe.webhookSecret)),
    mail: frOps.setup.mail(Boolean(config.mail.smtpUrl)),
    moderation: frOps.setup.moderation(Boolean(ai.moderation)),
    metrics: frOps.setup.metrics(Boolean(config.metricsToken)),
    backups: frOps.setup.backups(config.backup.intervalMs ? config.backup.intervalMs / 60_000 : null, config.backup.keep),
  };
}
