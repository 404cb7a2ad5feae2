// A shared task played back (no sign-in; the secret is the link's fragment, never sent to other sites): its goal,
// then each line of its log in turn at the chosen speed, the plan filling in as steps end, the files it wrote.
import { Alert, Button, Radio, Slider, Space, Spin, Tag, Typography } from '@arco-design/web-react';
import { IconPause, IconPlayArrow } from '@arco-design/web-react/icon';
import { useApi } from '@tessera/sdk/client';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './agent.css';
import { useLocation, useParams } from 'react-router';
import { TaskLog } from './TaskLog.tsx';
import { useReplay } from './store.ts';

export function ReplayPage() {
  const { t } = useTranslation('agent-workspace');
  const { shareId = '' } = useParams();
  const secret = decodeURIComponent(useLocation().hash.replace(/^#/, ''));
  const replay = useReplay(shareId, secret);
  const api = useApi();
  const [shown, setShown] = useState(0);
  const [playing, setPlaying] = useState(true);
  const [speed, setSpeed] = useState(1);
  const total = replay.data?.messages.length ?? 0;
  useEffect(() => {
    if (!playing || shown >= total) return;
    const id = setTimeout(() => setShown((n) => n + 1), 900 / speed);
    return () => clearTimeout(id);
  }, [playing, shown, total, speed]);
  const download = async (fileId: string, name: string) => {
    const blob = await api.blob('/api/agent_space/replay/file', { task_share_id: shareId, secret, file_id: fileId });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = name;
    a.click();
    URL.revokeObjectURL(a.href);
  };
  if (!secret || replay.isError)
    return (
      <div className="tessera-page" style={{ maxWidth: 860, margin: '0 auto' }} data-testid="agent-replay">
        <Alert type="error" content={t('replay.invalid')} data-testid="agent-replay-invalid" />
      </div>
    );
  if (!replay.data)
    return (
      <div className="tessera-page" data-testid="agent-replay">
        <Spin />
      </div>
    );
  const r = replay.data;
  const messages = r.messages.slice(0, shown);
  const seen = new Set(messages.filter((m) => m.kind === 'answer').map((m) => m.step_index));
  return (
    <div className="tessera-page" style={{ maxWidth: 960, margin: '0 auto' }} data-testid="agent-replay">
      <Typography.Title heading={4} style={{ marginTop: 0 }}>
        {r.task_name}
      </Typography.Title>
      <Space wrap style={{ marginBottom: 12 }}>
        <Tag color="arcoblue">{t('replay.badge')}</Tag>
        <Button
          size="small"
          icon={playing && shown < total ? <IconPause /> : <IconPlayArrow />}
          onClick={() => (shown >= total ? (setShown(0), setPlaying(true)) : setPlaying(!playing))}
          data-testid="agent-replay-play"
        >
          {shown >= total ? t('replay.again') : playing ? t('replay.pause') : t('replay.play')}
        </Button>
        <Radio.Group type="button" size="small" value={speed} onChange={setSpeed}>
          <Radio value={1}>1×</Radio>
          <Radio value={2}>2×</Radio>
          <Radio value={8}>8×</Radio>
        </Radio.Group>
        <Button size="small" onClick={() => setShown(total)} data-testid="agent-replay-end">
          {t('replay.skip')}
        </Button>
        <div style={{ width: 200 }}>
          <Slider value={shown} max={Math.max(1, total)} onChange={(v) => (setPlaying(false), setShown(Number(v)))} />
        </div>
        <span style={{ fontSize: 12, color: 'var(--color-text-3)' }} data-testid="agent-replay-progress">
          {shown} / {total}
        </span>
      </Space>
      <div className="tessera-agent-task">
        <aside style={{ flex: '0 0 280px', minWidth: 0 }}>
          <h4 style={{ marginTop: 0 }}>{t('plan.title')}</h4>
          <ol style={{ paddingLeft: 18, margin: 0 }}>
            {r.plan.map((s, i) => (
              <li key={s.step_id} style={{ color: seen.has(i) ? undefined : 'var(--color-text-3)', marginBottom: 6 }}>
                {s.title}
              </li>
            ))}
          </ol>
          {r.files.length > 0 && <h4>{t('files.title')}</h4>}
          {r.files.map((f) => (
            <div key={f.file_id}>
              <Typography.Text underline style={{ cursor: 'pointer' }} onClick={() => void download(f.file_id, f.name)}>
                {f.name}
              </Typography.Text>
            </div>
          ))}
        </aside>
        <main style={{ flex: 1, minWidth: 0 }}>
          <TaskLog messages={messages} onFile={(id, name) => void download(id, name)} />
        </main>
      </div>
    </div>
  );
}
