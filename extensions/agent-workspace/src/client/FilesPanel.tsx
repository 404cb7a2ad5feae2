// A task's files: those given with it and those it wrote, downloaded, exported as Word; a text file added for its
// next step.
import { Button, Dropdown, Menu, Tag, Upload } from '@arco-design/web-react';
import { IconDownload, IconUpload } from '@arco-design/web-react/icon';
import { useApi } from '@tessera/sdk/client';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { UploadTaskFile } from '../shared/api.ts';
import { useTaskFiles } from './store.ts';

const size = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`;

export function FilesPanel({ taskId }: { taskId: string }) {
  const { t } = useTranslation('agent-workspace');
  const api = useApi();
  const qc = useQueryClient();
  const files = useTaskFiles(taskId).data ?? [];
  const add = async (file: File) => {
    await api.call(UploadTaskFile, { task_id: taskId, name: file.name, content: await file.text() });
    void qc.invalidateQueries({ queryKey: ['agent-workspace', 'files', taskId] });
  };
  const href = (fileId: string) => `/api/agent_space/task/file/content?task_id=${taskId}&file_id=${fileId}`;
  return (
    <div data-testid="agent-files">
      {!files.length && <div style={{ color: 'var(--color-text-3)', fontSize: 12 }}>{t('files.none')}</div>}
      {files.map((f) => (
        <div
          key={f.file_id}
          style={{ display: 'flex', gap: 6, alignItems: 'center', marginBottom: 6 }}
          data-testid="agent-file"
        >
          <Tag size="small">{t(`files.${f.origin}`)}</Tag>
          <a
            href={href(f.file_id)}
            download={f.name}
            style={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis' }}
          >
            {f.name}
          </a>
          <span style={{ fontSize: 12, color: 'var(--color-text-3)' }}>{size(f.bytes)}</span>
          {f.mime === 'text/markdown' ? (
            <Dropdown
              droplist={
                <Menu
                  onClickMenuItem={(format) =>
                    window.open(
                      `/api/agent_space/task/export?task_id=${taskId}&file_id=${f.file_id}&format=${format}`,
                      '_blank',
                      'noopener',
                    )
                  }
                >
                  <Menu.Item key="md">{t('export.md')}</Menu.Item>
                  <Menu.Item key="docx">{t('export.docx')}</Menu.Item>
                  <Menu.Item key="pdf">{t('export.pdf')}</Menu.Item>
                </Menu>
              }
            >
              <Button
                size="mini"
                icon={<IconDownload />}
                aria-label={t('export.button')}
                data-testid="agent-file-export"
              />
            </Dropdown>
          ) : null}
        </div>
      ))}
      <Upload
        showUploadList={false}
        accept=".md,.txt,.csv,.json,.tsv,.yaml,.xml"
        customRequest={({ file }) => void add(file)}
      >
        <Button size="small" icon={<IconUpload />} data-testid="agent-file-add">
          {t('files.add')}
        </Button>
      </Upload>
    </div>
  );
}
