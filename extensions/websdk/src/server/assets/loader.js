// Tessera Web SDK loader: <script src="https://STUDIO/sdk/websdk.js" data-bot-id="BOT" async></script>
// (or data-app-id="PROJECT" data-workflow-id="CHATFLOW" for a project's chat-flow) adds a chat button to
// the page that opens the chat (an iframe of the studio, which only the publication's allowed origins may
// frame).
(function () {
  var script = document.currentScript;
  if (!script) return;
  var botId = script.getAttribute('data-bot-id');
  var appId = script.getAttribute('data-app-id');
  var workflowId = script.getAttribute('data-workflow-id');
  if (!botId && !(appId && workflowId))
    return console.warn('[tessera] give data-bot-id, or data-app-id and data-workflow-id, on the Web SDK script tag');
  var path = botId
    ? '/embed/bot/' + encodeURIComponent(botId)
    : '/embed/app/' + encodeURIComponent(appId) + '/' + encodeURIComponent(workflowId);
  var studio = new URL(script.src).origin;
  var title = script.getAttribute('data-title') || 'Chat';
  var button = document.createElement('button');
  button.type = 'button';
  button.setAttribute('aria-label', title);
  button.setAttribute('data-tessera-websdk', 'button');
  button.textContent = '\u{1F4AC}';
  button.style.cssText =
    'position:fixed;right:24px;bottom:24px;width:56px;height:56px;border-radius:28px;border:none;background:#165dff;color:#fff;font-size:24px;cursor:pointer;box-shadow:0 4px 16px rgba(0,0,0,.2);z-index:2147483646';
  var frame = null;
  button.addEventListener('click', function () {
    if (!frame) {
      frame = document.createElement('iframe');
      frame.src = studio + path;
      frame.title = title;
      frame.setAttribute('data-tessera-websdk', 'frame');
      frame.style.cssText =
        'position:fixed;right:24px;bottom:92px;width:380px;height:560px;max-height:80vh;border:1px solid #e5e6eb;border-radius:12px;background:#fff;box-shadow:0 8px 32px rgba(0,0,0,.18);z-index:2147483647';
      document.body.appendChild(frame);
    } else frame.style.display = frame.style.display === 'none' ? '' : 'none';
  });
  document.body.appendChild(button);
})();
