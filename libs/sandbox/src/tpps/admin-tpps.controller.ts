import { Body, Controller, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import { ADMIN_PROBLEMS, AdminOnly, API_TAG, ApiInterface, ApiProblems } from '@app/common';
import { TppRegistry } from '@app/directory';
import { OrganizationIdPipe } from './organization-id.pipe';
import { ORGANIZATION_ID_PATTERN, PutTppDto, TppResponseDto } from './tpp.dto';

@ApiInterface(API_TAG.admin)
@AdminOnly()
@ApiProblems(...ADMIN_PROBLEMS)
@Controller('admin/tpps')
export class AdminTppsController {
  constructor(private readonly tpps: TppRegistry) {}

  @Put(':organization_id')
  @ApiOperation({ summary: 'Settings of a TPP (registered if new)', description: 'The TPP is the organizationIdentifier of its certificate (contract §3).' })
  @ApiParam({
    name: 'organization_id',
    description: 'The organizationIdentifier of the TPP\'s certificate subject',
    schema: { type: 'string', pattern: ORGANIZATION_ID_PATTERN.source, example: 'PSDSE-FINA-12345' },
  })
  @ApiOkResponse({ type: TppResponseDto })
  @ApiProblems(400, 413)
  async configureTpp(
    @Param('organization_id', OrganizationIdPipe) organizationId: string,
    @Body() dto: PutTppDto,
  ): Promise<TppResponseDto> {
    const tpp = await this.tpps.configure(organizationId, { nonAuthenticatedTokenLifetimeS: dto.non_authenticated_token_lifetime_s });
    return { organization_id: tpp.identifier, non_authenticated_token_lifetime_s: tpp.nonAuthenticatedTokenLifetimeS };
  }
}
