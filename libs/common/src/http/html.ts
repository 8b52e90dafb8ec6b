import type { IncomingMessage } from 'node:http';
import accepts from 'accepts';

/** Markup that is already safe to send: produced by `html`, never by concatenating input. */
export class SafeHtml {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

/** A constant of this code base (the page's script and style), never anything from a request. */
export const trusted = (constant: string): SafeHtml => new SafeHtml(constant);

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

type Interpolated = SafeHtml | string | number | boolean | null | undefined | Interpolated[];

function render(value: Interpolated): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/**
 * A template tag that escapes every interpolated value unless it is SafeHtml (nested `html`), so
 * nothing a tester types or a TPP sends can become markup on the page.
 */
export function html(strings: TemplateStringsArray, ...values: Interpolated[]): SafeHtml {
  return new SafeHtml(strings.reduce((out, text, i) => out + text + (i < values.length ? render(values[i]) : ''), ''));
}

/**
 * Whether a request is a browser's: it prefers text/html over JSON. A browser gets a page (and its
 * errors on the page); a client that prefers JSON, or does not take HTML, gets JSON (contract §2).
 */
export function prefersHtml(request: IncomingMessage): boolean {
  return accepts(request).type(['text/html', 'application/problem+json', 'application/json']) === 'text/html';
}

/**
 * Whether a request asks for a page by name: it names text/html and prefers it. A client that names
 * no type or only `*\/*` (curl, SDKs) gets JSON where a route answers both (the console, contract §14).
 */
export function asksForHtml(request: IncomingMessage): boolean {
  return /text\/html/i.test(request.headers?.accept ?? '') && prefersHtml(request);
}
