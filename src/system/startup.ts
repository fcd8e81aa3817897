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
    models_configured: configured.map((m) => `${m.name} (${m.modelId})`).join(", ") || "aucun",
    models_missing: missing.map((m) => m.name).join(", ") || "aucun",
    payments: config.stripe.secretKey ? "Stripe configuré" : "désactivés (STRIPE_SECRET_KEY absent)",
    stripe_webhook: config.stripe.webhookSecret ? "configuré" : "absent (STRIPE_WEBHOOK_SECRET)",
    mail: config.mail.smtpUrl ? "SMTP" : "boîte d'envoi (SMTP_URL absent)",
    moderation: ai.moderation ? "API OpenAI" : "règles locales (OPENAI_API_KEY absent)",
    metrics: config.metricsToken ? "GET /metrics" : "désactivées (METRICS_TOKEN absent)",
    backups: config.backup.intervalMs ? `toutes les ${config.backup.intervalMs / 60_000} min, ${config.backup.keep} gardées` : "automatiques désactivées (BACKUP_INTERVAL absent)",
  };
}
