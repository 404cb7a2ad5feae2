// The node catalogue beside the canvas: the node types by category, searchable, added by click or drag.
import { Button, Input, Typography } from '@arco-design/web-react';
import { useRegistry, useStudio } from '@tessera/sdk/client';
import { Link } from 'react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Canvas } from '@tessera/workflow-sdk';
import { CatalogueSections, type CatalogueItem, type CatalogueSection, type NodeTypeClient } from '../points.ts';
import type { NodeTypeInfo } from './model.ts';

const CATEGORY_ORDER = ['basic', 'ai', 'logic', 'io', 'interaction', 'data', 'utility', 'custom'];
/** What the catalogue puts on a drag: the node type's key. */
export const DRAG_TYPE = 'application/x-tessera-node-type';

/** The node catalogue: grouped by category, searchable; click a type to add it. */
export function Catalogue({
  types,
  clients,
  canvas,
  onAdd,
  onAddItem,
  spaceId,
}: {
  types: NodeTypeInfo[];
  clients: NodeTypeClient[];
  canvas: Canvas;
  onAdd(t: NodeTypeInfo): void;
  onAddItem(item: CatalogueItem): void;
  spaceId: string;
}) {
  const sections = useRegistry(CatalogueSections);
  const { t } = useTranslation('workflow');
  const { language } = useStudio();
  const [q, setQ] = useState('');
  const name = (x: NodeTypeInfo) => x.label[language] ?? x.label['en-US'] ?? x.key;
  const shown = types.filter(
    (x) => !q || `${name(x)} ${x.key} ${x.description?.[language] ?? ''}`.toLowerCase().includes(q.toLowerCase()),
  );
  const groups = [...new Set(shown.map((x) => x.category))].sort(
    (a, b) => ((CATEGORY_ORDER.indexOf(a) + 99) % 99) - ((CATEGORY_ORDER.indexOf(b) + 99) % 99),
  );
  const used = (x: NodeTypeInfo) => x.singleton && canvas.nodes.some((n) => n.type === x.type || n.type === x.key);
  return (
    <div
      style={{ width: 220, borderRight: '1px solid var(--color-border-2)', padding: 8, overflow: 'auto' }}
      data-testid="node-catalogue"
    >
      <Input
        size="small"
        allowClear
        placeholder={t('editor.searchNodes')}
        value={q}
        onChange={setQ}
        data-testid="node-search"
      />
      {groups.map((g) => (
        <div key={g} style={{ marginTop: 10 }}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t(`editor.category.${g}`, { defaultValue: g })}
          </Typography.Text>
          {shown
            .filter((x) => x.category === g)
            .map((x) => {
              const client = clients.find((c) => c.key === x.key);
              const Icon = client?.icon;
              return (
                <Button
                  key={x.key}
                  long
                  size="small"
                  type="text"
                  disabled={used(x)}
                  className="tessera-catalogue-item"
                  style={{ textAlign: 'left', display: 'flex', alignItems: 'center' }}
                  title={x.description?.[language] ?? ''}
                  draggable={!used(x)}
                  onDragStart={(e) => {
                    e.dataTransfer.setData(DRAG_TYPE, x.key);
                    e.dataTransfer.effectAllowed = 'copy';
                  }}
                  onClick={() => onAdd(x)}
                  data-testid={`add-node-${x.key}`}
                >
                  {/* The node's icon on its colour, as on the canvas; the name in the text colour (an entry, not a link). */}
                  <span
                    className="tessera-catalogue-icon"
                    style={{ background: client?.color ?? 'var(--color-fill-3)' }}
                  >
                    {Icon && <Icon />}
                  </span>
                  {name(x)}
                </Button>
              );
            })}
        </div>
      ))}
      {[...sections]
        .sort((a, b) => (a.order ?? 50) - (b.order ?? 50))
        .map((sec) => (
          <SectionView key={sec.key} section={sec} spaceId={spaceId} query={q} onAdd={onAddItem} />
        ))}
      {!shown.length && !sections.length && <Typography.Text type="secondary">{t('editor.noNodes')}</Typography.Text>}
    </div>
  );
}

/** A section of ready-made nodes from the space (plugin APIs, MCP tools), filtered by the search. */
function SectionView({
  section,
  spaceId,
  query,
  onAdd,
}: {
  section: CatalogueSection;
  spaceId: string;
  query: string;
  onAdd(item: CatalogueItem): void;
}) {
  const { t } = useTranslation('workflow');
  const { items, loading } = section.useItems(spaceId);
  const q = query.toLowerCase();
  const shown = items.filter(
    (i) => !q || `${i.label} ${i.group ?? ''} ${i.description ?? ''}`.toLowerCase().includes(q),
  );
  if (q && !shown.length) return null;
  return (
    <div style={{ marginTop: 10 }} data-testid={`catalogue-section-${section.key}`}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t(section.label)}
      </Typography.Text>
      {loading && <div style={{ fontSize: 12, color: 'var(--color-text-3)' }}>{t('editor.loadingSection')}</div>}
      {!loading && !items.length && (
        <div style={{ fontSize: 12, color: 'var(--color-text-3)', padding: '2px 8px' }}>
          {t('editor.emptySection')}{' '}
          {section.managePath && <Link to={section.managePath}>{t('editor.manageSection')}</Link>}
        </div>
      )}
      {shown.map((item) => (
        <Button
          key={item.key}
          long
          size="small"
          type="text"
          className="tessera-catalogue-item"
          style={{ textAlign: 'left', display: 'block', height: 'auto', padding: '2px 8px' }}
          title={item.description ?? ''}
          onClick={() => onAdd(item)}
          data-testid={`add-item-${section.key}`}
          data-item={item.key}
        >
          <div style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{item.label}</div>
          {item.group && (
            <div style={{ fontSize: 11, color: 'var(--color-text-3)', overflow: 'hidden', textOverflow: 'ellipsis' }}>
              {item.group}
            </div>
          )}
        </Button>
      ))}
    </div>
  );
}
