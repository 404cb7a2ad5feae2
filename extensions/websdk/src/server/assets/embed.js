// The chat inside the Web SDK's frame: streams the answers of the bot (or of a project's chat-flow) from
// /api/websdk/chat. The visitor is an id kept in this origin's storage; a conversation lasts for the
// browser session.
(function () {
  var root = document.getElementById('tessera-chat');
  var botId = root.getAttribute('data-bot-id');
  var appId = root.getAttribute('data-app-id');
  var workflowId = root.getAttribute('data-workflow-id');
  var target = botId ? { bot_id: botId } : { app_id: appId, workflow_id: workflowId };
  var store = window.localStorage;
  var visitor = store.getItem('tessera.visitor');
  if (!visitor) {
    visitor = crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random().toString(16).slice(2);
    store.setItem('tessera.visitor', visitor);
  }
  var conversationKey = 'tessera.conversation.' + (botId || appId + '.' + workflowId);
  var list = document.getElementById('messages');
  var input = document.getElementById('input');
  var send = document.getElementById('send');
  function add(role, text) {
    var el = document.createElement('div');
    el.className = 'msg ' + role;
    el.setAttribute('data-role', role);
    el.textContent = text;
    list.appendChild(el);
    list.scrollTop = list.scrollHeight;
    return el;
  }
  var prologue = root.getAttribute('data-prologue');
  if (prologue) add('assistant', prologue);
  async function ask(text) {
    add('user', text);
    var answer = add('assistant', '');
    answer.classList.add('pending');
    send.disabled = true;
    try {
      var res = await fetch('/api/websdk/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify(
          Object.assign(
            { visitor_id: visitor, query: text, conversation_id: sessionStorage.getItem(conversationKey) || undefined },
            target,
          ),
        ),
      });
      if (!res.ok || !(res.headers.get('content-type') || '').includes('text/event-stream')) {
        var body = await res.json().catch(function () {
          return {};
        });
        throw new Error(body.msg || 'The chat is not available (' + res.status + ').');
      }
      var reader = res.body.getReader();
      var decoder = new TextDecoder();
      var buffer = '';
      for (;;) {
        var chunk = await reader.read();
        if (chunk.done) break;
        buffer += decoder.decode(chunk.value, { stream: true });
        var parts = buffer.split('\n\n');
        buffer = parts.pop();
        for (var i = 0; i < parts.length; i++) {
          var event = /^event:\s*(.*)$/m.exec(parts[i]);
          var data = /^data:\s*(.*)$/m.exec(parts[i]);
          if (!event || !data) continue;
          var payload = JSON.parse(data[1]);
          if (event[1] === 'conversation.chat.created' && payload.conversation_id)
            sessionStorage.setItem(conversationKey, payload.conversation_id);
          if (event[1] === 'conversation.message.delta' && payload.type === 'answer')
            answer.textContent += payload.content || '';
          if (event[1] === 'conversation.chat.failed')
            throw new Error((payload.last_error && payload.last_error.msg) || 'The bot could not answer.');
          if (event[1] === 'error' || event[1] === 'Error')
            throw new Error(payload.msg || payload.error_message || 'The bot could not answer.');
        }
      }
    } catch (e) {
      answer.textContent = e.message;
      answer.classList.add('error');
    } finally {
      answer.classList.remove('pending');
      send.disabled = false;
      input.focus();
    }
  }
  document.getElementById('form').addEventListener('submit', function (e) {
    e.preventDefault();
    var text = input.value.trim();
    if (!text) return;
    input.value = '';
    void ask(text);
  });
})();
