// Custom connectors, where connectors are installed, and what was published to them. Who may do what is asked here,
// once per action: a custom connector is kept by its developer (and by the admins of its enterprise); a space's
// admins install in the space, an enterprise's admins in the enterprise and bind its installs to its spaces; an
// enterprise that does not allow custom connectors has none installed in it or in its spaces.
import {
  Connectors,
  SecretsService,
  type ConnectorDefinition,
  type ServerContext,
  ServerContextToken,
} from '@tessera/sdk/server';
import { EnterpriseDirectoryService, EnterpriseRole } from '@tessera/ext-enterprise/shared';
import { SpaceRoleType, SpacesService } from '@tessera/ext-spaces/shared';
import type { Kysely } from 'kysely';
import { AuditStatus, type ConnectorEntry, type CustomConnectorView, type PublicationView } from '../shared/api.ts';
import { texts } from './texts.ts';

export interface CustomRow {
  id: string;
  owner_id: string;
  enterprise_id: string;
  name: string;
  description: string;
  icon_uri: string;
  homepage_url: string;
  kinds: string;
  created_at: string;
  updated_at: string;
}
interface InstallRow {
  connector_id: string;
  scope: 'space' | 'enterprise';
  scope_id: string;
  via: string;
  configs: string;
  installed_by: string;
  created_at: string;
}
interface PublicationRow {
  connector_id: string;
  kind: string;
  resource_id: string;
  space_id: string;
  name: string;
  version: string;
  audit_status: number;
  reason: string;
  share_link: string;
  published_by: string;
  updated_at: string;
}
interface ConnectorDb {
  connector_custom: CustomRow;
  connector_install: InstallRow;
  connector_user_config: { connector_id: string; user_id: string; configs: string; updated_at: string };
  connector_publication: PublicationRow;
}

export const iso = (ms = Date.now()) => new Date(ms).toISOString();
const secs = (v: string) => Math.floor(Date.parse(v) / 1000);
const kindsOf = (r: CustomRow): string[] => {
  try {
    const v: unknown = JSON.parse(r.kinds);
    return Array.isArray(v) ? v.map(String) : ['bot'];
  } catch {
    return ['bot'];
  }
};
/** Values of settings whose key names a secret are answered masked. */
const SECRET_KEY = /secret|token|password|key/i;

