import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { NestedObjectArray, PERSONAL_NUMBER, PERSONAL_NUMBER_INPUT } from '@app/common';
import { ArrayMaxSize, IsArray, IsOptional, IsString } from 'class-validator';
import { CreatePartnerDto, PartnerCreatedDto } from '../partners/partner.dto';
import { IsOrganizationId, ORGANIZATION_ID_PATTERN, PutTppDto, TppResponseDto } from '../tpps/tpp.dto';
import { AccountDto } from '@app/savings';
import { OpenAccountDto, PutUserDto } from '../users/user.dto';

const MAX_ITEMS = 1000;

export class SeedUserDto extends PutUserDto {
  @ApiProperty(PERSONAL_NUMBER_INPUT)
  @IsString()
  personal_number: string;

  @ApiPropertyOptional({
    type: [OpenAccountDto],
    description: 'The user\'s accounts, exactly: a user seeded again loses its old accounts first (with their transfers and transactions), so loading a fixture twice gives the same state. Without an account_number the sandbox makes one.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ITEMS)
  @NestedObjectArray(() => OpenAccountDto)
  accounts?: OpenAccountDto[];
}

export class SeedTppDto extends PutTppDto {
  @ApiProperty({ example: 'PSDSE-FINA-12345', pattern: ORGANIZATION_ID_PATTERN.source, description: 'The organizationIdentifier of the TPP\'s certificate' })
  @IsOrganizationId()
  organization_id: string;
}

/**
 * The one fixture format of POST /admin/seed and `npm run cli -- seed <file>` (contract §8). Loaded
 * in one transaction: all of it or nothing.
 */
export class SeedFixtureDto {
  @ApiPropertyOptional({
    type: [SeedUserDto],
    description:
      'Users are created, or replaced as if new (contract §8): a user seeded again loses its accounts with their transfers, recurring transfers and transactions, its consents, access and refresh tokens, pending codes and enterprise end-user tokens, its signing block, and its open eid orders (cancelled); pre-approvals and loan applications naming it stay. PUT /admin/users/{personal_number} only updates a user.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ITEMS)
  @NestedObjectArray(() => SeedUserDto)
  users?: SeedUserDto[];

  @ApiPropertyOptional({
    type: [CreatePartnerDto],
    description: 'A partner with an api_key is registered once (reloading keeps it); without one, a new partner with a random key each time.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ITEMS)
  @NestedObjectArray(() => CreatePartnerDto)
  partners?: CreatePartnerDto[];

  @ApiPropertyOptional({ type: [SeedTppDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ITEMS)
  @NestedObjectArray(() => SeedTppDto)
  tpps?: SeedTppDto[];
}

export class SeededUserDto {
  @ApiProperty(PERSONAL_NUMBER)
  personal_number: string;

  @ApiProperty({ description: 'false when the user existed and was replaced as if new (contract §8)' })
  created: boolean;

  @ApiProperty({ type: [AccountDto] })
  accounts: AccountDto[];
}

export class SeedResultDto {
  @ApiProperty({ type: [SeededUserDto] })
  users: SeededUserDto[];

  @ApiProperty({ type: [PartnerCreatedDto], description: 'With their api keys (shown only here).' })
  partners: PartnerCreatedDto[];

  @ApiProperty({ type: [TppResponseDto] })
  tpps: TppResponseDto[];
}
