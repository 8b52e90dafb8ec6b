import { formatStockholmOffset, html, type SafeHtml, trusted } from '@app/common';
import { FAILED_HINT_CODES, PENDING_HINT_CODES } from '../../eid-catalogue';
import type { EidUserCard } from '../../eid-user-directory';
import { isOpenStatus, OPEN_STATUSES } from '../../orders/eid-order-status';
import type { OperationDto, OperationViewDto } from '../simulator.dto';
import { EID_SIMULATOR_PAGE_SCRIPT } from './eid-simulator-page.script';
import { EID_SIMULATOR_PAGE_STYLE } from './eid-simulator-page.style';

/** Everything the page shows; each part is optional, the forms are always there. */
export interface EidSimulatorPageModel {
  /** A token to open as soon as the page loads (`?autostarttoken=`, what `eid://` maps to). */
  tokenToOpen?: string;
  /** The personal number whose phone orders are listed, with its orders. */
  phone?: { personalNumber: string; orders: OperationDto[] };
  order?: OperationViewDto;
  /** Sandbox users to choose from when the order is an authentication. */
  users: EidUserCard[];
  error?: { status: number; code: string; message: string };
  /** The sandbox's prefix the page was asked under (contract §13): every link and call stays in it. */
  prefix?: string;
}

const KIND_LABEL = { authentication: 'Authentication', signing: 'Signing' } as const;

export const PAGE_PATH = '/sandbox/eid';
export const orderPagePath = (operationId: string, pagePath = PAGE_PATH) => `${pagePath}?operation_id=${encodeURIComponent(operationId)}`;

/**
 * The eid simulator page (contract §4): server-rendered, a little script for the actions. Its empty
 * icon keeps the browser from asking for /favicon.ico, which would 404 into the journal.
 */
