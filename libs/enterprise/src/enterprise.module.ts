import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EnterpriseAuthorizeController, EnterpriseTokenController } from './enterprise.controller';
import { EnterpriseAuthorizationEntity, EnterpriseTokenEntity } from './enterprise.entities';
import { EnterpriseService } from './enterprise.service';
import { EnterpriseTokenRepository } from './enterprise-token.repository';

/** The enterprise authentication interface (bank §4.6): client-credentials and end-user pending-code tokens. */
@Module({
  imports: [TypeOrmModule.forFeature([EnterpriseTokenEntity, EnterpriseAuthorizationEntity])],
  controllers: [EnterpriseTokenController, EnterpriseAuthorizeController],
  providers: [EnterpriseTokenRepository, EnterpriseService],
  exports: [EnterpriseService],
})
export class EnterpriseModule {}
