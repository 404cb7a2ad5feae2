import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type OidcIdp } from '../fixtures/oidc-idp.ts';
import { signedInContext, withStudioAndBrowser } from './browser.ts';

// Single sign-on in Chromium, against oidc-provider on this machine: an administrator adds the connection in
// Settings and runs its test sign-in; then a person of the company signs in with "Sign in with SSO" and lands in the
// studio with an account made for them. Everything runs at the studio's public address (where the provider returns).
const env = withStudioAndBrowser();
let idp: OidcIdp;
let base: string;
beforeAll(async () => {
  base = env.studio.server.config.publicUrl;
  idp = await startOidcProvider(`${base}/api/sso/oidc/callback`);
  idp.accounts.set('ada', { email: 'ada@acme.test', email_verified: true, name: 'Ada of Acme', groups: ['eng'] });
});
afterAll(() => idp?.close());

describe('single sign-on in the browser', () => {
  it('is set up and tested by an administrator, then used by a person of the company', async () => {
    // The first account of the studio is its administrator.
    const { context: adminContext } = await signedInContext(env.browser, base, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    const admin = await adminContext.newPage();
    await admin.goto(`${base}/settings/sso`);
    await admin.getByTestId('sso-empty').waitFor();
    await admin.getByTestId('sso-new').click();
    const panel = admin.getByTestId('sso-panel');
    await panel.getByTestId('sso-name').fill('Acme login');
    await panel.getByTestId('sso-issuer').fill(idp.issuer);
    await panel.getByTestId('sso-client_id').fill(idp.clientId);
    await panel.getByTestId('sso-client_secret').fill(idp.clientSecret);
    await panel.getByTestId('sso-domains').fill('acme.test');
    await panel.getByTestId('sso-save').click();
    await expect.poll(() => admin.getByTestId('sso-connection').textContent()).toContain('Acme login');

    idp.signInAs('ada');
    await admin.getByTestId('sso-test').click();
    await admin.waitForURL(/\/settings\/sso\?test_id=/);
    await expect.poll(() => admin.getByTestId('sso-test-result').getAttribute('data-status')).toBe('ok');
    expect(await admin.getByTestId('sso-test-result').textContent()).toContain('make a new account');

    // Ada, signed out, in Chinese.
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(() => localStorage.setItem('tessera.language', 'zh-CN'));
    const page = await context.newPage();
    await page.goto(`${base}/sign-in?next=%2Fprofile`);
    await page.getByTestId('sign-in-sso').click();
    expect(await page.getByTestId('sign-in-sso').count()).toBe(0);
    await page.getByTestId('sign-in-sso-email').fill('ada@acme.test');
    await page.getByTestId('sign-in-sso-continue').click();
    await page.waitForURL(`${base}/profile`);
    const me = await page.evaluate(() => fetch('/api/passport/account/info/v2').then((r) => r.json()));
    expect(me.data).toMatchObject({ email: 'ada@acme.test', name: 'Ada of Acme' });

    // An email of another domain is told there is no single sign-on for it.
    const other = await context.newPage();
    await other.goto(`${base}/sign-in`);
    await other.evaluate(() => fetch('/api/passport/web/logout', { method: 'POST' }));
    await other.getByTestId('sign-in-sso').click();
    await other.getByTestId('sign-in-sso-email').fill('someone@elsewhere.test');
    await other.getByTestId('sign-in-sso-continue').click();
    await other.getByTestId('sign-in-sso-none').waitFor();
    await context.close();
    await adminContext.close();
  });

  it("is kept by an enterprise's admin on its Enterprise page, tested there", async () => {
    // Not the studio's administrator: the admin of an enterprise, in Chinese.
    const { context } = await signedInContext(env.browser, base, {
      language: 'zh-CN',
      viewport: { width: 1440, height: 900 },
    });
    const page = await context.newPage();
    await page.goto(`${base}/enterprise`);
    await page.getByTestId('enterprise-name').fill('Globex');
    await page.getByTestId('enterprise-create').click();
    await page.getByTestId('enterprise-tab-sso').click();
    await page.getByTestId('sso-empty').waitFor();
    await page.getByTestId('sso-new').click();
    const panel = page.getByTestId('sso-panel');
    await panel.getByTestId('sso-name').fill('Globex login');
    await panel.getByTestId('sso-issuer').fill(idp.issuer);
    await panel.getByTestId('sso-client_id').fill(idp.clientId);
    await panel.getByTestId('sso-client_secret').fill(idp.clientSecret);
    await panel.getByTestId('sso-domains').fill('globex.test');
    await panel.getByTestId('sso-save').click();
    await expect.poll(() => page.getByTestId('sso-connection').textContent()).toContain('Globex login');

    idp.accounts.set('gus', { email: 'gus@globex.test', email_verified: true, name: 'Gus' });
    idp.signInAs('gus');
    await page.getByTestId('sso-test').click();
    await page.waitForURL(/\/enterprise\?tab=sso&test_id=/);
    await expect.poll(() => page.getByTestId('sso-test-result').getAttribute('data-status')).toBe('ok');
    await context.close();
  });
});
