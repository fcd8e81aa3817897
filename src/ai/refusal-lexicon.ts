/**
 * The words of the refusal judgment (src/ai/refusal.ts), by language: what a
 * model says when it declines in its own voice, what qualifies a decline
 * into a hedge, and the sentences that carry no content on the subject
 * (thanks, apologies, referrals, talk about the request itself). Each list
 * was written from the corpus of test/fixtures/refusal-corpus/ (issue 43).
 */

const B = "(?<![\\p{L}\\p{N}])";
const E = "(?![\\p{L}\\p{N}])";
const W = (s: string) => new RegExp(`${B}(?:${s})${E}`, "iu");

/** French verbs a model declines with (« je ne peux pas <verbe> »). */
const ACT_FR =
  "aider|assister|répondre|rédiger|traiter|satisfaire|donner|accéder|fournir|produire|écrire|accomplir|effectuer|réaliser|générer|créer|participer|apporter|faire|partager|communiquer|transmettre|indiquer|dire|prononcer|exprimer|engager|consolider|synthétiser|présenter|détailler|expliquer|proposer|prêter|aborder|traduire|répondrai";
const PRON_FR = "(?:(?:vous|te|t['’]|me|m['’]|y|en|le|la|les|l['’]|lui|leur)\\s*)*";
const ACT_EN =
  "help(?!\\s+but)|assist|comply|fulfil+|provide|complete|write|answer|respond|produce|generate|create|engage|draft|support|process|share|give|tell|offer|do|weigh\\s+in|discuss|continue|summari[sz]e|consolidate|go\\s+along";

/**
 * A decline in the model's own voice, one expression per entry, in the
 * languages the council answers in (fr, en, es, de, it, pt, nl, ru, pl, ar,
 * zh, ja). First person only: « un employeur ne peut pas refuser » is not one.
 */
