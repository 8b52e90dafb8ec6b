import { type Psd2Certificate, readPsd2Certificate } from '@app/directory';

const CAPACITY = 1000;

/**
 * Parsed certificates by header value. Parsing is pure and costs more than the rest of a status
 * poll, and a TPP sends the same header on every call; the cache holds no state a rule depends on
 * (the TPP itself is still read from the database). Least recently used entries leave first.
 */
export class CertificateCache {
  private readonly entries = new Map<string, Psd2Certificate>();
  /**
   * The last value read, compared before the map: a header value is a new string on every request,
   * and the map's lookup hashes all of its ~1.4 KB where a comparison with the last one stops at the
   * first difference (issue 19). The last value read is always the map's most recently used entry.
   */
  private last: { headerValue: string; certificate: Psd2Certificate } | undefined;

  read(headerValue: string): Psd2Certificate {
    if (this.last?.headerValue === headerValue) return this.last.certificate;
    const certificate = this.lookUp(headerValue);
    this.last = { headerValue, certificate };
    return certificate;
  }

  private lookUp(headerValue: string): Psd2Certificate {
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
