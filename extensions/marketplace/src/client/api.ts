// What the marketplace pages read from the server.
import type { CurrentSpace } from '@tessera/ext-spaces/shared';
import { useSyncExternalStore } from 'react';

export interface Product {
  product_id: string;
  entity_type: string;
  entity_id: string;
  name: string;
  description: string;
  category_id: string;
  tags: string[];
  is_template: boolean;
  live_version: string;
  listed: boolean;
  featured: boolean;
  stats: { views: number; duplicates: number; favorites: number };
  author: { user_id: string; name: string; avatar: string };
  favorited?: boolean;
  status?: number;
  reject_reason?: string;
  version_name?: string;
  listed_time: number;
  update_time: number;
}
export interface Category {
  id: string;
  name: string;
  name_zh: string;
}

let service: CurrentSpace | undefined;
export function setCurrentSpace(s: CurrentSpace) {
  service = s;
}
export function useSpaceId(): string | null {
  return useSyncExternalStore(service!.subscribe, service!.get, service!.get);
}

export interface Topic {
  topic_id: string;
  title: string;
  title_zh: string;
  description: string;
  description_zh: string;
  cover: string;
  product_ids: string[];
  status: number;
  products?: Product[];
}
export interface Landing {
  title: string;
  title_zh: string;
  subtitle: string;
  subtitle_zh: string;
  cover: string;
}

/** A text in the reader's language: the Chinese one when the studio speaks Chinese and it is given. */
export const localized = (language: string, en: string, zh: string) => (language.startsWith('zh') && zh ? zh : en);
