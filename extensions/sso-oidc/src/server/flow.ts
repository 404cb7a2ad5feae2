// A sign-in through an OpenID Connect provider: the start (PKCE, state, nonce, and a cookie that ties the callback to
// the browser that started it) and the callback (the code exchanged; the ID token's signature, issuer, audience,
// expiry and nonce checked by openid-client; the email's domain; the account found, linked or made; groups mapped to
// space roles; the session). A test sign-in (an administrator's) records what would happen instead.
import { describeError } from '@tessera/sdk';
import { createHash, randomBytes } from 'node:crypto';
import { SecretsService, type ApiReply, type ServerContext } from '@tessera/sdk/server';
import { IdentityService, IdentitySessionsService } from '@tessera/ext-identity/shared';
import { SpaceRoleType, SpacesService } from '@tessera/ext-spaces/shared';
import { EnterpriseDirectoryService } from '@tessera/ext-enterprise/shared';
import type { TestResult } from '../shared/api.ts';
import { texts, type SsoTextKey } from './texts.ts';
import { domainsOf, groupRolesOf, iso, type Connections, type ConnectionRow, type FlowRow } from './connections.ts';

const FLOW_TTL_MS = 10 * 60_000;
const BINDING_COOKIE = 'tessera_sso';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** A sign-in that cannot go on: the sentence shown on the sign-in page (or the test result), in the browser's language. */
class SsoRefusal extends Error {
  readonly key: SsoTextKey;
  readonly params: Record<string, string>;
  constructor(key: SsoTextKey, params: Record<string, string> = {}) {
    super(texts.text(key, params, 'en-US'));
    this.key = key;
    this.params = params;
  }
  in(language: unknown): string {
    return texts.text(this.key, this.params, language);
  }
}

