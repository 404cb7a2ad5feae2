// Published workflows as MCP servers: POST /v1/mcp/workflow/{workflow_id} speaks MCP's streamable HTTP
// (stateless, JSON answers) to any MCP client holding a personal access token with workflow.run.
import { badRequest } from '@tessera/sdk';
import type { ApiReply, ApiRequest, ServerContext } from '@tessera/sdk/server';
import { WorkflowRunnerService, jsonSchemaOf, type WorkflowSummary } from '@tessera/workflow-sdk';

let sdk: Promise<{ Server: any; Transport: any; ListTools: unknown; CallTool: unknown }> | undefined;
const load = () =>
  (sdk ??= Promise.all([import('@modelcontextprotocol/sdk/server/index.js'), import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'), import('@modelcontextprotocol/sdk/types.js')]).then(([s, t, types]) => ({
    Server: s.Server,
    Transport: t.WebStandardStreamableHTTPServerTransport,
    ListTools: types.ListToolsRequestSchema,
    CallTool: types.CallToolRequestSchema,
  })));

/** The tool name of a workflow: its name in letters, digits, _ and -, else its id. */
export function toolNameOf(w: { name: string; workflow_id: string }): string {
  const n = w.name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  return n || `workflow_${w.workflow_id}`;
}

export function endpointOf(publicUrl: string, workflowId: string) {
  return `${publicUrl.replace(/\/$/, '')}/v1/mcp/workflow/${workflowId}`;
}

/** Answers one MCP request for a workflow: tools/list gives it as one tool, tools/call runs its latest published version. */
export async function answerMcp(ctx: ServerContext<unknown>, info: WorkflowSummary, req: ApiRequest<unknown, unknown, unknown>, reply: ApiReply) {
  const m = await load();
  const runner = ctx.service(WorkflowRunnerService);
  const name = toolNameOf(info);
  const server = new m.Server({ name: `tessera-${name}`, version: info.latest_version ?? '0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(m.ListTools, async () => ({
    tools: [{ name, description: (info.description || `Runs the workflow "${info.name}".`).slice(0, 2000), inputSchema: jsonSchemaOf(info.inputs) }],
  }));
  server.setRequestHandler(m.CallTool, async (request: { params: { name: string; arguments?: Record<string, unknown> } }) => {
    if (request.params.name !== name) return { isError: true, content: [{ type: 'text', text: `There is no tool ${request.params.name}; this server has ${name}.` }] };
    const r = await runner.run({ spaceId: info.space_id, userId: req.caller!.userId, workflowId: info.workflow_id, input: request.params.arguments ?? {}, signal: req.signal, connectorId: '1024', logId: req.logId });
    if (r.status === 'success') return { content: [{ type: 'text', text: JSON.stringify(r.output ?? {}) }], structuredContent: r.output ?? {} };
    const why = r.status === 'interrupted' ? 'The workflow asks a question, which an MCP call cannot answer.' : r.status === 'cancel' ? 'The run was cancelled.' : `The run failed: ${r.error ?? 'unknown error'}`;
    return { isError: true, content: [{ type: 'text', text: why }] };
  });
  const transport = new m.Transport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  headers.delete('content-length');
  const request = new Request(`http://studio/v1/mcp/workflow/${info.workflow_id}`, { method: 'POST', headers, body: JSON.stringify(req.body ?? null) });
  const res: Response = await transport.handleRequest(request, { parsedBody: req.body });
  const text = await res.text();
  await server.close().catch(() => undefined);
  reply.status(res.status);
  res.headers.forEach((v, k) => {
    if (k !== 'content-length' && k !== 'content-type') reply.header(k, v);
  });
  reply.send(text, res.headers.get('content-type') ?? 'application/json');
}

export const notExposed = () => badRequest('This workflow is not exposed as an MCP server: expose it in the studio (MCP > Exposed workflows) first.');
