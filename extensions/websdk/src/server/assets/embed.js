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
  // A card answer (content_type "card": a tool's output laid out) drawn from its JSON with DOM nodes only: texts as
  // text, links and images http(s) only, buttons that send their message; anything else is left out.
  var SAFE_URL = /^https?:\/\/[^\s<>"']+$/i;
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = String(text);
    return e;
  }
  function cardNodes(nodes, parent, depth) {
    if (!Array.isArray(nodes) || depth > 8) return;
    for (var i = 0; i < nodes.length && i < 1000; i++) {
      var n = nodes[i] || {};
      if (n.type === 'text') parent.appendChild(el('div', 'card-text ' + (n.style || 'body'), n.text || ''));
      else if (n.type === 'image' && SAFE_URL.test(n.url || '')) {
        var img = el('img', 'card-image');
        img.src = n.url;
        img.alt = n.alt || '';
        img.referrerPolicy = 'no-referrer';
        parent.appendChild(img);
      } else if (n.type === 'button') {
        var a = n.action || {};
        if (a.type === 'link' && SAFE_URL.test(a.url || '')) {
          var link = el('a', 'card-button', n.label || '');
          link.href = a.url;
          link.target = '_blank';
          link.rel = 'noopener noreferrer';
          parent.appendChild(link);
        } else {
          var b = el('button', 'card-button', n.label || '');
          b.type = 'button';
          if (a.type === 'message' && a.text) b.setAttribute('data-send', String(a.text));
          else b.disabled = true;
          parent.appendChild(b);
        }
      } else if (n.type === 'row' || n.type === 'column') {
        var box = el('div', 'card-' + n.type);
        cardNodes(n.children, box, depth + 1);
        parent.appendChild(box);
      } else if (n.type === 'list' && Array.isArray(n.items)) {
        var list = el('div', 'card-list');
        if (!n.items.length && n.empty) list.appendChild(el('div', 'card-text caption', n.empty));
        for (var j = 0; j < n.items.length && j < 50; j++) {
          var item = el('div', 'card-item');
          cardNodes(n.items[j], item, depth + 1);
          list.appendChild(item);
        }
        if (n.more > 0) list.appendChild(el('div', 'card-text caption', '+' + n.more));
        parent.appendChild(list);
      } else if (n.type === 'table' && Array.isArray(n.columns) && Array.isArray(n.rows)) {
        var table = el('table', 'card-table');
        var head = el('tr');
        n.columns.forEach(function (c) {
          head.appendChild(el('th', '', c));
        });
        table.appendChild(head);
        n.rows.slice(0, 50).forEach(function (r) {
          var tr = el('tr');
          (Array.isArray(r) ? r : []).forEach(function (c) {
            tr.appendChild(el('td', '', c));
          });
          table.appendChild(tr);
        });
        parent.appendChild(table);
      } else if (n.type === 'divider') parent.appendChild(el('hr', 'card-divider'));
    }
  }
  function addCard(content, before) {
    var card;
    try {
      card = JSON.parse(content);
    } catch {
      return;
    }
    var box = el('div', 'msg assistant card');
    box.setAttribute('data-role', 'card');
    if (card.title) box.appendChild(el('div', 'card-title', card.title));
    cardNodes(card.body, box, 0);
    list.insertBefore(box, before);
  }
  // A card's button sends its message as the visitor's.
  list.addEventListener('click', function (e) {
    var b = e.target && e.target.closest ? e.target.closest('button[data-send]') : null;
    if (b && !send.disabled) void ask(b.getAttribute('data-send'));
  });
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
          var shows = payload.meta_data && payload.meta_data.tool_output;
          if (event[1] === 'conversation.message.delta' && payload.type === 'answer' && !shows)
            answer.textContent += payload.content || '';
          if (event[1] === 'conversation.message.completed' && payload.type === 'answer' && shows) {
            if (payload.content_type === 'card') addCard(payload.content, answer);
            else list.insertBefore(add('assistant', payload.content), answer);
            if (payload.meta_data.llm_text === 'hide') answer.hidden = true;
          }
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
