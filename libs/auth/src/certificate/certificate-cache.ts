import { type Psd2Certificate, readPsd2Certificate } from '@app/directory';

const CAPACITY = 1000;

/**
 * Parsed certificates by header value. Parsing is pure and costs more than the rest of a status
 * poll, and a TPP sends the same header on every call; the cache holds no state a rule depends on
 * (the TPP itself is still read from the database). Least recently used entries leave first.
 */
export class CertificateCache {
  private readonly entries = new Map<string, Psd2Certificate>();

  read(headerValue: string): Psd2Certificate {
    const cached = this.entries.get(headerValue);
    if (cached) {
      // Map keeps insertion order: re-inserting marks the entry as the most recently used.
      this.entries.delete(headerValue);
      this.entries.set(headerValue, cached);
      return cached;
    }
    const certificate = readPsd2Certificate(headerValue);
    this.entries.set(headerValue, certificate);
    if (this.entries.size > CAPACITY) this.entries.delete(this.entries.keys().next().value as string);
    return certificate;
  }
}
