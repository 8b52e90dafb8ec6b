import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PERSONAL_NUMBER_INPUT } from '@app/common';
import { IsIn, IsString, Matches, MaxLength, MinLength } from 'class-validator';

export const ENTERPRISE_SCOPES = ['account.read', 'account.write', 'loan.read'] as const;

/** GET /api/auth/1.0/authorize (bank §4.6). */
export class AuthorizeQueryDto {
  @ApiProperty({ example: 'my-app', minLength: 1, maxLength: 200, description: 'Any client id is accepted in the sandbox' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  client_id: string;

  @ApiProperty({ enum: ['pending_code'], description: 'Always pending_code (bank §4.6)' })
  @IsIn(['pending_code'], { message: 'response_type must be pending_code' })
  response_type: string;

  @ApiProperty({
    example: 'loan.read',
    pattern: '^\\s*(account\\.read|account\\.write|loan\\.read)\\s*(,\\s*(account\\.read|account\\.write|loan\\.read)\\s*)*$',
    description: `Comma-separated from ${ENTERPRISE_SCOPES.join(', ')}`,
  })
  @Matches(/^\s*(account\.read|account\.write|loan\.read)\s*(,\s*(account\.read|account\.write|loan\.read)\s*)*$/, {
    message: `scope must be a comma-separated list of ${ENTERPRISE_SCOPES.join(', ')}`,
  })
  scope: string;

  @ApiProperty({ ...PERSONAL_NUMBER_INPUT, description: 'Any Swedish personal number with a correct format, date and check digit' })
  @IsString()
  user_id: string;
}

export class AuthorizeResponseDto {
  @ApiProperty({ format: 'uuid', description: 'Exchange it at POST /api/auth/1.0/token (grant_type=pending_authorization_code)' })
  pending_authorization_code: string;

  @ApiProperty({ format: 'uuid', description: 'In the sandbox the eid is not invoked: the authorization already counts as successful' })
  autostart_token: string;
}

/** Bank §2.4 with auth_method (enterprise). */
export class EnterpriseTokenResponseDto {
  @ApiProperty({ description: 'Opaque bearer value' })
  access_token: string;

  @ApiProperty({ type: 'integer', example: 300, description: 'Seconds (bank §4.6)' })
  expires_in: number;

  @ApiProperty({ enum: ['bearer'] })
  token_type: 'bearer';

  @ApiProperty({ enum: ['client_credentials', 'authorize'] })
  auth_method: 'client_credentials' | 'authorize';

  @ApiPropertyOptional({ example: 'loan.read', description: 'End-user tokens: the granted scopes, space-separated' })
  scope?: string;
}

export class EnterpriseTokenFormDto {
  @ApiProperty({ enum: ['client_credentials', 'pending_authorization_code'] })
  grant_type: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'grant_type=pending_authorization_code' })
  pending_code?: string;
}
