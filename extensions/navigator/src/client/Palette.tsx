// The command palette: type to find a page, an action or a resource; arrows and Enter, or the pointer.
import { Input, Spin, Tag, Typography } from '@arco-design/web-react';
import { IconSearch } from '@arco-design/web-react/icon';
import { Modal } from '@tessera/sdk/client';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { usePaletteSections, type PaletteItem } from './results.tsx';
import { palette } from './store.ts';

export function Palette() {
  const { t } = useTranslation('navigator');
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const sections = usePaletteSections(query);
  const items = useMemo(() => sections.flatMap((s) => s.items), [sections]);
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => setActive(0), [query]);
  useEffect(() => {
    list.current?.querySelector('[data-active="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const go = (item: PaletteItem | undefined) => {
    if (!item) return;
    palette.close();
    void navigate(item.path);
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const n = items.length;
      if (n) setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : -1) + n) % n);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      go(items[active]);
    }
  };

  let index = -1;
  const searching = sections.some((s) => s.loading);
  return (
    <Modal
      visible
      size="medium"
      title={null}
      footer={null}
      closable={false}
      maskClosable
      onCancel={palette.close}
      className="tessera-palette"
    >
      <div data-testid="palette">
        <Input
          autoFocus
          size="large"
          prefix={<IconSearch />}
          value={query}
          onChange={setQuery}
          onKeyDown={onKey}
          placeholder={t('placeholder')}
          aria-label={t('search')}
          data-testid="palette-input"
          suffix={searching ? <Spin size={14} data-testid="palette-searching" /> : undefined}
        />
        <div className="tessera-palette-list" ref={list} role="listbox" aria-label={t('search')}>
          {sections.map((s) => (
            <div key={s.key} className="tessera-palette-section" data-testid={`palette-section-${s.key}`}>
              <div className="tessera-palette-section-title">{s.title}</div>
              {s.error && (
                <Typography.Text type="error" className="tessera-palette-note">
                  {t('failed', { message: s.error })}
                </Typography.Text>
              )}
              {s.loading && !s.items.length && (
                <Typography.Text type="secondary" className="tessera-palette-note">
                  {t('searching')}
                </Typography.Text>
              )}
              {s.items.map((item) => {
                const i = ++index;
                return (
                  <div
                    key={item.key}
                    role="option"
                    aria-selected={i === active}
                    data-active={i === active}
                    data-testid="palette-item"
                    data-path={item.path}
                    className="tessera-palette-item"
                    onMouseMove={() => setActive(i)}
                    onClick={() => go(item)}
                  >
                    <span className="tessera-palette-icon">{item.icon}</span>
                    <span className="tessera-palette-text">
                      <span className="tessera-palette-title">{item.title}</span>
                      {item.description && <span className="tessera-palette-description">{item.description}</span>}
                    </span>
                    {item.tag && <Tag size="small">{item.tag}</Tag>}
                  </div>
                );
              })}
            </div>
          ))}
          {query.trim() && !items.length && !searching && (
            <Typography.Text type="secondary" className="tessera-palette-note" data-testid="palette-nothing">
              {t('nothing', { query: query.trim() })}
            </Typography.Text>
          )}
        </div>
        <div className="tessera-palette-keys">{t('keys')}</div>
      </div>
    </Modal>
  );
}
