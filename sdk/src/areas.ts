/** Top-level areas of the studio (spec 000 section 2): the slots sidebar entries and pages contribute to. */
export const TOP_LEVEL_AREAS = [
  'home',
  'explore',
  'store',
  'model',
  'space',
  'work_flow',
  'invite',
  'token',
  'open',
  'plugin_mock_set',
  'search',
  'premium',
  'user',
  'enterprise',
] as const;
export type TopLevelArea = (typeof TOP_LEVEL_AREAS)[number];

/**
 * The sidebar's groups, in order, by the work a person comes to do: start (home, explore), build (bots,
 * projects, workflows, plugins, prompts), data (knowledge, tables, memory), operate (models, evaluation,
 * traces), space (its members, settings, tokens) and settings (the studio's, for administrators).
 */
export const SIDEBAR_GROUPS = ['start', 'build', 'data', 'operate', 'space', 'settings'] as const;
export type SidebarGroup = (typeof SIDEBAR_GROUPS)[number];

/** The group of an entry that names none, from its top-level area. */
export function groupOfArea(area: TopLevelArea): SidebarGroup {
  switch (area) {
    case 'home':
    case 'explore':
    case 'store':
    case 'search':
    case 'premium':
      return 'start';
    case 'work_flow':
    case 'plugin_mock_set':
      return 'build';
    case 'model':
      return 'operate';
    case 'user':
      return 'settings';
    default:
      return 'space';
  }
}

export const LANGUAGES = ['zh-CN', 'en-US'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Whether a value is one of a list's (a literal union's values), narrowing it to them. */
export function isOneOf<T>(list: readonly T[], value: unknown): value is T {
  return list.some((x) => x === value);
}

/** Whether a value names one of the studio's languages. */
export const isLanguage = (value: unknown): value is Language => isOneOf(LANGUAGES, value);
export const DEFAULT_LANGUAGE: Language = 'zh-CN';
export const FALLBACK_LANGUAGE: Language = 'en-US';

/** The studio's language for an Accept-Language header (or a browser's language): Chinese for zh-*, else English. */
export function languageOf(header: unknown): Language {
  return String(header ?? '')
    .trim()
    .toLowerCase()
    .startsWith('zh')
    ? 'zh-CN'
    : 'en-US';
}

/** Layout constants (spec 000 section 9). */
export const MOBILE_MAX_WIDTH = 640;
export const NOTICE_TOP_OFFSET = 80;
