import { frCli } from "../../src/i18n/fr-cli.ts";
import type { Command } from "commander";
import { cliActor, recordAudit } from "../../src/admin/audit-log.ts";
import { createPromoCode, listPromoCodes, type PromoRow } from "../../src/billing/promo.service.ts";
import { withDeps } from "../deps.ts";
import type { GlobalOptions } from "../options.ts";
import { dateFr, print, table } from "../output.ts";
import { isoDate, positiveInt } from "../parse.ts";

function promoJson(p: PromoRow) {
  return {
    code: p.code,
    percent_off: p.percentOff,
    max_uses: p.maxUses,
    uses: p.uses,
    expires_at: p.expiresAt?.toISOString() ?? null,
    stripe_coupon_id: p.stripeCouponId,
    created_at: p.createdAt.toISOString(),
  };
}

export function registerPromo(program: Command) {
  const promo = program.command("promo").description("codes promo (réduction en pourcentage)");

  promo
    .command("create")
    .description("crée un code promo (et son coupon Stripe si Stripe est configuré)")
    .argument("<CODE>", "3 à 32 lettres, chiffres ou tirets (mis en majuscules)")
    .requiredOption("--percent <n>", "réduction en pourcentage (1 à 100)", positiveInt("--percent", 100))
    .option("--max-uses <n>", "nombre maximal d'utilisations", positiveInt("--max-uses"))
    .option("--expires <date>", "date d'expiration (AAAA-MM-JJ, fin de journée UTC)", isoDate)
    .action(async (code: string, o: { percent: number; maxUses?: number; expires?: Date }, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions>();
      const row = await withDeps(opts, async (deps) => {
        const created = await createPromoCode(deps, { code, percentOff: o.percent, maxUses: o.maxUses ?? null, expiresAt: o.expires ?? null });
        const changes = {
          code: created.code,
          percent_off: created.percentOff,
          max_uses: created.maxUses,
          expires_at: created.expiresAt?.toISOString() ?? null,
        };
        await recordAudit(deps.db, { at: deps.clock.now(), actor: cliActor(), action: "promo.create", changes });
        return created;
      });
      print(opts, promoJson(row), () => frCli.promo.created(row.code, row.percentOff));
    });

  promo
    .command("list")
    .description("liste les codes promo")
    .action(async (_o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions>();
      const rows = await withDeps(opts, async (deps) => await listPromoCodes(deps.db));
      print(opts, rows.map(promoJson), () =>
        rows.length
          ? table(
              ["Code", "Réduction", "Utilisations", "Expire le", "Créé le"],
              rows.map((p) => [p.code, `${p.percentOff} %`, `${p.uses}${p.maxUses == null ? "" : `/${p.maxUses}`}`, dateFr(p.expiresAt), dateFr(p.createdAt)]),
            )
          : frCli.promo.empty,
      );
    });
}