export const DECLINES: RegExp[] = [
  // French.
  W(
    `je\\s+ne\\s+(?:peux|pourrai|pourrais|vais\\s+pas\\s+pouvoir|suis\\s+pas\\s+en\\s+mesure\\s+d(?:e|['’])|me\\s+sens\\s+pas\\s+en\\s+mesure\\s+d(?:e|['’])|suis\\s+pas\\s+autorisée?\\s+à|vais|veux|souhaite|saurais(?!\\s+(?:trop|dire\\s+mieux)))\\s*(?:pas\\s+|malheureusement\\s+|hélas\\s+|cependant\\s+|toutefois\\s+|néanmoins\\s+|donc\\s+)*${PRON_FR}(?:${ACT_FR})`,
  ),
  W(`il\\s+(?:ne\\s+m['’]est\\s+pas\\s+possible|m['’]est\\s+impossible)\\s+d(?:e|['’])\\s*${PRON_FR}(?:${ACT_FR})`),
  W("je\\s+ne\\s+(?:répondrai|fournirai|rédigerai|donnerai|traiterai|produirai|aiderai|écrirai|ferai)"),
  W("je\\s+(?:préfère|préférerais)\\s+ne\\s+pas"),
  W("je\\s+(?:dois|me\\s+dois\\s+de|vais\\s+devoir)\\s+(?:malheureusement\\s+|respectueusement\\s+)?(?:refuser|décliner)"),
  W("je\\s+(?:refuse|décline)\\s+(?:de|d['’]|cette|votre|ta)"),
  W("je\\s+m['’]abstiendrai"),
  W("je\\s+ne\\s+suis\\s+pas\\s+à\\s+l['’]aise"),
  W("(?:ce\\s+n['’]est|ça\\s+n['’]est)\\s+pas\\s+(?:quelque\\s+chose|une\\s+demande|une\\s+question)\\s+(?:que|à\\s+laquelle|auquel)\\s+je\\s+(?:peux|puis)"),
  W("sort\\s+du\\s+cadre\\s+de\\s+ce\\s+que\\s+je\\s+peux"),
  // English.
  W(
    `i\\s*(?:can['’]?t|cannot|can\\s+not|won['’]t|will\\s+not|am\\s+unable\\s+to|['’]m\\s+unable\\s+to|am\\s+not\\s+able\\s+to|['’]m\\s+not\\s+able\\s+to|am\\s+not\\s+going\\s+to|['’]m\\s+not\\s+going\\s+to|am\\s+not\\s+(?:allowed|permitted)\\s+to|['’]m\\s+not\\s+(?:allowed|permitted)\\s+to|(?:am|['’]m)\\s+not\\s+in\\s+a\\s+position\\s+to)(?:\\s+be\\s+able\\s+to)?\\s+(?:${ACT_EN})`,
  ),
  W("i\\s*(?:['’]d|would)\\s+rather\\s+not"),
  W("i\\s+(?:must|have\\s+to|need\\s+to)\\s+(?:respectfully\\s+)?(?:decline|refuse)"),
  W("i\\s*(?:['’]m|am)\\s+not\\s+in\\s+a\\s+position"),
  W("i\\s*(?:['’]m\\s+not|am\\s+not|don['’]t\\s+feel)\\s+comfortable\\s+(?:writing|providing|helping|answering|doing|creating|with)"),
  W("(?:that|this|it)\\s*(?:['’]s|\\s+is)\\s+not\\s+something\\s+i\\s*(?:can|['’]m\\s+able|am\\s+able|will)"),
  W("i\\s+can['’]?t\\s+do\\s+(?:this|that)(?:\\s+one)?"),
  W("outside\\s+(?:of\\s+)?what\\s+i\\s*(?:can|['’]m\\s+able\\s+to|am\\s+able\\s+to)"),
  // Spanish.
  W(
    "no\\s+(?:puedo|podré|me\\s+es\\s+posible|estoy\\s+en\\s+condiciones\\s+de|soy\\s+capaz\\s+de|voy\\s+a)\\s+(?:\\p{L}+\\s+){0,1}?(?:ayudar\\p{L}*|responder|contestar|proporcionar|cumplir|dar\\p{L}*|ofrecer|facilitar|hacer|atender|brindar|compartir|asistir|generar|crear|escribir|redactar)",
  ),
  W("prefiero\\s+no\\s+(?:responder|contestar|opinar|hablar|pronunciarme)"),
  W("debo\\s+(?:rechazar|declinar)"),
  // German: the verb comes last (« dabei kann ich leider nicht helfen »).
  W(
    "(?:ich\\s+(?:kann|werde|darf)|(?:kann|werde|darf)\\s+ich)(?:\\s+\\p{L}+){0,4}?\\s+nicht(?:\\s+\\p{L}+){0,2}?\\s+(?:helfen|beantworten|antworten|bereitstellen|geben|tun|bearbeiten|erfüllen|unterstützen|liefern|machen|schreiben|erstellen|generieren)",
  ),
  W("(?:bin\\s+ich|ich\\s+bin)\\s+(?:leider\\s+)?nicht\\s+in\\s+der\\s+lage"),
  W("ich\\s+muss\\s+(?:\\p{L}+\\s+){0,2}ablehnen"),
  // Italian.
  W(
    "non\\s+(?:posso|potrò|sono\\s+in\\s+grado\\s+di|mi\\s+è\\s+possibile|riesco\\s+a)\\s+(?:aiutar\\p{L}*|rispondere|fornire|dare|soddisfare|fare|condividere|assistere|generare|creare|scrivere)",
  ),
  W("preferisco\\s+non\\s+(?:rispondere|commentare|esprimermi)"),
  W("devo\\s+(?:rifiutare|declinare)"),
  // Portuguese.
  W(
    "não\\s+(?:posso|consigo|sou\\s+capaz\\s+de|me\\s+é\\s+possível|vou|poderei)\\s+(?:ajudar|responder|fornecer|atender|dar|fazer|compartilhar|partilhar|cumprir|auxiliar|gerar|criar|escrever)",
  ),
  W("prefiro\\s+não\\s+(?:responder|comentar|opinar)"),
  W("devo\\s+recusar"),
  // Dutch.
  W("(?:ik\\s+kan|kan\\s+ik)(?:\\s+\\p{L}+){0,4}?\\s+niet(?:\\s+\\p{L}+){0,2}?\\s+(?:helpen|beantwoorden|geven|doen|verstrekken|leveren)"),
  W("ik\\s+ben\\s+niet\\s+in\\s+staat"),
  // Russian, Polish, Arabic.
  W("не\\s+могу\\s+(?:\\p{L}+\\s+){0,2}?(?:помочь|ответить|предоставить|дать|выполнить|сделать|рассказать)"),
  W("я\\s+не\\s+буду"),
  W("nie\\s+(?:mogę|jestem\\s+w\\s+stanie)\\s+(?:pomóc|odpowiedzieć|udzielić|podać)"),
  /(?:لا\s+(?:أستطيع|يمكنني))/u,
  // Chinese and Japanese: no spaces, no word boundaries.
  /(?:不能|无法|不会|没办法|不便)(?:为您|帮您|帮你|为你|向您)?(?:帮|回答|提供|满足|协助|完成|做|处理|给)/u,
  /(?:お答え|お応え|回答|お手伝い|対応|提供|協力)(?:が|は|を)?(?:でき|いたし|致し)(?:ません|かねます)/u,
];

