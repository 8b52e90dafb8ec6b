import { Body, Controller, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AdminOnly, ApiProblems } from '@app/common';
import { TppRegistry } from '@app/directory';
import { OrganizationIdPipe } from './organization-id.pipe';
import { PutTppDto, TppResponseDto } from './tpp.dto';

@ApiTags('Admin')
@AdminOnly()
@ApiProblems(401, 403)
@Controller('admin/tpps')
export class AdminTppsController {
  constructor(private readonly tpps: TppRegistry) {}

  @Put(':organization_id')
  @ApiOperation({ summary: 'Settings of a TPP (registered if new)', description: 'The TPP is the organizationIdentifier of its certificate (contract §3).' })
  @ApiParam({ name: 'organization_id', example: 'PSDSE-FINA-12345' })
  @ApiOkResponse({ type: TppResponseDto })
  @ApiProblems(400)
  async configureTpp(
    @Param('organization_id', OrganizationIdPipe) organizationId: string,
    @Body() dto: PutTppDto,
  ): Promise<TppResponseDto> {
    const tpp = await this.tpps.configure(organizationId, { nonAuthenticatedTokenLifetimeS: dto.non_authenticated_token_lifetime_s });
    return { organization_id: tpp.identifier, non_authenticated_token_lifetime_s: tpp.nonAuthenticatedTokenLifetimeS };
  }
}
