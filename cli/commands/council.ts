import { type Command, InvalidArgumentError } from "commander";
import { parseInput } from "../../src/admin/admin.schemas.ts";
import { cliActor } from "../../src/admin/audit-log.ts";
import { addCouncilMember, councilOverview, setCouncilSynthesisers, updateCouncilMember } from "../../src/admin/council-admin.service.ts";
import { testCouncilMember } from "../../src/admin/council-test-call.ts";
import { memberAddSchema, memberPatchSchema, PROVIDER_KINDS, type ProviderKind, synthesisersSchema } from "../../src/admin/council.schemas.ts";
import type { CouncilMemberView } from "../../src/admin/council.view.ts";
import { frCli } from "../../src/i18n/fr-cli.ts";
import { RefusedError } from "../../src/lib/errors.ts";
import { withDeps } from "../deps.ts";
import type { GlobalOptions } from "../options.ts";
import { print, table } from "../output.ts";
import { registerCouncilSettings } from "./council-settings.ts";

const t = frCli.council;

/** The options `add` and `set` share, as commander hands them over (strings, as typed). */
type MemberOptions = {
  name?: string;
  provider?: ProviderKind;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  vision?: boolean;
  specialty?: string;
  priceIn?: string;
  priceOut?: string;
  timeout?: string;
};

function providerArg(value: string): ProviderKind {
  const v = value.trim().toLowerCase();
  if (!(PROVIDER_KINDS as readonly string[]).includes(v)) throw new InvalidArgumentError(t.provider(PROVIDER_KINDS));
  return v as ProviderKind;
}

/** `add` requires a name, a provider kind and a model id; `set` changes any of them, the name included. */
function memberOptions(cmd: Command, forAdd: boolean): Command {
  const required = (flags: string, text: string, parse?: (v: string) => unknown) =>
    forAdd ? cmd.requiredOption(flags, text, parse as never) : cmd.option(flags, text, parse as never);
  required("--name <nom>", forAdd ? "nom affiché aux utilisateurs" : "nouveau nom affiché");
  required("--provider <type>", `type de fournisseur : ${PROVIDER_KINDS.join(", ")}`, providerArg);
  required("--model <id>", "identifiant du modèle chez le fournisseur");
  cmd
    .option("--base-url <url>", "adresse du fournisseur (obligatoire pour openai-compatible)")
    .option("--api-key <clé>", "clé d'API, stockée chiffrée ; « - » la lit sur l'entrée standard (elle reste hors de l'historique du shell)")
    .option("--vision", "le modèle lit les images")
    .option("--specialty <texte>", "spécialité affichée dans la liste des modèles")
    .option("--price-in <€/M>", "prix des jetons d'entrée, en € par million")
    .option("--price-out <€/M>", "prix des jetons de sortie, en € par million")
    .option("--timeout <ms>", "délai d'un appel, en millisecondes");
  if (!forAdd) cmd.option("--no-vision", "le modèle ne lit pas les images");
  return cmd;
}

/** `--api-key -`: the key read from stdin, so it is neither in `ps` nor in the shell's history. */
async function apiKeyOf(value: string | undefined): Promise<string | undefined> {
  if (value !== "-") return value;
  const key = (await new Response(Bun.stdin.stream()).text()).trim();
  if (!key) throw new RefusedError(t.emptyKey);
  return key;
}

