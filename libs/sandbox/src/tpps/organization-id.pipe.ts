import { Injectable, PipeTransform } from '@nestjs/common';
import { ValidationFailed } from '@app/common';
import { organizationIdProblem } from './tpp.dto';

/** The organizationIdentifier of a TPP's certificate, e.g. PSDSE-FINA-12345; never the `sha256:` form (contract §16). */
@Injectable()
export class OrganizationIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    const problem = organizationIdProblem(value);
    if (problem) throw new ValidationFailed(problem);
    return value;
  }
}
