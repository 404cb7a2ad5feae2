// The getting-started list: the steps other extensions contribute (connect a model, make a bot ...), each done as
// the studio's state says; the first one left is the one to do now. Gone when every step is done, or hidden.
import { Button, Card, Progress, Typography } from '@arco-design/web-react';
import { IconCheckCircleFill } from '@arco-design/web-react/icon';
import {
  byOrder,
  OnboardingSteps,
  useRegistryEntries,
  type OnboardingStep,
  type RegistryEntry,
} from '@tessera/sdk/client';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

const HIDDEN_KEY = 'tessera.home.gettingStartedHidden';
type StepEntry = RegistryEntry<OnboardingStep>;
interface Status {
  done: boolean;
  loading: boolean;
}

export function GettingStarted() {
  const { t } = useTranslation('home');
  const entries = useRegistryEntries(OnboardingSteps);
  const steps = useMemo(() => [...entries].sort(byOrder), [entries]);
  const [status, setStatus] = useState<Record<string, Status>>({});
  const [hidden, setHidden] = useState(() => readHidden());
  const report = useCallback(
    (key: string, s: Status) =>
      setStatus((all) => (all[key]?.done === s.done && all[key]?.loading === s.loading ? all : { ...all, [key]: s })),
    [],
  );
  const settled = steps.every((s) => status[s.key] && !status[s.key].loading);
  const done = steps.filter((s) => status[s.key]?.done).length;
  const next = steps.find((s) => !status[s.key]?.done);
  const probes = steps.map((s) => <Probe key={s.key} entry={s} onChange={report} />);
  // Nothing drawn until every step has answered (no list that flashes and goes), nor once all are done.
  if (hidden || !steps.length || !settled || !next) return <>{probes}</>;
  return (
    <section aria-labelledby="home-start" style={{ marginBottom: 24 }} data-testid="home-getting-started">
      {probes}
      <Card>
        <div className="tessera-home-start-head">
          <div>
            <Typography.Title heading={6} id="home-start" style={{ margin: 0 }}>
              {t('start.title')}
            </Typography.Title>
            <Typography.Text type="secondary" data-testid="home-getting-started-count">
              {t('start.count', { done, total: steps.length })}
            </Typography.Text>
          </div>
          <Button
            type="text"
            size="small"
            data-testid="home-getting-started-hide"
            onClick={() => {
              writeHidden();
              setHidden(true);
            }}
          >
            {t('start.hide')}
          </Button>
        </div>
        <Progress
          percent={Math.round((done / steps.length) * 100)}
          showText={false}
          size="small"
          style={{ margin: '8px 0 4px' }}
        />
        <ol className="tessera-home-start-steps">
          {steps.map((s, i) => (
            <StepRow key={s.key} entry={s} index={i + 1} done={!!status[s.key]?.done} current={s === next} />
          ))}
        </ol>
      </Card>
    </section>
  );
}

/** Runs one step's hook and reports what it says (renders nothing). */
function Probe({ entry, onChange }: { entry: StepEntry; onChange(key: string, s: Status): void }) {
  const { done, loading } = entry.value.useDone();
  useEffect(() => onChange(entry.key, { done, loading }), [entry.key, done, loading, onChange]);
  return null;
}

function StepRow({
  entry,
  index,
  done,
  current,
}: {
  entry: StepEntry;
  index: number;
  done: boolean;
  current: boolean;
}) {
  const { t } = useTranslation(entry.owner);
  const { t: th } = useTranslation('home');
  const navigate = useNavigate();
  return (
    <li
      className="tessera-home-start-step"
      data-testid="home-getting-started-step"
      data-step={entry.key}
      data-done={done}
      data-current={current}
    >
      <span className={done ? 'tessera-home-start-mark is-done' : 'tessera-home-start-mark'} aria-hidden>
        {done ? <IconCheckCircleFill /> : index}
      </span>
      <div className="tessera-home-start-text">
        <Typography.Text
          delete={done}
          type={done ? 'secondary' : undefined}
          style={{ fontWeight: current ? 500 : undefined }}
        >
          {t(entry.value.label)}
        </Typography.Text>
        {entry.value.hint && !done && (
          <Typography.Text type="secondary" className="tessera-home-start-hint">
            {t(entry.value.hint)}
          </Typography.Text>
        )}
      </div>
      {!done && (
        <Button
          type={current ? 'primary' : 'secondary'}
          size="small"
          onClick={() => navigate(entry.value.path)}
          data-testid={`home-getting-started-go-${entry.key}`}
        >
          {current ? th('start.go') : th('start.open')}
        </Button>
      )}
    </li>
  );
}

function readHidden(): boolean {
  try {
    return localStorage.getItem(HIDDEN_KEY) === '1';
  } catch {
    return false;
  }
}
function writeHidden() {
  try {
    localStorage.setItem(HIDDEN_KEY, '1');
  } catch {
    /* private mode: hidden for this visit only */
  }
}
