import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import type { Response } from 'express';
import { ADMIN_PROBLEMS, AdminOnly, API_TAG, ApiInterface, ApiProblems, PERSONAL_NUMBER_INPUT, type PersonalNumber, PersonalNumberPipe, Idempotent } from '@app/common';
import { AdminUsersService } from './admin-users.service';
import { AccountDto } from '@app/savings';
import { ListUsersQueryDto, OpenAccountDto, PutUserDto, UserListDto, UserResponseDto } from './user.dto';

const PERSONAL_NUMBER_PARAM = {
  name: 'personal_number',
  description: 'YYYYMMDDNNNC, or YYMMDD-NNNC / YYMMDD+NNNC (century from the sandbox clock)',
  schema: { type: 'string' as const, pattern: PERSONAL_NUMBER_INPUT.pattern, example: PERSONAL_NUMBER_INPUT.example },
};

@ApiInterface(API_TAG.admin)
@AdminOnly()
@ApiProblems(...ADMIN_PROBLEMS)
@Controller('admin/users')
export class AdminUsersController {
  constructor(private readonly service: AdminUsersService) {}

  @Get()
  @ApiOperation({
    summary: 'List sandbox users',
    description: 'In personal-number order, a page at a time (`limit`, default 100, at most 500); `next_after` names the start of the next page.',
  })
  @ApiOkResponse({ type: UserListDto })
  @ApiProblems(400)
  listUsers(@Query() query: ListUsersQueryDto): Promise<UserListDto> {
    return this.service.list(query);
  }

  @Put(':personal_number')
  @ApiOperation({ summary: 'Create (201) or replace (200) a sandbox user', description: 'Contract §8. Omitted optional settings take their defaults.' })
  @ApiParam(PERSONAL_NUMBER_PARAM)
  @ApiCreatedResponse({ type: UserResponseDto, description: 'Created' })
  @ApiOkResponse({ type: UserResponseDto, description: 'Replaced' })
  @ApiProblems(400, 413)
  async putUser(
    @Param('personal_number', PersonalNumberPipe) personalNumber: PersonalNumber,
    @Body() dto: PutUserDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<UserResponseDto> {
    const { user, created } = await this.service.put(personalNumber, dto);
    response.status(created ? 201 : 200);
    return user;
  }

  @Get(':personal_number')
  @ApiOperation({
    summary: 'A sandbox user with its settings and accounts',
    description: 'The user as PUT /admin/users/{personal_number} left it, with every account it owns; any personal-number form of contract §4 is read.',
  })
  @ApiParam(PERSONAL_NUMBER_PARAM)
  @ApiOkResponse({ type: UserResponseDto })
  @ApiProblems(400, 404)
  getUser(@Param('personal_number', PersonalNumberPipe) personalNumber: PersonalNumber): Promise<UserResponseDto> {
    return this.service.get(personalNumber);
  }

  @Post(':personal_number/accounts')
  @HttpCode(201)
  @Idempotent()
  @ApiOperation({ summary: 'Open an account for a user', description: 'The sandbox makes a valid account number when none is given.' })
  @ApiParam(PERSONAL_NUMBER_PARAM)
  @ApiCreatedResponse({ type: AccountDto })
  @ApiProblems(400, 404, { status: 409, code: 'CONFLICT', description: 'The given account_number is in use' }, 413)
  openAccount(
    @Param('personal_number', PersonalNumberPipe) personalNumber: PersonalNumber,
    @Body() dto: OpenAccountDto,
  ): Promise<AccountDto> {
    return this.service.openAccount(personalNumber, dto);
  }
}
