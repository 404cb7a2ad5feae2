// Text for the index and slices: words for full-text search, a token estimate, clean-up rules and the
// chunking strategies.
import { searchWords } from '@tessera/sdk/server';
import { ChunkType, type ChunkStrategy } from '../shared/index.ts';

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]/;

/** The words of a text as the full-text index keeps them (the SDK's searchWords). */
export const words = searchWords;

/** About how many model tokens a text is: a CJK character is about one, other text about four characters each. */
export function estimateTokens(text: string): number {
  let cjk = 0;
  for (const ch of text) if (CJK.test(ch)) cjk++;
  return cjk + Math.ceil((text.length - cjk) / 4);
}

export function cleanUp(text: string, s: Pick<ChunkStrategy, 'remove_extra_spaces' | 'remove_urls_emails'>): string {
  // oxlint-disable-next-line no-control-regex -- NUL characters are what this removes
  let t = text.replace(/\r\n?/g, '\n').replace(/\u0000/g, '');
  if (s.remove_urls_emails) t = t.replace(/https?:\/\/[^\s)）\]]+/g, '').replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, '');
  if (s.remove_extra_spaces)
    t = t
      .replace(/[ \t\u00a0\u3000]+/g, ' ')
      .replace(/ *\n */g, '\n')
      .replace(/\n{3,}/g, '\n\n');
  return t.trim();
}

export interface Chunk {
  content: string;
  /** Headings above it (by-headings chunking). */
  titles?: string[];
}

const AUTO_SEPARATORS = ['\n\n', '\n', '。', '！', '？', '. ', '! ', '? ', '；', '; ', '，', ', ', ' '];

/** Splits `text` into chunks by the strategy. */
export function chunk(text: string, strategy: ChunkStrategy): Chunk[] {
  const clean = cleanUp(text, strategy);
  if (!clean) return [];
  const max = strategy.max_tokens;
  const overlap = Math.floor((max * strategy.overlap) / 100);
  if (strategy.chunk_type === ChunkType.Level) return byHeadings(clean, strategy);
  if (strategy.chunk_type === ChunkType.Custom) {
    // Each part between separators is a chunk (the separator itself is dropped); a part too long is split further.
    const sep = unescape(strategy.separator);
    return clean
      .split(sep)
      .map((p) => p.trim())
      .filter(Boolean)
      .flatMap((p) => merge(split(p, AUTO_SEPARATORS, max), max, overlap))
      .map((content) => ({ content }));
  }
  return merge(split(clean, AUTO_SEPARATORS, max), max, overlap).map((content) => ({ content }));
}

const unescape = (s: string) => s.replace(/\\n/g, '\n').replace(/\\t/g, '\t') || '\n';

/** Pieces no larger than `max` tokens, split at the first separator that occurs, then the next ...; each piece keeps the separator that ended it. */
function split(text: string, seps: string[], max: number): string[] {
  if (estimateTokens(text) <= max) return [text];
  const [sep, ...rest] = seps;
  if (sep === undefined) {
    // No separator left: cut by size.
    const out: string[] = [];
    const step = Math.max(1, Math.floor(text.length * (max / estimateTokens(text))));
    for (let i = 0; i < text.length; i += step) out.push(text.slice(i, i + step));
    return out;
  }
  if (!text.includes(sep)) return split(text, rest, max);
  const parts = text.split(sep);
  return parts.flatMap((p, i) => split(i < parts.length - 1 ? p + sep : p, rest, max)).filter((p) => p.length);
}

/** Joins neighbouring pieces up to `max` tokens; each chunk starts with the last `overlap` tokens of the one before. */
function merge(pieces: string[], max: number, overlap: number): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const piece of pieces) {
    const t = estimateTokens(piece);
    if (size + t > max && current.length) {
      chunks.push(current.join('').trim());
      const carry: string[] = [];
      let carried = 0;
      for (let i = current.length - 1; i >= 0 && overlap > 0; i--) {
        const ct = estimateTokens(current[i]);
        if (carried + ct > overlap) break;
        carry.unshift(current[i]);
        carried += ct;
      }
      current = carry;
      size = carried;
    }
    current.push(piece);
    size += t;
  }
  if (current.length) chunks.push(current.join('').trim());
  return chunks.filter(Boolean);
}

/** Sections by Markdown headings up to max_level; a long section is split further; titles kept on request. */
function byHeadings(text: string, s: ChunkStrategy): Chunk[] {
  const out: Chunk[] = [];
  const path: string[] = [];
  let body: string[] = [];
  const flush = () => {
    const content = body.join('\n').trim();
    body = [];
    if (!content) return;
    const titles = path.filter(Boolean);
    const prefix = s.save_title && titles.length ? `${titles.join(' > ')}\n` : '';
    for (const piece of merge(
      split(content, AUTO_SEPARATORS, s.max_tokens - estimateTokens(prefix)),
      s.max_tokens - estimateTokens(prefix),
      0,
    ))
      out.push({ content: prefix + piece, titles });
  };
  for (const line of text.split('\n')) {
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (h && h[1].length <= s.max_level) {
      flush();
      path.length = h[1].length;
      path[h[1].length - 1] = h[2].trim();
      continue;
    }
    body.push(line);
  }
  flush();
  return out;
}
