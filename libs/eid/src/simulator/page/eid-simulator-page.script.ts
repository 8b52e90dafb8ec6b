/**
 * The page's only script (no build step): opens tokens, sends the actions to the simulator API and
 * keeps the order's status and QR code live. Written without template literals so it can live in a
 * TypeScript string; it reads its inputs from data attributes, never from interpolated text.
 */
export const EID_SIMULATOR_PAGE_SCRIPT = `
(function () {
  'use strict';
  var main = document.getElementById('simulator');
  var message = document.getElementById('message');
  var operationId = main.dataset.operationId;
  var openStatuses = main.dataset.openStatuses.split(' ');
  // The page's own path, under the sandbox's prefix when it has one (contract §13).
  var pagePath = main.dataset.pagePath;

  function say(text, isError) {
    message.textContent = text;
    message.className = isError ? 'error' : 'ok';
  }

  async function call(method, path, body) {
    var init = { method: method, headers: { accept: 'application/json' } };
    if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    var res = await fetch(path, init);
    if (res.ok) return res.status === 204 ? null : res.json();
    var problem = await res.json().catch(function () { return null; });
    var reason = problem && problem.reason ? problem.reason.code + ': ' + problem.reason.message : res.status + ' ' + res.statusText;
    throw new Error(reason);
  }

  async function openToken(token) {
    say('Opening…', false);
    try {
      var opened = await call('POST', pagePath + '/open', { token: token.trim() });
      location.replace(pagePath + '?operation_id=' + encodeURIComponent(opened.operation_id));
    } catch (error) {
      say('Could not open the order: ' + error.message, true);
    }
  }

  document.getElementById('open-form').addEventListener('submit', function (event) {
    event.preventDefault();
    openToken(document.getElementById('token').value);
  });
  if (main.dataset.tokenToOpen) openToken(main.dataset.tokenToOpen);

  var order = document.getElementById('order');
  if (!operationId || !order) return;
  var base = pagePath + '/operations/' + encodeURIComponent(operationId);
  var selected = function (id) { var el = document.getElementById(id); return el ? el.value : undefined; };

  var actions = {
    open: function () { return call('POST', base + '/open', {}); },
    'confirm-call': function () { return call('POST', base + '/confirm-call'); },
    'decline-call': function () { return call('POST', base + '/decline-call'); },
    complete: async function () {
      var user = selected('user');
      if (user) await call('POST', base + '/open', { personal_number: user });
      await call('POST', base + '/complete');
    },
    fail: function () { return call('POST', base + '/fail', { hint_code: selected('fail-hint') }); },
    hint: function () { return call('POST', base + '/hint', { hint_code: selected('pending-hint') }); },
  };

  var buttons = Array.prototype.slice.call(order.querySelectorAll('button[data-action]'));
  buttons.forEach(function (button) {
    button.addEventListener('click', async function () {
      buttons.forEach(function (b) { b.disabled = true; });
      try {
        await actions[button.dataset.action]();
        say(button.textContent + ': done.', false);
      } catch (error) {
        say(button.textContent + ' failed: ' + error.message, true);
      }
      buttons.forEach(function (b) { b.disabled = false; });
      await refresh();
      // Disabled, the button lost the focus to the page: it gets it back, or, gone with a finished
      // order, the message saying what happened takes it.
      if (button.getClientRects().length > 0) button.focus();
      else message.focus();
    });
  });

  var qrImage = document.getElementById('qr-image');
  var qrString = document.getElementById('qr-string');
  var timer = null;

  function show(view) {
    var open = openStatuses.indexOf(view.status) >= 0;
    document.getElementById('order-status').textContent = view.hint_code ? view.status + ' · ' + view.hint_code : view.status;
    document.getElementById('order-age').textContent = String(view.seconds_since_start);
    document.getElementById('order-time-left').textContent = open ? view.seconds_left + ' s of 180 s' : 'finished';
    document.getElementById('order-person').textContent = view.user_name ? view.user_name + ' (' + view.personal_number + ')' : view.personal_number;
    order.dataset.open = String(open);
    if (qrImage && view.qr_string) {
      qrImage.src = base + '/qr.svg?t=' + encodeURIComponent(view.seconds_since_start);
      qrString.textContent = view.qr_string;
    }
    if (!open) {
      var actionsBox = document.getElementById('order-actions');
      var hadFocus = actionsBox && actionsBox.contains(document.activeElement);
      if (actionsBox) actionsBox.hidden = true;
      // Finished while a control had the focus (the order timed out): the status says why.
      if (hadFocus) document.getElementById('order-status').focus();
      var figure = document.getElementById('qr-figure');
      if (figure) figure.hidden = true;
      clearInterval(timer);
    }
  }

  async function refresh() {
    try {
      show(await call('GET', base));
    } catch (error) {
      say('Could not read the order: ' + error.message, true);
      clearInterval(timer);
    }
  }

  if (order.dataset.open === 'true') timer = setInterval(refresh, 1000);
})();
`;
