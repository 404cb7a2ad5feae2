// Tessera Web SDK for React: import { createTesseraChat } from 'https://STUDIO/sdk/websdk-react.mjs';
// const TesseraChat = createTesseraChat(React); <TesseraChat botId="BOT" height={560} />
// (or <TesseraChat appId="PROJECT" workflowId="CHATFLOW" /> for a project's chat-flow)
// The chat is the studio's (an iframe), which only the publication's allowed origins may frame.
const studio = new URL(import.meta.url).origin;

export function createTesseraChat(React) {
  return function TesseraChat(props) {
    return React.createElement('iframe', {
      src: props.botId
        ? `${studio}/embed/bot/${encodeURIComponent(props.botId)}`
        : `${studio}/embed/app/${encodeURIComponent(props.appId)}/${encodeURIComponent(props.workflowId)}`,
      title: props.title || 'Chat',
      'data-tessera-websdk': 'frame',
      style: {
        width: props.width || '100%',
        height: props.height || 560,
        border: '1px solid #e5e6eb',
        borderRadius: 12,
        ...props.style,
      },
    });
  };
}
