/**
 * A conversation's `data.llm` (README "Compatibility", "Conversations"): the real service's API
 * document allows only a fixed list of model names in `llm.name`, paired with their `llm.type`.
 * Our providers run any model, so `name` is the listed model nearest to the one that answered,
 * and `model` (ours) keeps the real model name.
 */

/** The document's `llm.name` values for `llm.type: 'openai'`. */
export const OPENAI_LLM_NAMES = [
  'gpt-3.5-turbo',
  'gpt-4o',
  'gpt-4-turbo',
  'gpt-4o-mini',
  'o3-mini:low',
  'o3-mini:medium',
  'o3-mini:high',
] as const;
/** The document's `llm.name` values for `llm.type: 'anthropic'`. */
export const ANTHROPIC_LLM_NAMES = ['anthropic/claude-3.5-sonnet', 'anthropic/claude-3.5-haiku', 'anthropic/claude-3.7-sonnet'] as const;
/** Every `llm.name` the API reports. */
export const LLM_NAMES = [...OPENAI_LLM_NAMES, ...ANTHROPIC_LLM_NAMES] as const;
/** Model provider kinds the API reports as `data.llm.type`. */
export const LLM_TYPES = ['openai', 'anthropic'] as const;

/** `data.llm` of a conversation. */
export type ReportedLlm =
  | { type: 'openai'; name: (typeof OPENAI_LLM_NAMES)[number]; model: string }
  | { type: 'anthropic'; name: (typeof ANTHROPIC_LLM_NAMES)[number]; model: string };

/** The listed name for a model none of the rules recognise (an open model, the offline stand-in): the default model's. */
export const FALLBACK_LLM_NAME = 'gpt-4o-mini';

/** The nearest Claude name: Haiku → 3.5 Haiku; 3.7 or a later generation (4+) → 3.7 Sonnet; other Claude models → 3.5 Sonnet. */
function nearestClaude(model: string): (typeof ANTHROPIC_LLM_NAMES)[number] {
  if (/haiku/.test(model)) return 'anthropic/claude-3.5-haiku';
  if (/3[.-]7/.test(model) || /(?:claude|sonnet|opus)-(?:[4-9]|\d\d)(?:\b|[.-])/.test(model)) return 'anthropic/claude-3.7-sonnet';
  return 'anthropic/claude-3.5-sonnet';
}

/**
 * The nearest OpenAI name:
 * - o-series reasoning models (`o1`, `o3`, `o3-mini`, `o4-mini`, …) → `o3-mini:<effort>`, the effort
 *   read from a `low`/`medium`/`high` suffix, `medium` (OpenAI's default effort) otherwise;
 * - small models (`mini`, `nano`) → `gpt-4o-mini`;
 * - `gpt-3.5*` → `gpt-3.5-turbo`; `gpt-4-turbo`, `gpt-4` and its dated previews → `gpt-4-turbo`;
 * - the other GPT-4o / 4.1 / 4.5 / 5 models → `gpt-4o`;
 * - anything else → {@link FALLBACK_LLM_NAME}.
 */
function nearestOpenAi(model: string): (typeof OPENAI_LLM_NAMES)[number] {
  const reasoning = /(?:^|\/)o\d+(?:-mini)?(?:[-:_ ](low|medium|high))?(?:$|[-:_])/.exec(model);
  if (reasoning) return `o3-mini:${(reasoning[1] as 'low' | 'medium' | 'high' | undefined) ?? 'medium'}`;
  if (!/gpt/.test(model)) return FALLBACK_LLM_NAME;
  if (/gpt-?3\.5/.test(model)) return 'gpt-3.5-turbo';
  if (/mini|nano/.test(model)) return 'gpt-4o-mini';
  if (/gpt-?4-turbo/.test(model) || /gpt-?4(?:-32k)?(?:-\d{4}(?:-preview)?|-preview)?$/.test(model)) return 'gpt-4-turbo';
  return 'gpt-4o';
}

/**
 * `data.llm` for a provider kind and the model that answered: Claude models (by name, or any
 * model of an `anthropic` provider) are reported as `anthropic` with the nearest Claude name,
 * everything else as `openai` with the nearest OpenAI name (our providers speak the OpenAI
 * protocol; the offline stand-in reports `gpt-4o-mini` with `model: 'taskspace-offline-1'`).
 */
export function reportedLlm(providerType: string, model: string): ReportedLlm {
  const m = model.trim().toLowerCase();
  if (providerType === 'anthropic' || /claude/.test(m)) return { type: 'anthropic', name: nearestClaude(m), model };
  return { type: 'openai', name: nearestOpenAi(m), model };
}