/** The options as the HTTP body would carry them: one schema validates both. */
async function toBody(o: MemberOptions) {
  const body = {
    name: o.name,
    provider: o.provider,
    model: o.model,
    base_url: o.baseUrl,
    api_key: await apiKeyOf(o.apiKey),
    vision: o.vision,
    specialty: o.specialty,
    price_in: o.priceIn,
    price_out: o.priceOut,
    timeout_ms: o.timeout,
  };
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

const euros = (n: number | null) => (n === null ? "" : String(n).replace(".", ","));

/** The members, then one line for each member that fails or is never called, with its French reason. */
function membersTable(members: CouncilMemberView[]): string {
  const rows = table(
    ["Nom", "Fournisseur", "Modèle", "Adresse", "Actif", "Vision", "Entrée €/M", "Sortie €/M", "Synthèse", "Clé"],
    members.map((m) => [
      m.name,
      m.provider,
      m.model,
      m.base_url,
      m.enabled,
      m.vision,
      euros(m.price_in),
      euros(m.price_out),
      m.synthesis_rank,
      m.api_key ?? (m.api_key_source === "unreadable" ? t.unreadable : t.none),
    ]),
  );
  const reasons = members.filter((m) => m.status.ok === false && m.status.error).map((m) => t.reason(m.name, m.status.error!));
  return [rows, ...reasons].join("\n");
}

export function registerCouncil(program: Command) {
  const council = program.command("council").description("gère le conseil des modèles : membres, clés, synthétiseurs, réglages (appliqué sans redémarrage)");
  const opts = (cmd: Command) => cmd.optsWithGlobals<GlobalOptions>();

  council
    .command("list")
    .description("liste les modèles du conseil (clés masquées)")
    .action(async (_o: unknown, cmd: Command) => {
      const { members } = await withDeps(opts(cmd), async (deps) => await councilOverview(deps));
      print(opts(cmd), members, () => membersTable(members));
    });

  memberOptions(council.command("add").description("ajoute un modèle au conseil"), true).action(async (o: MemberOptions, cmd: Command) => {
    const input = parseInput(memberAddSchema, await toBody(o));
    const member = await withDeps(opts(cmd), async (deps) => await addCouncilMember(deps, input, cliActor()));
    print(opts(cmd), member, () => `${t.added(member.name)}\n\n${membersTable([member])}`);
  });

  memberOptions(council.command("set").description("modifie un modèle du conseil").argument("<nom>"), false).action(
    async (name: string, o: MemberOptions, cmd: Command) => {
      const patch = parseInput(memberPatchSchema, await toBody(o));
      const member = await withDeps(opts(cmd), async (deps) => await updateCouncilMember(deps, name, patch, cliActor()));
      const cleared = member.key_cleared ? `\n${t.keyCleared}` : "";
      print(opts(cmd), member, () => `${t.updated(member.name)}${cleared}\n\n${membersTable([member])}`);
    },
  );

  for (const on of [true, false]) {
    council
      .command(on ? "enable" : "disable")
      .description(on ? "active un modèle : il répond dès la question suivante" : "désactive un modèle : il n'est plus appelé")
      .argument("<nom>")
      .action(async (name: string, _o: unknown, cmd: Command) => {
        const member = await withDeps(opts(cmd), async (deps) => await updateCouncilMember(deps, name, { enabled: on }, cliActor()));
        print(opts(cmd), member, () => (on ? t.enabled(member.name) : t.disabled(member.name)));
      });
  }

  council
    .command("synthesisers")
    .description("choisit qui écrit la synthèse, dans l'ordre : le premier disponible l'écrit")
    .argument("<noms>", "noms séparés par des virgules, entre guillemets")
    .action(async (list: string, _o: unknown, cmd: Command) => {
      const { names } = parseInput(synthesisersSchema, { names: list.split(",").filter((n) => n.trim() !== "") });
      const stored = await withDeps(opts(cmd), async (deps) => await setCouncilSynthesisers(deps, names, cliActor()));
      print(opts(cmd), { synthesisers: stored }, () => t.synthesisers(stored));
    });

  registerCouncilSettings(council);

  council
    .command("test")
    .description("un appel réel au modèle : latence et premiers mots de la réponse, ou l'erreur du fournisseur")
    .argument("<nom>")
    .action(async (name: string, _o: unknown, cmd: Command) => {
      const result = await withDeps(opts(cmd), async (deps) => await testCouncilMember(deps, name));
      if (result.ok) {
        print(opts(cmd), result, () => t.testOk(result.name, result.latency_ms, result.first_words));
        return;
      }
      // A model that does not answer is a refusal (exit 1): the JSON still goes to stdout for scripts.
      if (opts(cmd).json) print(opts(cmd), result, () => "");
      throw new RefusedError(t.testFailed(result.name, result.error));
    });
}