/**
 * A decline that bears on how (not whether) the model answers: « je ne peux
 * pas répondre avec certitude / à votre place / sans plus d'informations ».
 * A sentence with one is a hedge, never a refusal.
 */
export const HEDGE = W(
  [
    "avec\\s+certitude|certitude|de\\s+(?:manière|façon)\\s+(?:certaine|définitive|précise|exhaustive|personnalisée|catégorique|générale)|précisément|exactement|à\\s+coup\\s+sûr|personnalisée?|en\\s+détail|au\\s+centime\\s+près",
    "sans\\s+(?:plus\\s+d(?:e|['’])|davantage\\s+d(?:e|['’])|connaître|avoir|voir)",
    "with\\s+certainty|definitively|precisely|exactly|for\\s+sure|in\\s+detail|without\\s+(?:more|further|knowing|seeing)|personali[sz]ed|fully|completely",
    "sin\\s+más|con\\s+certeza|exacta|genau|mit\\s+Sicherheit|con\\s+certezza|com\\s+certeza",
  ].join("|"),
);

/** What follows a decline and turns it into an answer: « …, mais voici », "…, but here is", « … ; en général… ». */
export const CONTRAST = W(
  "mais|but|cependant|toutefois|however|en\\s+revanche|par\\s+contre|cela\\s+dit|that\\s+said|pero|sin\\s+embargo|aber|jedoch|ma|però|mas|porém|maar|но|однако|但是?|不过",
);

/** Punctuation that, after a decline, opens what the model does say (« je ne peux pas X ; voici… »). */
export const CLAUSE_BREAK = /[;:—]/u;

/**
 * Sentences that say nothing on the subject: thanks, understanding,
 * referrals to a professional, the model's rules, talk about the request or
 * the answers themselves. A refusal pads itself with these. Narrow on
 * purpose: a sentence wrongly called hollow can cost a useful answer.
 */
export const HOLLOW: RegExp[] = [
  W(
    "merci|remercie|thank|thanks|gracias|danke|vielen\\s+dank|grazie|obrigad[oa]|bedankt|спасибо|j['’]apprécie|i\\s+(?:really\\s+|genuinely\\s+)?appreciate|je\\s+salue|je\\s+tiens\\s+à|agradezco|agradeço|apprezzo|ich\\s+schätze",
  ),
  W(
    "je\\s+comprends|je\\s+mesure|je\\s+sais\\s+que\\s+ce|i\\s+understand|i\\s+hear\\s+you|i\\s+can\\s+tell|entiendo|ich\\s+verstehe|capisco|compreendo|ik\\s+begrijp|я\\s+понимаю|(?:completely|totally)\\s+understandable|compréhensible|il\\s+est\\s+(?:légitime|naturel)\\s+de|votre\\s+curiosité|curiosity\\s+is",
  ),
  W(
    "personne\\s+compétente|vous\\s+accompagner|support\\s+from|be\\s+there\\s+for\\s+you|pas\\s+seule?|not\\s+alone|your\\s+feelings|vos\\s+sentiments|(?:je\\s+)?reste\\s+(?:disponible|à\\s+votre\\s+disposition)|happy\\s+to\\s+help|(?:être|vous\\s+être)\\s+utile|be\\s+(?:helpful|useful)|with\\s+something\\s+else|un\\s+autre\\s+sujet",
  ),
  // The closing offer of further help.
  W(
    "(?:any\\s+)?other\\s+questions?|d['’]autres\\s+questions|feel\\s+free|n['’]hésitez\\s+pas|anything\\s+else|pour\\s+autre\\s+chose|autre\\s+chose\\s*\\?|otra\\s+pregunta|otras\\s+preguntas|andere\\s+fragen|altre\\s+domande|outras\\s+perguntas|andere\\s+vragen|други[ех]\\s+вопрос\\p{L}*",
  ),
  W(
    "mes\\s+(?:consignes|directives|règles|principes)|règles\\s+d['’]utilisation|my\\s+(?:guidelines|policies|principles)|the\\s+principles\\s+i|usage\\s+polic(?:y|ies)|content\\s+polic(?:y|ies)|causer\\s+du\\s+tort|nuire\\s+à\\s+des|cause\\s+(?:real\\s+)?harm|contrevien\\p{L}*\\s+à\\s+mes|violat\\p{L}*\\s+my|goes\\s+against\\s+(?:my|the\\s+principles)|en\\s+tant\\s+qu['’](?:ia|assistant)|as\\s+an\\s+ai|ce\\s+que\\s+je\\s+peux\\s+(?:traiter|faire|produire)",
  ),
  W(
    "(?:cette|votre|ta|ce|ces)\\s+(?:demande|requête|question|sujet|synthèse|situation|démarche|genre\\s+de|type\\s+de\\s+(?:demande|contenu|question))|informations?\\s+demandées?|(?:this|your|that|such|these)\\s+(?:request|question|topic|synthesis|summary|subject|situation|kind\\s+of\\s+(?:content|request)|context|information\\s+you)|questions\\s+like|sujet\\s+(?:important|délicat|sensible)|important\\s+(?:pour\\s+vous|to\\s+you|for\\s+you)|les\\s+réponses|the\\s+answers",
  ),
  W(
    "(?:esta|esa|tu|su)\\s+(?:solicitud|petición|pregunta)|(?:diese[rn]?|ihre|deine)\\s+(?:anfrage|frage|thema)|dieses\\s+thema|(?:questa|tua|sua)\\s+(?:richiesta|domanda)|(?:esse|este|essa|esta|sua|seu)\\s+(?:pedido|pergunta|assunto)|(?:deze|je|uw)\\s+(?:vraag|verzoek)|dit\\s+onderwerp|(?:этот|этим|ваш)\\s+(?:запрос\\p{L}*|вопрос\\p{L}*)|эта\\s+тема",
  ),
  /(?:问题|请求|要求|信任|感谢|谢谢|其他|質問|依頼|ご要望|他に)/u,
];

