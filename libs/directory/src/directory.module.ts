import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EidUserDirectory } from '@app/eid';
import { CertificateRevocationsRepository } from './certificates/certificate-revocations.repository';
import { JournalCertificateDescriber } from './certificates/journal-certificate-describer';
import { SandboxCaRepository } from './certificates/sandbox-ca.repository';
import { SandboxCertificateAuthority } from './certificates/sandbox-certificate-authority';
import { PartnerEntity } from './partners/partner.entity';
import { PartnerRepository } from './partners/partner.repository';
import { PartnerService } from './partners/partner.service';
import { PartnerAccessStrategy } from './partners/partner-access.strategy';
import { EndUserCredentials, PartnerCredentials } from './partners/partner-credentials';
import { TppEntity } from './tpps/tpp.entity';
import { TppRegistry } from './tpps/tpp-registry.service';
import { TppRepository } from './tpps/tpp.repository';
import { SandboxUserEntity } from './users/sandbox-user.entity';
import { UserRepository } from './users/user.repository';
import { UserService } from './users/user.service';
import { EidUsersAdapter } from './users/eid-users.adapter';

/**
 * Who exists: sandbox users, partners and their keys, the TPP registry, and strict mode's sandbox CA
 * (contract §16). Global, because the identity
 * service (libs/eid, which this lib depends on) asks it about users through EidUserDirectory.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([SandboxUserEntity, PartnerEntity, TppEntity])],
  providers: [
    UserRepository,
    UserService,
    { provide: EidUserDirectory, useClass: EidUsersAdapter },
    PartnerRepository,
    PartnerService,
    PartnerCredentials,
    EndUserCredentials,
    PartnerAccessStrategy,
    TppRepository,
    TppRegistry,
    JournalCertificateDescriber,
    SandboxCaRepository,
    CertificateRevocationsRepository,
    SandboxCertificateAuthority,
  ],
  exports: [UserService, EidUserDirectory, PartnerService, PartnerCredentials, EndUserCredentials, TppRegistry, SandboxCertificateAuthority],
})
export class DirectoryModule {}
