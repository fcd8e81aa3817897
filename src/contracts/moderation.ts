/** OpenAI's moderation model when the council names none (council_settings.moderation_model NULL): the runtime and the « Modèles » page's placeholder. */
export const DEFAULT_MODERATION_MODEL = "omni-moderation-latest";
