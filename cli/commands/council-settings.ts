import type { Command } from "commander";
import { parseInput } from "../../src/admin/admin.schemas.ts";
import { cliActor } from "../../src/admin/audit-log.ts";
import { councilOverview, updateCouncilSettings } from "../../src/admin/council-admin.service.ts";
import { councilSettingsSchema } from "../../src/admin/council.schemas.ts";
import type { CouncilView } from "../../src/admin/council.view.ts";
import { DEFAULT_MODERATION_MODEL } from "../../src/contracts/moderation.ts";
import { frCli } from "../../src/i18n/fr-cli.ts";
import { withDeps } from "../deps.ts";
import type { GlobalOptions } from "../options.ts";
import { print } from "../output.ts";
import { onOff } from "../parse.ts";

const t = frCli.council.settings;
const synthesisers = frCli.council.synthesisers;

type SettingsOptions = { peerReview?: boolean; clarifier?: string; moderationModel?: string };

function describe(s: CouncilView["settings"]): string {
  return [
    t.peerReview(s.peer_review),
    t.clarifier(s.clarifier),
    t.moderationModel(s.moderation_model, DEFAULT_MODERATION_MODEL),
    synthesisers(s.synthesisers),
  ].join("\n");
}

/**
 * `unisson council settings`: with no option, the council's settings as
 * stored; with options, the same change as PATCH /api/admin/council/settings
 * (the same schema, the same French refusals), audited as `cli:<user>`.
 */
export function registerCouncilSettings(council: Command) {
  council
    .command("settings")
    .description("affiche ou change les réglages du conseil : délibération, modèle de clarification, modèle de modération")
    .option("--peer-review <on|off>", "délibération : chaque modèle classe les réponses des autres avant la synthèse", onOff)
    .option("--clarifier <nom>", "le modèle qui pose les questions de clarification")
    .option("--moderation-model <id>", `modèle de modération d'OpenAI ; « default » revient à ${DEFAULT_MODERATION_MODEL}`)
    .action(async (o: SettingsOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions>();
      const body = {
        peer_review: o.peerReview,
        clarifier: o.clarifier,
        moderation_model: o.moderationModel?.trim().toLowerCase() === "default" ? null : o.moderationModel,
      };
      const given = Object.values(body).some((v) => v !== undefined);
      const patch = given ? parseInput(councilSettingsSchema, body) : null;
      const settings = await withDeps(opts, async (deps) =>
        patch ? await updateCouncilSettings(deps, patch, cliActor()) : (await councilOverview(deps)).settings,
      );
      print(opts, settings, () => (patch ? `${t.saved}\n\n${describe(settings)}` : describe(settings)));
    });
}
