import { Injectable, PipeTransform } from '@nestjs/common';
import { ValidationFailed } from '@app/common';
import { ORGANIZATION_ID_PATTERN } from './tpp.dto';

/** The organizationIdentifier of a TPP's certificate, e.g. PSDSE-FINA-12345. */
@Injectable()
export class OrganizationIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!ORGANIZATION_ID_PATTERN.test(value)) {
      throw new ValidationFailed('organization_id must be 1 to 128 letters, digits, ".", "_" or "-", e.g. PSDSE-FINA-12345');
    }
    return value;
  }
}
