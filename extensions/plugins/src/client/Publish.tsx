// Publish the plugin: a version name (the next patch by default) and what changed.
import { Button, Form, Input } from '@arco-design/web-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Modal, fieldErrors, toast, useApi, testId } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PluginInfo } from './api.ts';
import { PublishPlugin } from '../shared/api.ts';

export const nextVersion = (latest: string | null) => {
  const m = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(latest ?? '');
  return m ? `v${m[1]}.${m[2]}.${Number(m[3]) + 1}` : 'v1.0.0';
};

export function PublishButton({ spaceId, info }: { spaceId: string; info: PluginInfo }) {
  const { t } = useTranslation('plugins');
  const api = useApi();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [desc, setDesc] = useState('');
  const [problem, setProblem] = useState('');
  const publish = useMutation({
    mutationFn: () =>
      api.call(
        PublishPlugin,
        { space_id: spaceId, plugin_id: info.meta_info.plugin_id, version_name: name.trim(), version_desc: desc },
        { handled: fieldErrors(['version_name'], (_f, msg) => setProblem(msg)) },
      ),
    onSuccess: async () => {
      toast.success(t('publish.done', { version: name.trim() }));
      setOpen(false);
      await qc.invalidateQueries({ queryKey: ['plugins'] });
    },
  });
  return (
    <>
      <Button
        type="primary"
        onClick={() => {
          setName(nextVersion(info.meta_info.version_name));
          setDesc('');
          setProblem('');
          setOpen(true);
        }}
        data-testid="plugin-publish"
      >
        {t('publish.button')}
      </Button>
      {open && (
        <Modal
          visible
          title={t('publish.title')}
          onCancel={() => setOpen(false)}
          onOk={() => publish.mutate()}
          confirmLoading={publish.isPending}
          okButtonProps={{ disabled: !name.trim(), ...testId('plugin-publish-ok') }}
        >
          <Form layout="vertical">
            <Form.Item
              label={t('publish.version')}
              required
              validateStatus={problem ? 'error' : undefined}
              help={problem}
            >
              <Input
                value={name}
                maxLength={64}
                onChange={(v) => (setName(v), setProblem(''))}
                data-testid="plugin-publish-version"
              />
            </Form.Item>
            <Form.Item label={t('publish.desc')}>
              <Input.TextArea
                value={desc}
                maxLength={2000}
                autoSize={{ minRows: 2, maxRows: 5 }}
                onChange={setDesc}
                data-testid="plugin-publish-desc"
              />
            </Form.Item>
          </Form>
        </Modal>
      )}
    </>
  );
}