export function renderEidSimulatorPage(model: EidSimulatorPageModel): string {
  const pagePath = `${model.prefix ?? ''}${PAGE_PATH}`;
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${model.order ? `${KIND_LABEL[model.order.kind]} · ` : ''}eid simulator · Bank API sandbox</title>
<link rel="icon" href="data:,">
<style>${trusted(EID_SIMULATOR_PAGE_STYLE)}</style>
</head>
<body>
<header>
  <h1>eid simulator</h1>
  <p>The stand-in for the identity app on a tester's phone (sandbox contract §4). Open an order by its
  autostart token or QR string, or find a person's phone orders; then approve it, fail it with a hint
  code, or answer the call. The TPP or partner sees the result on its next status or collect call.</p>
</header>
<main id="simulator" data-operation-id="${model.order?.operation_id ?? ''}" data-token-to-open="${model.tokenToOpen ?? ''}" data-open-statuses="${OPEN_STATUSES.join(' ')}" data-page-path="${pagePath}">
  <p id="message" role="status" aria-live="polite" tabindex="-1"></p>
  ${model.error ? errorBox(model.error) : null}
  ${model.order ? orderSection(model.order, model.users, pagePath) : null}
  ${openSection(model.tokenToOpen, pagePath)}
  ${phoneSection(model.phone, pagePath)}
</main>
<script>${trusted(EID_SIMULATOR_PAGE_SCRIPT)}</script>
</body>
</html>
`;
  return page.text;
}

function errorBox(error: NonNullable<EidSimulatorPageModel['error']>): SafeHtml {
  return html`<div class="problem" role="alert"><strong>${error.status} ${error.code}</strong>: ${error.message}</div>`;
}

function openSection(token: string | undefined, pagePath: string): SafeHtml {
  return html`<section aria-labelledby="open-heading">
  <h2 id="open-heading">Open an order</h2>
  <form id="open-form" action="${pagePath}" method="get">
    <label for="token">Autostart token or QR string</label>
    <input id="token" name="autostarttoken" required autocomplete="off" spellcheck="false" value="${token ?? ''}"
      aria-describedby="token-help">
    <p id="token-help" class="help">The <code>auto_start_token</code> / <code>autostart_token</code> of a start call, or a
      QR string (<code>eid.…</code>) less than 5 seconds old. A launch URI <code>eid://autostarttoken=…</code> maps to
      <code>${pagePath}?autostarttoken=…</code>.</p>
    <button type="submit">Open in the app</button>
  </form>
</section>`;
}

function phoneSection(phone: EidSimulatorPageModel['phone'], pagePath: string): SafeHtml {
  return html`<section aria-labelledby="phone-heading">
  <h2 id="phone-heading">Phone orders</h2>
  <form id="phone-form" action="${pagePath}" method="get">
    <label for="personal-number">Personal number</label>
    <input id="personal-number" name="personal_number" required inputmode="numeric" autocomplete="off"
      placeholder="YYYYMMDDNNNC" value="${phone?.personalNumber ?? ''}">
    <button type="submit">Show phone orders</button>
  </form>
  ${phone ? phoneOrderList(phone, pagePath) : null}
</section>`;
}

function phoneOrderList(phone: NonNullable<EidSimulatorPageModel['phone']>, pagePath: string): SafeHtml {
  if (phone.orders.length === 0) return html`<p id="phone-orders">No open phone orders for ${phone.personalNumber}.</p>`;
  return html`<ul id="phone-orders">${phone.orders.map(
    (order) => html`<li><a href="${orderPagePath(order.operation_id, pagePath)}">${KIND_LABEL[order.kind]} started
      ${formatStockholmOffset(new Date(order.started_at))}</a>: ${statusText(order.status, order.hint_code)}</li>`,
  )}</ul>`;
}

function orderSection(order: OperationViewDto, users: EidUserCard[], pagePath: string): SafeHtml {
  const open = isOpenStatus(order.status);
  const channel =
    order.channel === 'phone'
      ? `phone call (${order.call_initiator === 'USER' ? 'the user called the partner' : 'the partner called the user'})`
      : 'app (autostart token or QR code)';
  return html`<section id="order" aria-labelledby="order-heading" data-open="${String(open)}" data-channel="${order.channel}">
  <h2 id="order-heading">${KIND_LABEL[order.kind]} asked by ${order.requested_by}</h2>
  <dl>
    <dt>What</dt><dd id="order-kind">${KIND_LABEL[order.kind]} by ${channel}</dd>
    <dt>Who asks</dt><dd id="order-requested-by">${order.requested_by}</dd>
    <dt>For</dt><dd id="order-person">${order.user_name ? `${order.user_name} (${order.personal_number})` : order.personal_number}</dd>
    <dt>Since</dt><dd><time id="order-started" datetime="${order.started_at}">${formatStockholmOffset(new Date(order.started_at))}</time>
      (Stockholm time), <span id="order-age">${order.seconds_since_start}</span> s ago on the sandbox clock</dd>
    <dt>Status</dt><dd id="order-status" aria-live="polite" tabindex="-1">${statusText(order.status, order.hint_code)}</dd>
    <dt>Time left</dt><dd id="order-time-left">${open ? `${order.seconds_left} s of 180 s` : 'finished'}</dd>
  </dl>
  ${order.qr_string ? qrFigure(order, pagePath) : null}
  ${open ? actions(order, users) : null}
</section>`;
}

function qrFigure(order: OperationViewDto, pagePath: string): SafeHtml {
  return html`<figure id="qr-figure">
    <img id="qr-image" src="${pagePath}/operations/${order.operation_id}/qr.svg" width="240" height="240"
      alt="Live QR code of this order; it changes every second">
    <figcaption>Live QR code, refreshed every second: <code id="qr-string">${order.qr_string}</code></figcaption>
  </figure>`;
}

function actions(order: OperationViewDto, users: EidUserCard[]): SafeHtml {
  const people = users.some((u) => u.personalNumber === order.personal_number)
    ? users
    : [{ personalNumber: order.personal_number, name: order.user_name ?? 'Unknown user', behaviour: 'MANUAL' as const }, ...users];
  return html`<div id="order-actions">
  ${order.kind === 'authentication'
    ? html`<p><label for="user">Authenticate as</label>
    <select id="user">${people.map(
      (u) => html`<option value="${u.personalNumber}"${u.personalNumber === order.personal_number ? html` selected` : null}>${u.name} (${u.personalNumber}, ${u.behaviour})</option>`,
    )}</select></p>`
    : null}
  ${order.channel === 'phone'
    ? html`<fieldset><legend>The call</legend>
    <button type="button" data-action="open">Pick up the order</button>
    <button type="button" data-action="confirm-call">Confirm the call</button>
    <button type="button" data-action="decline-call">Decline the call</button>
  </fieldset>`
    : null}
  <fieldset><legend>Answer</legend>
    <button type="button" data-action="complete" class="primary">Approve</button>
    <label for="fail-hint">Failure hint</label>
    <select id="fail-hint">${FAILED_HINT_CODES.map((code) => html`<option${code === 'USER_CANCEL' ? html` selected` : null}>${code}</option>`)}</select>
    <button type="button" data-action="fail">Fail</button>
  </fieldset>
  <fieldset><legend>While pending</legend>
    <label for="pending-hint">PENDING hint</label>
    <select id="pending-hint">${PENDING_HINT_CODES.map((code) => html`<option${code === 'STARTED' ? html` selected` : null}>${code}</option>`)}</select>
    <button type="button" data-action="hint">Set hint</button>
  </fieldset>
</div>`;
}

const statusText = (status: string, hint: string | undefined) => (hint ? `${status} · ${hint}` : status);
