/** A browser-like API client for tests: keeps cookies, sends the CSRF header on writes, or a bearer token. */
export class Agent {
  cookies = new Map<string, string>();
  base: string;
  bearer?: string;

  constructor(base: string, opts: { bearer?: string } = {}) {
    this.base = base;
    this.bearer = opts.bearer;
  }

  async request(
    method: string,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<{ status: number; body: any; headers: Headers }> {
    const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders };
    // A form (file uploads) carries its own multipart type and boundary.
    const form = body instanceof FormData;
    if (body !== undefined && !form) headers['content-type'] = 'application/json';
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const csrf = this.cookies.get('tessera_csrf');
    if (csrf && method !== 'GET') headers['x-csrf-token'] = decodeURIComponent(csrf);
    if (this.bearer) headers.authorization = `Bearer ${this.bearer}`;
    const res = await fetch(this.base + path, {
      method,
      headers,
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      if (attrs.some((a) => /max-age=0/i.test(a.trim())) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  /** Uploads files as a browser does (multipart/form-data, field "file"); answers the envelope's data. */
  async upload<T = any>(path: string, files: { name: string; data: Uint8Array | string }[]): Promise<T> {
    const form = new FormData();
    for (const f of files)
      form.append('file', new Blob([typeof f.data === 'string' ? f.data : new Uint8Array(f.data)]), f.name);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const csrf = this.cookies.get('tessera_csrf');
    if (csrf) headers['x-csrf-token'] = decodeURIComponent(csrf);
    if (this.bearer) headers.authorization = `Bearer ${this.bearer}`;
    const res = await fetch(this.base + path, { method: 'POST', headers, body: form });
    const body = await res.json();
    if (res.status !== 200 || body?.code !== 0)
      throw new Error(`POST ${path} -> ${res.status} ${JSON.stringify(body)}`);
    return body.data as T;
  }

  /** An envelope call that must succeed; returns data. */
  async ok<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const r = await this.request(method, path, body);
    if (r.status !== 200 || r.body?.code !== 0)
      throw new Error(`${method} ${path} -> ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.data as T;
  }

  post<T = any>(path: string, body: unknown = {}) {
    return this.ok<T>('POST', path, body);
  }

  get<T = any>(path: string) {
    return this.ok<T>('GET', path);
  }
}

let seq = 0;
export async function signUp(base: string, name = `user${++seq}`): Promise<{ agent: Agent; user: any; email: string }> {
  const agent = new Agent(base);
  const email = `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const user = await agent.post('/api/passport/web/email/register/v2', {
    email,
    password: 'correct horse battery',
    name,
  });
  return { agent, user, email };
}
