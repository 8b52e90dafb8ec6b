import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PERSONAL_NUMBER_INPUT } from '@app/common';

/** Bank §2.4 plus scope and, for authorize with AIS, the refresh token (contract §5). */
export class TokenResponseDto {
  @ApiProperty({ description: 'Opaque bearer value' })
  access_token: string;

  @ApiProperty({ type: 'integer', example: 1800, description: 'Seconds: authenticate 1800, authorize and refresh 300, non-authenticated 1800 or the TPP\'s setting' })
  expires_in: number;

  @ApiProperty({ enum: ['bearer'] })
  token_type: 'bearer';

  @ApiProperty({ example: 'AIS PIS', description: 'Space-separated scopes' })
  scope: string;

  @ApiPropertyOptional({ description: 'Authorize flow with AIS only: valid 180 days, 4 uses a day' })
  refresh_token?: string;

  @ApiPropertyOptional({ type: 'integer', example: 15552000, description: 'Seconds the refresh token stays valid (180 days)' })
  refresh_token_expires_in?: number;
}

/** The form of POST /psd2/auth/1.0/token (application/x-www-form-urlencoded), for the document. */
export class TokenRequestFormDto {
  @ApiProperty({ enum: ['pending_authorization_code', 'refresh_token', 'non_authenticated_token'] })
  grant_type: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'grant_type=pending_authorization_code' })
  pending_code?: string;

  @ApiPropertyOptional({ description: 'grant_type=refresh_token' })
  refresh_token?: string;

  @ApiPropertyOptional({ ...PERSONAL_NUMBER_INPUT, description: 'grant_type=non_authenticated_token: the personal number of the account owner (bank §4.1)' })
  user_id?: string;
}

export class OAuthErrorDto {
  @ApiProperty({
    enum: [
      'invalid_client',
      'invalid_request',
      'unsupported_grant_type',
      'invalid_grant',
      'authorization_pending',
      'expired_token',
      'kyc_required',
      'temporarily_unavailable',
    ],
  })
  error: string;

  @ApiProperty()
  error_description: string;
}
