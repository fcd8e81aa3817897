import { frOps } from "../i18n/fr-ops.ts";
import type { Deps } from "../deps.ts";

/**
 * The one line an operator reads at start to see what is set up and what is
 * missing (no value, never a key): models by API key, payments, webhook,
 * mail, metrics and automatic backups.
 */
export function setupSummary({ config, ai }: Deps): Record<string, string> {
  const configured = ai.models.filter((m) => ai.clients[m.provider]);
  const missing = ai.models.filter((m) => !ai.clients[m.provider]);
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
