import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IP_ADDRESS } from '@app/common';
import { IsIn, IsIP, IsString, IsUUID, Matches } from 'class-validator';
import { START_MODES, type StartMode } from './psd2-authorization.entity';

/** Bank §2.1. */
export class StartAuthenticationDto {
  @ApiProperty({ ...IP_ADDRESS, description: 'IP address of the PSU, IPv4 or IPv6' })
  @IsIP(undefined, { message: 'end_user_ip must be an IPv4 or IPv6 address' })
  end_user_ip: string;

  @ApiProperty({ enum: START_MODES })
  @IsIn(START_MODES, { message: `start_mode must be ${START_MODES.join(' or ')}` })
  start_mode: StartMode;

  @ApiProperty({
    example: 'AIS,PIS',
    pattern: '^\\s*(AIS|PIS)\\s*(,\\s*(AIS|PIS)\\s*)*$',
    description: 'Comma-separated from AIS, PIS; each needs its role in the certificate',
  })
  @IsString()
  @Matches(/^\s*(AIS|PIS)\s*(,\s*(AIS|PIS)\s*)*$/, { message: 'scopes must be a comma-separated list of AIS, PIS' })
  scopes: string;
}

/** Bank §2.2. */
export class StartAuthenticationResponseDto {
  @ApiProperty({ format: 'uuid', description: 'For status, cancel and the token exchange' })
  pending_code: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Only in AUTO_START mode: launch eid://autostarttoken=<auto_start_token>&redirect=null',
  })
  auto_start_token?: string;
}

export class PendingCodeDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'pending_code must be a UUID' })
  pending_code: string;
}

const AUTH_STATUSES = ['PENDING', 'COMPLETE', 'FAILED'] as const;
export type EidAuthStatus = (typeof AUTH_STATUSES)[number];

/** Bank §2.3. */
export class AuthenticationStatusDto {
  @ApiProperty({ enum: AUTH_STATUSES })
  eid_auth_status: EidAuthStatus;

  @ApiPropertyOptional({ description: 'The eid hint code (bank §7.3); for PENDING and FAILED', example: 'OUTSTANDING_TRANSACTION' })
  hint_code?: string;

  @ApiPropertyOptional({
    example: 'eid.6c1e9f0a-2b7d-4c3e-8f5a-1d2b3c4d5e6f.12.4f2a9c…',
    description: 'Only in QR_CODE mode while PENDING: the dynamic QR value eid.<token>.<t>.<code>, new every second',
  })
  qr_code?: string;
}

