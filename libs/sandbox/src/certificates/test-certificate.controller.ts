import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { API_TAG, ApiInterface, ApiProblems, Public } from '@app/common';
import { TestCertificateQueryDto, TestCertificateResponseDto } from './test-certificate.dto';
import { TestCertificateService } from './test-certificate.service';

@ApiInterface(API_TAG.sandbox)
@Controller('sandbox/test-certificate')
export class TestCertificateController {
  constructor(private readonly certificates: TestCertificateService) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: 'Mint a PSD2 test certificate',
    description:
      'A self-signed X.509 certificate (long validity) whose ETSI TS 119 495 QCStatement carries exactly the requested roles, ' +
      'and whose subject carries the organizationIdentifier. Send it Base64 in X-PSD2-CLIENT-TEST-CERT (contract §3). ' +
      'Offline: `npm run cli -- cert --roles PSP_AI,PSP_PI`.',
  })
  @ApiOkResponse({ type: TestCertificateResponseDto })
  @ApiProblems({ status: 400, description: 'An unknown role or a malformed organization_id (VALIDATION_FAILED names it)' })
  issueCertificate(@Query() query: TestCertificateQueryDto): Promise<TestCertificateResponseDto> {
    return this.certificates.issue(query.roles ?? [], query.organization_id);
  }
}
