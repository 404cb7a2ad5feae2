// What a file is, judged from its first bytes (file-type's signatures, loaded with the first upload),
// never from its name alone: a name that claims another type than the content is refused, and so are
// programs.
import { badRequest } from '@tessera/sdk';

/** Text formats (no signature): known by name once the bytes are text. */
const TEXT: Record<string, string> = {
  txt: 'text/plain',
  text: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  html: 'text/html',
  htm: 'text/html',
  json: 'application/json',
  jsonl: 'application/jsonl',
  xml: 'application/xml',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  svg: 'image/svg+xml',
};
/** Names whose content has a signature: the content must agree. */
const SIGNED = new Set([
  'pdf',
  'docx',
  'xlsx',
  'pptx',
  'doc',
  'xls',
  'ppt',
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'bmp',
  'tif',
  'tiff',
  'mp3',
  'wav',
  'm4a',
  'ogg',
  'flac',
  'mp4',
  'mov',
  'webm',
  'avi',
  'zip',
  'gz',
  'epub',
  'odt',
  'ods',
  'heic',
  'avif',
]);
/** The same content under other names. */
const ALIASES: Record<string, string[]> = {
  jpg: ['jpeg'],
  tif: ['tiff'],
  zip: ['docx', 'xlsx', 'pptx', 'epub', 'odt', 'ods'],
  cfb: ['doc', 'xls', 'ppt'],
  xml: ['svg', 'xml'],
  mp4: ['m4a', 'mov'],
  qt: ['mov'],
  m4a: ['mp4'],
};
const PROGRAMS = new Set(['exe', 'elf', 'macho', 'dll', 'msi', 'apk', 'dex', 'class', 'wasm', 'deb', 'rpm', 'lnk']);

export interface Judged {
  mime: string;
  ext: string;
}

const extOf = (name: string) => (/\.([A-Za-z0-9]{1,10})$/.exec(name)?.[1] ?? '').toLowerCase();

export async function judgeContent(fileName: string, head: Buffer): Promise<Judged> {
  const named = extOf(fileName);
  const { fileTypeFromBuffer } = await import('file-type');
  const found = await fileTypeFromBuffer(head).catch(() => undefined);
  if (found) {
    if (PROGRAMS.has(found.ext))
      throw badRequest(`"${fileName}" is a program (${found.ext}); programs are not accepted.`);
    const agrees =
      !named ||
      named === found.ext ||
      (ALIASES[found.ext] ?? []).includes(named) ||
      (!SIGNED.has(named) && !TEXT[named]);
    if (!agrees)
      throw badRequest(
        `"${fileName}" is named as .${named} but its content is ${found.ext.toUpperCase()} (${found.mime}); rename it or upload the right file.`,
      );
    // A zip container named as an Office document is that document.
    if ((found.ext === 'zip' || found.ext === 'cfb') && named && named !== found.ext && SIGNED.has(named))
      return { ext: named, mime: OFFICE[named] ?? found.mime };
    if (found.ext === 'xml' && named === 'svg') return { ext: 'svg', mime: 'image/svg+xml' };
    return { ext: found.ext, mime: found.mime };
  }
  const isText = looksLikeText(head);
  if (SIGNED.has(named))
    throw badRequest(
      `"${fileName}" is named as .${named} but its content is not ${named.toUpperCase()}; rename it or upload the right file.`,
    );
  if (isText) return TEXT[named] ? { ext: named, mime: TEXT[named] } : { ext: 'txt', mime: 'text/plain' };
  return { ext: named || 'bin', mime: 'application/octet-stream' };
}

const OFFICE: Record<string, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  epub: 'application/epub+zip',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
};

function looksLikeText(head: Buffer): boolean {
  if (head.includes(0)) return false;
  try {
    // stream: a character cut at the end of the sample is not an error
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}
