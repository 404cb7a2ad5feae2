// How a site embeds a published chat with the Web SDK: the script tag, copyable, with the studio's own address.
import { Typography } from '@arco-design/web-react';
import type { ConnectorViewProps } from '@tessera/sdk/client';

export function EmbedSnippet({ target, title }: ConnectorViewProps) {
  const attrs =
    target.kind === 'bot'
      ? `data-bot-id="${target.id}"`
      : `data-app-id="${target.project_id}" data-workflow-id="${target.id}"`;
  const code = `<script src="${window.location.origin}/sdk/websdk.js" ${attrs} async></script>`;
  return (
    <div data-testid="embed-snippet">
      {title && <Typography.Text type="secondary">{title}</Typography.Text>}
      <Typography.Paragraph copyable={{ text: code }} code style={{ wordBreak: 'break-all', margin: '4px 0' }}>
        {code}
      </Typography.Paragraph>
    </div>
  );
}