export class ConnectorService {
  static readonly inject = [ServerContextToken] as const;
  readonly #ctx: ServerContext;
  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
  }
  get db(): Kysely<ConnectorDb> {
    return this.#ctx.db;
  }
  get #directory() {
    return this.#ctx.optionalService(EnterpriseDirectoryService);
  }

  // ------------------------------------------------------------------ who may

  async #isEnterpriseAdmin(enterpriseId: string, userId: string): Promise<boolean> {
    const role = await this.#directory?.roleOf(enterpriseId, userId);
    return role === EnterpriseRole.SuperAdmin || role === EnterpriseRole.Admin;
  }

  /** The enterprises the person administers (super admin or admin): whose connectors they manage. */
  async managedEnterprises(userId: string): Promise<{ enterprise_id: string; name: string }[]> {
    return ((await this.#directory?.enterprisesOf(userId)) ?? [])
      .filter(
        (e) => e.enterprise_role_type === EnterpriseRole.SuperAdmin || e.enterprise_role_type === EnterpriseRole.Admin,
      )
      .map((e) => ({ enterprise_id: e.enterprise_id, name: e.name }));
  }

  async assertEnterpriseAdmin(enterpriseId: string, userId: string): Promise<void> {
    if (!this.#directory) throw texts.error(404, 'noEnterprises');
    if (!(await this.#directory.settingsOf(enterpriseId))) throw texts.error(404, 'noEnterprise');
    if (!(await this.#isEnterpriseAdmin(enterpriseId, userId))) throw texts.error(403, 'enterpriseAdmin');
  }

  async assertSpaceAdmin(spaceId: string, userId: string): Promise<void> {
    const role = await this.#ctx.service(SpacesService).roleOf(spaceId, userId);
    if (!role) throw texts.error(403, 'spaceMember');
    if (role === SpaceRoleType.Member) throw texts.error(403, 'spaceAdmin');
  }

  async assertSpaceMember(spaceId: string, userId: string): Promise<void> {
    if (!(await this.#ctx.service(SpacesService).roleOf(spaceId, userId))) throw texts.error(403, 'spaceMember');
  }

  /** May the person change the custom connector (its developer, or an admin of its enterprise). */
  async keeps(c: CustomRow, userId: string): Promise<boolean> {
    return c.owner_id === userId || (!!c.enterprise_id && (await this.#isEnterpriseAdmin(c.enterprise_id, userId)));
  }

  async kept(id: string, userId: string): Promise<CustomRow> {
    const c = await this.custom(id);
    if (!c || !(await this.keeps(c, userId))) throw texts.error(404, 'notYours', { id });
    return c;
  }

  /** Why custom connectors may not be installed in this enterprise (or the space's), or undefined. */
  async #customRefusal(enterpriseId: string | undefined): Promise<string | undefined> {
    if (!enterpriseId || !this.#directory) return undefined;
    const settings = await this.#directory.settingsOf(enterpriseId);
    return settings && !settings.can_install_custom_connector ? texts.text('customForbidden', {}, 'en-US') : undefined;
  }

  async #enterpriseOfSpace(spaceId: string): Promise<string | undefined> {
    return (await this.#directory?.enterpriseOfSpace(spaceId))?.enterprise_id;
  }

  // ------------------------------------------------------------------ custom connectors

  async custom(id: string): Promise<CustomRow | undefined> {
    return this.db.selectFrom('connector_custom').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async view(c: CustomRow): Promise<CustomConnectorView> {
    const [installs, reviews] = await Promise.all([
      this.db
        .selectFrom('connector_install')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('connector_id', '=', c.id)
        .executeTakeFirst(),
      this.db
        .selectFrom('connector_publication')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('connector_id', '=', c.id)
        .where('audit_status', '=', AuditStatus.InReview)
        .executeTakeFirst(),
    ]);
    return {
      connector_id: c.id,
      name: c.name,
      description: c.description,
      icon_uri: c.icon_uri,
      homepage_url: c.homepage_url,
      kinds: kindsOf(c) as ('bot' | 'project')[],
      enterprise_id: c.enterprise_id,
      owner_id: c.owner_id,
      install_count: Number(installs?.n ?? 0),
      in_review_count: Number(reviews?.n ?? 0),
      created_at: secs(c.created_at),
      updated_at: secs(c.updated_at),
    };
  }

  async create(
    userId: string,
    v: Pick<CustomRow, 'name' | 'description' | 'icon_uri' | 'homepage_url' | 'enterprise_id'> & { kinds: string[] },
  ): Promise<CustomRow> {
    if (v.enterprise_id) await this.assertEnterpriseAdmin(v.enterprise_id, userId);
    if (
      this.#ctx
        .registry(Connectors)
        .list()
        .some((c) => c.name['en-US']?.toLowerCase() === v.name.toLowerCase())
    )
      throw texts.error(409, 'builtinName', { name: v.name });
    const now = iso();
    const row: CustomRow = {
      ...v,
      id: this.#ctx.host.newId(),
      owner_id: userId,
      kinds: JSON.stringify(v.kinds),
      created_at: now,
      updated_at: now,
    };
    await this.db.insertInto('connector_custom').values(row).execute();
    return row;
  }

  async update(
    c: CustomRow,
    patch: Partial<Pick<CustomRow, 'name' | 'description' | 'icon_uri' | 'homepage_url'>> & { kinds?: string[] },
  ) {
    const set: Partial<CustomRow> = { updated_at: iso() };
    for (const k of ['name', 'description', 'icon_uri', 'homepage_url'] as const)
      if (patch[k] !== undefined) set[k] = patch[k];
    if (patch.kinds) set.kinds = JSON.stringify(patch.kinds);
    await this.db.updateTable('connector_custom').set(set).where('id', '=', c.id).execute();
    return { ...c, ...set };
  }

  async remove(c: CustomRow): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('connector_install').where('connector_id', '=', c.id).execute();
      await tx.deleteFrom('connector_user_config').where('connector_id', '=', c.id).execute();
      await tx
        .updateTable('connector_publication')
        .set({ audit_status: AuditStatus.Unpublished, reason: 'The connector was deleted.', updated_at: iso() })
        .where('connector_id', '=', c.id)
        .execute();
      await tx.deleteFrom('connector_custom').where('id', '=', c.id).execute();
    });
  }

  /** The custom connectors the person keeps: theirs, then their enterprises' (as an admin), newest first. */
  async keptBy(userId: string): Promise<CustomRow[]> {
    const rows = await this.db
      .selectFrom('connector_custom')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    const out: CustomRow[] = [];
    for (const r of rows) if (await this.keeps(r, userId)) out.push(r);
    return out;
  }

  // ------------------------------------------------------------------ entries

  #builtinEntry(c: ConnectorDefinition): ConnectorEntry {
    return {
      connector_id: c.id,
      name: c.name,
      description: c.description ?? {},
      kinds: c.kinds,
      type: 'builtin',
      icon_uri: '',
      is_installed: true,
      source: 'builtin',
      blocked: false,
    };
  }

  #customEntry(c: CustomRow, source: ConnectorEntry['source'], blocked = false): ConnectorEntry {
    return {
      connector_id: c.id,
      name: { 'en-US': c.name, 'zh-CN': c.name },
      description: { 'en-US': c.description, 'zh-CN': c.description },
      kinds: kindsOf(c),
      type: 'custom',
      icon_uri: c.icon_uri,
      is_installed: !!source,
      source,
      blocked,
    };
  }

  async #spaceInstalls(spaceId: string): Promise<(InstallRow & { row: CustomRow })[]> {
    const rows = await this.db
      .selectFrom('connector_install')
      .innerJoin('connector_custom', 'connector_custom.id', 'connector_install.connector_id')
      .selectAll('connector_install')
      .select([
        'connector_custom.owner_id',
        'connector_custom.enterprise_id',
        'connector_custom.name',
        'connector_custom.description',
        'connector_custom.icon_uri',
        'connector_custom.homepage_url',
        'connector_custom.kinds',
        'connector_custom.updated_at',
      ])
      .where('connector_install.scope', '=', 'space')
      .where('connector_install.scope_id', '=', spaceId)
      .orderBy('connector_install.created_at')
      .execute();
    return rows.map((r) => ({
      ...r,
      row: {
        id: r.connector_id,
        owner_id: r.owner_id,
        enterprise_id: r.enterprise_id,
        name: r.name,
        description: r.description,
        icon_uri: r.icon_uri,
        homepage_url: r.homepage_url,
        kinds: r.kinds,
        created_at: r.created_at,
        updated_at: r.updated_at,
      },
    }));
  }

  /** The custom connectors usable in a space: installed there or bound from its enterprise, when it allows them. */
  async usableIn(spaceId: string): Promise<{ row: CustomRow; source: 'space' | 'enterprise' }[]> {
    const installs = await this.#spaceInstalls(spaceId);
    if (!installs.length) return [];
    if (await this.#customRefusal(await this.#enterpriseOfSpace(spaceId))) return [];
    return installs.map((i) => ({ row: i.row, source: i.via ? 'enterprise' : 'space' }));
  }

  /** SpaceConnectors: the space's custom connectors after the studio's. */
  async definitionsFor(spaceId: string): Promise<ConnectorDefinition[]> {
    return (await this.usableIn(spaceId)).map(({ row }) => ({
      id: row.id,
      name: { 'en-US': row.name, 'zh-CN': row.name },
      description: { 'en-US': row.description, 'zh-CN': row.description },
      kinds: kindsOf(row),
    }));
  }

  async spaceEntries(spaceId: string): Promise<ConnectorEntry[]> {
    const builtin = this.#ctx
      .registry(Connectors)
      .list()
      .map((c) => this.#builtinEntry(c));
    return [...builtin, ...(await this.usableIn(spaceId)).map((u) => this.#customEntry(u.row, u.source))];
  }

  async spaceStatus(spaceId: string, connectorId: string) {
    if (this.#ctx.registry(Connectors).get(connectorId))
      return { is_installed: true, source: 'builtin', blocked: false, reason: '' };
    const c = await this.custom(connectorId);
    if (!c) throw texts.error(404, 'noConnector', { id: connectorId });
    const refusal = await this.#customRefusal(await this.#enterpriseOfSpace(spaceId));
    const install = (await this.#spaceInstalls(spaceId)).find((i) => i.connector_id === connectorId);
    return {
      is_installed: !!install && !refusal,
      source: install ? (install.via ? 'enterprise' : 'space') : '',
      blocked: !!refusal,
      reason: refusal ?? (install ? '' : 'Not installed in this space.'),
    };
  }

  /** The catalog: built-in connectors and the custom connectors the person keeps or the space's enterprise has. */
  async catalog(userId: string, spaceId: string | undefined): Promise<ConnectorEntry[]> {
    const builtin = this.#ctx
      .registry(Connectors)
      .list()
      .map((c) => this.#builtinEntry(c));
    const kept = await this.keptBy(userId);
    if (!spaceId) return [...builtin, ...kept.map((c) => this.#customEntry(c, ''))];
    const enterpriseId = await this.#enterpriseOfSpace(spaceId);
    const blocked = !!(await this.#customRefusal(enterpriseId));
    const installs = await this.#spaceInstalls(spaceId);
    const offered = new Map(kept.map((c) => [c.id, c]));
    for (const i of installs) offered.set(i.connector_id, i.row);
    if (enterpriseId)
      for (const c of await this.db
        .selectFrom('connector_custom')
        .selectAll()
        .where('enterprise_id', '=', enterpriseId)
        .execute())
        offered.set(c.id, c);
    return [
      ...builtin,
      ...[...offered.values()].map((c) => {
        const i = installs.find((x) => x.connector_id === c.id);
        return this.#customEntry(c, i && !blocked ? (i.via ? 'enterprise' : 'space') : '', blocked);
      }),
    ];
  }

  // ------------------------------------------------------------------ installs

  async #installable(id: string): Promise<CustomRow> {
    if (this.#ctx.registry(Connectors).get(id)) throw texts.error(400, 'builtin', { id });
    const c = await this.custom(id);
    if (!c) throw texts.error(404, 'noConnector', { id });
    return c;
  }

  async installInSpace(id: string, spaceId: string, userId: string): Promise<ConnectorEntry> {
    const c = await this.#installable(id);
    await this.assertSpaceAdmin(spaceId, userId);
    const enterpriseId = await this.#enterpriseOfSpace(spaceId);
    // The developer installs their own; an enterprise's connectors go to its own spaces.
    if (!(await this.keeps(c, userId)) && !(c.enterprise_id && c.enterprise_id === enterpriseId))
      throw texts.error(404, 'notYours', { id });
    const refusal = await this.#customRefusal(enterpriseId);
    if (refusal) throw texts.error(403, 'customForbidden');
    await this.#put({ connector_id: id, scope: 'space', scope_id: spaceId, via: '', installed_by: userId });
    return this.#customEntry(c, 'space');
  }

  async installInEnterprise(id: string, enterpriseId: string, userId: string): Promise<ConnectorEntry> {
    const c = await this.#installable(id);
    await this.assertEnterpriseAdmin(enterpriseId, userId);
    if (!(await this.keeps(c, userId)) && c.enterprise_id !== enterpriseId) throw texts.error(404, 'notYours', { id });
    const refusal = await this.#customRefusal(enterpriseId);
    if (refusal) throw texts.error(403, 'customForbidden');
    await this.#put({ connector_id: id, scope: 'enterprise', scope_id: enterpriseId, via: '', installed_by: userId });
    return this.#customEntry(c, '');
  }

  async #put(v: Omit<InstallRow, 'configs' | 'created_at'>): Promise<void> {
    await this.db
      .insertInto('connector_install')
      .values({ ...v, configs: '', created_at: iso() })
      .onConflict((oc) => oc.columns(['connector_id', 'scope', 'scope_id']).doNothing())
      .execute();
  }

  async uninstallFromSpace(id: string, spaceId: string, userId: string): Promise<void> {
    await this.assertSpaceAdmin(spaceId, userId);
    const r = await this.db
      .deleteFrom('connector_install')
      .where('connector_id', '=', id)
      .where('scope', '=', 'space')
      .where('scope_id', '=', spaceId)
      .executeTakeFirst();
    if (!Number(r.numDeletedRows)) throw texts.error(404, 'notInSpace', { id });
  }

  /** Out of the enterprise and the spaces it was bound to. */
  async uninstallFromEnterprise(id: string, enterpriseId: string, userId: string): Promise<void> {
    await this.assertEnterpriseAdmin(enterpriseId, userId);
    const r = await this.db
      .deleteFrom('connector_install')
      .where('connector_id', '=', id)
      .where('scope', '=', 'enterprise')
      .where('scope_id', '=', enterpriseId)
      .executeTakeFirst();
    if (!Number(r.numDeletedRows)) throw texts.error(404, 'notInEnterprise', { id });
    await this.db
      .deleteFrom('connector_install')
      .where('connector_id', '=', id)
      .where('via', '=', enterpriseId)
      .execute();
  }

  async bindSpaces(
    enterpriseId: string,
    userId: string,
    ids: string[],
    spaceId: string,
    all: boolean,
    uninstall: boolean,
  ): Promise<string[]> {
    await this.assertEnterpriseAdmin(enterpriseId, userId);
    const spaces = all ? await this.#directory!.spacesOf(enterpriseId) : [spaceId];
    if (!all) {
      if (!spaceId) throw texts.error(400, 'nameSpace');
      if ((await this.#enterpriseOfSpace(spaceId)) !== enterpriseId) throw texts.error(400, 'spaceOutside');
    }
    for (const id of ids) {
      const installed = await this.db
        .selectFrom('connector_install')
        .select('connector_id')
        .where('connector_id', '=', id)
        .where('scope', '=', 'enterprise')
        .where('scope_id', '=', enterpriseId)
        .executeTakeFirst();
      if (!installed) throw texts.error(400, 'installFirst', { id });
    }
    for (const id of ids)
      for (const s of spaces) {
        if (uninstall)
          await this.db
            .deleteFrom('connector_install')
            .where('connector_id', '=', id)
            .where('scope', '=', 'space')
            .where('scope_id', '=', s)
            .where('via', '=', enterpriseId)
            .execute();
        else
          await this.#put({ connector_id: id, scope: 'space', scope_id: s, via: enterpriseId, installed_by: userId });
      }
    return spaces;
  }

  async enterpriseInstalls(enterpriseId: string) {
    const rows = await this.db
      .selectFrom('connector_install')
      .innerJoin('connector_custom', 'connector_custom.id', 'connector_install.connector_id')
      .selectAll('connector_custom')
      .select(['connector_install.configs as configs', 'connector_install.created_at as installed_at'])
      .where('connector_install.scope', '=', 'enterprise')
      .where('connector_install.scope_id', '=', enterpriseId)
      .orderBy('connector_install.created_at')
      .execute();
    const out = [];
    for (const r of rows) {
      const bound = await this.db
        .selectFrom('connector_install')
        .select('scope_id')
        .where('connector_id', '=', r.id)
        .where('via', '=', enterpriseId)
        .orderBy('scope_id')
        .execute();
      out.push({
        connector: this.#customEntry(r, ''),
        space_ids: bound.map((b) => b.scope_id),
        configs: this.#masked(r.configs),
        installed_at: secs(r.installed_at),
      });
    }
    return out;
  }

  async setEnterpriseConfigs(id: string, enterpriseId: string, userId: string, configs: Record<string, string>) {
    await this.assertEnterpriseAdmin(enterpriseId, userId);
    const row = await this.db
      .selectFrom('connector_install')
      .select('configs')
      .where('connector_id', '=', id)
      .where('scope', '=', 'enterprise')
      .where('scope_id', '=', enterpriseId)
      .executeTakeFirst();
    if (!row) throw texts.error(404, 'notInEnterprise', { id });
    const next = this.#merge(row.configs, configs);
    await this.db
      .updateTable('connector_install')
      .set({ configs: this.#seal(next) })
      .where('connector_id', '=', id)
      .where('scope', '=', 'enterprise')
      .where('scope_id', '=', enterpriseId)
      .execute();
    return this.#masked(this.#seal(next));
  }

  async setUserConfigs(id: string, userId: string, configs: Record<string, string>) {
    if (!this.#ctx.registry(Connectors).get(id) && !(await this.custom(id)))
      throw texts.error(404, 'noConnector', { id });
    const had = await this.db
      .selectFrom('connector_user_config')
      .select('configs')
      .where('connector_id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    const sealed = this.#seal(this.#merge(had?.configs ?? '', configs));
    await this.db
      .insertInto('connector_user_config')
      .values({ connector_id: id, user_id: userId, configs: sealed, updated_at: iso() })
      .onConflict((oc) => oc.columns(['connector_id', 'user_id']).doUpdateSet({ configs: sealed, updated_at: iso() }))
      .execute();
    return this.#masked(sealed);
  }

  // Settings are kept encrypted; a masked value sent back keeps the stored one.
  #open(sealed: string): Record<string, string> {
    if (!sealed) return {};
    try {
      return JSON.parse(this.#ctx.service(SecretsService).decrypt(sealed)) as Record<string, string>;
    } catch {
      return {};
    }
  }
  #seal(v: Record<string, string>): string {
    return Object.keys(v).length ? this.#ctx.service(SecretsService).encrypt(JSON.stringify(v)) : '';
  }
  #merge(sealed: string, next: Record<string, string>): Record<string, string> {
    const had = this.#open(sealed);
    return Object.fromEntries(Object.entries(next).map(([k, v]) => [k, v.includes('*') && had[k] ? had[k] : v]));
  }
  #masked(sealed: string): Record<string, string> {
    const secrets = this.#ctx.service(SecretsService);
    return Object.fromEntries(
      Object.entries(this.#open(sealed)).map(([k, v]) => [k, SECRET_KEY.test(k) ? secrets.mask(v) : v]),
    );
  }

  async setCustomAllowed(enterpriseId: string, userId: string, allowed: boolean): Promise<boolean> {
    await this.assertEnterpriseAdmin(enterpriseId, userId);
    return (await this.#directory!.updateSettings(enterpriseId, { can_install_custom_connector: allowed }))
      .can_install_custom_connector;
  }

  async customAllowed(enterpriseId: string, userId: string): Promise<boolean> {
    if (!this.#directory) throw texts.error(404, 'noEnterprises');
    if (!(await this.#directory.roleOf(enterpriseId, userId))) throw texts.error(403, 'enterpriseMember');
    return !(await this.#customRefusal(enterpriseId));
  }

  // ------------------------------------------------------------------ publications

  /** A bot published to custom connectors: each is told to review it (in review until it answers). */
  async published(p: {
    kind: string;
    id: string;
    spaceId: string;
    name: string;
    version: string;
    userId: string;
    connectors: string[];
  }) {
    for (const id of p.connectors) {
      if (this.#ctx.registry(Connectors).get(id) || !(await this.custom(id))) continue;
      const row: PublicationRow = {
        connector_id: id,
        kind: p.kind,
        resource_id: p.id,
        space_id: p.spaceId,
        name: p.name.slice(0, 200),
        version: p.version,
        audit_status: AuditStatus.InReview,
        reason: '',
        share_link: '',
        published_by: p.userId,
        updated_at: iso(),
      };
      await this.db
        .insertInto('connector_publication')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['connector_id', 'kind', 'resource_id']).doUpdateSet({
            space_id: row.space_id,
            name: row.name,
            version: row.version,
            audit_status: row.audit_status,
            reason: '',
            published_by: row.published_by,
            updated_at: row.updated_at,
          }),
        )
        .execute();
    }
  }

  #publicationView(r: PublicationRow): PublicationView {
    return {
      connector_id: r.connector_id,
      kind: r.kind,
      bot_id: r.resource_id,
      space_id: r.space_id,
      name: r.name,
      version: r.version,
      audit_status: Number(r.audit_status),
      reason: r.reason,
      share_link: r.share_link,
      published_by: r.published_by,
      updated_at: secs(r.updated_at),
    };
  }

  async publications(c: CustomRow, status: number): Promise<PublicationView[]> {
    let q = this.db.selectFrom('connector_publication').selectAll().where('connector_id', '=', c.id);
    if (status) q = q.where('audit_status', '=', status);
    return (await q.orderBy('updated_at', 'desc').execute()).map((r) => this.#publicationView(r));
  }

  /** The publications of a space's bots to custom connectors (their developers' view of the reviews). */
  async publicationsIn(spaceId: string): Promise<PublicationView[]> {
    const rows = await this.db
      .selectFrom('connector_publication')
      .selectAll()
      .where('space_id', '=', spaceId)
      .orderBy('updated_at', 'desc')
      .execute();
    return rows.map((r) => this.#publicationView(r));
  }

  async review(
    c: CustomRow,
    botId: string,
    status: number,
    reason: string,
    shareLink: string,
  ): Promise<PublicationView> {
    const row = await this.db
      .selectFrom('connector_publication')
      .selectAll()
      .where('connector_id', '=', c.id)
      .where('resource_id', '=', botId)
      .executeTakeFirst();
    if (!row) throw texts.error(404, 'notPublished', { bot: botId, id: c.id });
    if (status === AuditStatus.Rejected && !reason.trim())
      throw texts.error(400, 'reason', {}, { detail: { field: 'reason' } });
    const set = {
      audit_status: status,
      reason,
      share_link: status === AuditStatus.Approved ? shareLink : '',
      updated_at: iso(),
    };
    await this.db
      .updateTable('connector_publication')
      .set(set)
      .where('connector_id', '=', c.id)
      .where('kind', '=', row.kind)
      .where('resource_id', '=', botId)
      .execute();
    return this.#publicationView({ ...row, ...set });
  }
}
