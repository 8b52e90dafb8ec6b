import { Module } from '@nestjs/common';
import { EnterpriseAuthorizeController, EnterpriseTokenController } from './enterprise.controller';
import { EnterpriseService } from './enterprise.service';
import { EnterpriseTokenRepository } from './enterprise-token.repository';

/** The enterprise authentication interface (bank §4.6): client-credentials and end-user pending-code tokens. */
@Module({
  controllers: [EnterpriseTokenController, EnterpriseAuthorizeController],
  providers: [EnterpriseTokenRepository, EnterpriseService],
})
export class EnterpriseModule {}
