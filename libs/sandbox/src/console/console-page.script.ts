/**
 * The console's only script (no build step). It keeps the admin key typed in in a variable, never
 * in storage, cookies or the address; with it, it moves the clock and reads the users, the open eid
 * orders and the journal through the sandbox's admin API, the journal again every few seconds.
 * Written without template literals so it can live in a TypeScript string; everything from the API
 * goes into the page as text (textContent), never as markup.
 */
export const CONSOLE_PAGE_SCRIPT = `
(function () {
  'use strict';
  var main = document.getElementById('console');
  var prefix = main.dataset.prefix;
  var pollMs = Number(main.dataset.pollMs);
  var message = document.getElementById('message');
  var adminArea = document.getElementById('admin');
  var keyInput = document.getElementById('admin-key');
  var lockButton = document.getElementById('lock');
  var journal = document.getElementById('journal');
  var JOURNAL_SHOWN = 200;

  var adminKey = null;
  var shown = new Set();
  var pollTimer = null;
  var polls = 0;
  var busy = false;
  // Bumped when the filters change: a read begun before shows nothing.
  var journalGeneration = 0;
  var clock = { nowMs: Date.parse(main.dataset.clockNow), readAtMs: Date.now(), frozen: main.dataset.clockFrozen === 'true' };

  function say(text, isError) {
    message.textContent = text;
    message.className = isError ? 'error' : 'ok';
  }

  function element(tag, text, className) {
    var el = document.createElement(tag);
    if (text !== undefined && text !== null) el.textContent = String(text);
    if (className) el.className = className;
    return el;
  }

  async function admin(method, path, body) {
    var init = { method: method, headers: { accept: 'application/json', authorization: 'Bearer ' + adminKey } };
    if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    var res = await fetch(prefix + '/admin' + path, init);
    if (res.ok) return res.status === 204 ? null : res.json();
    var problem = await res.json().catch(function () { return null; });
    var error = new Error(problem && problem.reason ? problem.reason.code + ': ' + problem.reason.message : res.status + ' ' + res.statusText);
    error.status = res.status;
    throw error;
  }

  // Stockholm wall-clock time with its offset, as the bank's documents write it.
  var stockholm = new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Europe/Stockholm', year: 'numeric', month: '2-digit', day: '2-digit',
    hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZoneName: 'longOffset',
  });
  function stockholmTime(ms) {
    var parts = {};
    stockholm.formatToParts(new Date(ms)).forEach(function (part) { parts[part.type] = part.value; });
    return parts.year + '-' + parts.month + '-' + parts.day + 'T' + parts.hour + ':' + parts.minute + ':' + parts.second +
      (parts.timeZoneName.replace('GMT', '') || '+00:00');
  }

  function clockNowMs() {
    return clock.frozen ? clock.nowMs : clock.nowMs + (Date.now() - clock.readAtMs);
  }
  function showClock() {
    var now = new Date(clockNowMs());
    var time = document.getElementById('clock-now');
    time.dateTime = now.toISOString();
    time.textContent = stockholmTime(now.getTime());
    document.getElementById('clock-state').textContent = clock.frozen ? 'frozen' : 'running';
  }
  function adoptClock(answer) {
    clock = { nowMs: Date.parse(answer.now), readAtMs: Date.now(), frozen: answer.frozen };
    showClock();
  }
  setInterval(function () { if (!clock.frozen) showClock(); }, 1000);

  // The journal: newest first; a read adds the entries not on the page yet, so open entries stay open.
  function entryKey(entry) { return entry.request_id + ' ' + entry.arrived_at; }

  function journalQuery() {
    var query = new URLSearchParams({ limit: '50' });
    var filters = { caller_kind: 'filter-caller-kind', caller_id: 'filter-caller-id', status: 'filter-status', hint: 'filter-hint' };
    Object.keys(filters).forEach(function (name) {
      var value = document.getElementById(filters[name]).value.trim();
      if (value) query.set(name, value);
    });
    return query.toString();
  }

  function pre(value) { return element('pre', JSON.stringify(value, null, 2)); }

  function fact(list, term, value) {
    if (value === undefined || value === null || value === '') return;
    list.append(element('dt', term), element('dd', value));
  }

  function entryItem(entry) {
    var item = element('li');
    item.dataset.arrivedAt = entry.arrived_at;
    item.dataset.requestId = entry.request_id;
    var details = element('details');
    var summary = element('summary');
    var caller = entry.caller.kind + (entry.caller.id ? ' ' + entry.caller.id : '');
    summary.append(
      element('span', stockholmTime(Date.parse(entry.at)).slice(11, 19) + ' ' + entry.method + ' ' + entry.path + ' '),
      element('span', entry.status, entry.status >= 400 ? 'status-bad' : 'status-ok'),
      element('span', ' ' + caller + ' · ' + entry.duration_ms + ' ms' + (entry.replayed ? ' · replayed' : '')),
    );
    entry.hints.forEach(function (hint) { summary.append(element('span', hint.code, 'hint-code')); });
    details.append(summary);

    var body = element('div', null, 'entry');
    var facts = element('dl');
    fact(facts, 'Request id', entry.request_id);
    fact(facts, 'Sandbox clock', stockholmTime(Date.parse(entry.at)));
    fact(facts, 'Arrived', entry.arrived_at);
    fact(facts, 'Caller', caller);
    fact(facts, 'Reason', entry.reason_code);
    body.append(facts);
    if (entry.hints.length > 0) {
      body.append(element('h3', 'Hints'));
      var hints = element('ul', null, 'hints');
      entry.hints.forEach(function (hint) {
        var li = element('li');
        var link = element('a', hint.section);
        link.href = '#hint-' + hint.code;
        li.append(element('strong', hint.code), document.createTextNode(': ' + hint.message + ' ('), link, document.createTextNode(')'));
        hints.append(li);
      });
      body.append(hints);
    }
    var request = { query: entry.query, headers: entry.request.headers };
    if ('body' in entry.request) request.body = entry.request.body;
    if (entry.request.body_truncated) request.body_truncated = true;
    body.append(element('h3', 'Request'), pre(request), element('h3', 'Response'), pre(entry.response));
    details.append(body);
    item.append(details);
    return item;
  }

  function place(item) {
    var next = Array.prototype.find.call(journal.children, function (li) { return li.dataset.arrivedAt < item.dataset.arrivedAt; });
    journal.insertBefore(item, next || null);
  }

  async function loadJournal() {
    var generation = journalGeneration;
    var page = await admin('GET', '/requests?' + journalQuery());
    if (generation !== journalGeneration) return;
    page.entries.forEach(function (entry) {
      var key = entryKey(entry);
      if (shown.has(key)) return;
      shown.add(key);
      place(entryItem(entry));
    });
    while (journal.children.length > JOURNAL_SHOWN) {
      var last = journal.lastElementChild;
      shown.delete(last.dataset.requestId + ' ' + last.dataset.arrivedAt);
      last.remove();
    }
    document.getElementById('journal-empty').hidden = journal.children.length > 0;
  }

  function clearJournal() {
    journalGeneration++;
    journal.replaceChildren();
    shown.clear();
  }

  function cellRow(cells) {
    var row = element('tr');
    cells.forEach(function (cell) {
      var td = element('td');
      td.append(cell instanceof Node ? cell : document.createTextNode(cell === undefined || cell === null ? '' : String(cell)));
      row.append(td);
    });
    return row;
  }

  async function loadOrders() {
    var answer = await admin('GET', '/eid-orders');
    var rows = answer.orders.map(function (order) {
      var link = element('a', (order.kind === 'signing' ? 'Signing' : 'Authentication') + ' (' + order.channel + ')');
      link.href = prefix + '/sandbox/eid?operation_id=' + encodeURIComponent(order.operation_id);
      return cellRow([stockholmTime(Date.parse(order.started_at)), link, order.personal_number, order.requested_by,
        order.status + (order.hint_code ? ' · ' + order.hint_code : '')]);
    });
    document.querySelector('#eid-orders tbody').replaceChildren.apply(document.querySelector('#eid-orders tbody'), rows);
    document.getElementById('eid-orders-empty').hidden = rows.length > 0;
  }

  async function loadUsers() {
    var answer = await admin('GET', '/users?limit=100');
    var rows = answer.users.map(function (user) {
      return cellRow([user.personal_number, user.name, user.eid_behaviour, user.kyc_completed ? 'answered' : 'not answered', user.account_count]);
    });
    document.querySelector('#users tbody').replaceChildren.apply(document.querySelector('#users tbody'), rows);
    document.getElementById('users-more').hidden = !answer.next_after;
  }

  async function poll() {
    if (busy || adminKey === null) return;
    busy = true;
    try {
      var reads = [admin('GET', '/clock').then(adoptClock), loadJournal(), loadOrders()];
      if (polls++ % 5 === 0) reads.push(loadUsers());
      await Promise.all(reads);
    } catch (error) {
      if (adminKey === null) return;
      say('Could not read the sandbox: ' + error.message, true);
      if (error.status === 401 || error.status === 403 || error.status === 404) lock();
    } finally {
      busy = false;
    }
  }

  function lock() {
    adminKey = null;
    clearInterval(pollTimer);
    pollTimer = null;
    adminArea.hidden = true;
    lockButton.hidden = true;
    clearJournal();
  }

  document.getElementById('unlock-form').addEventListener('submit', async function (event) {
    event.preventDefault();
    var key = keyInput.value.trim();
    if (!key) return;
    lock();
    adminKey = key;
    try {
      adoptClock(await admin('GET', '/clock'));
    } catch (error) {
      adminKey = null;
      say(error.status === 403
        ? 'The admin routes of this sandbox are closed: the service has no ADMIN_API_KEY configured.'
        : 'That key does not open this sandbox: ' + error.message, true);
      keyInput.focus();
      return;
    }
    keyInput.value = '';
    adminArea.hidden = false;
    lockButton.hidden = false;
    say('Unlocked: the journal is read again every ' + pollMs / 1000 + ' s.', false);
    polls = 0;
    await poll();
    pollTimer = setInterval(poll, pollMs);
  });

  lockButton.addEventListener('click', function () {
    lock();
    say('The key is forgotten.', false);
    keyInput.focus();
  });

  async function moveClock(action, done) {
    try {
      adoptClock(await action());
      say(done, false);
      await loadOrders();
    } catch (error) {
      say('Could not move the clock: ' + error.message, true);
    }
  }

  function advance(seconds) {
    return moveClock(function () { return admin('POST', '/clock/advance', { seconds: seconds }); },
      'The clock moved forward ' + seconds + ' s.');
  }

  document.getElementById('advance-form').addEventListener('submit', function (event) {
    event.preventDefault();
    advance(Number(document.getElementById('advance-seconds').value));
  });
  document.querySelectorAll('button[data-advance]').forEach(function (button) {
    button.addEventListener('click', function () { advance(Number(button.dataset.advance)); });
  });
  document.getElementById('clock-reset').addEventListener('click', function () {
    moveClock(function () { return admin('DELETE', '/clock'); }, 'The clock follows real time again.');
  });

  document.getElementById('journal-filters').addEventListener('submit', async function (event) {
    event.preventDefault();
    clearJournal();
    try {
      await loadJournal();
      say('Journal filtered.', false);
    } catch (error) {
      say('Could not filter the journal: ' + error.message, true);
    }
  });
})();
`;
