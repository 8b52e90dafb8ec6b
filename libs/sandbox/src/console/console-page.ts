import { CALLER_KINDS, DEFAULT_SANDBOX_ID, formatStockholmOffset, HINT_CATALOGUE, HINT_CODES, html, type SafeHtml, trusted } from '@app/common';
import type { ConsoleDto } from './console.dto';
import { CONSOLE_PAGE_SCRIPT } from './console-page.script';
import { CONSOLE_PAGE_STYLE } from './console-page.style';

/** The anchor of a hint's row in the page's catalogue: entries link their hints to it. */
export const hintAnchor = (code: string) => `hint-${code}`;

/** How often the unlocked page reads the journal again (the journal is written within a second). */
export const JOURNAL_POLL_MS = 2000;

/**
 * The console (contract §14): server-rendered, no framework. What anyone with the address may see:
 * the sandbox, its clock, the links and the hint catalogue. Everything else is read by the page's
 * script with the admin key typed in, which it keeps in memory only. Its empty icon keeps the browser
 * from asking for /favicon.ico, which would 404 into the journal.
 */
export function renderConsolePage(model: ConsoleDto, prefix: string): string {
  const title = model.sandbox_id === DEFAULT_SANDBOX_ID ? 'Default sandbox' : `Sandbox ${model.name}`;
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Bank API sandbox</title>
<link rel="icon" href="data:,">
<style>${trusted(CONSOLE_PAGE_STYLE)}</style>
</head>
<body>
<header>
  <h1>${title}</h1>
  <p>A Swedish bank's open-banking and partner interfaces, played for building and testing your
  integration: PSD2 account information and payments, eid authentication and signing, mortgage
  pre-approval. This sandbox is isolated: its users, data, clock and journal are its own.</p>
  <dl id="sandbox-facts">
    <dt>Sandbox</dt><dd><code id="sandbox-id">${model.sandbox_id}</code>${model.sandbox_id === DEFAULT_SANDBOX_ID ? null : html` · <span id="sandbox-name">${model.name}</span>`}</dd>
    <dt>Base URL</dt><dd><code id="base-url">${prefix || '/'}</code></dd>
    <dt>Sandbox clock</dt><dd><time id="clock-now" datetime="${model.clock.now}">${formatStockholmOffset(new Date(model.clock.now))}</time>
      (Stockholm time), <span id="clock-state">${model.clock.frozen ? 'frozen' : 'running'}</span></dd>
  </dl>
</header>
<nav aria-label="Links">
  <ul id="links">
    <li><a href="${model.links.docs}">API reference</a> (<a href="${model.links.openapi}">OpenAPI description</a>)</li>
    <li><a href="${model.links.eid_simulator}">eid simulator</a>: answer the eid orders of this sandbox as its users would</li>
    <li><a href="${model.links.maintenance_windows}">Maintenance windows</a>: the planned downtime (bank §8)</li>
    <li><code>${model.links.requests}</code>: your own requests, with your test certificate or partner key (contract §14)</li>
  </ul>
</nav>
<main id="console" data-prefix="${prefix}" data-poll-ms="${JOURNAL_POLL_MS}" data-clock-now="${model.clock.now}" data-clock-frozen="${String(model.clock.frozen)}">
  <p id="message" role="status" aria-live="polite"></p>
  ${unlockSection(model)}
  <div id="admin" hidden>
    ${clockSection()}
    ${journalSection()}
    ${ordersSection()}
    ${usersSection()}
  </div>
  ${hintCatalogue()}
</main>
<script>${trusted(CONSOLE_PAGE_SCRIPT)}</script>
</body>
</html>
`;
  return page.text;
}

function unlockSection(model: ConsoleDto): SafeHtml {
  const whose = model.sandbox_id === DEFAULT_SANDBOX_ID
    ? html`the service's <code>ADMIN_API_KEY</code>`
    : html`this sandbox's <code>admin_key</code> (from <code>POST /sandboxes</code>) or the operator's <code>ADMIN_API_KEY</code>`;
  return html`<section id="unlock" aria-labelledby="unlock-heading">
  <h2 id="unlock-heading">Unlock with the admin key</h2>
  <form id="unlock-form">
    <label for="admin-key">Admin key</label>
    <input id="admin-key" type="password" required autocomplete="off" spellcheck="false" aria-describedby="admin-key-help">
    <button type="submit">Unlock</button>
    <button type="button" id="lock" hidden>Forget the key</button>
  </form>
  <p id="admin-key-help" class="help">With ${whose}: move the clock, see the users, the open eid orders and the
    live request journal with its rule hints. The key stays in this page's memory: it is never stored, and
    reloading the page forgets it.</p>
</section>`;
}

