// Published workflows as MCP servers: POST /v1/mcp/workflow/{workflow_id} speaks MCP's streamable HTTP
// (stateless, JSON answers) to any MCP client holding a personal access token with workflow.run.
import { badRequest, describeError } from '@tessera/sdk';
import type { ApiReply, ApiRequest, ServerContext } from '@tessera/sdk/server';
import type { BotChats, BotSummary } from '@tessera/ext-bots/shared';
import { WorkflowRunnerService, jsonSchemaOf, type WorkflowSummary } from '@tessera/workflow-sdk';

let sdk: Promise<{ Server: any; Transport: any; ListTools: unknown; CallTool: unknown }> | undefined;
const load = () =>
  (sdk ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(([s, t, types]) => ({
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

/** Runs a fresh stateless MCP server for one request: `tools` listed, `call` answering tools/call. */
async function answerWith(
  tools: { name: string; description: string; inputSchema: Record<string, unknown> }[],
  call: (name: string, args: Record<string, unknown>) => Promise<unknown>,
  serverName: string,
  version: string,
  req: ApiRequest<unknown, unknown, unknown>,
  reply: ApiReply,
  path: string,
) {
  const m = await load();
  const server = new m.Server({ name: serverName, version }, { capabilities: { tools: {} } });
  server.setRequestHandler(m.ListTools, async () => ({ tools }));
  server.setRequestHandler(
    m.CallTool,
    async (request: { params: { name: string; arguments?: Record<string, unknown> } }) => {
      if (!tools.some((t) => t.name === request.params.name))
        return {
          isError: true,
          content: [
            {
              type: 'text',
              text: `There is no tool ${request.params.name}; this server has ${tools.map((t) => t.name).join(', ')}.`,
            },
          ],
        };
      return call(request.params.name, request.params.arguments ?? {});
    },
  );
  const transport = new m.Transport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  headers.delete('content-length');
  const request = new Request(`http://studio${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(req.body ?? null),
  });
  const res: Response = await transport.handleRequest(request, { parsedBody: req.body });
  const text = await res.text();
  await server.close().catch(() => undefined);
  reply.status(res.status);
  res.headers.forEach((v, k) => {
    if (k !== 'content-length' && k !== 'content-type') reply.header(k, v);
  });
  reply.send(text, res.headers.get('content-type') ?? 'application/json');
}

/** Answers one MCP request for a workflow: tools/list gives it as one tool, tools/call runs its latest published version. */
export async function answerMcp(
  ctx: ServerContext<unknown>,
  info: WorkflowSummary,
  req: ApiRequest<unknown, unknown, unknown>,
  reply: ApiReply,
) {
  const runner = ctx.service(WorkflowRunnerService);
  const name = toolNameOf(info);
  const tool = {
    name,
    description: (info.description || `Runs the workflow "${info.name}".`).slice(0, 2000),
    inputSchema: jsonSchemaOf(info.inputs),
  };
  await answerWith(
    [tool],
    async (_name, args) => {
      const r = await runner.run({
        spaceId: info.space_id,
        userId: req.caller!.userId,
        workflowId: info.workflow_id,
        input: args,
        signal: req.signal,
        connectorId: '1024',
        logId: req.logId,
      });
      if (r.status === 'success')
        return { content: [{ type: 'text', text: JSON.stringify(r.output ?? {}) }], structuredContent: r.output ?? {} };
      const why =
        r.status === 'interrupted'
          ? 'The workflow asks a question, which an MCP call cannot answer.'
          : r.status === 'cancel'
            ? 'The run was cancelled.'
            : `The run failed: ${r.error ?? 'unknown error'}`;
      return { isError: true, content: [{ type: 'text', text: why }] };
    },
    `tessera-${name}`,
    info.latest_version ?? '0',
    req,
    reply,
    `/v1/mcp/workflow/${info.workflow_id}`,
  );
}

/** Answers one MCP request for a bot: one tool taking a message (and a conversation to continue), answering the bot's reply. */
export async function answerBotMcp(
  chats: BotChats,
  bot: BotSummary,
  req: ApiRequest<unknown, unknown, unknown>,
  reply: ApiReply,
) {
  const name = toolNameOf({ name: bot.name, workflow_id: bot.bot_id }).replace(/^workflow_/, 'bot_');
  const tool = {
    name,
    description: (bot.description || `Asks the bot "${bot.name}".`).slice(0, 2000),
    inputSchema: {
      type: 'object',
      properties: {
        message: { type: 'string', description: 'What to ask the bot.' },
        conversation_id: {
          type: 'string',
          description: 'Continue this conversation (from an earlier answer); leave out for a new one.',
        },
      },
      required: ['message'],
    },
  };
  await answerWith(
    [tool],
    async (_name, args) => {
      const message = typeof args.message === 'string' ? args.message.trim() : '';
      if (!message) return { isError: true, content: [{ type: 'text', text: 'Give the message to ask the bot.' }] };
      let started;
      try {
        started = await chats.startPublished({
          botId: bot.bot_id,
          userId: req.caller!.userId,
          endUserId: req.caller!.userId,
          message,
          conversationId:
            typeof args.conversation_id === 'string' && args.conversation_id ? args.conversation_id : undefined,
          logId: req.logId,
        });
      } catch (e) {
        return { isError: true, content: [{ type: 'text', text: describeError(e) }] };
      }
      let answer = '';
      let failure: string | undefined;
      const read = (d: unknown) =>
        typeof d === 'string' ? (JSON.parse(d) as Record<string, any>) : (d as Record<string, any>);
      await chats.stream(
        started.chat_id,
        {
          closed: false,
          send(event, data) {
            if (event === 'conversation.message.completed' && read(data)?.type === 'answer')
              answer = String(read(data).content ?? '');
            if (event === 'conversation.chat.failed')
              failure = String(read(data)?.last_error?.msg ?? 'The chat failed.');
          },
          close() {},
        },
        req.signal,
      );
      if (failure) return { isError: true, content: [{ type: 'text', text: failure }] };
      return {
        content: [{ type: 'text', text: answer }],
        structuredContent: { answer, conversation_id: started.conversation_id },
      };
    },
    `tessera-${name}`,
    '1',
    req,
    reply,
    `/v1/mcp/bot/${bot.bot_id}`,
  );
}

export const notExposed = () =>
  badRequest('This workflow is not exposed as an MCP server: expose it in the studio (MCP > Exposed workflows) first.');
