import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EidModule } from '@app/eid';
import { ParticipantEntity } from './participants/participant.entity';
import { SigningPersonEntity } from './session/signing-person.entity';
import { ParticipantRepository } from './participants/participant.repository';
import { ParticipantService } from './participants/participant.service';
import { SigningAdmissions } from './participants/signing-admissions';
import { SigningCompletions } from './participants/signing-completions';
import { SigningPersonRepository } from './session/signing-person.repository';
import { SigningController } from './session/signing.controller';
import { SigningService } from './session/signing.service';

/** Partner signing (bank §2.5, §4.4, §7.2; contract §11) on the eid engine. */
@Module({
  imports: [EidModule, TypeOrmModule.forFeature([ParticipantEntity, SigningPersonEntity])],
  controllers: [SigningController],
  providers: [ParticipantRepository, ParticipantService, SigningAdmissions, SigningCompletions, SigningPersonRepository, SigningService],
  exports: [ParticipantService, SigningAdmissions, SigningCompletions, SigningService],
})
export class SigningModule {}
