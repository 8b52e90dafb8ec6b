import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { type ParticipantSigned, type SigningAdmission, SigningAdmissions, SigningCompletions, SigningModule } from '@app/signing';

/**
 * A stand-in for a process that owns signings (as mortgage loan applications do): registers as
 * `test_process`, records what the signing seam tells it, and answers the start check with what a
 * test set in `admissions` (by process id; open when unset). Mount with createTestApp({ imports }).
 */
@Injectable()
export class RecordingProcess implements OnModuleInit {
  readonly signed: ParticipantSigned[] = [];
  readonly admissions = new Map<string, SigningAdmission>();
  constructor(
    private readonly completions: SigningCompletions,
    private readonly starts: SigningAdmissions,
  ) {}
  onModuleInit(): void {
    this.completions.onParticipantSigned('test_process', (event) => {
      this.signed.push(event);
      return Promise.resolve();
    });
    this.starts.onSigningStart('test_process', (process) => Promise.resolve(this.admissions.get(process.id) ?? { verdict: 'open' }));
  }
}

@Module({ imports: [SigningModule], providers: [RecordingProcess] })
export class RecordingProcessModule {}