/** Apologies and regret: hollow only in a short sentence (« Je suis désolé. »); "Unfortunately, the museum is closed on Mondays" is content. */
export const REGRET = W(
  "désolée?|navrée?|je\\s+regrette|je\\s+m['’]en\\s+excuse|sorry|apologi[sz]e|apologies|lo\\s+siento|tut\\s+mir\\s+leid|mi\\s+dispiace|mi\\s+spiace|desculp\\p{L}*|lamento|het\\s+spijt|извините|к\\s+сожалению|malheureusement|unfortunately|regrettably|leider|purtroppo|infelizmente|lamentablemente|helaas",
);

/** A line or span that is not the model's voice but a quoted text: quotation marks of the council's languages. */
export const QUOTED = /«[^»]{0,600}»|“[^”]{0,600}”|„[^“”]{0,600}[“”]|"[^"\n]{0,600}"|「[^」]{0,600}」|『[^』]{0,600}』/gu;

/** A dialogue line (« — Tu viens ? », "CLERK: …", « Vous : … ») or a quoted block line ("> …"). */
export const SPOKEN_LINE = /^\s*(?:[—–-]\s|>|[\p{Lu}][\p{L}'’ ]{0,24}\s?:\s)/u;

/** A line that labels what follows it on the same line as a text for the user (« Traduction : … », "Template: …"). */
export const FRAME_LABEL =
  /^[ \t]*(?:traduction|translation|traduit|translated|en\s+(?:anglais|français|espagnol|allemand|italien|portugais|chinois)|in\s+(?:english|french|spanish|german|italian|portuguese|chinese)|modèle|template|exemple|example|réponse\s+type|brouillon|draft|script|citation|quote)[^:\n]{0,40}:[ \t]*\S.*$/gimu;

/** A referral to someone else (« consultez un médecin »): hollow only in a short sentence; inside an answer it is advice. */
export const REFERRAL = W(
  "(?:consult(?:er|ez)?|(?:vous|s['’])\\s*adresser\\s+à|contact(?:er|ez)?|see|talk\\s+to|speak\\s+(?:to|with)|reach\\s+out\\s+to|(?:vous\\s+)?tourner\\s+vers|consultar|konsultieren|consultare)\\s+(?:un|une|a|an|your|votre|vos|einen|um)\\s+(?:\\p{L}+\\s+)?(?:spécialiste|specialist|médecin|doctor|avocat|lawyer|expert|professionnel|professional|profesional|fachmann|professionista|profissional)s?(?:\\s+(?:qualifié|qualified))?",
);