function cookieOf(header: string | string[] | undefined, name: string): string {
  for (const part of String(header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return '';
}

/** openid-client's error and what caused it ("invalid response encountered" says less than its cause). */
function reasonOf(e: unknown): string {
  const err = e as Error & { cause?: unknown };
  const cause = err.cause instanceof Error ? err.cause.message : '';
  return cause && cause !== err.message ? `${err.message} (${cause})` : err.message;
}

export class SignInFlow {
  readonly #ctx: ServerContext;
  readonly #connections: Connections;
  readonly #secure: boolean;

  constructor(ctx: ServerContext, connections: Connections) {
    this.#ctx = ctx;
    this.#connections = connections;
    this.#secure = ctx.host.publicUrl.startsWith('https:');
  }

  /** Where to send the browser to sign in with the connection (or test it, for an administrator). */
  async start(
    c: ConnectionRow,
    o: { next: string; testBy?: string; reply?: ApiReply },
  ): Promise<{ url: string; flowId: string }> {
    const oidc = await import('openid-client');
    const config = await this.#connections.configOf(c);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const binding = randomBytes(24).toString('base64url');
    const flowId = sha256(state);
    await this.#connections.db
      .insertInto('sso_oidc_flow')
      .values({
        id: flowId,
        connection_id: c.id,
        binding_hash: sha256(binding),
        verifier: this.#ctx.service(SecretsService).encrypt(verifier),
        nonce,
        next: o.next,
        test_by: o.testBy ?? '',
        result: null,
        expires_at: iso(Date.now() + FLOW_TTL_MS),
        used_at: null,
      })
      .execute();
    o.reply?.header(
      'set-cookie',
      `${BINDING_COOKIE}=${binding}; Path=/api/sso/oidc; Max-Age=${FLOW_TTL_MS / 1000}; HttpOnly; SameSite=Lax${this.#secure ? '; Secure' : ''}`,
    );
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.#connections.redirectUri,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.toString(), flowId };
  }

  /** The provider sent the browser back: where it goes now (the page it came from, or the sign-in page with why not). */
  async callback(
    req: {
      url: string;
      query: Record<string, unknown>;
      headers: Record<string, string | string[] | undefined>;
      ip: string;
    },
    reply: ApiReply,
  ): Promise<string> {
    const state = typeof req.query.state === 'string' ? req.query.state : '';
    const flow = state ? await this.#take(sha256(state)) : undefined;
    reply.header('set-cookie', `${BINDING_COOKIE}=; Path=/api/sso/oidc; Max-Age=0; HttpOnly; SameSite=Lax`);
    const language = req.headers['accept-language'];
    if (!flow) return this.#refused(texts.text('usedLink', {}, language));
    const test = !!flow.test_by;
    try {
      if (Date.parse(flow.expires_at) <= Date.now()) throw new SsoRefusal('slow');
      if (!test && sha256(cookieOf(req.headers.cookie, BINDING_COOKIE)) !== flow.binding_hash)
        throw new SsoRefusal('otherBrowser');
      if (typeof req.query.error === 'string')
        throw new SsoRefusal('providerRefused', { reason: String(req.query.error_description ?? req.query.error) });
      const c = await this.#connections.get(flow.connection_id);
      if (c.status !== 'active' && !test) throw new SsoRefusal('off', { name: c.name });
      const claims = await this.#claims(c, flow, state, req.url);
      const found = await this.#account(c, claims, test);
      if (test) {
        await this.#record(flow, {
          status: found.refusal ? 'failed' : 'ok',
          error: found.refusal?.in(language) ?? '',
          ...found.summary,
          claims,
        });
        return this.#testPage(flow);
      }
      if (!found.userId) throw found.refusal ?? new SsoRefusal('cannot');
      // A person signed in by an enterprise's connection is one of its people.
      if (c.enterprise_id) await this.#directory?.joinEnterprise(c.enterprise_id, found.userId);
      await this.#applyRoles(found.userId, found.summary.roles);
      await this.#ctx.service(IdentitySessionsService).signIn(found.userId, reply, {
        ip: req.ip,
        userAgent: String(req.headers['user-agent'] ?? ''),
        method: 'oidc',
      });
      return flow.next;
    } catch (e) {
      if (!(e instanceof SsoRefusal))
        this.#ctx.logger.warn(`sso-oidc: ${texts.text('answerRefused', { reason: reasonOf(e) }, 'en-US')}`);
      const message =
        e instanceof SsoRefusal ? e.in(language) : texts.text('answerRefused', { reason: reasonOf(e) }, language);
      if (test) {
        await this.#record(flow, {
          status: 'failed',
          error: message,
          email: '',
          subject: '',
          groups: [],
          outcome: 'refuse',
          roles: [],
          claims: {},
        });
        return this.#testPage(flow);
      }
      return this.#refused(message);
    }
  }

  async result(testId: string, userId: string): Promise<TestResult | undefined> {
    const row = await this.#connections.db
      .selectFrom('sso_oidc_flow')
      .select(['result', 'test_by'])
      .where('id', '=', testId)
      .executeTakeFirst();
    if (!row || row.test_by !== userId) return undefined;
    if (!row.result)
      return { status: 'pending', error: '', email: '', subject: '', groups: [], outcome: '', roles: [], claims: {} };
    return JSON.parse(row.result) as TestResult;
  }

  /** The flow of this state, marked used (a second callback with the same state finds nothing). */
  async #take(id: string): Promise<FlowRow | undefined> {
    const db = this.#connections.db;
    const row = await db.selectFrom('sso_oidc_flow').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || row.used_at) return undefined;
    const taken = await db
      .updateTable('sso_oidc_flow')
      .set({ used_at: iso() })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Math.random() < 0.02)
      void db
        .deleteFrom('sso_oidc_flow')
        .where('expires_at', '<', iso(Date.now() - 86_400_000))
        .execute()
        .catch(() => undefined);
    return Number(taken.numUpdatedRows) ? row : undefined;
  }

  async #claims(c: ConnectionRow, flow: FlowRow, state: string, url: string): Promise<Record<string, unknown>> {
    const oidc = await import('openid-client');
    const config = await this.#connections.configOf(c);
    const current = new URL(url, this.#ctx.host.publicUrl);
    const tokens = await oidc.authorizationCodeGrant(
      config,
      new URL(`${this.#connections.redirectUri}${current.search}`),
      {
        pkceCodeVerifier: this.#ctx.service(SecretsService).decrypt(flow.verifier),
        expectedNonce: flow.nonce,
        expectedState: state,
        idTokenExpected: true,
      },
    );
    const claims = tokens.claims();
    if (!claims) throw new SsoRefusal('noIdToken');
    return { ...claims };
  }

  /** The account the claims sign in: linked before, found by a verified email, made now (JIT), or none and why. */
  async #account(
    c: ConnectionRow,
    claims: Record<string, unknown>,
    test: boolean,
  ): Promise<{ userId?: string; refusal?: SsoRefusal; summary: Omit<TestResult, 'status' | 'error' | 'claims'> }> {
    const subject = String(claims.sub ?? '');
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
    const raw = claims[c.groups_claim];
    const groups = Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' ? [raw] : [];
    const roles = groupRolesOf(c)
      .filter((m) => groups.includes(m.group))
      .map((m) => ({ space_id: m.space_id, organization_id: m.organization_id, role: m.role }));
    const summary = { email, subject, groups, roles, outcome: 'refuse' };
    const domains = domainsOf(c);
    const domain = email.split('@')[1] ?? '';
    if (domains.length && !domains.includes(domain))
      return {
        summary,
        refusal: email ? new SsoRefusal('domain', { email, domains: domains.join(', ') }) : new SsoRefusal('noEmail'),
      };
    const db = this.#connections.db;
    const linked = await db
      .selectFrom('sso_oidc_identity')
      .select('user_id')
      .where('connection_id', '=', c.id)
      .where('subject', '=', subject)
      .executeTakeFirst();
    const identity = this.#ctx.service(IdentityService);
    if (linked && (await identity.getUser(linked.user_id)))
      return { userId: linked.user_id, summary: { ...summary, outcome: 'sign_in' } };
    if (!email) return { summary, refusal: new SsoRefusal('noEmail') };
    // An account is linked by email only when the provider vouches for the address (or owns its domain here).
    if (claims.email_verified === false || (!domains.length && claims.email_verified !== true))
      return { summary, refusal: new SsoRefusal('unverified', { email }) };
    const existing = await identity.findByEmail(email);
    // An enterprise's provider vouches for its own people only: an account it did not make or link before is taken
    // only when the person is already one of the enterprise's (their administrator added them).
    if (existing && c.enterprise_id && !(await this.#directory?.roleOf(c.enterprise_id, existing.user_id)))
      return {
        summary,
        refusal: new SsoRefusal('notEnterprisePerson', { email }),
      };
    if (!existing && !Number(c.jit))
      return {
        summary,
        refusal: new SsoRefusal('noJit', { email, name: c.name }),
      };
    // A test makes no account and no link: it says what a sign-in would do.
    if (test) return { summary: { ...summary, outcome: existing ? 'sign_in' : 'create' } };
    const { user, created } = existing
      ? { user: existing, created: false }
      : await this.#ctx
          .service(IdentitySessionsService)
          .provision({ email, name: String(claims.name ?? claims.preferred_username ?? '') });
    await db
      .insertInto('sso_oidc_identity')
      .values({ connection_id: c.id, subject, user_id: user.user_id, created_at: iso() })
      .onConflict((oc) => oc.doNothing())
      .execute();
    return { userId: user.user_id, summary: { ...summary, outcome: created ? 'create' : 'sign_in' } };
  }

  async #applyRoles(
    userId: string,
    roles: { space_id: string; organization_id: string; role: string }[],
  ): Promise<void> {
    const spaces = this.#ctx.service(SpacesService);
    for (const r of roles) {
      try {
        if (r.organization_id) {
          if (!this.#directory) throw new Error('this studio has no organizations');
          await this.#directory.joinOrganization(r.organization_id, userId, r.role === 'admin' ? 1 : 2);
        } else
          await spaces.ensureMember(
            r.space_id,
            userId,
            r.role === 'admin' ? SpaceRoleType.Admin : SpaceRoleType.Member,
          );
      } catch (e) {
        // A mapping to a space or organization that is gone does not stop the sign-in; the log says it.
        this.#ctx.logger.warn(
          `sso-oidc: could not give ${userId} the ${r.role} role in ${r.organization_id ? `organization ${r.organization_id}` : `space ${r.space_id}`}: ${describeError(e)}`,
        );
      }
    }
  }

  async #record(flow: FlowRow, result: TestResult): Promise<void> {
    await this.#connections.db
      .updateTable('sso_oidc_flow')
      .set({ result: JSON.stringify(result) })
      .where('id', '=', flow.id)
      .execute();
  }

  get #directory() {
    return this.#ctx.optionalService(EnterpriseDirectoryService);
  }

  /** Where a test sign-in shows its result: the page it was started from (Settings, or the enterprise's tab). */
  #testPage(flow: FlowRow): string {
    return `${flow.next}${flow.next.includes('?') ? '&' : '?'}test_id=${flow.id}`;
  }

  #refused(message: string): string {
    return `/sign-in?sso_error=${encodeURIComponent(message)}`;
  }
}
