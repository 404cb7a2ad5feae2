// Register or change an MCP server: transport, URL and headers, or (platform administrators) a command.
import { Button, Form, Input, Radio, Space } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Modal, fieldErrors, toast, useApi, testId } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ServerView } from './McpPage.tsx';
import { CreateServer, UpdateServer } from '../shared/api.ts';

function Pairs({
  pairs,
  onChange,
  testId,
  placeholder,
}: {
  pairs: { name: string; value: string }[];
  onChange(p: { name: string; value: string }[]): void;
  testId: string;
  placeholder: string;
}) {
  const { t } = useTranslation('mcp');
  return (
    <div data-testid={testId}>
      {pairs.map((p, i) => (
        <Space key={i} style={{ display: 'flex', marginBottom: 4 }}>
          <Input
            size="small"
            style={{ width: 180 }}
            value={p.name}
            placeholder={placeholder}
            onChange={(name) => onChange(pairs.map((x, j) => (j === i ? { ...x, name } : x)))}
            data-testid={`${testId}-name`}
          />
          <Input.Password
            size="small"
            style={{ width: 280 }}
            value={p.value}
            placeholder={t('form.value')}
            onChange={(value) => onChange(pairs.map((x, j) => (j === i ? { ...x, value } : x)))}
            data-testid={`${testId}-value`}
          />
          <Button
            size="mini"
            type="text"
            status="danger"
            icon={<IconDelete />}
            aria-label={t('delete')}
            onClick={() => onChange(pairs.filter((_, j) => j !== i))}
          />
        </Space>
      ))}
      <Button
        size="mini"
        type="text"
        icon={<IconPlus />}
        onClick={() => onChange([...pairs, { name: '', value: '' }])}
        data-testid={`${testId}-add`}
      >
        {t('form.add')}
      </Button>
    </div>
  );
}

export function ServerForm({ spaceId, server, onClose }: { spaceId: string; server?: ServerView; onClose(): void }) {
  const { t } = useTranslation('mcp');
  const api = useApi();
  const qc = useQueryClient();
  const [name, setName] = useState(server?.name ?? '');
  const [description, setDescription] = useState(server?.description ?? '');
  const [transport, setTransport] = useState<ServerView['transport']>(server?.transport ?? 'streamable_http');
  const [url, setUrl] = useState(server?.url ?? '');
  const [headers, setHeaders] = useState(server?.headers ?? []);
  const [command, setCommand] = useState(server?.command ?? '');
  const [args, setArgs] = useState((server?.args ?? []).join('\n'));
  const [env, setEnv] = useState(server?.env ?? []);
  const [problem, setProblem] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: () => {
      const body = {
        space_id: spaceId,
        name: name.trim(),
        description,
        transport,
        url: url.trim(),
        headers: headers.filter((h) => h.name.trim()),
        command: command.trim(),
        args: args.split('\n').filter((a) => a.trim()),
        env: env.filter((e) => e.name.trim()),
      };
      const handled = fieldErrors(['name', 'url', 'command'], (f, msg) => setProblem((p) => ({ ...p, [f]: msg })));
      return server
        ? api.call(UpdateServer, { ...body, server_id: server.server_id }, { handled })
        : api.call(CreateServer, body, { handled });
    },
    onSuccess: async (s) => {
      if (s.last_error) toast.warning(t('form.savedButFailed'));
      else toast.success(t('form.saved', { n: s.tools.length }));
      await qc.invalidateQueries({ queryKey: ['mcp'] });
      onClose();
    },
  });
  const err = (f: string) => (problem[f] ? { validateStatus: 'error' as const, help: problem[f] } : {});
  return (
    <Modal
      visible
      size="large"
      title={server ? t('form.editTitle', { name: server.name }) : t('servers.create')}
      onCancel={onClose}
      onOk={() => save.mutate()}
      confirmLoading={save.isPending}
      okButtonProps={{ disabled: !name.trim(), ...testId('mcp-save') }}
    >
      <Form layout="vertical" onChange={() => setProblem({})}>
        <Form.Item label={t('form.name')} required {...err('name')}>
          <Input value={name} maxLength={100} onChange={setName} data-testid="mcp-name" />
        </Form.Item>
        <Form.Item label={t('form.description')}>
          <Input value={description} maxLength={2000} onChange={setDescription} />
        </Form.Item>
        <Form.Item label={t('form.transport')} extra={transport === 'stdio' ? t('form.stdioAdmins') : undefined}>
          <Radio.Group type="button" value={transport} onChange={setTransport} data-testid="mcp-transport">
            <Radio value="streamable_http">{t('transport.streamable_http')}</Radio>
            <Radio value="sse">{t('transport.sse')}</Radio>
            <Radio value="stdio">{t('transport.stdio')}</Radio>
          </Radio.Group>
        </Form.Item>
        {transport === 'stdio' ? (
          <>
            <Form.Item label={t('form.command')} required {...err('command')}>
              <Input value={command} placeholder="npx" onChange={setCommand} data-testid="mcp-command" />
            </Form.Item>
            <Form.Item label={t('form.args')}>
              <Input.TextArea
                value={args}
                autoSize={{ minRows: 2, maxRows: 6 }}
                onChange={setArgs}
                style={{ fontFamily: 'monospace' }}
              />
            </Form.Item>
            <Form.Item label={t('form.env')} extra={t('form.secretHelp')}>
              <Pairs pairs={env} onChange={setEnv} testId="mcp-env" placeholder="API_KEY" />
            </Form.Item>
          </>
        ) : (
          <>
            <Form.Item label={t('form.url')} required {...err('url')}>
              <Input value={url} placeholder="https://tools.example.com/mcp" onChange={setUrl} data-testid="mcp-url" />
            </Form.Item>
            <Form.Item label={t('form.headers')} extra={t('form.secretHelp')}>
              <Pairs pairs={headers} onChange={setHeaders} testId="mcp-header" placeholder="Authorization" />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}
