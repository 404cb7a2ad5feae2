import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CozeAPI,
  getDeviceCode,
  getDeviceToken,
  getWebAuthenticationUrl,
  getWebOAuthToken,
  AuthenticationError,
} from '@coze/api';
import { signUp } from '../agent.ts';
import { signedInContext, userSession, withStudioAndBrowser } from './browser.ts';

// OAuth apps in the browser: a developer registers a web app, a user is sent to the consent page and back to the
// app with a code; a device's code is typed by a user who must sign in first; a user revokes what they authorized.
const env = withStudioAndBrowser({ env: { TESSERA_EXT_OAUTH_APPS: '{"deviceIntervalSeconds":1}' } });
let receiver: Server;
let callback = '';
beforeAll(async () => {
  // The app's redirect URI: a page of "the app" on this machine.
  receiver = createServer((_req, res) => res.end('<html><body>back at the app</body></html>'));
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  callback = `http://localhost:${(receiver.address() as AddressInfo).port}/callback`;
});
afterAll(() => receiver.close());

describe('OAuth apps in the browser', () => {
  it('registers a web app; a user allows it on the consent page, the app gets a code, and the user revokes it later', async () => {
    const dev = await userSession(env, { language: 'en-US', viewport: { width: 1440, height: 900 } });
    await dev.page.goto(`${env.studio.url}/oauth-apps`);
    await dev.page.getByTestId('oauth-apps-empty').waitFor();
    await dev.page.getByTestId('oauth-app-name').fill('Report builder');
    await dev.page.getByTestId('oauth-app-create').click();
    const panel = dev.page.getByTestId('oauth-app-panel');
    await panel.getByTestId('oauth-app-permissions').getByText('workflow', { exact: false }).first().click();
    await panel.getByTestId('oauth-app-redirects').fill(callback);
    await panel.getByTestId('oauth-app-config-save').click();
    await panel.getByTestId('oauth-app-new-secret').click();
    await expect.poll(() => panel.getByTestId('oauth-revealed').textContent()).toMatch(/^ocs_/);
    const secret = (await panel.getByTestId('oauth-revealed').textContent())!;
    const clientId = (await panel.getByTestId('oauth-app-client-id').textContent())!;
    await expect
      .poll(
        async () =>
          (await dev.api.post('/api/permission_api/app/get_app_meta', { appid: clientId })).app.oauth2_configuration
            .redirect_uris,
      )
      .toEqual([callback]);

    // Another person, in Chinese, is sent by the app to the studio.
    const user = await userSession(env, { language: 'zh-CN', viewport: { width: 1280, height: 800 } });
    const url = getWebAuthenticationUrl({ baseURL: env.studio.url, clientId, redirectUrl: callback, state: 'r-1' });
    await user.page.goto(url);
    await expect.poll(() => user.page.getByTestId('oauth-consent-app').textContent()).toContain('Report builder');
    expect(await user.page.getByTestId('oauth-consent').textContent()).toContain('允许');
    await user.page.getByTestId('oauth-consent-allow').click();
    await user.page.waitForURL((u) => u.toString().startsWith(callback));
    const back = new URL(user.page.url());
    expect(back.searchParams.get('state')).toBe('r-1');
    const token = await getWebOAuthToken({
      baseURL: env.studio.url,
      clientId,
      clientSecret: secret,
      code: back.searchParams.get('code')!,
      redirectUrl: callback,
    });
    const coze = new CozeAPI({ token: token.access_token, baseURL: env.studio.url });
    expect((await coze.users.me()).user_id).toBeTruthy();

    await user.page.goto(`${env.studio.url}/oauth-apps`);
    await user.page.getByTestId('oauth-tab-authorized').click();
    await expect.poll(() => user.page.getByTestId('oauth-authorized-app').textContent()).toContain('Report builder');
    await user.page.getByTestId('oauth-authorized-revoke').click();
    await user.page.locator('.arco-popconfirm .arco-btn-primary').click();
    await user.page.getByTestId('oauth-authorized-empty').waitFor();
    await expect(coze.users.me()).rejects.toBeInstanceOf(AuthenticationError);
    expect([...dev.errors, ...user.errors]).toEqual([]);
    await dev.context.close();
    await user.context.close();
  });

  it("connects a device: a signed-out person signs in first, types the device's code and allows it", async () => {
    const dev = await userSession(env, { language: 'en-US' });
    const { app } = await dev.api.post('/api/permission_api/app/create_app_meta', {
      name: 'Living-room TV',
      client_type: 'device',
      declared_permission: ['bot.read'],
    });
    const device = await getDeviceCode({ baseURL: env.studio.url, clientId: app.appid });
    const { email } = await signUp(env.studio.url, 'tv-owner');
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(() => localStorage.setItem('tessera.language', 'en-US'));
    const page = await context.newPage();
    await page.goto(device.verification_uri);
    await page.waitForURL(/\/sign-in\?next=/);
    await page.getByTestId('sign-in-email').locator('input').or(page.getByTestId('sign-in-email')).first().fill(email);
    await page
      .getByTestId('sign-in-password')
      .locator('input')
      .or(page.getByTestId('sign-in-password'))
      .first()
      .fill('correct horse battery');
    await page.getByTestId('sign-in-submit').click();
    await page.waitForURL(/\/oauth\/device/);
    await page.getByTestId('oauth-device-code').fill(device.user_code);
    await page.getByTestId('oauth-device-continue').click();
    await expect.poll(() => page.getByTestId('oauth-consent-app').textContent()).toContain('Living-room TV');
    await page.getByTestId('oauth-consent-allow').click();
    await page.getByTestId('oauth-device-done').waitFor();
    const token = await getDeviceToken({
      baseURL: env.studio.url,
      clientId: app.appid,
      deviceCode: device.device_code,
      poll: true,
    });
    expect(token.access_token).toMatch(/^oat_/);
    // A code typed wrong says so on the page.
    await page.goto(`${env.studio.url}/oauth/device`);
    await page.getByTestId('oauth-device-code').fill('BBBB-CCCC');
    await page.getByTestId('oauth-device-continue').click();
    await expect.poll(() => page.getByTestId('oauth-device-error').textContent()).toMatch(/not valid or has expired/);
    await context.close();
    await dev.context.close();
  });

  it('shows a request it cannot trust on the page instead of sending the browser anywhere', async () => {
    const { context } = await signedInContext(env.browser, env.studio.url, { language: 'en-US' });
    const page = await context.newPage();
    await page.goto(
      `${env.studio.url}/api/permission/oauth2/authorize?client_id=404404&redirect_uri=https%3A%2F%2Fevil.example%2F&response_type=code`,
    );
    await expect
      .poll(() => page.getByTestId('oauth-consent-error').textContent())
      .toMatch(/no active OAuth app 404404/);
    expect(new URL(page.url()).pathname).toBe('/oauth/authorize');
    await context.close();
  });
});
