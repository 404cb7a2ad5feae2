// Connections to registered MCP servers through @modelcontextprotocol/sdk (loaded with the first use):
// streamable HTTP and SSE through the studio's outbound guard, stdio as a child process.
import { describeError, isRecord } from '@tessera/sdk';
import type { McpToolInfo, McpToolResult, McpTransport } from '../shared/index.ts';

export interface ServerTarget {
  transport: McpTransport;
  url: string;
  headers: Record<string, string>;
  command: string;
  args: string[];
  env: Record<string, string>;
}

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;
const CONNECT_TIMEOUT_MS = 15_000;
export const CALL_TIMEOUT_MS = 60_000;

let sdk:
  | Promise<{ Client: any; StreamableHTTPClientTransport: any; SSEClientTransport: any; StdioClientTransport: any }>
  | undefined;
const load = () =>
  (sdk ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
  ]).then(([c, h, s, io]) => ({
    Client: c.Client,
    StreamableHTTPClientTransport: h.StreamableHTTPClientTransport,
    SSEClientTransport: s.SSEClientTransport,
    StdioClientTransport: io.StdioClientTransport,
  })));

/** Connects, runs `fn` with the client, and closes (a connection per use: servers are not kept open). */
export async function withClient<T>(target: ServerTarget, fetch: Fetch, fn: (client: any) => Promise<T>): Promise<T> {
  const m = await load();
  const client = new m.Client({ name: 'tessera-studio', version: '0.1.0' });
  let transport;
  if (target.transport === 'stdio') {
    transport = new m.StdioClientTransport({
      command: target.command,
      args: target.args,
      env: { PATH: process.env.PATH ?? '', ...target.env },
      stderr: 'ignore',
    });
  } else {
    const url = new URL(target.url);
    const requestInit = { headers: target.headers };
    transport =
      target.transport === 'sse'
        ? new m.SSEClientTransport(url, { requestInit, fetch })
        : new m.StreamableHTTPClientTransport(url, { requestInit, fetch });
  }
  try {
    await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
    return await fn(client);
  } finally {
    await client.close().catch(() => undefined);
  }
}

export async function listTools(target: ServerTarget, fetch: Fetch): Promise<McpToolInfo[]> {
  return withClient(target, fetch, async (client) => {
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const r = await client.listTools(cursor ? { cursor } : {}, { timeout: CONNECT_TIMEOUT_MS });
      for (const t of r.tools ?? [])
        tools.push({
          name: String(t.name),
          description: String(t.description ?? ''),
          input_schema: isRecord(t.inputSchema) ? t.inputSchema : { type: 'object' },
        });
      cursor = r.nextCursor;
      if (!cursor) break;
    }
    return tools;
  });
}

export async function callTool(
  target: ServerTarget,
  fetch: Fetch,
  tool: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<McpToolResult> {
  return withClient(target, fetch, async (client) => {
    const r = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS, signal });
    const content = (r.content ?? []) as { type: string; text?: string }[];
    const text = content
      .filter((c) => c.type === 'text')
      .map((c) => c.text ?? '')
      .join('\n');
    return { text, structured: r.structuredContent, is_error: !!r.isError, content };
  });
}

/** A failure talking to an MCP server, in words: its HTTP status when it answered one. */
export function describeMcpError(
  e: unknown,
  url: string | undefined,
  describe: (e: unknown, url?: string) => string,
): string {
  const code = (e as { code?: unknown })?.code;
  if (typeof code === 'number' && code >= 400 && code < 600) {
    const hint = code === 401 || code === 403 ? ' (check the headers that carry its key)' : '';
    return `The server answered HTTP ${code}${hint}: ${String(describeError(e)).slice(0, 300)}`;
  }
  return describe(e, url);
}
