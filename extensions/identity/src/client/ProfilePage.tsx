import { Avatar, Button, Form, Input, Upload } from '@arco-design/web-react';
import { PageHeader, toast, useApi, usePageTitle } from '@tessera/sdk/client';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UpdateProfile } from '../shared/api.ts';
import { currentUserStore, useCurrentUser } from './hooks.ts';

export function ProfilePage() {
  const { t } = useTranslation('identity');
  const api = useApi();
  const user = useCurrentUser();
  const [form] = Form.useForm();
  const [avatar, setAvatar] = useState('');
  const [busy, setBusy] = useState(false);
  usePageTitle(t('profile.title'));
  useEffect(() => {
    if (user) {
      form.setFieldsValue({ name: user.name, user_unique_name: user.user_unique_name });
      setAvatar(user.avatar);
    }
  }, [user, form]);
  if (!user) return null;
  return (
    <div className="tessera-page" data-testid="profile-page" style={{ maxWidth: 520 }}>
      <PageHeader title={t('profile.title')} />
      <Form
        form={form}
        layout="vertical"
        onSubmit={async (v: { name: string; user_unique_name: string }) => {
          setBusy(true);
          try {
            await api.call(UpdateProfile, {
              ...v,
              ...(avatar !== user.avatar ? { avatar } : {}),
            });
            await currentUserStore().refresh();
            toast.success(t('profile.saved'));
          } finally {
            setBusy(false);
          }
        }}
      >
        <Form.Item label={t('fields.avatar')}>
          <div style={{ display: 'flex', alignItems: 'center', gap: 12 }}>
            <Avatar size={48}>{avatar ? <img src={avatar} alt="" /> : user.name[0]?.toUpperCase()}</Avatar>
            <Upload
              accept="image/png,image/jpeg,image/webp,image/gif"
              showUploadList={false}
              autoUpload={false}
              onChange={(files) => {
                const f = files.at(-1)?.originFile;
                if (!f) return;
                if (f.size > 1024 * 1024) return void toast.warning(t('profile.avatarTooBig'));
                const reader = new FileReader();
                reader.onload = () => setAvatar(String(reader.result));
                reader.readAsDataURL(f);
              }}
            >
              <Button>{t('profile.upload')}</Button>
            </Upload>
          </div>
        </Form.Item>
        <Form.Item label={t('fields.email')}>
          <Input value={user.email} disabled />
        </Form.Item>
        <Form.Item label={t('fields.name')} field="name" rules={[{ required: true, message: t('rules.required') }]}>
          <Input data-testid="profile-name" />
        </Form.Item>
        <Form.Item
          label={t('fields.uniqueName')}
          field="user_unique_name"
          rules={[
            {
              validator: (value, cb) => {
                if (!value || value === user.user_unique_name) return cb();
                void api
                  .post<{ valid: boolean; msg: string }>(
                    '/api/user/update_profile_check',
                    { user_unique_name: value },
                    { suppressNotice: true },
                  )
                  .catch(() => ({ valid: true, msg: '' }))
                  .then((r) => cb(r.valid ? undefined : r.msg));
              },
            },
          ]}
        >
          <Input data-testid="profile-unique-name" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} data-testid="profile-save">
          {t('profile.save')}
        </Button>
      </Form>
    </div>
  );
}
