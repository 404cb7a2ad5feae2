// The MCP tool node's form: the server and tool, and the tool's arguments (loaded when first drawn).
import { Alert, Tag, Typography } from '@arco-design/web-react';
import type { NodeFormProps } from '@tessera/ext-workflow/client';
import { useTranslation } from 'react-i18next';
import { useServers } from './catalogue.tsx';

export function McpNodeForm({ node, spaceId }: NodeFormProps) {
  const { t } = useTranslation('mcp');
  const s = node.node_param.settings as { server_id?: string; tool?: string; server_name?: string };
  const q = useServers(spaceId);
  const server = q.data?.servers.find((x) => x.server_id === s.server_id);
  const tool = server?.tools.find((x) => x.name === s.tool);
  const props = Object.entries((tool?.input_schema.properties ?? {}) as Record<string, { type?: string }>);
  const required = new Set((tool?.input_schema.required as string[] | undefined) ?? []);
  return (
    <div data-testid="mcp-node-form">
      <Typography.Text>
        <b>{server?.name ?? s.server_name}</b> / {s.tool}
      </Typography.Text>
      {q.data && !tool && <Alert type="warning" style={{ marginTop: 6 }} content={t('node.gone')} />}
      {tool?.description && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
          {tool.description}
        </Typography.Paragraph>
      )}
      {!!props.length && (
        <div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('node.args')}
          </Typography.Text>
          <div>
            {props.map(([name, p]) => (
              <Tag key={name} size="small" style={{ margin: 2 }}>
                {name}: {p.type ?? 'any'}
                {required.has(name) ? ' *' : ''}
              </Tag>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}