function clockSection(): SafeHtml {
  return html`<section aria-labelledby="clock-heading">
  <h2 id="clock-heading">Clock</h2>
  <p class="help">Every time rule reads the sandbox clock (contract §6): move it to see tokens expire, orders time out and
    days turn in Stockholm.</p>
  <form id="advance-form">
    <label for="advance-seconds">Seconds</label>
    <input id="advance-seconds" type="number" min="0" step="0.001" required inputmode="decimal" value="60">
    <button type="submit">Advance</button>
  </form>
  <p role="group" aria-label="Quick moves">
    <button type="button" data-advance="60">+1 minute</button>
    <button type="button" data-advance="300">+5 minutes</button>
    <button type="button" data-advance="3600">+1 hour</button>
    <button type="button" data-advance="86400">+1 day</button>
    <button type="button" id="clock-reset">Back to real time</button>
  </p>
</section>`;
}

function journalSection(): SafeHtml {
  return html`<section aria-labelledby="journal-heading">
  <h2 id="journal-heading">Request journal</h2>
  <p class="help">Every request to this sandbox's bank and <code>/sandbox/*</code> routes, newest first, secrets redacted,
    with the rules it broke. Live: read again every ${JOURNAL_POLL_MS / 1000} s.</p>
  <form id="journal-filters">
    <label for="filter-caller-kind">Caller</label>
    <select id="filter-caller-kind"><option value="">any</option>${CALLER_KINDS.map((kind) => html`<option>${kind}</option>`)}</select>
    <label for="filter-caller-id">Caller id</label>
    <input id="filter-caller-id" autocomplete="off" spellcheck="false" placeholder="organization id, partner id, personal number">
    <label for="filter-status">Status</label>
    <input id="filter-status" type="number" min="100" max="599" inputmode="numeric" placeholder="e.g. 401">
    <label for="filter-hint">Hint</label>
    <select id="filter-hint"><option value="">any</option>${HINT_CODES.map((code) => html`<option>${code}</option>`)}</select>
    <button type="submit">Filter</button>
  </form>
  <p><a href="#orders-heading" id="skip-journal">Skip the journal: go to the open eid orders</a></p>
  <ol id="journal" aria-live="polite"></ol>
  <p id="journal-empty" class="help">No requests yet.</p>
  <p><button type="button" id="journal-older" hidden>Show older entries</button></p>
</section>`;
}

function ordersSection(): SafeHtml {
  return html`<section aria-labelledby="orders-heading">
  <h2 id="orders-heading">Open eid orders</h2>
  <table id="eid-orders">
    <thead><tr><th scope="col">Started</th><th scope="col">What</th><th scope="col">For</th><th scope="col">Asked by</th><th scope="col">Status</th></tr></thead>
    <tbody></tbody>
  </table>
  <p id="eid-orders-empty" class="help">No open eid orders.</p>
</section>`;
}

function usersSection(): SafeHtml {
  return html`<section aria-labelledby="users-heading">
  <h2 id="users-heading">Users</h2>
  <table id="users">
    <thead><tr><th scope="col">Personal number</th><th scope="col">Name</th><th scope="col">eid behaviour</th><th scope="col">KYC</th><th scope="col">Accounts</th></tr></thead>
    <tbody></tbody>
  </table>
  <p id="users-more" class="help" hidden>The first 100 users; <code>GET /admin/users</code> pages through all.</p>
</section>`;
}

function hintCatalogue(): SafeHtml {
  return html`<section id="hints" aria-labelledby="hints-heading">
  <h2 id="hints-heading">Rule hints</h2>
  <p class="help">What a journal entry (and the <code>Sandbox-Hints</code> response header) can say about a request, and the
    section of the bank's document or the sandbox contract whose rule it is (contract §14).</p>
  <table>
    <thead><tr><th scope="col">Hint</th><th scope="col">Rule</th><th scope="col">Raised when</th></tr></thead>
    <tbody>${HINT_CODES.map(
      (code) => html`<tr id="${hintAnchor(code)}"><td><code>${code}</code></td><td>${HINT_CATALOGUE[code].section}</td><td>${HINT_CATALOGUE[code].when}</td></tr>`,
    )}</tbody>
  </table>
</section>`;
}
