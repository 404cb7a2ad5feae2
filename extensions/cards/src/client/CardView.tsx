// A card as a chat shows it (the builder's preview too): drawn from its checked content only, never as HTML.
// Buttons send their message or open their http(s) link in a new tab; a content that fails the check shows its text.
import { Button } from '@arco-design/web-react';
import type { ChatMessageViewProps } from '@tessera/ext-bots/client';
import { CardMessage, type ShownNode } from '../shared/dsl.ts';
import './cards.css';

export interface CardViewProps {
  title?: string;
  body: ShownNode[];
  send?(text: string): void;
  disabled?: boolean;
}

export function CardView({ title, body, send, disabled }: CardViewProps) {
  return (
    <div className="tessera-card" data-testid="card">
      {title && <div className="tessera-card-title">{title}</div>}
      <Nodes nodes={body} send={send} disabled={disabled} />
    </div>
  );
}

function Nodes({ nodes, send, disabled }: { nodes: ShownNode[]; send?(t: string): void; disabled?: boolean }) {
  return (
    <>
      {nodes.map((n, i) => (
        <Node key={i} node={n} send={send} disabled={disabled} />
      ))}
    </>
  );
}

function Node({ node: n, send, disabled }: { node: ShownNode; send?(t: string): void; disabled?: boolean }) {
  switch (n.type) {
    case 'text':
      return (
        <div
          className={`tessera-card-text ${n.style ?? 'body'} ${n.color ?? 'default'}`}
          style={n.bold ? { fontWeight: 600 } : undefined}
          data-testid="card-text"
        >
          {n.text}
        </div>
      );
    case 'image':
      return (
        <img
          className="tessera-card-image"
          src={n.url}
          alt={n.alt ?? ''}
          style={{ height: n.height ?? 120 }}
          referrerPolicy="no-referrer"
          loading="lazy"
        />
      );
    case 'button': {
      const a = n.action;
      if (a?.type === 'link')
        return (
          <a
            className={`tessera-card-button arco-btn arco-btn-size-small arco-btn-shape-square ${n.style === 'primary' ? 'arco-btn-primary' : 'arco-btn-secondary'}`}
            href={a.url}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="card-button"
          >
            {n.label}
          </a>
        );
      return (
        <Button
          className="tessera-card-button"
          size="small"
          type={n.style === 'primary' ? 'primary' : 'secondary'}
          disabled={!a || !send || disabled}
          onClick={() => a && send?.(a.text)}
          data-testid="card-button"
        >
          {n.label}
        </Button>
      );
    }
    case 'row':
    case 'column':
      return (
        <div className={`tessera-card-${n.type}`}>
          <Nodes nodes={n.children} send={send} disabled={disabled} />
        </div>
      );
    case 'list':
      return (
        <div className="tessera-card-list" data-testid="card-list">
          {n.items.length === 0 && n.empty && <div className="tessera-card-text caption secondary">{n.empty}</div>}
          {n.items.map((item, i) => (
            <div className="tessera-card-item" key={i} data-testid="card-item">
              <Nodes nodes={item} send={send} disabled={disabled} />
            </div>
          ))}
          {n.more > 0 && <div className="tessera-card-text caption secondary">+{n.more}</div>}
        </div>
      );
    case 'table':
      return (
        <div className="tessera-card-table-wrap">
          <table className="tessera-card-table" data-testid="card-table">
            <thead>
              <tr>
                {n.columns.map((c, i) => (
                  <th key={i}>{c}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {n.rows.map((r, i) => (
                <tr key={i}>
                  {r.map((c, j) => (
                    <td key={j}>{c}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {n.more > 0 && <div className="tessera-card-text caption secondary">+{n.more}</div>}
        </div>
      );
    case 'divider':
      return <hr className="tessera-card-divider" />;
  }
}

/** A card message in a chat: its content checked first. */
export function CardMessageView({ content, send, disabled }: ChatMessageViewProps) {
  let parsed: ReturnType<typeof CardMessage.safeParse> | undefined;
  try {
    parsed = CardMessage.safeParse(JSON.parse(content));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success)
    return (
      <div className="tessera-chat-bubble assistant" data-testid="card-invalid">
        {content.slice(0, 2000)}
      </div>
    );
  const c = parsed.data;
  return (
    <div aria-label={c.text}>
      <CardView title={c.title} body={c.body} send={send} disabled={disabled} />
    </div>
  );
}
