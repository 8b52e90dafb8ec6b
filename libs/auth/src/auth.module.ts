import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EidModule } from '@app/eid';
import { Psd2AuthorizationController } from './authorization/psd2-authorization.controller';
import { Psd2AuthorizationEntity } from './authorization/psd2-authorization.entity';
import { Psd2AuthorizationRepository } from './authorization/psd2-authorization.repository';
import { Psd2AuthorizationService } from './authorization/psd2-authorization.service';
import { Psd2TokenAccessStrategy } from './bearer/psd2-token.strategy';
import { Psd2CertificateStrategy } from './certificate/psd2-certificate.strategy';
import { ConsentService } from './tokens/consent.service';
import { TokenController } from './tokens/token.controller';
import { Psd2AccessTokenEntity, Psd2ConsentEntity, Psd2RefreshTokenEntity } from './tokens/token.entities';
import { TokenRepository } from './tokens/token.repository';
import { TokenService } from './tokens/token.service';

/**
 * PSD2 authentication (bank §2.1–2.4, §3.1, §4.1, §5): authenticate/authorize/status/cancel on the eid
 * engine, the token endpoint with its three grants, consents, and the certificate and bearer-token
 * access strategies the AIS/PIS routes use.
 */
@Module({
  imports: [
    EidModule,
    TypeOrmModule.forFeature([Psd2AuthorizationEntity, Psd2AccessTokenEntity, Psd2RefreshTokenEntity, Psd2ConsentEntity]),
  ],
  controllers: [Psd2AuthorizationController, TokenController],
  providers: [
    Psd2CertificateStrategy,
    Psd2AuthorizationRepository,
    Psd2AuthorizationService,
    TokenRepository,
    TokenService,
    Psd2TokenAccessStrategy,
    ConsentService,
  ],
  exports: [ConsentService],
})
export class AuthModule {}
