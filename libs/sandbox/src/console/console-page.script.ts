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
  var olderButton = document.getElementById('journal-older');
  var JOURNAL_PAGE = 50;
  // Entries kept while new ones arrive on top; more once the user asks for older ones.
  var JOURNAL_SHOWN = 200;
  // At most this many entries read by one poll or one "Show older entries".
  var READ_AT_MOST = 500;

  var adminKey = null;
  // The entries on the page, by entryKey, to their list items.
  var shown = new Map();
  var keep = JOURNAL_SHOWN;
  // Whether the journal was read once under the current filter: from then on an entry not shown is new.
  var journalRead = false;
  var readingOlder = false;
  // The filter last submitted: polls read with it, never with what is being typed into the form.
  var filter = {};
  var pollTimer = null;
  var polls = 0;
  var busy = false;
  // Bumped when the filter changes: a read begun before shows nothing.
  var journalGeneration = 0;
  // What the tables show, to leave them alone (and the focus in them) while nothing changed.
  var ordersShown = null;
  var usersShown = null;
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

  function filterOfForm() {
    var fields = { caller_kind: 'filter-caller-kind', caller_id: 'filter-caller-id', status: 'filter-status', hint: 'filter-hint' };
    var chosen = {};
    Object.keys(fields).forEach(function (name) {
      var value = document.getElementById(fields[name]).value.trim();
      if (value) chosen[name] = value;
    });
    return chosen;
  }

  function readJournalPage(after) {
    var query = new URLSearchParams({ limit: String(JOURNAL_PAGE) });
    Object.keys(filter).forEach(function (name) { query.set(name, filter[name]); });
    if (after) query.set('after', after);
    return admin('GET', '/requests?' + query.toString());
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

  // Newest first by arrival; among equal arrival times a newer entry goes above (newest first) or an
  // older one below (read older), which is the order the journal's pages come in.
  function place(item, aboveEqual) {
    var at = item.dataset.arrivedAt;
    var next = Array.prototype.find.call(journal.children, function (li) {
      return aboveEqual ? li.dataset.arrivedAt <= at : li.dataset.arrivedAt < at;
    });
    journal.insertBefore(item, next || null);
  }

  // Adds the entries not shown yet (newest first, as pages list them); the items added.
  function addEntries(entries, newer) {
    var added = [];
    (newer ? entries.slice().reverse() : entries).forEach(function (entry) {
      var key = entryKey(entry);
      if (shown.has(key)) return;
      var item = entryItem(entry);
      shown.set(key, item);
      place(item, newer);
      added.push(item);
    });
    return added;
  }

  // A page's last entry remembers where the next page starts (next_after), or that the journal ends
  // there (''): "Show older entries" reads on from the oldest entry so marked.
  function markPageEnd(page) {
    var last = page.entries[page.entries.length - 1];
    var item = last && shown.get(entryKey(last));
    if (item) item.dataset.after = page.next_after || '';
  }

  function olderCursor() {
    for (var item = journal.lastElementChild; item; item = item.previousElementSibling) {
      if (item.dataset.after !== undefined) return item.dataset.after || null;
    }
    return null;
  }

  function showJournalState() {
    document.getElementById('journal-empty').hidden = journal.children.length > 0;
    olderButton.hidden = olderCursor() === null;
  }

  // A poll: reads from the newest entry down until it reaches one already shown, so no entry of a burst
  // between two polls is skipped. Past READ_AT_MOST entries the list starts again from the newest; what
  // lies below stays reachable with "Show older entries".
  async function loadNewEntries() {
    var generation = journalGeneration;
    var pages = [];
    var read = 0;
    var reached = false;
    var after;
    do {
      var page = await readJournalPage(after);
      if (generation !== journalGeneration) return;
      pages.push(page);
      read += page.entries.length;
      reached = !journalRead || page.entries.some(function (entry) { return shown.has(entryKey(entry)); });
      after = page.next_after;
    } while (!reached && after && read < READ_AT_MOST);
    if (!reached && after && shown.size > 0) clearJournal();
    journalRead = true;
    var added = addEntries(pages.reduce(function (all, p) { return all.concat(p.entries); }, []), true);
    pages.forEach(markPageEnd);
    if (added.length > 0) {
      while (journal.children.length > keep) {
        var last = journal.lastElementChild;
        shown.delete(last.dataset.requestId + ' ' + last.dataset.arrivedAt);
        last.remove();
      }
    }
    showJournalState();
  }

  // "Show older entries": the next page below the oldest entry shown, until the journal ends.
  async function loadOlderEntries() {
    var after = olderCursor();
    if (readingOlder || after === null) return;
    readingOlder = true;
    var generation = journalGeneration;
    var added = [];
    var read = 0;
    try {
      // After a trim the cursor may sit above the oldest entry: read on until a page's worth is new.
      do {
        var page = await readJournalPage(after);
        if (generation !== journalGeneration) return;
        added = added.concat(addEntries(page.entries, false));
        markPageEnd(page);
        read += page.entries.length;
        after = page.next_after;
      } while (added.length < JOURNAL_PAGE && after && read < READ_AT_MOST);
      keep = Math.max(keep, journal.children.length);
      var hadFocus = document.activeElement === olderButton;
      showJournalState();
      say(added.length === 0 ? 'No older entries.' : 'Showing ' + added.length + ' older entries' + (olderButton.hidden ? ', down to the oldest.' : '.'), false);
      // The button is gone at the end of the journal: the focus goes to the oldest entry, not to the page.
      if (hadFocus && olderButton.hidden && journal.lastElementChild) journal.lastElementChild.querySelector('summary').focus();
    } catch (error) {
      say('Could not read older entries: ' + error.message, true);
    } finally {
      readingOlder = false;
    }
  }

  function clearJournal() {
    journalGeneration++;
    journal.replaceChildren();
    shown.clear();
    keep = JOURNAL_SHOWN;
    journalRead = false;
    showJournalState();
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
    // Rebuilt only when it changed, so a link focused in it keeps the focus between polls.
    var content = JSON.stringify(answer.orders);
    if (content === ordersShown) return;
    ordersShown = content;
    var body = document.querySelector('#eid-orders tbody');
    var focused = body.contains(document.activeElement) ? document.activeElement.dataset.operationId : undefined;
    var rows = answer.orders.map(function (order) {
      var link = element('a', (order.kind === 'signing' ? 'Signing' : 'Authentication') + ' (' + order.channel + ')');
      link.href = prefix + '/sandbox/eid?operation_id=' + encodeURIComponent(order.operation_id);
      link.dataset.operationId = order.operation_id;
      return cellRow([stockholmTime(Date.parse(order.started_at)), link, order.personal_number, order.requested_by,
        order.status + (order.hint_code ? ' · ' + order.hint_code : '')]);
    });
    body.replaceChildren.apply(body, rows);
    document.getElementById('eid-orders-empty').hidden = rows.length > 0;
    var again = focused && Array.prototype.find.call(body.querySelectorAll('a'), function (a) { return a.dataset.operationId === focused; });
    if (again) again.focus();
  }

  async function loadUsers() {
    var answer = await admin('GET', '/users?limit=100');
    var content = JSON.stringify(answer);
    if (content === usersShown) return;
    usersShown = content;
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
      var reads = [admin('GET', '/clock').then(adoptClock), loadNewEntries(), loadOrders()];
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
    ordersShown = null;
    usersShown = null;
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

  // The filter takes effect here only: the polls in between keep reading with the one submitted before.
  document.getElementById('journal-filters').addEventListener('submit', async function (event) {
    event.preventDefault();
    var before = filter;
    filter = filterOfForm();
    clearJournal();
    try {
      await loadNewEntries();
      say('Journal filtered.', false);
    } catch (error) {
      // A filter the journal refuses is not kept: the next poll reads with the one before.
      filter = before;
      clearJournal();
      say('Could not filter the journal: ' + error.message, true);
    }
  });

  olderButton.addEventListener('click', loadOlderEntries);
})();
`;
