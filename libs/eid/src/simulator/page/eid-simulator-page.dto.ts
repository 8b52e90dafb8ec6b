import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/** The page's query: what to open or show. Malformed values are explained on the page itself. */
export class EidSimulatorPageQueryDto {
  @ApiPropertyOptional({
    description: 'An autostart token or a fresh QR string: the page opens it in the app as it loads',
    example: '9c1f6a52-1b5e-4a8e-9f51-2d0f4c1e7a90',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  autostarttoken?: string;

  @ApiPropertyOptional({ description: 'Part of the launch URI eid://autostarttoken=…&redirect=null; ignored', example: 'null' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  redirect?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Show this order' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  operation_id?: string;

  @ApiPropertyOptional({ example: '191212121212', description: 'List this person\'s open phone orders' })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  personal_number?: string;
}
