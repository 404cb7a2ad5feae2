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

export const LANGUAGES = ['zh-CN', 'en-US'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh-CN';
export const FALLBACK_LANGUAGE: Language = 'en-US';

/** Layout constants (spec 000 section 9). */
export const MOBILE_MAX_WIDTH = 640;
export const NOTICE_TOP_OFFSET = 80;
