/**
 * Texts for the refusal detector's tests: refusals as providers write them
 * (French and English, short and long), and normal answers, hedges included,
 * that must never be taken for one.
 */

export const REAL_REFUSALS = [
  "Je suis désolé, je ne peux pas rédiger cette synthèse.",
  "Malheureusement, il ne m'est pas possible de rédiger cette synthèse.",
  "Malheureusement, je ne peux pas vous aider avec cette demande.",
  "Je ne peux pas répondre à cette demande.",
  "Désolé, mais je ne suis pas en mesure de fournir ce type de contenu.",
  "Je regrette, mais je dois refuser cette demande : elle contrevient à mes consignes.",
  "En tant qu'IA, je ne peux pas vous aider sur ce sujet.",
  "Il m'est impossible de donner suite à votre requête.",
  "Je ne vais pas pouvoir vous aider avec ça.",
  "Je suis navrée, je ne peux pas traiter cette requête car elle concerne une activité illégale.",
  "I'm sorry, but I can't help with that.",
  "I can't assist with this request.",
  "I'm unable to comply with this request as it goes against my guidelines.",
  "Sorry, I cannot provide that.",
  "I must respectfully decline. Writing this synthesis would mean presenting unverified claims as facts.",
  "Unfortunately, I am not able to help with this request.",
  "I won't be able to write this synthesis.",
  "Je comprends votre intérêt pour ce sujet. Cependant, je ne peux pas répondre à cette question, désolé.",
  "I apologize, but I cannot provide instructions for that.",
  "I'm just a language model, so I can't help with that.",
  "I'm not comfortable writing this synthesis: the answers contradict each other on facts I cannot check.",
  "Je suis désolé, mais je ne peux pas fournir d'informations sur ce sujet.",
  "Désolé, je ne peux pas t'aider avec ça.",
  "I can’t comply with that.",
  "Sorry, but I can't assist with creating that content.",
  `Je ne peux pas rédiger cette synthèse. ${"Les réponses transmises mêlent des affirmations que je ne suis pas en mesure de vérifier. ".repeat(8)}`,
];

export const NORMAL_ANSWERS = [
  "Paris est la capitale de la France depuis la fin du Xe siècle, avec quelques interruptions.",
  "Je ne peux pas répondre à cette question avec certitude, mais les estimations de l'INSEE donnent environ 2,1 millions d'habitants pour Paris intra-muros.",
  "Il est difficile de prédire l'évolution des taux. Voici les facteurs qui comptent : l'inflation, la politique de la BCE et la croissance.",
  "Le bailleur peut refuser de renouveler le bail pour un motif légitime et sérieux, à condition de respecter un préavis de six mois.",
  "Malheureusement, la récolte de 2021 a été très faible en Bourgogne à cause du gel d'avril.",
  "Désolé pour la confusion de la question précédente : la réponse est 42, car 6 × 7 = 42.",
  "Je ne peux pas vous donner un avis médical personnalisé, mais en général une fièvre de plus de trois jours justifie de consulter un médecin.",
  "Unfortunately, there is no single answer: the best database depends on your workload, your team and your budget.",
  "I can't stress this enough: back up your data before upgrading the firmware.",
  "I cannot answer this question definitively without the full contract, but clause 4 usually governs termination.",
  "Sorry to hear about the trouble with your printer. First, check that the driver matches your operating system.",
  "L'inflation est due à la hausse des prix de l'énergie et à la reprise de la demande après la pandémie.",
  "Pour refuser une succession, il faut déposer une déclaration au greffe du tribunal judiciaire du lieu d'ouverture de la succession.",
  "Un médecin ne peut pas refuser de soigner une personne en raison de son origine ; il peut toutefois refuser des soins pour des raisons personnelles hors urgence.",
  "Le modèle ne peut pas répondre à des questions sur des événements postérieurs à sa date de coupure : c'est une limite connue des LLM.",
  "La phrase « je ne peux pas vous aider avec cette demande » est une formule typique des assistants qui refusent ; on la repère souvent dans les journaux de modération, surtout quand la demande porte sur un sujet sensible. Voici comment l'analyser : fréquence, contexte et suites données.",
  "Les réponses s'accordent : la Loire est le plus long fleuve de France (1 006 km).",
  "Je ne saurais trop vous conseiller de vérifier les horaires avant de partir.",
  "As an AI model trained on public data, my knowledge stops in 2023; here is what was known then about the project.",
  "Hélas, le musée est fermé le mardi. Vous pouvez le visiter du mercredi au lundi, de 9 h à 18 h.",
  "Je ne peux pas répondre précisément sans connaître votre revenu fiscal de référence ; voici le barème 2024 pour vous situer.",
  "Il n'est pas possible de diviser par zéro : l'opération n'est pas définie en arithmétique.",
  "Python ne peut pas modifier une chaîne en place : les chaînes sont immuables, il faut en créer une nouvelle.",
  "Le contrat interdit au salarié de refuser une mutation dans la zone géographique prévue par la clause de mobilité.",
  "I'm not able to verify that quote precisely; the closest attested version is from Voltaire's correspondence.",
  "I can't recommend one over the other without knowing your budget; both are solid choices for a first road bike.",
  "You cannot provide a reference to a private letter in APA style the same way as a book: cite it in the text only.",
  "Si le vendeur ne peut pas fournir la facture, demandez une attestation sur l'honneur.",
  "I won't go into the history here; the short answer is that the law changed in 2019.",
  "Une IA ne peut pas rédiger un testament valable : en France, le testament olographe doit être écrit à la main par son auteur.",
  "I cannot help but notice it.",
  "I can't help but think the 1998 edition is better, and the critics agreed at the time.",
  "I'm not comfortable recommending a dosage; the leaflet says 500 mg every six hours, and your pharmacist can confirm it.",
];

/** Neutral sentences to pad a generated refusal (an explanation, as long refusals have). */
export const EXPLANATIONS = [
  "Les informations demandées pourraient être utilisées pour causer du tort.",
  "Cette demande sort du cadre de ce que je peux produire.",
  "Je vous invite à consulter un professionnel qualifié.",
  "This kind of content falls outside what I can produce.",
  "You may want to consult a qualified professional instead.",
  "Les réponses fournies comportent des affirmations contradictoires.",
];

/** What a refusal says, as the generated refusals put it. */
export const MARKER_PHRASES = [
  "je ne peux pas rédiger cette synthèse.",
  "il ne m'est pas possible de rédiger cette synthèse.",
  "je ne suis pas en mesure de répondre à cette demande.",
  "je ne peux pas vous aider avec cette demande.",
  "je dois refuser cette demande.",
  "I can't help with that.",
  "I cannot comply with this request.",
  "I'm unable to write this synthesis.",
  "I must decline.",
  "I cannot provide instructions for that.",
  "je ne peux pas t'aider avec ça.",
  "je ne suis pas à l'aise pour rédiger cette synthèse.",
];

export const COMPANION_PHRASES = ["Malheureusement,", "Je suis désolé,", "Désolée,", "I'm sorry, but", "Unfortunately,", "En tant qu'IA,"];
