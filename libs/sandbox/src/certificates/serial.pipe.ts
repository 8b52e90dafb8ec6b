import { Injectable, PipeTransform } from '@nestjs/common';
import { ValidationFailed } from '@app/common';

export const SERIAL_PATTERN = /^[0-9A-Fa-f]{1,64}$/;

/** The hex serial of a sandbox-CA certificate (contract §16). */
@Injectable()
export class SerialPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!SERIAL_PATTERN.test(value)) throw new ValidationFailed('serial must be the hexadecimal serial of a certificate POST /sandbox/certificates issued');
    return value;
  }
}
