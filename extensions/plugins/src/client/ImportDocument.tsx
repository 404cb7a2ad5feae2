// An OpenAPI 3 / Swagger 2 document pasted or read from a file, and what importing it would create.
import { messageOf } from '@tessera/sdk';
import { Alert, Button, Input, Space, Tag, Typography } from '@arco-design/web-react';
import { IconUpload } from '@arco-design/web-react/icon';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { METHOD_NAMES } from '../shared/index.ts';
import { PreviewOpenApi } from '../shared/api.ts';

const MAX_FILE = 2 * 1024 * 1024;

export function ImportDocument({
  spaceId,
  value,
  onChange,
  secret,
  onSecret,
}: {
  spaceId: string;
  value: string;
  onChange(text: string): void;
  secret?: string;
  onSecret?(v: string): void;
}) {
  const { t } = useTranslation('plugins');
  const api = useApi();
  const file = useRef<HTMLInputElement>(null);
  const [debounced, setDebounced] = useState(value);
  const [fileProblem, setFileProblem] = useState('');
  useEffect(() => {
    const h = setTimeout(() => setDebounced(value), 400);
    return () => clearTimeout(h);
  }, [value]);
  const preview = useQuery({
    queryKey: ['plugins', 'preview', debounced],
    enabled: !!debounced.trim(),
    retry: false,
    queryFn: () => api.call(PreviewOpenApi, { space_id: spaceId, openapi: debounced }, { handled: () => true }),
  });
  const read = (f: File | undefined) => {
    if (!f) return;
    if (f.size > MAX_FILE) return setFileProblem(t('import.tooLarge'));
    setFileProblem('');
    void f.text().then(onChange);
  };
  const p = preview.data;
  return (
    <div data-testid="plugin-import">
      <Space style={{ marginBottom: 6 }}>
        <Typography.Text>{t('import.label')}</Typography.Text>
        <Button
          size="mini"
          icon={<IconUpload />}
          onClick={() => file.current?.click()}
          data-testid="plugin-import-file-button"
        >
          {t('import.file')}
        </Button>
        <input
          ref={file}
          type="file"
          accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml"
          style={{ display: 'none' }}
          onChange={(e) => read(e.target.files?.[0])}
          data-testid="plugin-import-file"
        />
      </Space>
      <Input.TextArea
        value={value}
        onChange={onChange}
        placeholder={t('import.placeholder')}
        autoSize={{ minRows: 6, maxRows: 14 }}
        style={{ fontFamily: 'monospace', fontSize: 12 }}
        data-testid="plugin-import-text"
      />
      {fileProblem && <Typography.Text type="error">{fileProblem}</Typography.Text>}
      {preview.isError && (
        <Alert
          type="error"
          style={{ marginTop: 8 }}
          content={messageOf(preview.error)}
          data-testid="plugin-import-problem"
        />
      )}
      {p && (
        <div style={{ marginTop: 8 }} data-testid="plugin-import-preview">
          <Typography.Text>
            {t('import.preview', { name: p.name || '—', n: p.apis.length })}{' '}
            {p.server_url && <Tag size="small">{p.server_url}</Tag>}
          </Typography.Text>
          <ul style={{ margin: '4px 0', paddingLeft: 18, maxHeight: 160, overflow: 'auto', fontSize: 12 }}>
            {p.apis.map((a) => (
              <li key={`${a.method} ${a.path}`} data-testid="plugin-import-api">
                <Tag size="small">{METHOD_NAMES[a.method]}</Tag> {a.path} · <b>{a.name}</b>{' '}
                {a.desc && <Typography.Text type="secondary">{a.desc}</Typography.Text>}
              </li>
            ))}
          </ul>
          {!!p.skipped.length && (
            <Typography.Text type="secondary">
              {t('import.skippedList', { list: p.skipped.join('; ') })}
            </Typography.Text>
          )}
          {p.auth.auth_type === 1 && onSecret && (
            <div style={{ marginTop: 6 }}>
              <Typography.Text>
                {t('import.needsKey', { key: p.auth.key, where: p.auth.location === 2 ? 'query' : 'header' })}
              </Typography.Text>
              <Input.Password
                value={secret}
                onChange={onSecret}
                placeholder={t('auth.token')}
                data-testid="plugin-import-secret"
              />
            </div>
          )}
          {p.auth.auth_type === 3 && (
            <Typography.Paragraph type="secondary">{t('import.needsOauth')}</Typography.Paragraph>
          )}
        </div>
      )}
    </div>
  );
}
