import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PartnerEntity } from './partners/partner.entity';
import { PartnerRepository } from './partners/partner.repository';
import { PartnerService } from './partners/partner.service';
import { TppEntity } from './tpps/tpp.entity';
import { TppRegistry } from './tpps/tpp-registry.service';
import { TppRepository } from './tpps/tpp.repository';
import { SandboxUserEntity } from './users/sandbox-user.entity';
import { UserRepository } from './users/user.repository';
import { UserService } from './users/user.service';

/** Who exists: sandbox users, partners and their keys, the TPP registry. */
@Module({
  imports: [TypeOrmModule.forFeature([SandboxUserEntity, PartnerEntity, TppEntity])],
  providers: [UserRepository, UserService, PartnerRepository, PartnerService, TppRepository, TppRegistry],
  exports: [UserService, PartnerService, TppRegistry],
})
export class DirectoryModule {}
