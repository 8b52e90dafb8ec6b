import { ApiProperty } from '@nestjs/swagger';
import { INSTANT } from '@app/common';

export class ConsoleClockDto {
  @ApiProperty({ ...INSTANT, description: 'The sandbox clock now, UTC (contract §6)' })
  now: string;

  @ApiProperty({ description: 'true: time stands still until moved' })
  frozen: boolean;
}

export class ConsoleLinksDto {
  @ApiProperty({ example: '/sandboxes/3f2b8c1e-6a4d-4e8b-9c1a-2d5e7f9a0b13/docs', description: 'The API reference of this sandbox (its OpenAPI description, rendered)' })
  docs: string;

  @ApiProperty({ example: '/sandboxes/3f2b8c1e-6a4d-4e8b-9c1a-2d5e7f9a0b13/openapi.json', description: 'The OpenAPI description of this sandbox, whose server is its prefix (contract §13)' })
  openapi: string;

  @ApiProperty({ example: '/sandboxes/3f2b8c1e-6a4d-4e8b-9c1a-2d5e7f9a0b13/sandbox/eid', description: 'The eid simulator page of this sandbox (contract §4)' })
  eid_simulator: string;

  @ApiProperty({ example: '/sandbox/maintenance-windows', description: 'The planned downtime windows (bank §8)' })
  maintenance_windows: string;

  @ApiProperty({ example: '/sandbox/requests', description: 'Your own journal entries, by certificate or partner key (contract §14)' })
  requests: string;

  @ApiProperty({ example: '/admin/requests', description: "The whole journal, with this sandbox's admin key" })
  admin_requests: string;
}

/** The console's facts as JSON, for a client that does not ask for the page (contract §14). */
export class ConsoleDto {
  @ApiProperty({ example: 'default', description: 'A UUID, or `default`' })
  sandbox_id: string;

  @ApiProperty({ example: 'ci-run-4711' })
  name: string;

  @ApiProperty({ type: ConsoleClockDto })
  clock: ConsoleClockDto;

  @ApiProperty({ type: ConsoleLinksDto, description: "Paths under this sandbox's prefix" })
  links: ConsoleLinksDto;
}
