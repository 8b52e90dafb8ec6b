import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation } from '@nestjs/swagger';
import { ADMIN_PROBLEMS, AdminOnly, API_TAG, ApiInterface, ApiProblems, Idempotent } from '@app/common';
import { PartnerService } from '@app/directory';
import { CreatePartnerDto, PartnerCreatedDto } from './partner.dto';
import { toPartnerCreated } from './partner.mapper';

@ApiInterface(API_TAG.admin)
@AdminOnly()
@ApiProblems(...ADMIN_PROBLEMS)
@Controller('admin/partners')
export class AdminPartnersController {
  constructor(private readonly partners: PartnerService) {}

  @Post()
  @HttpCode(201)
  @Idempotent()
  @ApiOperation({
    summary: 'Register a partner and issue its api key',
    description: 'The key authenticates as `Authorization: Bearer <api_key>` on the signing, mortgage, loan-application and enterprise interfaces.',
  })
  @ApiCreatedResponse({ type: PartnerCreatedDto })
  @ApiProblems(400, { status: 409, code: 'CONFLICT', description: 'The given api_key belongs to another partner' }, 413)
  async createPartner(@Body() dto: CreatePartnerDto): Promise<PartnerCreatedDto> {
    return toPartnerCreated(await this.partners.register(dto.name, dto.api_key));
  }
}
