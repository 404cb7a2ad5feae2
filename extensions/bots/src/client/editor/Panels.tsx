// The bot-level settings of the editor: opening message and questions, suggested replies, shortcut commands.
import { Button, Input, Radio, Space, Typography } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import type { BotConfig } from '../api.ts';

export function OnboardingPanel({
  value,
  onChange,
}: {
  value: BotConfig['onboarding'];
  onChange(v: BotConfig['onboarding']): void;
}) {
  const { t } = useTranslation('bots');
  const questions = value.suggested_questions;
  const setQ = (i: number, q: string) =>
    onChange({ ...value, suggested_questions: questions.map((x, j) => (j === i ? q : x)) });
  return (
    <div data-testid="bot-onboarding">
      <Input.TextArea
        value={value.prologue}
        maxLength={5000}
        showWordLimit
        autoSize={{ minRows: 2, maxRows: 6 }}
        placeholder={t('editor.prologuePlaceholder')}
        onChange={(prologue) => onChange({ ...value, prologue })}
        data-testid="bot-prologue"
      />
      <Typography.Text type="secondary" style={{ display: 'block', margin: '8px 0 4px' }}>
        {t('editor.suggestedQuestions')}
      </Typography.Text>
      <Space direction="vertical" style={{ width: '100%' }}>
        {questions.map((q, i) => (
          <Space key={i} style={{ width: '100%' }}>
            <Input
              value={q}
              maxLength={300}
              onChange={(v) => setQ(i, v)}
              data-testid="bot-question"
              style={{ width: 260 }}
            />
            <Button
              size="mini"
              type="text"
              icon={<IconDelete />}
              aria-label={t('editor.remove')}
              onClick={() => onChange({ ...value, suggested_questions: questions.filter((_, j) => j !== i) })}
            />
          </Space>
        ))}
        {questions.length < 10 && (
          <Button
            size="mini"
            icon={<IconPlus />}
            onClick={() => onChange({ ...value, suggested_questions: [...questions, ''] })}
            data-testid="bot-question-add"
          >
            {t('editor.addQuestion')}
          </Button>
        )}
      </Space>
    </div>
  );
}

export function SuggestReplyPanel({
  value,
  onChange,
}: {
  value: BotConfig['suggest_reply'];
  onChange(v: BotConfig['suggest_reply']): void;
}) {
  const { t } = useTranslation('bots');
  return (
    <div data-testid="bot-suggest-reply">
      <Radio.Group type="button" size="small" value={value.mode} onChange={(mode) => onChange({ ...value, mode })}>
        <Radio value="off">{t('editor.suggest.off')}</Radio>
        <Radio value="default">{t('editor.suggest.default')}</Radio>
        <Radio value="custom">{t('editor.suggest.custom')}</Radio>
      </Radio.Group>
      {value.mode === 'custom' && (
        <Input.TextArea
          style={{ marginTop: 8 }}
          value={value.prompt}
          maxLength={5000}
          autoSize={{ minRows: 2, maxRows: 6 }}
          placeholder={t('editor.suggest.placeholder')}
          onChange={(prompt) => onChange({ ...value, prompt })}
          data-testid="bot-suggest-prompt"
        />
      )}
    </div>
  );
}

let shortcutSeq = 0;
export function ShortcutsPanel({
  value,
  onChange,
}: {
  value: BotConfig['shortcuts'];
  onChange(v: BotConfig['shortcuts']): void;
}) {
  const { t } = useTranslation('bots');
  const set = (i: number, patch: Partial<BotConfig['shortcuts'][number]>) =>
    onChange(value.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  return (
    <div data-testid="bot-shortcuts">
      <Space direction="vertical" style={{ width: '100%' }}>
        {value.map((s, i) => {
          const bad = !/^\/[\p{L}\p{N}_-]{1,30}$/u.test(s.command);
          return (
            <div key={s.id} className="tessera-bot-shortcut" data-testid="bot-shortcut">
              <Input
                size="small"
                value={s.command}
                status={bad ? 'error' : undefined}
                placeholder="/weather"
                onChange={(command) => set(i, { command })}
                style={{ width: 110 }}
                aria-label={t('editor.shortcut.command')}
              />
              <Input
                size="small"
                value={s.name}
                maxLength={40}
                placeholder={t('editor.shortcut.name')}
                onChange={(name) => set(i, { name })}
                style={{ width: 120 }}
              />
              <Input
                size="small"
                value={s.query_template}
                maxLength={2000}
                placeholder={t('editor.shortcut.template')}
                onChange={(query_template) => set(i, { query_template })}
                style={{ flex: 1, minWidth: 160 }}
              />
              <Button
                size="mini"
                type="text"
                icon={<IconDelete />}
                aria-label={t('editor.remove')}
                onClick={() => onChange(value.filter((_, j) => j !== i))}
              />
              {bad && (
                <Typography.Text type="error" style={{ fontSize: 12, width: '100%' }}>
                  {t('editor.shortcut.bad')}
                </Typography.Text>
              )}
            </div>
          );
        })}
        {value.length < 20 && (
          <Button
            size="mini"
            icon={<IconPlus />}
            onClick={() =>
              onChange([
                ...value,
                {
                  id: `s${Date.now().toString(36)}${shortcutSeq++}`,
                  command: '/',
                  name: '',
                  description: '',
                  query_template: '{{text}}',
                },
              ])
            }
            data-testid="bot-shortcut-add"
          >
            {t('editor.shortcut.add')}
          </Button>
        )}
      </Space>
    </div>
  );
}
