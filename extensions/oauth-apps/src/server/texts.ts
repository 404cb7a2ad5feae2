// The OAuth apps' refusals in the studio's languages (ApiError text keys `oauth_apps.*`).
const t = (key: string, en: string, zh: string) => ({ key, texts: { 'en-US': en, 'zh-CN': zh } });

export const TEXTS: { key: string; texts: { 'en-US': string; 'zh-CN': string } }[] = [
  t('noApp', 'No OAuth app {{appid}} of yours.', '你没有 OAuth 应用 {{appid}}。'),
  t(
    'secretType',
    'Only a web app has client secrets (a page or device app uses PKCE or a device code; a service app signs JWTs).',
    '只有 Web 应用有客户端密钥（单页/设备应用使用 PKCE 或设备码，服务应用签名 JWT）。',
  ),
  t(
    'tooManySecrets',
    'An app has at most 5 client secrets: delete one first.',
    '每个应用最多 5 个客户端密钥，请先删除一个。',
  ),
  t('keyType', 'Only a service app has public keys.', '只有服务应用有公钥。'),
  t(
    'badKey',
    'This is not a public key in PEM form ("-----BEGIN PUBLIC KEY-----", RSA or EC).',
    '这不是 PEM 格式的公钥（“-----BEGIN PUBLIC KEY-----”，RSA 或 EC）。',
  ),
  t('tooManyKeys', 'An app has at most 5 public keys: delete one first.', '每个应用最多 5 个公钥，请先删除一个。'),
  t('keyInUse', 'This public key is already in use.', '该公钥已被使用。'),
  t(
    'notService',
    'Only a service app is authorized by its owner; users authorize other apps on the consent page.',
    '只有服务应用由创建者授权；其他应用由用户在授权页授权。',
  ),
  t('notMember', 'You are not a member of space(s) {{spaces}}.', '你不是空间 {{spaces}} 的成员。'),
  t(
    'insecureRedirect',
    'Redirect URI {{uri}} must use https (or http to localhost).',
    '重定向地址 {{uri}} 必须使用 https（本机可用 http）。',
  ),
  t(
    'fragmentRedirect',
    'Redirect URI {{uri}} must not have a fragment (#...).',
    '重定向地址 {{uri}} 不能包含片段（#...）。',
  ),
  t(
    'badClient',
    'There is no active OAuth app {{appid}}: check the client_id.',
    '没有可用的 OAuth 应用 {{appid}}，请检查 client_id。',
  ),
  t('wrongFlow', 'App {{name}} cannot use the authorization code flow.', '应用 {{name}} 不能使用授权码方式。'),
  t(
    'badRedirect',
    "The redirect URI {{uri}} is not one of the app's redirect URIs.",
    '重定向地址 {{uri}} 不在应用登记的地址中。',
  ),
  t('responseType', 'Only response_type=code is supported.', '仅支持 response_type=code。'),
  t('challengeMethod', 'code_challenge_method must be S256 or plain.', 'code_challenge_method 必须是 S256 或 plain。'),
  t(
    'pkceRequired',
    'An app without a client secret must send a PKCE code_challenge.',
    '没有客户端密钥的应用必须发送 PKCE code_challenge。',
  ),
  t(
    'badUserCode',
    'This code is not valid or has expired: start again on the device.',
    '该授权码无效或已过期，请在设备上重新开始。',
  ),
  t(
    'staleRequest',
    'This authorization request has expired or was already answered: start again from the app.',
    '该授权请求已过期或已处理，请从应用重新发起。',
  ),
  t('noSpaces', 'Choose at least one space the app may work in.', '请至少选择一个允许应用访问的空间。'),
  t('notAuthorized', 'You have not authorized this app.', '你没有授权过该应用。'),
];
