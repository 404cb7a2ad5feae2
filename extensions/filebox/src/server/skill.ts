// The file box as a bot skill: the model finds the user's files, reads one (its text, or its summary; an image's
// link), and keeps albums, through tools; the instructions say what the box holds.
import type { BotSkillDefinition } from '@tessera/ext-bots/shared';
import { FileKind, KIND_NAMES } from '../shared/index.ts';
import type { FileBox } from './service.ts';

const KINDS: Record<string, number> = {
  image: FileKind.Image,
  audio: FileKind.Audio,
  video: FileKind.Video,
  document: FileKind.Document,
  other: FileKind.Other,
};

/** What the file box gives a turn: the box's size in the instructions, and the tools. */
export const contribute =
  (box: () => Promise<FileBox>): BotSkillDefinition['contribute'] =>
  async (turn) => {
    const b = await box();
    const o = { botId: turn.botId, endUserId: turn.endUserId };
    const files = await b.store.count(o);
    const albums = (await b.store.albums(o).execute()).length;
    const brief = (r: Awaited<ReturnType<FileBox['get']>>) => ({
      id: r.id,
      name: r.name,
      kind: KIND_NAMES[Number(r.kind)] ?? 'other',
      description: r.description,
      created_at: r.created_at,
    });
    return {
      instructions:
        `The user keeps a file box with you: ${files} file(s) and ${albums} album(s). ` +
        'Use filebox_search to find their files, filebox_read to read one, and the album tools to keep their photos. ' +
        'Name files by their names when you answer.',
      tools: [
        {
          name: 'filebox_search',
          description: "Finds files in the user's file box by words (name, description, tags, summary), newest first.",
          parameters: {
            type: 'object',
            properties: {
              query: { type: 'string', description: 'Words to look for; empty lists the newest files.' },
              kind: { type: 'string', enum: Object.keys(KINDS) },
            },
          },
          async execute(args) {
            const kind = KINDS[String(args.kind ?? '')];
            const { rows, total } = await b.search(o, {
              query: String(args.query ?? ''),
              kinds: kind ? [kind] : undefined,
              page: 1,
              size: 20,
            });
            return { total, files: rows.map(brief) };
          },
        },
        {
          name: 'filebox_read',
          description: "Reads a file of the user's file box: a document's text, or its summary and link.",
          parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
          async execute(args) {
            const f = await b.get(o, String(args.id ?? ''));
            const view = await b.view(f);
            const text = await b.text(f).catch(() => undefined);
            return { ...brief(f), summary: f.summary, url: view.url, ...(text ? { text } : {}) };
          },
        },
        {
          name: 'filebox_albums',
          description: "Lists the user's albums with how many photos each holds.",
          parameters: { type: 'object', properties: {} },
          async execute() {
            const rows = await b.store.albums(o).orderBy('created_at').execute();
            return Promise.all(rows.map((a) => b.albumView(a)));
          },
        },
        {
          name: 'filebox_create_album',
          description: 'Makes an album in the user’s file box.',
          parameters: {
            type: 'object',
            properties: { name: { type: 'string' }, description: { type: 'string' } },
            required: ['name'],
          },
          async execute(args) {
            const a = await b.createAlbum(
              o,
              String(args.name ?? '').slice(0, 100) || 'Album',
              String(args.description ?? ''),
            );
            return b.albumView(a);
          },
        },
        {
          name: 'filebox_add_to_album',
          description: 'Puts photos (image files of the box, by id) in an album.',
          parameters: {
            type: 'object',
            properties: { album_id: { type: 'string' }, ids: { type: 'array', items: { type: 'string' } } },
            required: ['album_id', 'ids'],
          },
          async execute(args) {
            const ids = Array.isArray(args.ids) ? args.ids.map(String) : [];
            await b.addPhotos(o, String(args.album_id ?? ''), ids);
            return { added: ids.length };
          },
        },
        {
          name: 'filebox_describe',
          description: 'Sets a file’s description and tags (to find it later).',
          parameters: {
            type: 'object',
            properties: {
              id: { type: 'string' },
              description: { type: 'string' },
              tags: { type: 'array', items: { type: 'string' } },
            },
            required: ['id'],
          },
          async execute(args) {
            await b.update(o, [
              {
                id: String(args.id ?? ''),
                ...(typeof args.description === 'string' ? { description: args.description.slice(0, 2000) } : {}),
                ...(Array.isArray(args.tags) ? { tags: args.tags.map(String).slice(0, 20) } : {}),
              },
            ]);
            return { ok: true };
          },
        },
      ],
    };
  };
